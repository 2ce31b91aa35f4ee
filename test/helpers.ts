import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect } from 'vitest';
import type { Locale } from '../src/domain/locales.ts';
import { checkContract } from './contract.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin/planner.js');

// What the helpers start or create is undone after the test file. Hooks cannot be registered from inside a
// running test, so the cleanups are collected here and run by one hook registered when the file loads this module.
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    // Bounded: one cleanup that hangs must not hide the others, and it says which it was.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)));
    const outcome = await Promise.race([Promise.resolve(cleanup()).then(() => 'done'), late]);
    clearTimeout(timer);
    if (outcome === 'late') process.stderr.write(`test cleanup took over 10 s: ${cleanup.toString().slice(0, 120)}\n`);
  }
}, 60_000);

/** Runs `cleanup` after the test file (also when it is registered inside a test). */
export function onCleanup(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

/** Returns a fresh temp folder, removed after the test file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'planner-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let counter = 0;
/** Returns a path for a new database file in a temp folder. */
export function tempDb(): string {
  return join(tempDir(), `planner-${++counter}.db`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (`node bin/planner.js …`) as a subprocess against `db`. */
export function cli(db: string, ...args: string[]): Promise<CliResult> {
  return cliWith(db, {}, ...args);
}

/** Runs the CLI like `cli`, with `input` on its standard input (else none) and `env` added to its environment. */
export function cliWith(
  db: string,
  options: { input?: string; env?: Record<string, string> },
  ...args: string[]
): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args, '--db', db],
      { cwd: ROOT, env: { ...process.env, PLANNER_DB: '', ...options.env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout, stderr });
      },
    );
    // A command that exits without reading its input closes the pipe first: that EPIPE is not the test's failure
    // (the exit code and output say what happened), so it must not surface as an unhandled error.
    child.stdin!.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    child.stdin!.end(options.input ?? '');
  });
}

