/**
 * The availability engine: which local days and slot starts of a schedule are free for a reason's duration.
 * Pure: the caller passes the clock, the zone, the opening hours, closures and the bookings of the window.
 */
import { blockedSpan, buffersOf } from './blocking.ts';
import { dayNumber, dayText, isoWeekday, SECONDS_PER_DAY } from './days.ts';
import { type MinuteRange, mergeRanges } from './hours.ts';
import { MAX_UTC_OFFSET, type OffsetTable, offsetAt, offsetTable, wallToUnix, wallToUnixCompatible } from './zone.ts';

export interface ScheduleRules {
  daysAhead: number;
  noticeMinutes: number;
  stepMinutes: number;
  capacity: number;
}

/**
 * A booked interval [startAt, endAt) in Unix seconds: what a booking keeps, its buffers included, or a busy time of
 * the practitioner's own calendar, which takes EVERY_PLACE.
 */
export interface BookedInterval {
  startAt: number;
  endAt: number;
  /** The places of the capacity it takes: 1 when not given (a booking); EVERY_PLACE for a busy time. */
  places?: number;
}

/** What a busy time of the practitioner's calendar takes: every place of any capacity. */
export const EVERY_PLACE = Number.POSITIVE_INFINITY;

/**
 * Returns bookings and busy times (each list in the order it begins) as one list in that order: what the engine
 * counts. A merge of two sorted lists, no sort; the bookings list itself when there is no busy time.
 */
export function withBusy<B extends BookedInterval>(bookings: readonly B[], busy: readonly B[]): readonly B[] {
  if (busy.length === 0) return bookings;
  const merged: B[] = [];
  let b = 0;
  for (const time of busy) {
    while (b < bookings.length && bookings[b]!.startAt <= time.startAt) merged.push(bookings[b++]!);
    merged.push(time);
  }
  while (b < bookings.length) merged.push(bookings[b++]!);
  return merged;
}

export interface AvailabilityInput {
  zone: string;
  /** The present instant, Unix seconds. */
  now: number;
  rules: ScheduleRules;
  /** Weekly hours: index 1 (Monday) … 7 (Sunday), each day's ranges sorted. */
  week: readonly (readonly MinuteRange[])[];
  /**
   * Extra hours: local dates opened beyond the weekly hours, added to that date's weekly ranges (merged
   * where they overlap or touch); a closure still wins. By day, each day's ranges sorted; days not needed may be left
   * out (the app reads them from today on). A plain list, so that the input stays comparable as JSON (days-cache.ts).
   */
  extra: readonly ExtraHours[];
  closures: readonly { fromDay: string; toDay: string }[];
  durationMinutes: number;
  /** The reason's buffers: kept free before and after the appointment, also outside the opening hours. */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
}

/** The extra hours of one local date (`YYYY-MM-DD`): its sorted ranges, beyond the weekly hours. */
export interface ExtraHours {
  day: string;
  ranges: readonly MinuteRange[];
}

/** Returns the extra ranges by day number, of the days from `firstDay` to `lastDay` only: built once per walk. */
export function extraByDay(
  extra: readonly ExtraHours[],
  firstDay = Number.NEGATIVE_INFINITY,
  lastDay = Number.POSITIVE_INFINITY,
): Map<number, readonly MinuteRange[]> {
  const byDay = new Map<number, readonly MinuteRange[]>();
  for (const item of extra) {
    const day = dayNumber(item.day);
    if (day >= firstDay && day <= lastDay) byDay.set(day, mergeRanges(byDay.get(day) ?? [], item.ranges));
  }
  return byDay;
}

/** Returns the opening ranges of local day `day`: its weekday's, with its extra hours (from `extraByDay`) added. */
export function openRanges(
  week: AvailabilityInput['week'],
  extra: ReadonlyMap<number, readonly MinuteRange[]>,
  day: number,
): readonly MinuteRange[] {
  const weekly = week[isoWeekday(day)] ?? [];
  const added = extra.get(day);
  return added ? mergeRanges(weekly, added) : weekly;
}

/** A free start: the local `YYYY-MM-DD HH:MM:SS` the API shows and its instant. */
export interface FreeSlot {
  local: string;
  startAt: number;
}

/** The local days the look-ahead allows, and the instants whose bookings matter for them. */
export interface Window {
  firstDay: number;
  lastDay: number;
  /** Load bookings that end after this instant … */
  from: number;
  /** … and start before this one. */
  to: number;
}

/** Returns the look-ahead window: local today through today + daysAhead. */
export function lookAhead(input: Pick<AvailabilityInput, 'zone' | 'now' | 'rules'>): Window {
  const table = offsetTable(input.zone, input.now - SECONDS_PER_DAY, input.now + SECONDS_PER_DAY);
  const today = localDayOf(table, input.now);
  return dayWindow(today, today + input.rules.daysAhead, input.now);
}

