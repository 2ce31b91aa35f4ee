import { resolve } from 'node:path';
import { invalid } from '../../errors.ts';
import { type Pump, startPump } from '../../queue/pump.ts';
import { BASE_SECONDS, type RetrySettings } from '../../queue/retry-policy.ts';
import { hasCalendars } from '../../store/calendars.ts';
import { databaseExists, openStore, type Store } from '../../store/db.ts';
import { type StoreWatch, watchStore } from '../../store/settings-watch.ts';
import { CALENDAR_POLL_MS } from '../calendars/policy.ts';
import { type AppContext, clockMs, createContext } from '../context.ts';
import { FORM_MIN_SECONDS } from '../pages/booking-page.ts';

/** Returns the database path from `--db`, else `PLANNER_DB`, else `data/planner.db` (relative to the working directory). */
export function resolveDbPath(option: string | undefined): string {
  return resolve(option || process.env.PLANNER_DB || 'data/planner.db');
}

/** What a long-running process takes from its environment, read once when its runtime starts. */
export interface RuntimeSettings {
  mailRetry: RetrySettings;
  webhookRetry: RetrySettings;
  /** The first retry delay of a booking's write into a practitioner's calendar (PLANNER_CALENDAR_RETRY_SECONDS). */
  calendarRetry: RetrySettings;
  /** The booking page's shortest time between a form made and sent (PLANNER_FORM_MIN_SECONDS, default 3; tests of the flow set 0). */
  formMinSeconds: number;
}

/** Returns the first retry delay in seconds from the environment variable `name` (default BASE_SECONDS). */
function retryBase(
  env: NodeJS.ProcessEnv,
  name: 'PLANNER_MAIL_RETRY_SECONDS' | 'PLANNER_WEBHOOK_RETRY_SECONDS' | 'PLANNER_CALENDAR_RETRY_SECONDS',
): number {
  const value = Number(env[name] ?? BASE_SECONDS);
  if (!Number.isFinite(value) || value <= 0) throw invalid(`${name} must be a positive number of seconds`);
  return value;
}

/** Returns PLANNER_FORM_MIN_SECONDS (0 to 60), else the booking page's default of 3 s (app/pages/booking-page.ts). */
function formMinSeconds(env: NodeJS.ProcessEnv): number {
  if (env.PLANNER_FORM_MIN_SECONDS === undefined || env.PLANNER_FORM_MIN_SECONDS === '') return FORM_MIN_SECONDS;
  const value = Number(env.PLANNER_FORM_MIN_SECONDS);
  if (!Number.isInteger(value) || value < 0 || value > 60)
    throw invalid('PLANNER_FORM_MIN_SECONDS must be a whole number of seconds from 0 to 60');
  return value;
}

/** Returns the settings in `env`, or throws a clear error for a value that is not usable. */
export function readRuntimeSettings(env: NodeJS.ProcessEnv = process.env): RuntimeSettings {
  return {
    mailRetry: { baseSeconds: retryBase(env, 'PLANNER_MAIL_RETRY_SECONDS') },
    webhookRetry: { baseSeconds: retryBase(env, 'PLANNER_WEBHOOK_RETRY_SECONDS') },
    calendarRetry: { baseSeconds: retryBase(env, 'PLANNER_CALENDAR_RETRY_SECONDS') },
    formMinSeconds: formMinSeconds(env),
  };
}

/**
 * Everything a long-running process (`planner serve`, and the doors and workers that will join it) works with,
 * built once: one store, one watch on the settings that other processes change, one context for the use cases,
 * and the background workers.
 */
export interface Runtime {
  /** The use cases' context: its settings are those of `watch` (refreshed per request and per worker pass). */
  ctx: AppContext;
  watch: StoreWatch;
  /** What was read from the environment at start (not the installation's settings: those are `ctx.settings()`). */
  environment: RuntimeSettings;
  /** Makes the workers look for due work now (after a booking), without waiting for their next poll. */
  kick(): void;
  /** Stops the workers; resolves when the deliveries in progress have finished. */
  stop(): Promise<void>;
  /** Closes the database file (after `stop`, or when waiting for it took too long). */
  close(): void;
}