/** Runs the CLI and returns its parsed JSON stdout; fails the test when the command failed. */
export async function cliJson<T = any>(db: string, ...args: string[]): Promise<T> {
  const result = await cli(db, ...args, '--json');
  if (result.code !== 0) throw new Error(`planner ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Runs the CLI and fails the test when the command did not succeed. */
export async function cliOk(db: string, ...args: string[]): Promise<string> {
  const result = await cli(db, ...args);
  if (result.code !== 0) throw new Error(`planner ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** A schedule of a test practice: its rules (the tests' defaults, not `addSchedule`'s) and its weekly hours. */
export interface ScheduleSpec {
  /** Default 'Dr. Weber'. */
  name?: string;
  /** Default 30. */
  daysAhead?: number;
  /** Default 0. */
  noticeMinutes?: number;
  /** Default 30. */
  stepMinutes?: number;
  /** Default 1. */
  capacity?: number;
  /** Days to ranges, as `planner hours set` takes them; default `{ 'mon-sun': '08:00-18:00' }`, `{}` for none. */
  hours?: Record<string, string>;
}

/** A reason of a test practice. */
export interface ReasonSpec {
  /** Default 'Check-up'. */
  name?: string;
  /** Default 30. */
  durationMinutes?: number;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  description?: string;
  /** The schedules that offer it (ids, in the order the spec lists them from 1); default [1]. */
  schedules?: number[];
}

/**
 * A practice as the tests set it up, whether through the CLI (`bookableDb`) or in the test process (test/practice.ts's
 * `practice`): by default one schedule open every day 08:00-18:00, 30 days ahead, no notice, 30-minute steps, with
 * a 30-minute reason, in Europe/Berlin.
 */
export interface PracticeSpec {
  /** Default 'Test Practice'. */
  practiceName?: string;
  /** Default 'Europe/Berlin'. */
  timeZone?: string;
  /** Default 'desk@practice.example'. */
  notifyEmail?: string;
  /** Default 'en'. */
  locale?: Locale;
  /** Default one schedule of the defaults; `[]` for none. */
  schedules?: ScheduleSpec[];
  /** Default one reason of the defaults, offered by schedule 1; `[]` for none. */
  reasons?: ReasonSpec[];
}

/** `spec` with every default filled in. */
export function practiceSpec(spec: PracticeSpec = {}) {
  return {
    practiceName: spec.practiceName ?? 'Test Practice',
    timeZone: spec.timeZone ?? 'Europe/Berlin',
    notifyEmail: spec.notifyEmail ?? 'desk@practice.example',
    locale: spec.locale ?? 'en',
    schedules: (spec.schedules ?? [{}]).map((schedule) => ({
      name: schedule.name ?? 'Dr. Weber',
      daysAhead: schedule.daysAhead ?? 30,
      noticeMinutes: schedule.noticeMinutes ?? 0,
      stepMinutes: schedule.stepMinutes ?? 30,
      capacity: schedule.capacity ?? 1,
      hours: schedule.hours ?? { 'mon-sun': '08:00-18:00' },
    })),
    reasons: (spec.reasons ?? [{}]).map((reason) => ({
      ...reason,
      name: reason.name ?? 'Check-up',
      durationMinutes: reason.durationMinutes ?? 30,
      schedules: reason.schedules ?? [1],
    })),
  } satisfies PracticeSpec;
}

/**
 * Returns the local day `days` after today in Berlin (the zone of the tests' installations), YYYY-MM-DD: for tests
 * of the CLI and the server, which run on the real clock. Counted in calendar days, so a night of a clock change
 * does not skip or repeat one.
 */
export function berlinDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Initialises an installation with fixed answers. */
export async function initDb(db: string, locale: Locale = 'en'): Promise<void> {
  await cliOk(
    db,
    'init',
    '--name',
    'Test Practice',
    '--timezone',
    'Europe/Berlin',
    '--notify',
    'desk@practice.example',
    '--locale',
    locale,
  );
}

/**
 * Makes the practice of `spec` through the CLI (init, the schedules, their hours, the reasons), with the API on.
 * Returns a new token.
 */
export async function bookableDb(db: string, spec: PracticeSpec = {}): Promise<string> {
  const practice = practiceSpec(spec);
  await cliOk(
    db,
    'init',
    '--name',
    practice.practiceName,
    '--timezone',
    practice.timeZone,
    '--notify',
    practice.notifyEmail,
    '--locale',
    practice.locale,
  );
  for (const [index, schedule] of practice.schedules.entries()) {
    await cliOk(
      db,
      'schedule',
      'add',
      schedule.name,
      '--days-ahead',
      String(schedule.daysAhead),
      '--notice',
      String(schedule.noticeMinutes),
      '--step',
      String(schedule.stepMinutes),
      '--capacity',
      String(schedule.capacity),
    );
    for (const [days, ranges] of Object.entries(schedule.hours))
      await cliOk(db, 'hours', 'set', String(index + 1), days, ranges);
  }
  for (const reason of practice.reasons) {
    const options = [
      ...(reason.description === undefined ? [] : ['--description', reason.description]),
      ...(reason.bufferBeforeMinutes === undefined ? [] : ['--buffer-before', String(reason.bufferBeforeMinutes)]),
      ...(reason.bufferAfterMinutes === undefined ? [] : ['--buffer-after', String(reason.bufferAfterMinutes)]),
    ];
    await cliOk(
      db,
      'reason',
      'add',
      reason.schedules.join(','),
      reason.name,
      '--duration',
      String(reason.durationMinutes),
      ...options,
    );
  }
  await cliOk(db, 'api', 'enable');
  return (await cliJson(db, 'token', 'new')).token;
}

/** What migration 16 made (the booking page's logo, issue 41): a file taken back before it lacks it. */
export const UNDO_MIGRATION_16 = 'DROP TABLE booking_logo; ';

/** SQL that takes a current file back to what migration 21 left: migration 22's index of erased bookings out. */
export const UNDO_MIGRATION_22 = 'DROP INDEX bookings_by_erasure; ';

/** SQL that takes a current file back to what migration 20 left: migration 21's consents and `reconnect` out. */
export const UNDO_MIGRATION_21 = 'DROP TABLE calendar_consents; ALTER TABLE calendars DROP COLUMN reconnect; ';

/** SQL that takes a current file back to what migration 19 left: migration 20's language columns out. */
export const UNDO_MIGRATION_20 =
  'ALTER TABLE settings DROP COLUMN languages; ALTER TABLE bookings DROP COLUMN locale; ' +
  'ALTER TABLE form_fields DROP COLUMN labels; ALTER TABLE form_fields DROP COLUMN choices; ' +
  'ALTER TABLE reasons DROP COLUMN names; ' +
  'ALTER TABLE reasons DROP COLUMN descriptions; ';

/**
 * SQL that takes a current file back to what migration 18 left: migration 19's desk tables, settings and columns out
 * (the history and the audit log rebuilt without their staff; the bookings' wider `source` CHECK stays).
 */
export const UNDO_MIGRATION_19 =
  'ALTER TABLE bookings DROP COLUMN attendance; ALTER TABLE bookings DROP COLUMN staff_note; ' +
  'DROP INDEX bookings_unsearched; ALTER TABLE bookings DROP COLUMN searched; DROP TABLE booking_search; ' +
  "CREATE TABLE be_18 (id INTEGER PRIMARY KEY, booking_id INTEGER NOT NULL REFERENCES bookings (id), at TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('created', 'moved', 'cancelled')), actor TEXT CHECK (actor IN ('admin', 'customer', 'api')), previous_start INTEGER) STRICT; " +
  'INSERT INTO be_18 SELECT id, booking_id, at, kind, actor, previous_start FROM booking_events; DROP TABLE booking_events; ' +
  'ALTER TABLE be_18 RENAME TO booking_events; CREATE INDEX booking_events_by_booking ON booking_events (booking_id, id); ' +
  "CREATE TABLE al_18 (id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL CHECK (actor IN ('admin', 'api', 'customer', 'server')), os_user TEXT, action TEXT NOT NULL, booking_id INTEGER, reference TEXT, detail TEXT NOT NULL DEFAULT '') STRICT; " +
  'INSERT INTO al_18 SELECT id, at, actor, os_user, action, booking_id, reference, detail FROM audit_log; DROP TABLE audit_log; ' +
  'ALTER TABLE al_18 RENAME TO audit_log; CREATE INDEX audit_log_by_time ON audit_log (at); ' +
  'DROP TABLE staff_sessions; DROP TABLE staff_recovery_codes; DROP TABLE staff_enrolments; ' +
  'DROP TABLE staff_schedules; DROP TABLE staff; ALTER TABLE settings DROP COLUMN desk_url; ' +
  'ALTER TABLE settings DROP COLUMN desk_idle_minutes; ALTER TABLE settings DROP COLUMN desk_max_minutes; ';

/** SQL that takes a current file back to what migration 17 left: migration 18's columns out. */
export const UNDO_MIGRATION_18 =
  'ALTER TABLE calendars DROP COLUMN details; ALTER TABLE calendars DROP COLUMN write_last_ok; ' +
  'ALTER TABLE calendar_events DROP COLUMN written_at; ' +
  'ALTER TABLE calendar_events DROP COLUMN edit; ALTER TABLE calendar_events DROP COLUMN edit_seen_at; ' +
  'ALTER TABLE calendar_events DROP COLUMN edit_mailed; ';

/** SQL that takes a file back to what migration 16 left (after UNDO_MIGRATION_18): migration 17's tables and columns out. */
export const UNDO_MIGRATION_17 =
  'DROP TABLE extra_hours; ALTER TABLE reasons DROP COLUMN series_max; DROP TABLE reason_schedules; ' +
  'DROP INDEX bookings_by_series; ALTER TABLE bookings DROP COLUMN series_id; DROP TABLE series; ';

/**
 * SQL that takes a current file back to what migration 12 left (for tests of files from older planners, which take it
 * further back): migration 13's triggers, tables and columns out. Migration 12's trigger outbox_scrub_erased, which
 * 13 dropped, is not made again: the tests go back to 11 or further.
 */
export const UNDO_MIGRATION_13 =
  'DROP TRIGGER calendar_writes_on_insert; DROP TRIGGER calendar_writes_on_update; DROP TABLE calendar_writes; DROP TABLE calendar_events; ' +
  'ALTER TABLE calendars DROP COLUMN write_bookings; ALTER TABLE calendars DROP COLUMN write_alerted;';

/** Returns every row of every table, to show that a failed command changed nothing. */
export function snapshot(db: string): Record<string, unknown[]> {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const tables = handle.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    const result: Record<string, unknown[]> = {};
    for (const { name } of tables) result[name] = handle.prepare(`SELECT * FROM "${name}"`).all();
    result.user_version = [handle.prepare('PRAGMA user_version').get()];
    return result;
  } finally {
    handle.close();
  }
}

/**
 * Runs a command that must be refused, and returns what it said: exit 1, nothing on stdout, one line `planner: …` on
 * stderr (`message`: that line, or a pattern the stderr matches), and the file unchanged (`snapshot`). `options` as
 * `cliWith` takes them.
 */
export async function refused(
  db: string,
  args: string[],
  message: string | RegExp,
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const before = snapshot(db);
  const result = await cliWith(db, options, ...args);
  const said = `planner ${args.join(' ')}: ${result.stderr}`;
  expect(result.code, said).toBe(1);
  expect(result.stdout, said).toBe('');
  expect(result.stderr, said).toMatch(/^planner: [^\n]*\n$/);
  if (typeof message === 'string') expect(result.stderr, said).toBe(`${message}\n`);
  else expect(result.stderr, said).toMatch(message);
  expect(snapshot(db), said).toEqual(before);
  return result.stderr.slice(0, -1);
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output (stdout and stderr) matches `pattern`; rejects when the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Collects what `child` prints (stdout and stderr together). `waitFor(pattern)` resolves with the match once the
 * output matches, and rejects when the process exits first (`name` says which, with everything it printed).
 */
export function watchOutput(
  child: ChildProcess,
  name: string,
): { output: () => string; waitFor(pattern: RegExp): Promise<RegExpExecArray> } {
  let out = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    out += chunk;
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolveMatch, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match && waiters.delete(check)) resolveMatch(match);
      };
      const exited = () => {
        if (waiters.delete(check))
          reject(
            new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out}`),
          );
      };
      waiters.add(check);
      if (child.exitCode !== null || child.signalCode !== null) exited();
      else child.once('exit', exited);
      check();
    });
  return { output: () => out, waitFor };
}

/** Starts `planner serve --port 0` as a subprocess and resolves once it prints its address. */
export async function serve(db: string, env: Record<string, string> = {}, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args, '--db', db], {
    cwd: ROOT,
    env: { ...process.env, PLANNER_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, waitFor } = watchOutput(child, 'serve');
  const url = (await waitFor(/serving (http:\/\/\S+)\/api/))[1]!;
  const server: ServerProcess = {
    url,
    child,
    output,
    waitFor,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const escalate = setTimeout(() => child.kill('SIGKILL'), 5_000); // a stop that hangs is a failure, not a wait
      const [code] = await exited;
      clearTimeout(escalate);
      return code as number | null;
    },
  };
  cleanups.push(() => server.stop());
  return server;
}

/** Returns status, headers and the body of an answer, parsed when it is JSON (else the text, for the assertion to show), and its text. */
export async function readAnswer(
  response: Response,
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Calls the API of a server process and returns status, headers and the parsed JSON body. */
export async function api(url: string, path: string, token?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  const answer = await readAnswer(await fetch(`${url}${path}`, { ...init, headers }));
  checkContract(init.method ?? 'GET', path, answer);
  return answer;
}

/** The customer most tests book: a submission of the default form. */
export const ADA_SUBMISSION = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** `submission` as `planner bookings add` takes it: `--field key=value` for each answer. */
export function fieldArgs(submission: Record<string, string> = ADA_SUBMISSION): string[] {
  return Object.entries(submission).flatMap(([key, value]) => ['--field', `${key}=${value}`]);
}

/** POSTs a booking of `slot` of schedule 1, reason 1 through the API; the answer as `api` reads it (contract checked). */
export function apiBook(
  url: string,
  token: string,
  slot: string,
  submission: Record<string, unknown> = ADA_SUBMISSION,
) {
  return api(url, '/api/bookings', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ schedule: 1, reason: 1, slot, submission }),
  });
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), so prompts appear as for a person.
 * `answer(text, keys)` waits until `text` is on the screen, then types `keys`.
 */
export function cliOnTerminal(db: string, ...args: string[]) {
  const command = [process.execPath, BIN, ...args, '--db', db]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PLANNER_DB: '' },
  });
  let screen = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  child.stdout!.on('data', (chunk) => {
    screen += chunk;
    for (const wait of [...waiting]) {
      if (screen.includes(wait.text)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    }
  });
  const exited = once(child, 'exit').then(([code]) => code as number);
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    async answer(text: string, keys: string): Promise<void> {
      if (!screen.includes(text))
        await new Promise<void>((resolveWait) => waiting.push({ text, resolve: resolveWait }));
      screen = screen.slice(screen.indexOf(text) + text.length); // the next wait looks past this prompt
      child.stdin!.write(keys);
    },
    screen: () => screen,
    exited,
  };
}

/** Opens a raw TCP connection to the server of `url` (for requests no HTTP client would send). */
export async function rawSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  return socket;
}

/** Resolves with everything the server sent (bytes as latin1) and the milliseconds from `since` until it closed. */
export function socketClosed(socket: Socket, since: number): Promise<{ text: string; ms: number }> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {}); // a reset is a close too
  return once(socket, 'close').then(() => ({ text, ms: performance.now() - since }));
}