/** Returns the window of the local days firstDay … lastDay, bookings ending after `now` only. */
export function dayWindow(firstDay: number, lastDay: number, now: number): Window {
  // Offsets stay within ±14 h, so these bounds hold every instant of those local days.
  return {
    firstDay,
    lastDay,
    from: Math.max(now, firstDay * SECONDS_PER_DAY - MAX_UTC_OFFSET),
    to: (lastDay + 1) * SECONDS_PER_DAY + MAX_UTC_OFFSET,
  };
}

/**
 * Counts, for candidate intervals given in increasing order, the places the booked intervals that overlap each one
 * take (a busy time takes them all). One pass over the bookings (sorted by start) for all candidates: no query or
 * scan per day or slot.
 */
function overlapCounter(bookings: readonly BookedInterval[]) {
  let next = 0;
  let active: BookedInterval[] = [];
  let places = 0;
  return (start: number, end: number): number => {
    while (next < bookings.length && bookings[next]!.startAt < end) {
      const booking = bookings[next++]!;
      active.push(booking);
      places += booking.places ?? 1;
    }
    if (active.some((booking) => booking.endAt <= start)) {
      active = active.filter((booking) => booking.endAt > start);
      places = 0;
      for (const booking of active) places += booking.places ?? 1;
    }
    return places;
  };
}

/**
 * The closure of `closures` that closes local day `day` (a day number), if any. A closure wins over every opening of
 * its days, weekly or extra: the engine offers nothing there, a refusal says why, and a booking there is stranded
 * (domain/refusal.ts asks this too).
 */
export function closureOn<C extends { fromDay: string; toDay: string }>(
  closures: readonly C[],
  day: number,
): C | undefined {
  return closures.find((closure) => dayNumber(closure.fromDay) <= day && day <= dayNumber(closure.toDay));
}

