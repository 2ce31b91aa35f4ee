/**
 * What every scenario of `npm run bench` (bench/scenarios/) shares: the paths, the work folder and the processes it
 * started (removed and killed when the run ends), the CLI, `planner serve` as admins run it, autocannon's loads run
 * side by side with their floor, Server-Timing, memory figures of a process, and the free slots and bookings the
 * load scenarios post. bench/run.ts runs the scenarios in order on one BenchRun.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { ARGON2_OPTIONS } from '../src/app/practice/token.ts';
import { lookAhead } from '../src/domain/availability.ts';
import { SECONDS_PER_DAY } from '../src/domain/days.ts';
import { type generate, ZONE } from './generate.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin/planner.js');
export const work = mkdtempSync(join(tmpdir(), 'planner-bench-'));
export const children: ChildProcess[] = [];
export const log = (line: string) => process.stderr.write(`${line}\n`);

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Returns a local time `YYYY-MM-DD HH:MM:SS` moved by `minutes` (wall clock). */
export function shiftMinutes(slot: string, minutes: number): string {
  const date = new Date(`${slot.replace(' ', 'T')}Z`);
  date.setUTCMinutes(date.getUTCMinutes() + minutes);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Returns the median of `values` (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs `planner <args> --db <db>` and resolves with its stdout; rejects with its stderr when it fails. */
export function cli(db: string, ...args: string[]): Promise<string> {
  return new Promise((done, fail) =>
    execFile(process.execPath, [BIN, ...args, '--db', db], (error, stdout, stderr) =>
      error ? fail(new Error(stderr)) : done(stdout),
    ),
  );
}

/** Returns the median wall time (ms) of `runs` runs of `planner <args>`, each a process of its own. */
export async function wallTime(args: string[], runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise((done) => execFile(process.execPath, [BIN, ...args], done));
    times.push(performance.now() - started);
  }
  return median(times);
}

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `planner serve` on `db` as admins run it (issue 39): its default flags (the access log on stdout) unless
 * `log: 'off'`, its stdout a pipe read by another process (bench/journal-reader.ts), as systemd's journal reads it.
 */
export async function startServer(db: string, executable?: string, options: { log?: 'off' } = {}): Promise<Server> {
  // BENCH_SERVER_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server while it is measured.
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const command = executable ? [executable] : [process.execPath, ...flags, BIN];
  // The booking page's forms are sent at once here (row 10 measures the server, not a customer's reading time).
  const env = { ...process.env, PLANNER_FORM_MIN_SECONDS: '0' };
  const reader = spawn(process.execPath, [join(ROOT, 'bench/journal-reader.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(reader);
  const logFlags = options.log === 'off' ? ['--log', 'off'] : [];
  const child = spawn(command[0]!, [...command.slice(1), 'serve', '--port', '0', ...logFlags, '--db', db], {
    stdio: ['ignore', reader.stdin!, 'inherit'],
    env,
  });
  children.push(child);
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    reader.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /serving (http:\/\/\S+)\/api/.exec(out);
      if (match) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      reader.stdin!.end();
    },
  };
}

/**
 * Returns a process's anonymous memory in MiB (Linux, `smaps_rollup`): what the kernel cannot drop under pressure
 * (the executable's own pages it can read back from the file, so RSS overstates what a small VPS must hold).
 */
export function anonymousMiB(pid: number): number {
  const match = /^Anonymous:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Returns the resident set size of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

/** Runs one autocannon load (10 connections unless `options` say otherwise); `onAnswer` is called at each answer. */
export async function load(options: autocannon.Options, onAnswer?: () => void): Promise<Load> {
  const result = await new Promise<autocannon.Result>((done, fail) => {
    const instance = autocannon({ connections: 10, ...options }, (error, finished) =>
      error ? fail(error) : done(finished),
    );
    if (onAnswer) instance.on('response', onAnswer);
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/**
 * Runs subject and floor alternately after a warm-up; returns the median of each, and `ratio`: the median of each
 * round's subject against the floor run right after it. Shared machines drift within a minute (the floor of row 1
 * went from 29,000 to 45,000 req/s within one run): a round's two loads share the machine's state, so the ratio of
 * the rounds' pairs moves less than the ratio of the two medians, which came from different moments.
 */
export async function sideBySide(subject: autocannon.Options, floor: autocannon.Options, rounds = 3, seconds = 3) {
  await load({ ...subject, duration: 1 });
  await load({ ...floor, duration: 1 });
  const a: Load[] = [];
  const b: Load[] = [];
  for (let round = 0; round < rounds; round++) {
    a.push(await load({ ...subject, duration: seconds }));
    b.push(await load({ ...floor, duration: seconds }));
  }
  const pick = (runs: Load[]): Load => ({
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    total: runs.reduce((sum, run) => sum + run.total, 0),
  });
  return { subject: pick(a), floor: pick(b), ratio: median(a.map((run, round) => run.rps / b[round]!.rps)) };
}

/** Returns the median Server-Timing `app;dur` (ms) of `count` sequential calls. */
export async function serverTime(url: string, token: string, count = 60): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]));
  }
  return median(times);
}

/** The floor of GET /days: the window's bookings read once with the one indexed query the server uses, here. */
export function windowQueryTime(
  db: string,
  scheduleId: number,
  daysAhead: number,
  runs = 60,
): { ms: number; rows: number } {
  const handle = new DatabaseSync(db, { readOnly: true });
  const now = Math.floor(Date.now() / 1000);
  const window = lookAhead({ zone: ZONE, now, rules: { daysAhead, noticeMinutes: 0, stepMinutes: 15, capacity: 1 } });
  const query = handle.prepare(
    `SELECT start_at AS startAt, end_at AS endAt FROM bookings
     WHERE schedule_id = ? AND start_at >= ? AND start_at < ? AND end_at > ? ORDER BY start_at`,
  );
  let rows = 0;
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const started = performance.now();
    rows = query.all(scheduleId, window.from - SECONDS_PER_DAY, window.to, window.from).length;
    if (i >= 5) times.push(performance.now() - started);
  }
  handle.close();
  return { ms: median(times), rows };
}

