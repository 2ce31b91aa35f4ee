/**
 * The busy times of the practitioner's own calendars (migration 10): what blocks the whole schedule. A
 * busy time is kept as pieces of at most BUSY_PIECE_SECONDS, cut at fixed instants, so that the busy times that
 * reach a window are one range of the index `busy_times_by_schedule` (a week's seminar is seven rows, not one row
 * that a range on its start would have to look a week back for). Only the pieces of their calendar's generation
 * count. A sync writes only the pieces that changed, in place when they are few (BUSY_WRITE_ROWS), else as a new
 * generation it then switches to (app/calendars/calendars.ts). The triggers of migration 10 log each change that counts in
 * booking_changes, and a server's cache of free days forgets only the days it touches.
 */
import { type BusySpan, byBusyOrder, LONGEST_BLOCK_SECONDS } from '../domain/blocking.ts';
import { SECONDS_PER_DAY } from '../domain/days.ts';
import { submittedCustomer } from '../domain/submission.ts';
import type { Store } from './db.ts';

/** The longest piece a busy time is kept as; pieces begin at whole multiples of it (UTC midnights). */
export const BUSY_PIECE_SECONDS = SECONDS_PER_DAY;

export type { BusySpan } from '../domain/blocking.ts';

/** A kept busy time with its calendar: what `planner calendar busy` lists. */
export interface StoredBusy extends BusySpan {
  calendarId: number;
}

/** Returns `busy` cut into pieces at the multiples of BUSY_PIECE_SECONDS, without duplicates, in byBusyOrder. */
export function busyPieces(busy: readonly BusySpan[]): BusySpan[] {
  const pieces: BusySpan[] = [];
  for (const { startAt, endAt, uidHash } of busy) {
    for (let from = startAt; from < endAt; ) {
      const to = Math.min(endAt, (Math.floor(from / BUSY_PIECE_SECONDS) + 1) * BUSY_PIECE_SECONDS);
      pieces.push({ startAt: from, endAt: to, uidHash });
      from = to;
    }
  }
  pieces.sort(byBusyOrder); // mostly in order already: the busy times come sorted, and most fit in one piece
  return pieces.filter((piece, index) => index === 0 || byBusyOrder(pieces[index - 1]!, piece) !== 0);
}

/**
 * The pieces of a schedule that meet [from, to) and count (their calendar's generation): one range of the index (no
 * piece begins a piece's length before it), each checked against its calendar's one row.
 */
const MEETING = `FROM busy_times t CROSS JOIN calendars c ON c.id = t.calendar_id AND c.generation = t.generation
  WHERE t.schedule_id = ? AND t.start_at > ? AND t.start_at < ? AND t.end_at > ?`;

/** Returns the busy pieces of a schedule's calendars that meet [from, to), in the order they begin: what the engine counts. */
export function busyIntervals(
  store: Store,
  scheduleId: number,
  from: number,
  to: number,
): { startAt: number; endAt: number }[] {
  const rows = store
    .sql(`SELECT t.start_at AS startAt, t.end_at AS endAt ${MEETING} ORDER BY t.start_at`)
    .all(scheduleId, from - BUSY_PIECE_SECONDS, to, from);
  return rows as unknown as { startAt: number; endAt: number }[];
}

/** Returns the busy times of a schedule that meet [from, to), each with its calendar, pieces of one event joined again. */
export function busyOfSchedule(store: Store, scheduleId: number, from: number, to: number): StoredBusy[] {
  const rows = store
    .sql(
      `SELECT t.calendar_id AS calendarId, t.start_at AS startAt, t.end_at AS endAt, t.uid_hash AS uidHash ${MEETING}
       ORDER BY t.calendar_id, t.uid_hash, t.start_at`,
    )
    .all(scheduleId, from - BUSY_PIECE_SECONDS, to, from) as unknown as StoredBusy[];
  const joined: StoredBusy[] = [];
  for (const row of rows) {
    const last = joined.at(-1);
    if (last && last.calendarId === row.calendarId && last.uidHash === row.uidHash && last.endAt === row.startAt)
      last.endAt = row.endAt;
    else joined.push({ ...row });
  }
  return joined.sort((a, b) => a.startAt - b.startAt || a.calendarId - b.calendarId);
}

/** The generation of `calendarId`'s busy times that counts. */
const GENERATION = '(SELECT generation FROM calendars WHERE id = ?)';