/** The local days of `window` a closure closes (`closureOn`, read once for the window). */
function closedDays(closures: AvailabilityInput['closures'], window: Window): Set<number> {
  const closed = new Set<number>();
  for (let day = window.firstDay; day <= window.lastDay; day++) if (closureOn(closures, day)) closed.add(day);
  return closed;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Returns the instants an opening range of local day `day` begins and ends (a gap's times move later). */
export function rangeInstants(
  table: OffsetTable,
  day: number,
  range: MinuteRange,
): { rangeStart: number; rangeEnd: number } {
  const midnight = day * SECONDS_PER_DAY; // local wall clock, in seconds
  return {
    rangeStart: wallToUnixCompatible(table, midnight + range.start * 60),
    rangeEnd: wallToUnixCompatible(table, midnight + range.end * 60),
  };
}

/** Returns the local day number of instant `at` (the table must cover it). */
export function localDayOf(table: OffsetTable, at: number): number {
  return Math.floor((at + offsetAt(table, at)) / SECONDS_PER_DAY);
}

/** What a walk over free slots holds for every range it walks: the day's rules read once. */
interface Walk {
  table: OffsetTable;
  duration: number;
  buffers: ReturnType<typeof buffersOf>;
  earliest: number;
  step: number;
  capacity: number;
  overlapping: (from: number, to: number) => number;
  visit: (day: number, slot: FreeSlot) => boolean;
}

/**
 * Walks the free slots of one opening range of local day `day` in time order, calling `visit` for each; returns true
 * when `visit` asked to skip the rest of the day.
 */
function walkRange(walk: Walk, day: number, range: MinuteRange): boolean {
  const { table, duration, buffers, earliest, step, capacity, overlapping } = walk;
  const midnight = day * SECONDS_PER_DAY; // local wall clock, in seconds
  const text = dayText(day);
  const { rangeStart, rangeEnd } = rangeInstants(table, day, range);
  // Candidates every `step` minutes of wall-clock time from the range's start (spec: the schedule's step).
  for (let minute = range.start; minute < range.end; minute += step) {
    const startAt = wallToUnix(table, midnight + minute * 60);
    if (startAt === undefined) continue; // spring forward: this local time does not exist
    // Fits wholly inside the range, measured in real time (a fall-back hour makes a range longer).
    if (startAt + duration > rangeEnd) break; // later starts end later still
    if (startAt < rangeStart || startAt < earliest) continue;
    // Capacity counts what each booking keeps, buffers included; this one's too (they need not fit the hours).
    const blocked = blockedSpan(startAt, startAt + duration, buffers);
    if (overlapping(blocked.from, blocked.to) >= capacity) continue;
    const local = `${text} ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:00`;
    if (walk.visit(day, { local, startAt })) return true;
  }
  return false;
}

/**
 * Walks the free slots of the window's days in time order and calls `visit(day, slot)` for each;
 * `visit` returns true to skip the rest of that day (enough is known about it).
 */
function walkFreeSlots(
  input: AvailabilityInput,
  window: Window,
  bookings: readonly BookedInterval[],
  visit: (day: number, slot: FreeSlot) => boolean,
  wanted: (day: number) => boolean = () => true,
): void {
  const walk: Walk = {
    table: offsetTable(input.zone, window.firstDay * SECONDS_PER_DAY - SECONDS_PER_DAY, window.to + SECONDS_PER_DAY),
    duration: input.durationMinutes * 60,
    buffers: buffersOf(input),
    earliest: input.now + input.rules.noticeMinutes * 60,
    step: input.rules.stepMinutes,
    capacity: input.rules.capacity,
    overlapping: overlapCounter(bookings),
    visit,
  };
  const closed = closedDays(input.closures, window);
  const extra = extraByDay(input.extra, window.firstDay, window.lastDay);
  for (let day = window.firstDay; day <= window.lastDay; day++) {
    if (closed.has(day) || !wanted(day)) continue;
    for (const range of openRanges(input.week, extra, day)) if (walkRange(walk, day, range)) break;
  }
}

/** Returns the local days (`YYYY-MM-DD`) of the window with at least one free slot. */
export function freeDays(input: AvailabilityInput, window: Window, bookings: readonly BookedInterval[]): string[] {
  const days: string[] = [];
  walkFreeSlots(input, window, bookings, (day) => {
    days.push(dayText(day));
    return true;
  });
  return days;
}

/**
 * Returns, for each day of the window that `wanted` names, whether it has at least one free slot: what
 * `freeDays` answers, for some days only (the cache of free days recomputes only the days a change touched).
 */
export function dayFreedom(
  input: AvailabilityInput,
  window: Window,
  bookings: readonly BookedInterval[],
  wanted: (day: number) => boolean,
): Map<number, boolean> {
  const free = new Map<number, boolean>();
  for (let day = window.firstDay; day <= window.lastDay; day++) if (wanted(day)) free.set(day, false);
  walkFreeSlots(
    input,
    window,
    bookings,
    (day) => {
      free.set(day, true);
      return true;
    },
    wanted,
  );
  return free;
}

/** Returns the free slots of one local day, in time order (empty outside the look-ahead). */
export function freeSlots(input: AvailabilityInput, day: string, bookings: readonly BookedInterval[]): FreeSlot[] {
  const allowed = lookAhead(input);
  const number = dayNumber(day);
  if (number < allowed.firstDay || number > allowed.lastDay) return [];
  const slots: FreeSlot[] = [];
  walkFreeSlots(input, dayWindow(number, number, input.now), bookings, (_day, slot) => {
    slots.push(slot);
    return false;
  });
  return slots;
}

/**
 * Returns the free slots of one local day number, in time order, whether or not the look-ahead allows the day (the
 * notice still applies through `input.now`): for questions about the rules (why a time is refused), not for offers.
 */
export function daySlots(input: AvailabilityInput, day: number, bookings: readonly BookedInterval[]): FreeSlot[] {
  const slots: FreeSlot[] = [];
  walkFreeSlots(input, dayWindow(day, day, input.now), bookings, (_day, slot) => {
    slots.push(slot);
    return false;
  });
  return slots;
}

/** Returns the free slots of the window's days that the look-ahead allows, by day (days without one included). */
export function freeSlotsByDay(
  input: AvailabilityInput,
  window: Window,
  bookings: readonly BookedInterval[],
): { day: string; slots: FreeSlot[] }[] {
  const allowed = lookAhead(input);
  const first = Math.max(window.firstDay, allowed.firstDay);
  const last = Math.min(window.lastDay, allowed.lastDay);
  if (first > last) return [];
  const byDay = new Map<number, FreeSlot[]>();
  for (let day = first; day <= last; day++) byDay.set(day, []);
  walkFreeSlots(input, dayWindow(first, last, input.now), bookings, (day, slot) => {
    byDay.get(day)!.push(slot);
    return false;
  });
  return [...byDay].map(([day, slots]) => ({ day: dayText(day), slots }));
}

/**
 * Returns the first `count` free slots that start after instant `after`, within the look-ahead. `bookings` must
 * cover the window from the local day of `after` (or today, if later) to the end of the look-ahead.
 */
export function nextFreeSlots(
  input: AvailabilityInput,
  after: number,
  count: number,
  bookings: readonly BookedInterval[],
): FreeSlot[] {
  const window = nextWindow(input, after);
  const found: FreeSlot[] = [];
  if (window.firstDay > window.lastDay) return found;
  walkFreeSlots(
    input,
    window,
    bookings,
    (_day, slot) => {
      if (slot.startAt > after) found.push(slot);
      return found.length >= count;
    },
    () => found.length < count,
  );
  return found;
}

/** Returns the window whose bookings `nextFreeSlots` needs: from the local day of `after` (not before today) to the look-ahead's end. */
export function nextWindow(input: Pick<AvailabilityInput, 'zone' | 'now' | 'rules'>, after: number): Window {
  const allowed = lookAhead(input);
  const table = offsetTable(input.zone, after - SECONDS_PER_DAY, after + SECONDS_PER_DAY);
  return dayWindow(Math.max(allowed.firstDay, localDayOf(table, after)), allowed.lastDay, input.now);
}
