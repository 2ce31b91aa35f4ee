/**
 * The server's cache of free days: GET /days over a 365-day look-ahead answered from what is known per
 * day, recomputing only the days a change touched. It follows every change of a booking, whoever made it (this
 * server, the CLI, a second server on the same file), through the log the triggers of migration 6 keep; a change of
 * the rules (hours, extra hours, closures, the schedule, the reason, the time zone) changes the engine's input, and
 * with it the entry. Days whose answer depends on the clock (those within the schedule's notice of now) are computed
 * afresh on every call and never kept.
 */
import { type AvailabilityInput, dayFreedom, dayWindow, lookAhead, type Window } from '../../domain/availability.ts';
import { daysTouchedBy, type KnownOffsets } from '../../domain/blocking.ts';
import { dayText, SECONDS_PER_DAY } from '../../domain/days.ts';
import { MAX_UTC_OFFSET, offsetTable } from '../../domain/zone.ts';
import { bookedIntervals } from '../../store/booked-times.ts';
import { type BookingChange, bookingChangesSince, lastBookingChange } from '../../store/booking-changes.ts';
import type { AppContext } from '../context.ts';
import { availabilityInput } from './availability.ts';

/** How many (schedule, reason) pairs are kept; the least recently asked goes first. */
export const DAYS_CACHE_ENTRIES = 256;

/** Missing days further apart than this are read with separate queries (a change touches a day or two). */
const RUN_GAP_DAYS = 3;
/** At most this many queries per call: more runs than this are read as one range. */
const MAX_RUNS = 8;

interface Entry {
  scheduleId: number;
  /** The engine's input apart from the clock: a change of it is a new entry. */
  signature: string;
  input: AvailabilityInput;
  /** The zone's offsets around the window as last asked (the engine's own table): where a change lies in local days. */
  offsets: KnownOffsets;
  /** Per day number (settled days only): its `YYYY-MM-DD` when it has a free slot, else null. */
  days: Map<number, string | null>;
}

export interface DaysCacheStats {
  /** (schedule, reason) pairs kept. */
  entries: number;
  /** Days kept over all entries. */
  days: number;
  /** Days computed by the engine since the cache was made (kept or not): what a test counts after a change. */
  computed: number;
}

export interface DaysCache {
  /** The free days of the schedule's look-ahead for the reason: `availableDays` without `except`, from the cache. */
  days(ctx: AppContext, scheduleId: number, reasonId: number): string[];
  stats(): DaysCacheStats;
}