export interface RuntimeOptions {
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** Where the workers report (default stderr). */
  log?: (line: string) => void;
  /** Start the outbox, webhook and calendar workers (`planner serve`); tests that drive a worker with their own clock do not. */
  workers?: boolean;
  /** Read once for RuntimeSettings (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Returns the runtime on `store`, with its workers started when `options.workers` says so. */
export async function startRuntime(store: Store, options: RuntimeOptions = {}): Promise<Runtime> {
  const environment = readRuntimeSettings(options.env);
  const watch = watchStore(store);
  const ctx = createContext(store, options.now, watch.settings);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let workers: Worker[] = [];
  if (options.workers) {
    // Loaded here so that the CLI's other commands start without the mail and webhook stacks.
    const { startOutboxWorker } = await import('../../mail/worker.ts');
    const { startWebhookWorker } = await import('../../webhooks/worker.ts');
    const nowMs = clockMs(ctx);
    workers = [
      startOutboxWorker({ store, settings: watch.refresh, log, retry: environment.mailRetry, nowMs }),
      startWebhookWorker({ store, log, retry: environment.webhookRetry, nowMs }),
      startWhenCalendars(ctx, log, async () => {
        const { startCalendarSync } = await import('../calendars/calendars.ts');
        const { startCalendarWriter } = await import('../calendars/calendar-writes.ts');
        return [
          startCalendarSync(ctx, { log, refresh: watch.refresh }),
          startCalendarWriter(ctx, { log, nowMs, retry: environment.calendarRetry }),
        ];
      }),
    ];
    // The personal-data worker runs hourly and at start: a booking does not kick it.
    const { startRetention } = await import('../customers/erase.ts');
    const retention = startRetention(ctx, { log, refresh: watch.refresh });
    workers.push({ kick: () => {}, stop: () => retention.stop() });
  }
  return {
    ctx,
    watch,
    environment,
    kick: () => {
      for (const worker of workers) worker.kick();
    },
    stop: async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
    },
    close: () => store.close(),
  };
}

interface Worker {
  kick(): void;
  stop(): Promise<unknown>;
}

/**
 * The calendar workers, loaded and started once the installation has a calendar: at start, or at the first poll
 * (every CALENDAR_POLL_MS, one query) after `planner calendar add` made one. A server without calendars never holds
 * their code (the reader, its XML parser, the providers: 0.6 MiB of an idle server's 25, issue 49). Once started they
 * run until the server stops, as before.
 */
function startWhenCalendars(ctx: AppContext, log: (line: string) => void, start: () => Promise<Worker[]>): Worker {
  let started: Worker[] = [];
  const gate: Pump = startPump(
    async () => {
      if (started.length > 0 || !hasCalendars(ctx.store)) return false;
      started = await start();
      void gate.stop(); // its last pass: nothing left to look for
      return false;
    },
    { pollMs: CALENDAR_POLL_MS, log, what: 'calendars' },
  );
  return {
    kick: () => {
      for (const worker of started) worker.kick();
    },
    stop: async () => {
      await gate.stop(); // a start in progress finishes first, and its workers are stopped below
      await Promise.all(started.map((worker) => worker.stop()));
    },
  };
}

/** Opens (creating if missing) the database at `file` and returns the runtime on it; closes the file if that fails. */
export async function openRuntime(file: string, options: RuntimeOptions = {}): Promise<Runtime> {
  const store = openStore(file);
  try {
    return await startRuntime(store, options);
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * Returns whether the database `file` exists; throws a one-line "permission denied" naming the file and the user when
 * this user may not read it (store/db.ts `databaseExists`).
 */
export function installationExists(file: string): boolean {
  return databaseExists(file);
}

/** Opens the database at `file` for one command: a context that reads the settings row on each call. */
export function openContext(file: string, options: { mustExist: boolean; readOnly?: boolean }): AppContext {
  return createContext(openStore(file, options));
}
