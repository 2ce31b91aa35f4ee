/**
 * The practice of a `PracticeSpec` (test/helpers.ts: the same description and defaults `bookableDb` makes through
 * the CLI), made in the test process through planner's own use cases on a clock the test holds, for the tests that
 * drive the app, the engine or the workers directly; and the calendars such tests give a schedule.
 */
import { type AppContext, createContext } from '../src/app/context.ts';
import { setHours } from '../src/app/practice/hours.ts';
import { initInstallation } from '../src/app/practice/init.ts';
import { addReason } from '../src/app/practice/reasons.ts';
import { addSchedule } from '../src/app/practice/schedules.ts';
import { busyPieces, replaceBusy } from '../src/store/busy-times.ts';
import { insertCalendar } from '../src/store/calendars.ts';
import { openStore, type Store } from '../src/store/db.ts';
import { type PracticeSpec, practiceSpec, tempDb } from './helpers.ts';

/** Monday 1 June 2026, 08:00 in Berlin: the clock of a practice not given one. */
export const PRACTICE_NOW = new Date('2026-06-01T06:00:00Z');

export interface Practice {
  file: string;
  store: Store;
  ctx: AppContext;
  /** The clock `ctx` reads: move `clock.now` to move time. */
  clock: { now: Date };
  /** The schedules' ids, in the spec's order. */
  schedules: number[];
  /** The reasons' ids, in the spec's order. */
  reasons: number[];
}

/**
 * Makes the practice of `spec` in `file` (a new one unless given), read on `clock` (PRACTICE_NOW unless given): init,
 * the schedules with their hours, the reasons.
 */
export function practice(spec: PracticeSpec & { file?: string; clock?: { now: Date } } = {}): Practice {
  const file = spec.file ?? tempDb();
  const clock = spec.clock ?? { now: PRACTICE_NOW };
  const store = openStore(file);
  try {
    const ctx = createContext(store, () => clock.now);
    const { schedules, reasons, ...answers } = practiceSpec(spec);
    initInstallation(ctx, answers);
    const scheduleIds = schedules.map(({ hours, ...rules }) => {
      const id = addSchedule(ctx, rules);
      for (const [days, ranges] of Object.entries(hours)) setHours(ctx, id, days, ranges);
      return id;
    });
    const reasonIds = reasons.map(({ schedules: offeredBy, ...values }) => addReason(ctx, offeredBy, values));
    return { file, store, ctx, clock, schedules: scheduleIds, reasons: reasonIds };
  } catch (error) {
    store.close(); // a spec the use cases refuse (a property test's random one) leaves no connection open
    throw error;
  }
}

/** A calendar of a schedule, as `calendar add` stores it: what a test may choose. */
export interface CalendarSpec {
  /** Default 1. */
  scheduleId?: number;
  /** Default 'caldav'. */
  kind?: 'ics' | 'caldav';
  /** Default https://calendar.example/own/. */
  url?: string;
  /** Default 'Own'. */
  label?: string;
  /** Default 5. */
  everyMinutes?: number;
  /** Default false. */
  allowInsecure?: boolean;
  /** Whether it receives the schedule's bookings (`--write-bookings`); default false. */
  writeBookings?: boolean;
}

/** Adds a calendar to a schedule as `calendar add` stores it (added at `at`, never synced); returns its id. */
export function addTestCalendar(store: Store, at: Date, spec: CalendarSpec = {}): number {
  return insertCalendar(store, {
    scheduleId: spec.scheduleId ?? 1,
    label: spec.label ?? 'Own',
    kind: spec.kind ?? 'caldav',
    url: spec.url ?? 'https://calendar.example/own/',
    user: null,
    password: null,
    everyMinutes: spec.everyMinutes ?? 5,
    allowInsecure: spec.allowInsecure ?? false,
    fetchState: '{}',
    createdAt: at.toISOString(),
    syncedAt: null,
    writeBookings: spec.writeBookings ?? false,
  });
}

/**
 * Adds a CalDAV calendar at `url` (no login) to schedule 1 (or `scheduleId`), receiving its bookings (unless
 * `writeBookings` is false), as `calendar add --write-bookings --allow-insecure` would.
 */
export function writingCalendar(
  store: Store,
  url: string,
  at: Date,
  options: { scheduleId?: number; label?: string; writeBookings?: boolean } = {},
): number {
  return addTestCalendar(store, at, { label: 'Anna', allowInsecure: true, writeBookings: true, url, ...options });
}

/**
 * Gives `scheduleId` an .ics calendar whose busy times are `busy` (instants, seconds), written as a sync writes them;
 * returns the calendar's id.
 */
export function busyCalendar(
  store: Store,
  scheduleId: number,
  at: Date,
  busy: readonly { startAt: number; endAt: number }[],
): number {
  const id = addTestCalendar(store, at, { scheduleId, kind: 'ics', url: 'https://calendar.example/own.ics' });
  const times = busy.map((time, n) => ({ ...time, uidHash: `event-${n}` }));
  replaceBusy(store, { id, scheduleId, generation: 0 }, busyPieces(times));
  return id;
}