/** Returns an empty cache; one per server process (it follows the file through its own cursor in the change log). */
export function createDaysCache(options: { maxEntries?: number } = {}): DaysCache {
  const maxEntries = options.maxEntries ?? DAYS_CACHE_ENTRIES;
  const entries = new Map<string, Entry>();
  let cursor: number | undefined;
  let computed = 0;

  /** Forgets the days of `entry` that a change of its schedule touched: those with a start the change's time reaches. */
  const forget = (entry: Entry, change: BookingChange) => {
    const { first, last } = daysTouchedBy({ from: change.fromAt, to: change.toAt }, entry.input, entry.offsets);
    for (let day = first; day <= last; day++) entry.days.delete(day);
  };

  /**
   * Reads the changes since the last call and forgets what they touched. Starts afresh when it cannot know what
   * changed: the log was pruned past its cursor, or the file's log is behind it (a file put back from a backup).
   */
  const follow = (ctx: AppContext) => {
    const last = lastBookingChange(ctx.store); // the usual case: one look at the end of the log, nothing new
    if (cursor === undefined || last < cursor) entries.clear();
    else if (last > cursor) {
      const changes = bookingChangesSince(ctx.store, cursor);
      if (changes[0]?.id !== cursor + 1) entries.clear();
      else
        for (const change of changes)
          for (const entry of entries.values()) if (entry.scheduleId === change.scheduleId) forget(entry, change);
    }
    // Read before any day is computed: a change that lands after this is seen by the next call.
    cursor = last;
  };

  const entryFor = (scheduleId: number, reasonId: number, input: AvailabilityInput, window: Window): Entry => {
    const key = `${scheduleId}:${reasonId}`;
    const { now: _now, ...rest } = input;
    const signature = JSON.stringify(rest);
    let entry = entries.get(key);
    if (entry) entries.delete(key); // re-inserted below: the Map's order is the order of use
    const from = (window.firstDay - 1) * SECONDS_PER_DAY;
    const to = window.to + SECONDS_PER_DAY;
    const offsets = { table: offsetTable(input.zone, from, to), from, to }; // the table the engine reads for this window
    if (entry?.signature !== signature) entry = { scheduleId, signature, input, offsets, days: new Map() };
    Object.assign(entry, { input, offsets });
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return entry;
  };

  /**
   * Computes the days of `window` the entry does not hold, or that the clock still decides (before `settled`), in
   * runs of consecutive days, one query of bookings a run: keeps the settled ones, returns the others.
   */
  const fill = (
    ctx: AppContext,
    scheduleId: number,
    entry: Entry,
    window: Window,
    settled: number,
  ): Map<number, boolean> => {
    const wanted = (day: number) => day < settled || !entry.days.has(day);
    const missing: number[] = [];
    for (let day = window.firstDay; day <= window.lastDay; day++) if (wanted(day)) missing.push(day);
    const fresh = new Map<number, boolean>();
    for (const [first, last] of runsOf(missing)) {
      const span = dayWindow(first, last, entry.input.now);
      const found = dayFreedom(entry.input, span, bookedIntervals(ctx.store, scheduleId, span.from, span.to), wanted);
      computed += found.size;
      for (const [day, free] of found) {
        if (day < settled) fresh.set(day, free);
        else entry.days.set(day, free ? dayText(day) : null);
      }
    }
    return fresh;
  };

  /** The free days of `window`, in order: the fresh answer before `settled`, the kept one from there. */
  const freeDays = (entry: Entry, window: Window, settled: number, fresh: Map<number, boolean>): string[] => {
    const answer: string[] = [];
    for (let day = window.firstDay; day <= window.lastDay; day++) {
      const text = day < settled ? (fresh.get(day) ? dayText(day) : null) : entry.days.get(day);
      if (text) answer.push(text);
    }
    return answer;
  };

  return {
    days(ctx, scheduleId, reasonId) {
      const input = availabilityInput(ctx, scheduleId, reasonId); // not_found before anything is kept
      follow(ctx);
      const window = lookAhead(input);
      const entry = entryFor(scheduleId, reasonId, input, window);
      // Days from `settled` on cannot have a start before now + notice: their answer does not depend on the clock.
      const earliest = input.now + input.rules.noticeMinutes * 60;
      const settled = Math.ceil((earliest + MAX_UTC_OFFSET) / SECONDS_PER_DAY);
      for (const day of entry.days.keys()) if (day < window.firstDay || day > window.lastDay) entry.days.delete(day);
      return freeDays(entry, window, settled, fill(ctx, scheduleId, entry, window, settled));
    },
    stats() {
      let days = 0;
      for (const entry of entries.values()) days += entry.days.size;
      return { entries: entries.size, days, computed };
    },
  };
}

/** Groups sorted day numbers into [first, last] runs (gaps of more than RUN_GAP_DAYS split them), at most MAX_RUNS. */
function runsOf(days: readonly number[]): [number, number][] {
  if (days.length === 0) return [];
  const runs: [number, number][] = [[days[0]!, days[0]!]];
  for (const day of days.slice(1)) {
    const run = runs.at(-1)!;
    if (day - run[1] > RUN_GAP_DAYS) runs.push([day, day]);
    else run[1] = day;
  }
  return runs.length > MAX_RUNS ? [[days[0]!, days.at(-1)!]] : runs;
}