/** Returns how many busy pieces of `calendarId` meet [from, to). */
export function countBusy(store: Store, calendarId: number, from: number, to: number): number {
  return (
    store
      .sql(
        `SELECT count(*) AS n FROM busy_times WHERE calendar_id = ? AND generation = ${GENERATION} AND start_at < ? AND end_at > ?`,
      )
      .get(calendarId, calendarId, to, from) as { n: number }
  ).n;
}

/** Returns up to `limit` pieces of `calendarId` that count, after `after` (none: from the first), in byBusyOrder. */
export function storedBusyPage(
  store: Store,
  calendarId: number,
  after: BusySpan | undefined,
  limit: number,
): BusySpan[] {
  const { startAt, endAt, uidHash } = after ?? {
    startAt: Number.MIN_SAFE_INTEGER,
    endAt: Number.MIN_SAFE_INTEGER,
    uidHash: '',
  };
  const rows = store
    .sql(
      `SELECT start_at AS startAt, end_at AS endAt, uid_hash AS uidHash FROM busy_times
       WHERE calendar_id = ? AND generation = ${GENERATION} AND (start_at, end_at, uid_hash) > (?, ?, ?)
       ORDER BY start_at, end_at, uid_hash LIMIT ?`,
    )
    .all(calendarId, calendarId, startAt, endAt, uidHash, limit);
  return rows as unknown as BusySpan[];
}

/** What turns one set of pieces into another: the pieces to delete and the pieces to insert. */
export interface BusyChanges {
  remove: BusySpan[];
  add: BusySpan[];
}

/** Returns what turns `kept` into `wanted`, both in byBusyOrder without duplicates: one walk along both. */
export function busyChanges(kept: readonly BusySpan[], wanted: readonly BusySpan[]): BusyChanges {
  const changes: BusyChanges = { remove: [], add: [] };
  let k = 0;
  let w = 0;
  while (k < kept.length || w < wanted.length) {
    const order = k === kept.length ? 1 : w === wanted.length ? -1 : byBusyOrder(kept[k]!, wanted[w]!);
    if (order < 0) changes.remove.push(kept[k++]!);
    else if (order > 0) changes.add.push(wanted[w++]!);
    else k++, w++;
  }
  return changes;
}

/** How many kept pieces one read of storedBusyPage takes. */
export const BUSY_PAGE_ROWS = 2000;

/**
 * How many rows one transaction of a sync writes at most. A sync with more changes writes a new generation in
 * transactions of this many rows and then switches to it (switchGeneration): each holds the file, and in
 * `planner serve` the event loop, for a few milliseconds only, and a kill between them leaves the old set counting.
 */
export const BUSY_WRITE_ROWS = 500;

/**
 * Writes `changes` to the busy times of `calendarId` of `generation`; the caller runs it inside its transaction.
 * Deleting a piece that is gone and inserting one that is there already change nothing, so changes worked out from
 * an older read still leave every wanted piece there. Returns how many rows changed.
 */
