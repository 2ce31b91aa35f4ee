import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../generate.ts';
import {
  anonymousMiB,
  type BenchRun,
  BIN,
  children,
  cli,
  copyAsBefore,
  median,
  olderExecutable,
  ROOT,
  rssMiB,
  token,
  work,
} from '../harness.ts';

/**
 * 12. 50 practices on one machine (issue 39), as a hoster runs them: 50 `planner serve`, each on its own copy of a
 * practice's file (two practitioners, 90 days booked ahead, a year of past bookings), the single executable when it is
 * built (else node), default flags and Node's compile cache in a folder each as the units give it, all their access
 * logs read by one journal process. a) Their anonymous memory idle, 5 s after the last started. b) Three runs of
 * 20 s in which every practice takes, at once, a steady load of GET /slots (a day of the look-ahead each time) and
 * bookings (below): the p99 of GET /slots at each practice, the CPU the servers, the journal and the load generator
 * used, and the servers' largest anonymous memory (sampled every second). From these: how many fit 4 GB. c) Issue
 * 49: the first of those runs again after all 50 restart with their caches (a reboot), and with `--before
 * <executable>` once more with that executable (before issue 49), in the same run.
 */
export async function practices(run: BenchRun): Promise<void> {
  const { now, results } = run;
  const PRACTICES = 50;
  const SECONDS = 20;
  const practiceDb = join(work, 'practice.db');
  const made = generate({ file: practiceDb, now, schedules: 2, daysAhead: 90, pastBookings: 5_000, seed: 12 });
  await cli(practiceDb, 'api', 'limit', '1000000000');
  const practiceKey = await token(practiceDb);
  const files = Array.from({ length: PRACTICES }, (_, index) => {
    const file = join(work, `practice-${index}.db`);
    copyFileSync(practiceDb, file);
    return file;
  });
  const sea = join(ROOT, 'dist/planner');
  const command = existsSync(sea) ? [sea] : [process.execPath, BIN];
  const journal = spawn(process.execPath, [join(ROOT, 'bench/journal-reader.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(journal);
  const urls = new Map<string, string>();
  let said = ''; // the line being written: each whole line is read once (a restart prints a new address)
  journal.stdout!.on('data', (chunk) => {
    const lines = (said + chunk).split('\n');
    said = lines.pop()!;
    for (const line of lines) {
      const match = /serving (http:\/\/\S+)\/api \(database (\S+)\)/.exec(line);
      if (match) urls.set(match[2]!, match[1]!);
    }
  });
  /**
   * Starts `planner serve` (`using`) on each of `on` at once, each with Node's compile cache in a folder of its own
   * as the units give it (issue 49; `caches` false: none), and resolves once all are serving.
   */
  const startAll = async (using: string[], on: string[], caches = true) => {
    for (const file of on) urls.delete(file);
    const started = on.map((file) => {
      const child = spawn(using[0]!, [...using.slice(1), 'serve', '--port', '0', '--db', file], {
        stdio: ['ignore', journal.stdin!, 'inherit'],
        env: { ...process.env, ...(caches ? { NODE_COMPILE_CACHE: `${file}.compile-cache` } : {}) },
      });
      children.push(child);
      return child;
    });
    for (const waited = performance.now(); on.some((file) => !urls.has(file)); ) {
      if (performance.now() - waited > 60_000)
        throw new Error(`section 12: ${on.filter((file) => urls.has(file)).length} of ${on.length} servers started`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { servers: started, bases: on.map((file) => `${urls.get(file)}/api`) };
  };
  const stopAll = async (running: ReturnType<typeof spawn>[]) => {
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  };
  // As after an upgrade: no compile cache yet.
  let { servers, bases } = await startAll(command, files);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const idle = servers.map((child) => anonymousMiB(child.pid!));
  const idleRss = servers.map((child) => rssMiB(child.pid!));

  // The same free 15-minute times at every practice (the files are copies): days of schedule 1, then their slots.
  const practiceAuth = { authorization: `Bearer ${practiceKey}` };
  const days = (
    (await (await fetch(`${bases[0]}/days?schedule=1&reason=1`, { headers: practiceAuth })).json()) as {
      data: string[];
    }
  ).data;
  const free: string[] = [];
  for (const day of days.slice(1)) {
    const slots = (
      (await (await fetch(`${bases[0]}/slots?schedule=1&reason=1&day=${day}`, { headers: practiceAuth })).json()) as {
        data: string[];
      }
    ).data;
    free.push(...slots);
    if (free.length >= 10 + SECONDS + 10) break;
  }
  /** CPU seconds (user and system) a process has used so far, from /proc. */
  const cpuOf = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  };
  const peaks = servers.map(() => 0);
  const sampler = setInterval(() => {
    servers.forEach((child, index) => {
      peaks[index] = Math.max(peaks[index]!, anonymousMiB(child.pid!));
    });
  }, 1_000);
  const percentile = (values: number[], share: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
  };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  /** SECONDS of `readsPerSecond` GET /slots and `bookingsPerSecond` bookings at every practice at once. */
  const loadAll = async (readsPerSecond: number, bookingsPerSecond: number, slots: string[]) => {
    const serversBefore = sum(servers.map((child) => cpuOf(child.pid!)));
    const journalBefore = cpuOf(journal.pid!);
    const begun = performance.now();
    const loader = spawn(
      process.execPath,
      [
        join(ROOT, 'bench/practices-load.ts'),
        JSON.stringify({
          bases,
          token: practiceKey,
          days,
          free: slots,
          seconds: SECONDS,
          readsPerSecond,
          bookingsPerSecond,
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(loader);
    let loaded = '';
    loader.stdout!.on('data', (chunk) => (loaded += chunk));
    let loaderCpu = 0;
    const loaderSampler = setInterval(() => {
      if (loader.exitCode === null) loaderCpu = cpuOf(loader.pid!);
    }, 500);
    const [code] = (await once(loader, 'exit')) as [number];
    clearInterval(loaderSampler);
    if (code !== 0) throw new Error(`section 12: the load generator exited with ${code}`);
    const seconds = (performance.now() - begun) / 1000;
    const outcome = JSON.parse(loaded) as {
      lateMs: number;
      practices: { reads: number[]; readErrors: number; booked: number; bookingErrors: number }[];
    };
    const p99s = outcome.practices.map((practice) => percentile(practice.reads, 0.99)).sort((a, b) => a - b);
    return {
      readsPerSecond,
      bookingsPerSecond,
      slotsP99Median: median(p99s),
      slotsP99Max: p99s.at(-1)!,
      slotsP50Median: median(outcome.practices.map((practice) => percentile(practice.reads, 0.5))),
      reads: sum(outcome.practices.map((practice) => practice.reads.length)),
      bookings: sum(outcome.practices.map((practice) => practice.booked)),
      errors: sum(outcome.practices.map((practice) => practice.readErrors + practice.bookingErrors)),
      loaderLateMs: outcome.lateMs,
      // Cores busy over the run: the 50 servers, the journal reading their logs, the load generator (at least).
      serversCores: (sum(servers.map((child) => cpuOf(child.pid!))) - serversBefore) / seconds,
      journalCores: (cpuOf(journal.pid!) - journalBefore) / seconds,
      loaderCores: loaderCpu / seconds,
    };
  };
  // A busy day at every practice at once (a read every half second, a booking every 5 s: far above what a practice's
  // own customers make): first right after all 50 started (every process compiles its code and fills its caches at
  // once, as after a reboot), then again warm; then ten times the reads and a booking a second everywhere.
  const cold = await loadAll(2, 0.2, free.slice(0, 5));
  const busy = await loadAll(2, 0.2, free.slice(5, 10));
  const peak = await loadAll(10, 1, free.slice(10, 10 + SECONDS + 5));
  clearInterval(sampler);
  await stopAll(servers);
  // As after a reboot: the same 50 start again, each reading the compile cache its first start wrote.
  ({ servers, bases } = await startAll(command, files));
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const reboot = await loadAll(2, 0.2, free.slice(10 + SECONDS + 5));
  await stopAll(servers);
  // Before issue 49, in the same run (`npm run bench -- --before <executable>`: one built from an older commit): its
  // own copies of the file, whose token is an argon2id hash as that version stored it.
  let before: typeof cold | undefined;
  const older = olderExecutable();
  if (older) {
    const olderFiles = files.map((file) => `${file}.before.db`);
    await copyAsBefore(practiceDb, olderFiles, practiceKey);
    ({ servers, bases } = await startAll([older], olderFiles, false));
    await new Promise((done) => setTimeout(done, 5_000));
    before = await loadAll(2, 0.2, free.slice(0, 5));
    await stopAll(servers);
  }
  journal.stdin!.end();
  const peakTotal = sum(peaks);
  // A 4 GB machine: 3,584 MiB for the practices, 512 MiB kept for the system, the proxy and the page cache.
  results.practices = {
    practices: PRACTICES,
    executable: existsSync(sea),
    fileMiB: statSync(practiceDb).size / 2 ** 20,
    futureBookings: made.bookings,
    pastBookings: made.pastBookings,
    idleAnonymousMiB: sum(idle),
    idleRssMiB: sum(idleRss),
    loadAnonymousMiB: peakTotal,
    perPracticeIdleMiB: sum(idle) / PRACTICES,
    perPracticeLoadMiB: peakTotal / PRACTICES,
    cold,
    busy,
    peak,
    reboot,
    before,
    beforeCommand: older,
    fitIn4GB: Math.floor(3_584 / (peakTotal / PRACTICES)),
  };
}
