/**
 * The time a booking keeps from the other bookings of its schedule: its appointment and its reason's buffers
 * before and after it. Pure. The engine counts it forwards (`walkFreeSlots` in availability.ts: a start
 * is free when the span it would block meets too few others); the store keeps it as the virtual column `keeps_from`
 * and `end_at + buffer_after` (migration 5), which the triggers of migration 6 log on every change; the server's
 * cache of free days counts it backwards (`startsReaching`, `daysTouchedBy`: which starts, on which local days, a
 * change may have freed or taken).
 */
import { BUFFER_MAX_MINUTES, DURATION_MAX_MINUTES } from './checks.ts';
import { SECONDS_PER_DAY } from './days.ts';
import { MAX_UTC_OFFSET, type OffsetTable, offsetAt } from './zone.ts';

/** Seconds a booking keeps free before and after its appointment. */
export interface Buffers {
  before: number;
  after: number;
}

/** A span of time in Unix seconds, `from` inclusive, `to` exclusive. */
export interface Span {
  from: number;
  to: number;
}

/** A zone's offsets (zone.ts) and the instants, from `from` to `to`, for which the table is exact. */
export interface KnownOffsets {
  table: OffsetTable;
  from: number;
  to: number;
}

/** What of a reason decides the time its bookings block, in minutes (a reason, or the engine's input). */
export interface BlockingMinutes {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
}

/** The most a booking can block: a day-long appointment and the longest buffer on each side. */
export const LONGEST_BLOCK_SECONDS = (DURATION_MAX_MINUTES + 2 * BUFFER_MAX_MINUTES) * 60;
/** The longest buffer, in seconds. */
export const BUFFER_MAX_SECONDS = BUFFER_MAX_MINUTES * 60;

/** The buffers a booking of `reason` keeps, in seconds (a booking keeps those its reason had when booked or moved). */
export function buffersOf(reason: Pick<BlockingMinutes, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>): Buffers {
  return { before: reason.bufferBeforeMinutes * 60, after: reason.bufferAfterMinutes * 60 };
}

/** The end of an appointment of `reason` that starts at `startAt`. */
export function appointmentEnd(startAt: number, reason: Pick<BlockingMinutes, 'durationMinutes'>): number {
  return startAt + reason.durationMinutes * 60;
}

/** The time a booking from `startAt` to `endAt` with `buffers` blocks. */
export function blockedSpan(startAt: number, endAt: number, buffers: Buffers): Span {
  return { from: startAt - buffers.before, to: endAt + buffers.after };
}

/**
 * The starts of `reason` whose blocked time may meet `changed` (a span some booking blocked before or after a
 * change), from the earliest to the latest: only these can have been freed or taken by the change. A start s blocks
 * [s − before, s + duration + after), which meets [from, to) when from − duration − after < s < to + before; the
 * bounds returned include the two starts that only touch it (a second wider on each side: forgetting one start too
 * many costs a recomputed day, one too few a wrong answer).
 */
export function startsReaching(changed: Span, reason: BlockingMinutes): { earliest: number; latest: number } {
  return {
    earliest: changed.from - (reason.durationMinutes + reason.bufferAfterMinutes) * 60,
    latest: changed.to + reason.bufferBeforeMinutes * 60,
  };
}

/**
 * The local days (day numbers, `first` to `last`) that hold every start of `reason` a change of `changed` reaches:
 * the days of the two bounds of `startsReaching` and those between. A bound outside the instants `offsets` knows is
 * widened by the largest UTC offset, so that its day is never missed.
 */
export function daysTouchedBy(
  changed: Span,
  reason: BlockingMinutes,
  offsets: KnownOffsets,
): { first: number; last: number } {
  const { earliest, latest } = startsReaching(changed, reason);
  const known = (at: number) => at >= offsets.from && at <= offsets.to;
  const first = known(earliest) ? earliest + offsetAt(offsets.table, earliest) : earliest - MAX_UTC_OFFSET;
  const last = known(latest) ? latest + offsetAt(offsets.table, latest) : latest + MAX_UTC_OFFSET;
  return { first: Math.floor(first / SECONDS_PER_DAY), last: Math.floor(last / SECONDS_PER_DAY) };
}

/** A busy time of the practitioner's own calendar: Unix seconds, [startAt, endAt), and the hash of its event's UID. */
export interface BusySpan {
  startAt: number;
  endAt: number;
  uidHash: string;
}

/** The one order of busy times wherever they are sorted or compared: start, end, UID hash (as SQLite orders them). */
export function byBusyOrder(a: BusySpan, b: BusySpan): number {
  return a.startAt - b.startAt || a.endAt - b.endAt || (a.uidHash < b.uidHash ? -1 : a.uidHash > b.uidHash ? 1 : 0);
}
