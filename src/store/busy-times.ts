/**
 * The busy times of the practitioner's own calendars (issue 25, migration 10): what blocks the whole schedule. A
 * busy time is kept as pieces of at most BUSY_PIECE_SECONDS, cut at fixed instants, so that the busy times that
 * reach a window are one range of the index `busy_times_by_schedule` (a week's seminar is seven rows, not one row
 * that a range on its start would have to look a week back for). A sync writes only the pieces that changed: the
 * triggers of migration 10 log each in booking_changes, and a server's cache of free days forgets only the days they
 * touch.
 */
import { LONGEST_BLOCK_SECONDS } from '../domain/blocking.ts';
import { SECONDS_PER_DAY } from '../domain/days.ts';
import type { Store } from './db.ts';

/** The longest piece a busy time is kept as; pieces begin at whole multiples of it (UTC midnights). */
export const BUSY_PIECE_SECONDS = SECONDS_PER_DAY;

/** A busy time as a calendar gave it: its span and the hash of its event's UID. */
export interface BusySpan {
  startAt: number;
  endAt: number;
  uidHash: string;
}

/** A kept busy time with its calendar: what `planner calendar busy` lists. */
export interface StoredBusy extends BusySpan {
  calendarId: number;
}

/** Returns `busy` cut into pieces at the multiples of BUSY_PIECE_SECONDS, without duplicates, in the order they begin. */
export function busyPieces(busy: readonly BusySpan[]): BusySpan[] {
  const pieces = new Map<string, BusySpan>();
  for (const { startAt, endAt, uidHash } of busy) {
    for (let from = startAt; from < endAt; ) {
      const to = Math.min(endAt, (Math.floor(from / BUSY_PIECE_SECONDS) + 1) * BUSY_PIECE_SECONDS);
      pieces.set(`${from}:${to}:${uidHash}`, { startAt: from, endAt: to, uidHash });
      from = to;
    }
  }
  return [...pieces.values()].sort((a, b) => a.startAt - b.startAt || a.endAt - b.endAt);
}

/** The pieces of a schedule that meet [from, to): one range of the index (no piece begins a piece's length before it). */
const MEETING = `FROM busy_times WHERE schedule_id = ? AND start_at > ? AND start_at < ? AND end_at > ?`;

/** Returns the busy pieces of a schedule's calendars that meet [from, to), in the order they begin: what the engine counts. */
export function busyIntervals(store: Store, scheduleId: number, from: number, to: number): { startAt: number; endAt: number }[] {
  const rows = store.sql(`SELECT start_at AS startAt, end_at AS endAt ${MEETING} ORDER BY start_at`).all(scheduleId, from - BUSY_PIECE_SECONDS, to, from);
  return rows as unknown as { startAt: number; endAt: number }[];
}

/** Returns the busy times of a schedule that meet [from, to), each with its calendar, pieces of one event joined again. */
export function busyOfSchedule(store: Store, scheduleId: number, from: number, to: number): StoredBusy[] {
  const rows = store
    .sql(`SELECT calendar_id AS calendarId, start_at AS startAt, end_at AS endAt, uid_hash AS uidHash ${MEETING} ORDER BY calendar_id, uid_hash, start_at`)
    .all(scheduleId, from - BUSY_PIECE_SECONDS, to, from) as unknown as StoredBusy[];
  const joined: StoredBusy[] = [];
  for (const row of rows) {
    const last = joined.at(-1);
    if (last && last.calendarId === row.calendarId && last.uidHash === row.uidHash && last.endAt === row.startAt) last.endAt = row.endAt;
    else joined.push({ ...row });
  }
  return joined.sort((a, b) => a.startAt - b.startAt || a.calendarId - b.calendarId);
}

/** Returns how many busy pieces of `calendarId` meet [from, to). */
export function countBusy(store: Store, calendarId: number, from: number, to: number): number {
  return (store.sql('SELECT count(*) AS n FROM busy_times WHERE calendar_id = ? AND start_at < ? AND end_at > ?').get(calendarId, to, from) as { n: number }).n;
}

/**
 * Makes the busy times of `calendarId` exactly `busy` (already cut by busyPieces): deletes the pieces that are gone,
 * inserts the new ones, leaves the rest. The caller runs it inside its transaction. Returns how many changed.
 */
export function replaceBusy(store: Store, calendarId: number, scheduleId: number, busy: readonly BusySpan[]): { added: number; removed: number } {
  const kept = store.sql('SELECT start_at AS startAt, end_at AS endAt, uid_hash AS uidHash FROM busy_times WHERE calendar_id = ?').all(calendarId) as unknown as BusySpan[];
  const key = (span: BusySpan) => `${span.startAt}:${span.endAt}:${span.uidHash}`;
  const wanted = new Set(busy.map(key));
  const had = new Set(kept.map(key));
  const remove = store.sql('DELETE FROM busy_times WHERE calendar_id = ? AND start_at = ? AND end_at = ? AND uid_hash = ?');
  const insert = store.sql('INSERT INTO busy_times (calendar_id, schedule_id, start_at, end_at, uid_hash) VALUES (?, ?, ?, ?, ?)');
  let removed = 0;
  let added = 0;
  for (const span of kept) {
    if (wanted.has(key(span))) continue;
    remove.run(calendarId, span.startAt, span.endAt, span.uidHash);
    removed++;
  }
  for (const span of busy) {
    if (had.has(key(span))) continue;
    insert.run(calendarId, scheduleId, span.startAt, span.endAt, span.uidHash);
    added++;
  }
  return { added, removed };
}

/** A booked appointment that a busy time of its schedule overlaps (its buffers included). */
export interface BusyConflict {
  bookingId: number;
  reference: string;
  scheduleId: number;
  startAt: number;
  endAt: number;
  calendarId: number;
}

/**
 * Returns the upcoming booked appointments (ending after `now`) that a busy time of their schedule overlaps, with
 * the calendar of the first such time: one join, driven by the busy times (a calendar's window, CROSS JOIN keeps
 * that order), each reaching into one range of the bookings' index as the engine reads it (booked-times.ts).
 */
export function busyConflicts(store: Store, now: number, calendarId?: number): BusyConflict[] {
  const rows = store
    .sql(
      `SELECT b.id AS bookingId, b.reference AS reference, b.schedule_id AS scheduleId, b.start_at AS startAt, b.end_at AS endAt, min(t.calendar_id) AS calendarId
       FROM busy_times t CROSS JOIN bookings b
         ON b.schedule_id = t.schedule_id AND b.keeps_from > t.start_at - ${LONGEST_BLOCK_SECONDS} AND b.keeps_from < t.end_at AND b.end_at + b.buffer_after > t.start_at
       WHERE t.end_at > ? AND (? IS NULL OR t.calendar_id = ?) AND b.status = 'booked' AND b.end_at > ?
       GROUP BY b.id ORDER BY b.start_at, b.id`,
    )
    .all(now, calendarId ?? null, calendarId ?? null, now);
  return rows as unknown as BusyConflict[];
}

/** Deletes every busy time of `calendarId` (the triggers log each, so the cache of free days forgets their days). */
export function deleteBusy(store: Store, calendarId: number): void {
  store.sql('DELETE FROM busy_times WHERE calendar_id = ?').run(calendarId);
}