export function applyBusyChanges(
  store: Store,
  calendar: { id: number; scheduleId: number; generation: number },
  changes: BusyChanges,
): { added: number; removed: number } {
  const remove = store.sql(
    'DELETE FROM busy_times WHERE calendar_id = ? AND generation = ? AND start_at = ? AND end_at = ? AND uid_hash = ?',
  );
  const insert = store.sql(
    'INSERT OR IGNORE INTO busy_times (calendar_id, generation, schedule_id, start_at, end_at, uid_hash) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let removed = 0;
  let added = 0;
  for (const span of changes.remove)
    removed += Number(remove.run(calendar.id, calendar.generation, span.startAt, span.endAt, span.uidHash).changes);
  for (const span of changes.add) {
    added += Number(
      insert.run(calendar.id, calendar.generation, calendar.scheduleId, span.startAt, span.endAt, span.uidHash).changes,
    );
  }
  return { added, removed };
}

/**
 * Makes generation `to` of `calendarId` the one that counts, when `from` still is (else another process switched
 * first: false). One row's update; the trigger logs the days of both generations for the cache of free days.
 */
export function switchGeneration(store: Store, calendarId: number, from: number, to: number): boolean {
  return (
    Number(
      store.sql('UPDATE calendars SET generation = ? WHERE id = ? AND generation = ?').run(to, calendarId, from)
        .changes,
    ) === 1
  );
}

/** Returns how many pieces generation `generation` of `calendarId` holds. */
export function countGeneration(store: Store, calendarId: number, generation: number): number {
  return (
    store
      .sql('SELECT count(*) AS n FROM busy_times WHERE calendar_id = ? AND generation = ?')
      .get(calendarId, generation) as { n: number }
  ).n;
}

/** Deletes up to `limit` pieces of `calendarId` that do not count (an older or unfinished generation). Returns how many. */
export function dropUncounted(store: Store, calendarId: number, limit: number): number {
  const result = store
    .sql(
      `DELETE FROM busy_times WHERE (calendar_id, generation, start_at, end_at, uid_hash) IN (
         SELECT calendar_id, generation, start_at, end_at, uid_hash FROM busy_times WHERE calendar_id = ? AND generation != ${GENERATION} LIMIT ?)`,
    )
    .run(calendarId, calendarId, limit);
  return Number(result.changes);
}

/**
 * Makes the busy times of `calendarId` that count exactly `busy` (already cut by busyPieces) at once, in place:
 * reads them, writes only what changed. The caller runs it inside its transaction (tests, tools; a server's sync
 * goes a page and a transaction at a time: app/calendars/calendars.ts).
 */
export function replaceBusy(
  store: Store,
  calendar: { id: number; scheduleId: number; generation: number },
  busy: readonly BusySpan[],
): { added: number; removed: number } {
  const kept: BusySpan[] = [];
  for (
    let page = storedBusyPage(store, calendar.id, undefined, BUSY_PAGE_ROWS);
    page.length > 0;
    page = storedBusyPage(store, calendar.id, page.at(-1), BUSY_PAGE_ROWS)
  ) {
    kept.push(...page);
  }
  return applyBusyChanges(store, calendar, busyChanges(kept, busy));
}

/** A booked appointment that a busy time of its schedule overlaps (its buffers included). */
export interface BusyConflict {
  bookingId: number;
  reference: string;
  scheduleId: number;
  startAt: number;
  endAt: number;
  calendarId: number;
  /** The customer's first and last name, as submitted. */
  customerName: string;
  reasonName: string;
}

/**
 * Returns the upcoming booked appointments (ending after `now`) that a busy time of their schedule overlaps, with
 * the calendar of the first such time: one join, driven by the busy times (a calendar's window, CROSS JOIN keeps
 * that order), each reaching into one range of the bookings' index as the engine reads it (booked-times.ts).
 */
export function busyConflicts(store: Store, now: number, calendarId?: number): BusyConflict[] {
  // Of one calendar: its rows by the primary key; of all: every kept piece (a condition that serves both would
  // make SQLite read every piece of every calendar for one).
  const which = calendarId === undefined ? 't.end_at > ?' : 't.calendar_id = ? AND t.end_at > ?';
  const rows = store
    .sql(
      `SELECT b.id AS bookingId, b.reference AS reference, b.schedule_id AS scheduleId, b.start_at AS startAt, b.end_at AS endAt, min(t.calendar_id) AS calendarId,
              b.submission AS submission, (SELECT r.name FROM reasons r WHERE r.id = b.reason_id) AS reasonName
       FROM busy_times t CROSS JOIN calendars c ON c.id = t.calendar_id AND c.generation = t.generation CROSS JOIN bookings b
         ON b.schedule_id = t.schedule_id AND b.keeps_from > t.start_at - ${LONGEST_BLOCK_SECONDS} AND b.keeps_from < t.end_at AND b.end_at + b.buffer_after > t.start_at
       WHERE ${which} AND b.status = 'booked' AND b.end_at > ?
       GROUP BY b.id ORDER BY b.start_at, b.id`,
    )
    .all(...(calendarId === undefined ? [now, now] : [calendarId, now, now])) as unknown as (Omit<
    BusyConflict,
    'customerName'
  > & { submission: string })[];
  return rows.map(({ submission, ...row }) => ({
    ...row,
    customerName: submittedCustomer(JSON.parse(submission) as Record<string, unknown>).customerName,
  }));
}

/** Deletes every busy time of `calendarId` (the triggers log each, so the cache of free days forgets their days). */
export function deleteBusy(store: Store, calendarId: number): void {
  store.sql('DELETE FROM busy_times WHERE calendar_id = ?').run(calendarId);
}