/** Makes a new API token for `db` and returns it. */
export async function token(db: string): Promise<string> {
  return JSON.parse(await cli(db, 'token', 'new', '--json')).token;
}

/** Free slots to book, and how many of them are taken. */
export interface Pool {
  targets: { schedule: number; reason: number; slot: string }[];
  next: number;
}

/** Returns up to `limit` free slots of schedules 3 to 10 at `base` (the 15-minute reasons: free starts never overlap). */
export async function freeTargets(auth: Record<string, string>, base: string, limit: number) {
  const found: { schedule: number; reason: number; slot: string }[] = [];
  for (let schedule = 3; schedule <= 10 && found.length < limit; schedule++) {
    const reason = (schedule - 1) * 4 + 1;
    const days = (
      (await (await fetch(`${base}/days?schedule=${schedule}&reason=${reason}`, { headers: auth })).json()) as {
        data: string[];
      }
    ).data;
    for (const day of days.slice(1)) {
      const slots = (
        (await (
          await fetch(`${base}/slots?schedule=${schedule}&reason=${reason}&day=${day}`, { headers: auth })
        ).json()) as { data: string[] }
      ).data;
      for (const slot of slots) found.push({ schedule, reason, slot });
      if (found.length >= limit) break;
    }
  }
  return found;
}

/**
 * POSTs `amount` bookings of the pool's targets (from its `next` on) to the API at `base`, each with a fresh
 * Idempotency-Key when `keyed`; returns the load result and the bookings per second. autocannon notices the end of
 * a count-bounded run only at its next one-second tick, so the rate is taken from the first request to the last
 * answer instead of from its samples.
 */
export async function postBookings(
  auth: Record<string, string>,
  base: string,
  pool: Pool,
  amount: number,
  keyed: boolean,
) {
  let lastAnswer = 0;
  const started = performance.now();
  const result = await load(
    {
      url: `${base}/bookings`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      amount,
      requests: [
        {
          setupRequest: (request) => {
            const n = pool.next++;
            const target = pool.targets[n % pool.targets.length]!;
            const submission = { first_name: 'Bench', last_name: `Client ${n}`, email: `post${n}@bench.example` };
            const headers = keyed ? { ...request.headers, 'idempotency-key': `bench-${n}` } : request.headers;
            return { ...request, headers, body: JSON.stringify({ ...target, submission }) };
          },
        },
      ],
    },
    () => (lastAnswer = performance.now()),
  );
  return { result, rate: result.total / ((lastAnswer - started) / 1000) };
}

/** One run of the benchmark: its file and key, the results so far, and the default server (1. to 6.). */
export interface BenchRun {
  /** The bench file, made by bench/generate.ts at the start. */
  db: string;
  now: Date;
  generated: ReturnType<typeof generate>;
  key: string;
  auth: { authorization: string };
  /** Every figure, by scenario: bench/latest.json, and what the table is made of. */
  results: Record<string, any>;
  main: {
    server: Server;
    /** The base of its API (`…/api`). */
    api: string;
    /** The calendar feed of schedule 2 (capacity 3, the most bookings), made before the load. */
    feedUrl: string;
    /** Its resident and anonymous memory (MiB) at each point of the run: start, warm, end, again1, again2. */
    rss: Record<string, number>;
    anonymous: Record<string, number>;
    /** GET /days of schedule 1, reason 1 (365 days), and GET /slots of its busiest day. */
    daysUrl: string;
    slotsUrl: string;
  };
}

/** The executable `npm run bench -- --before <executable>` names (one built before issue 49), or undefined. */
export function olderExecutable(): string | undefined {
  const at = process.argv.indexOf('--before');
  return at === -1 ? undefined : resolve(process.argv[at + 1]!);
}

/**
 * Copies `from` to each of `to` as a file of before issue 49: its token `key` stored as the argon2id hash that version
 * made (hashed once for all), and its schema as that version left it (migration 22, the index of erased bookings,
 * undone: an older planner refuses a newer file).
 */
export async function copyAsBefore(from: string, to: readonly string[], key: string): Promise<void> {
  const { hash } = await import('@node-rs/argon2');
  const argon2id = await hash(key, ARGON2_OPTIONS);
  for (const file of to) {
    copyFileSync(from, file);
    const handle = new DatabaseSync(file);
    handle.prepare('UPDATE settings SET token_hash = ?').run(argon2id);
    handle.exec('DROP INDEX bookings_by_erasure; PRAGMA user_version = 21');
    handle.close();
  }
}
