import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { generate } from '../generate.ts';
import {
  type BenchRun,
  children,
  cli,
  freeTargets,
  load,
  median,
  type Pool,
  postBookings,
  ROOT,
  startServer,
  token,
  work,
} from '../harness.ts';

const LITESTREAM = join(ROOT, 'node_modules/@flydotio/litestream-linux-x64/litestream');
/** Writes a configuration that replicates `file` to the folder `replica`, as deploy/litestream.yml does to SFTP. */
function litestreamConfig(file: string, replica: string): string {
  const config = join(work, `litestream-${basename(file)}.yml`);
  writeFileSync(
    config,
    `dbs:\n  - path: ${file}\n    monitor-interval: 100ms\n    replicas:\n      - type: file\n        path: ${replica}\n        sync-interval: 900ms\n`,
  );
  return config;
}
/** Starts `litestream replicate` and resolves once its first snapshot is written. */
async function replicate(config: string): Promise<{ stop(): Promise<void> }> {
  const child = spawn(LITESTREAM, ['replicate', '-config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  await new Promise<void>((done, fail) => {
    const collect = (chunk: Buffer) => {
      out += chunk;
      if (out.includes('snapshot written')) done();
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => fail(new Error(`litestream exited with ${code}: ${out}`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
/** Returns the bytes of every file below `folder`. */
function folderBytes(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).reduce(
    (sum, name) => sum + (statSync(join(folder, name)).isFile() ? statSync(join(folder, name)).size : 0),
    0,
  );
}

/**
 * 8. Replication with Litestream (issue 26). a) Planner's own figures with Litestream replicating its file beside it
 * (a folder replica, as tested), against the same figures without it, alternately: within 10 %. b) A replicated
 * database of about 500,000 bookings (ten years of a busy practice) restored on a "new machine": how long
 * `litestream restore` takes, and how long a fresh `planner serve` on it takes to its first answer.
 */
export async function replication(run: BenchRun): Promise<void> {
  const { db, now, auth, results } = run;
  const { api, slotsUrl } = run.main;
  {
    const replServer = await startServer(db);
    const replApi = `${replServer.url}/api`;
    const pool: Pool = { targets: await freeTargets(auth, replApi, 1200), next: 0 };
    const measure = async () => {
      const reads = await load({ url: slotsUrl.replace(api, replApi), headers: auth, duration: 3 });
      const posted = await postBookings(auth, replApi, pool, 200, false);
      return {
        slotsPerSecond: reads.rps,
        bookingsPerSecond: posted.rate,
        errors: reads.errors + reads.non2xx + posted.result.errors + posted.result.non2xx,
      };
    };
    const without: Awaited<ReturnType<typeof measure>>[] = [];
    const beside: Awaited<ReturnType<typeof measure>>[] = [];
    const litestream = await replicate(litestreamConfig(db, join(work, 'replica-main')));
    await litestream.stop(); // the first snapshot of the whole file is taken before the rounds: a one-off
    for (let round = 0; round < 3; round++) {
      without.push(await measure());
      const running = await replicate(litestreamConfig(db, join(work, 'replica-main')));
      beside.push(await measure());
      await running.stop();
    }
    await replServer.stop();
    const pick = (runs: typeof without) => ({
      slotsPerSecond: median(runs.map((run) => run.slotsPerSecond)),
      bookingsPerSecond: median(runs.map((run) => run.bookingsPerSecond)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
    });
    const a = pick(beside);
    const b = pick(without);
    results.replicationBeside = {
      with: a,
      without: b,
      slotsRatio: a.slotsPerSecond / b.slotsPerSecond,
      bookingsRatio: a.bookingsPerSecond / b.bookingsPerSecond,
      target: '>= 0.9',
    };
  }
  {
    const file = join(work, 'ten-years.db');
    const made = generate({ file, now, schedules: 1, fill: 0.03, pastBookings: 0 });
    rmSync(file, { force: true });
    const sized = generate({ file, now, schedules: 1, fill: 0.03, pastBookings: 500_000 - made.bookings });
    await cli(file, 'api', 'limit', '1000000000');
    const restoreKey = await token(file);
    const replica = join(work, 'replica-ten-years');
    const config = litestreamConfig(file, replica);
    const litestream = await replicate(config);
    await litestream.stop();
    const restored = join(work, 'new-machine', 'planner.db');
    const restoreStart = performance.now();
    await new Promise<void>((done, fail) =>
      execFile(LITESTREAM, ['restore', '-config', config, '-o', restored, file], (error, _out, stderr) =>
        error ? fail(new Error(stderr)) : done(),
      ),
    );
    const restoreSeconds = (performance.now() - restoreStart) / 1000;
    const serveStart = performance.now();
    const fresh = await startServer(restored);
    const first = await fetch(`${fresh.url}/api/schedules`, { headers: { authorization: `Bearer ${restoreKey}` } });
    const firstAnswerMs = performance.now() - serveStart;
    await fresh.stop();
    results.restore = {
      bookings: sized.bookings + sized.pastBookings,
      databaseMiB: statSync(file).size / 2 ** 20,
      replicaMiB: folderBytes(replica) / 2 ** 20,
      restoreSeconds,
      firstAnswerMs,
      firstStatus: first.status,
    };
  }
}
