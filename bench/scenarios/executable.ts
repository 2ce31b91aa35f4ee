import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { anonymousMiB, type BenchRun, freeTargets, load, log, ROOT, rssMiB, startServer } from '../harness.ts';

/**
 * 6b. Memory of the single executable (issue 17: at most 80 MiB idle after start, at most 120 MiB under load):
 * idle 5 s after start, then 20 s of reads and bookings side by side (10 connections each, no pipelining), RSS
 * read every second; the steady figure is the largest from 5 s into the load on.
 */
export async function executable(run: BenchRun): Promise<void> {
  const { db, auth, results } = run;
  const { api, slotsUrl } = run.main;
  const executable = join(ROOT, 'dist/planner');
  if (existsSync(executable)) {
    const sea = await startServer(db, executable);
    await new Promise((done) => setTimeout(done, 5_000));
    const idle = rssMiB(sea.pid);
    const idleAnonymous = anonymousMiB(sea.pid);
    const samples: number[] = [];
    const anonymousSamples: number[] = [];
    const sampler = setInterval(() => {
      samples.push(rssMiB(sea.pid));
      anonymousSamples.push(anonymousMiB(sea.pid));
    }, 1_000);
    const seaApi = `${sea.url}/api`;
    const fresh = await freeTargets(auth, seaApi, 1500); // those of 4. are booked by now
    let posted = 0;
    const reads = async () => {
      for (const url of [
        `${seaApi}/schedules`,
        `${seaApi}/days?schedule=1&reason=1`,
        slotsUrl.replace(api, seaApi),
        `${seaApi}/days?schedule=2&reason=5`,
      ]) {
        await load({ url, headers: auth, duration: 5 });
      }
    };
    const writes = load({
      url: `${seaApi}/bookings`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      duration: 20,
      connections: 2,
      requests: [
        {
          setupRequest: (request) => {
            const target = fresh[posted++ % fresh.length]!;
            return {
              ...request,
              body: JSON.stringify({
                ...target,
                submission: { first_name: 'Sea', last_name: `Client ${posted}`, email: `sea${posted}@bench.example` },
              }),
            };
          },
        },
      ],
    });
    await Promise.all([reads(), writes]);
    clearInterval(sampler);
    const end = rssMiB(sea.pid);
    await sea.stop();
    results.executableMiB = {
      idle,
      steadyMax: Math.max(...samples.slice(5)),
      end,
      samples,
      idleTarget: '<= 80',
      loadTarget: '<= 120',
    };
    results.executableAnonymousMiB = {
      idle: idleAnonymous,
      peak: Math.max(...anonymousSamples),
      samples: anonymousSamples,
      idleTarget: '<= 24',
      loadTarget: '<= 48',
    };
  } else {
    log('dist/planner is not built (npm run build:bin): 6b. is left out');
  }
}
