/**
 * The bookings written into practitioners' calendars (migration 13): the queue `calendar_writes`, filled by
 * the triggers on `bookings` in each change's own transaction, and `calendar_events`, what planner wrote where. The
 * states of a queued item move through queue.ts, as the outbox's do; a write that succeeded leaves the queue, but
 * only when no change came while it was written (its `version`): else it is due again at once.
 */
import type { Store } from './db.ts';
import { dueCondition, queueStates } from './queue.ts';

const queue = queueStates({ table: 'calendar_writes', done: 'written', doneAt: 'written_at' }); // done: the row is deleted (markWritten)

/** A queued write with what the worker needs: the calendar (secrets included), the booking's state, what was written. */
export interface DueWrite {
  id: number;
  version: number;
  attempts: number;
  /** Unix seconds its retries are counted from; 0 when never tried (the claim sets it). */
  retryFrom: number;
  calendarId: number;
  bookingId: number;
  /** What planner last wrote of this booking into this calendar, if anything. */
  written: { href: string; etag: string | null; sequence: number } | null;
}

interface DueRow {
  id: number;
  version: number;
  attempts: number;
  retry_from: number;
  calendar_id: number;
  booking_id: number;
  href: string | null;
  etag: string | null;
  sequence: number | null;
}

/**
 * Returns up to `limit` writes due at `nowAt` and not held, oldest first: of every calendar, of calendar `only`, or of
 * every calendar but those in `except` (the ones being written). One range of calendar_writes_due, and each one's
 * event by its primary key.
 */
export function dueWrites(
  store: Store,
  nowAt: number,
  limit: number,
  calendars: { only?: number; except?: readonly number[] } = {},
): DueWrite[] {
  const select = `SELECT w.id, w.version, w.attempts, w.retry_from, w.calendar_id, w.booking_id, e.href, e.etag, e.sequence
       FROM calendar_writes w LEFT JOIN calendar_events e ON e.calendar_id = w.calendar_id AND e.booking_id = w.booking_id
       WHERE ${dueCondition('w')}`;
  const rows = (calendars.only !== undefined
    ? store.sql(`${select} AND w.calendar_id = ? ORDER BY w.id LIMIT ?`).all(nowAt, nowAt, calendars.only, limit)
    : store
        .sql(`${select} AND w.calendar_id NOT IN (SELECT value FROM json_each(?)) ORDER BY w.id LIMIT ?`)
        .all(nowAt, nowAt, JSON.stringify(calendars.except ?? []), limit)) as unknown as DueRow[];
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    attempts: row.attempts,
    retryFrom: row.retry_from,
    calendarId: row.calendar_id,
    bookingId: row.booking_id,
    written: row.href === null ? null : { href: row.href, etag: row.etag, sequence: row.sequence ?? 0 },
  }));
}

/** Holds a write for one worker until `until`; false when another holds it or it is done. */
export function claimWrite(store: Store, id: number, nowAt: number, until: number): boolean {
  return queue.claim(store, id, nowAt, until);
}

/**
 * Ends a write that succeeded (the row goes: the queue holds only what waits or failed), when the booking did not
 * change while it was written (`version` as claimed); else leaves it waiting, due at once, so the change is written
 * next. Returns whether it ended.
 */
export function markWritten(store: Store, id: number, version: number): boolean {
  const done = store.sql('DELETE FROM calendar_writes WHERE id = ? AND version = ?').run(id, version).changes === 1;
  if (!done) store.sql('UPDATE calendar_writes SET lease_until = 0, next_attempt_at = 0 WHERE id = ?').run(id);
  return done;
}

/** Records a failed attempt and when to try again. */
export function markWriteRetry(store: Store, id: number, error: string, nextAt: number): void {
  queue.retry(store, id, error, nextAt);
}

/** Marks a write failed for good (48 hours of failures), with the reason. */
export function markWriteFailed(store: Store, id: number, error: string): void {
  queue.failed(store, id, error);
}

/**
 * Records what was written of `bookingId` into `calendarId` at `atMs` (Unix milliseconds; its path, ETag and
 * SEQUENCE): the event is as planner wrote it, so an edit seen before is gone.
 */
export function recordEvent(
  store: Store,
  calendarId: number,
  bookingId: number,
  event: { href: string; etag: string | null; sequence: number },
  atMs: number,
): void {
  store
    .sql(
      `INSERT INTO calendar_events (calendar_id, booking_id, href, etag, sequence, written_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (calendar_id, booking_id) DO UPDATE SET href = excluded.href, etag = excluded.etag,
         sequence = excluded.sequence, written_at = excluded.written_at, edit = NULL, edit_seen_at = NULL, edit_mailed = 0`,
    )
    .run(calendarId, bookingId, event.href, event.etag, event.sequence, atMs);
}

/**
 * After a write into `calendarId` succeeded at `nowAt`, its writes that wait for a retry are due at once: the calendar
 * answers again, so what waited since an outage is written now, not at each one's own retry (up to an hour away).
 */
export function catchUp(store: Store, calendarId: number, nowAt: number): void {
  store
    .sql(
      `UPDATE calendar_writes SET next_attempt_at = 0
       WHERE calendar_id = ? AND status = 'pending' AND attempts > 0 AND next_attempt_at > ?`,
    )
    .run(calendarId, nowAt);
}

/** What a calendar's read showed instead of an event planner wrote: another time, no event, or the event cancelled. */
export type EventEdit = { kind: 'moved'; startAt: number; endAt: number } | { kind: 'removed' } | { kind: 'cancelled' };

/** An event planner wrote into a calendar, beside its booking as it is now (what a read is compared with). */
export interface WrittenEvent {
  bookingId: number;
  reference: string;
  startAt: number;
  endAt: number;
  /** The booking is booked, not erased, and of the calendar's schedule: its event should be there. */
  wanted: boolean;
  /** A write of it waits: planner is about to write it again anyway. */
  waiting: boolean;
  /** Unix milliseconds it was last written (0: before migration 18). */
  writtenAtMs: number;
  edit: EventEdit | null;
  editMailed: boolean;
}

interface WrittenRow {
  booking_id: number;
  reference: string;
  start_at: number;
  end_at: number;
  wanted: number;
  waiting: number;
  written_at: number;
  edit: string | null;
  edit_mailed: number;
}

/** Returns the events planner wrote into `calendarId` of bookings that end after `fromAt`, each with its booking now: one query. */
export function writtenEvents(store: Store, calendarId: number, fromAt: number): WrittenEvent[] {
  const rows = store
    .sql(
      `SELECT e.booking_id, b.reference, b.start_at, b.end_at,
              (b.status = 'booked' AND b.erased_at IS NULL AND b.schedule_id = c.schedule_id AND c.write_bookings = 1) AS wanted,
              EXISTS (SELECT 1 FROM calendar_writes w WHERE w.calendar_id = e.calendar_id AND w.booking_id = e.booking_id
                      AND w.status = 'pending') AS waiting,
              e.written_at, e.edit, e.edit_mailed
       FROM calendar_events e JOIN bookings b ON b.id = e.booking_id JOIN calendars c ON c.id = e.calendar_id
       WHERE e.calendar_id = ? AND b.end_at > ? ORDER BY b.start_at, b.id`,
    )
    .all(calendarId, fromAt) as unknown as WrittenRow[];
  return rows.map((row) => ({
    bookingId: row.booking_id,
    reference: row.reference,
    startAt: row.start_at,
    endAt: row.end_at,
    wanted: row.wanted === 1,
    waiting: row.waiting === 1,
    writtenAtMs: row.written_at,
    edit: row.edit === null ? null : (JSON.parse(row.edit) as EventEdit),
    editMailed: row.edit_mailed === 1,
  }));
}

/** Records what a read at `at` showed instead of planner's event of `bookingId` (null: the event as written). */
export function setEdit(store: Store, calendarId: number, bookingId: number, edit: EventEdit | null, at: number): void {
  store
    .sql(
      `UPDATE calendar_events SET edit = ?, edit_seen_at = ?, edit_mailed = 0 WHERE calendar_id = ? AND booking_id = ?`,
    )
    .run(edit === null ? null : JSON.stringify(edit), edit === null ? null : at, calendarId, bookingId);
}

/** Records that the practice was mailed about the edits of `bookingIds` in `calendarId`. */
export function markEditsMailed(store: Store, calendarId: number, bookingIds: readonly number[]): void {
  store
    .sql(
      'UPDATE calendar_events SET edit_mailed = 1 WHERE calendar_id = ? AND booking_id IN (SELECT value FROM json_each(?))',
    )
    .run(calendarId, JSON.stringify(bookingIds));
}

/** An edit seen in a calendar, with its booking as it is in planner. */
export interface SeenEdit {
  calendarId: number;
  bookingId: number;
  reference: string;
  startAt: number;
  endAt: number;
  edit: EventEdit;
  /** Unix seconds: the read that first showed it. */
  seenAt: number;
}

/**
 * Returns the edits seen in every calendar (or `calendarId`'s) of bookings not over at `nowAt` (one over is no longer
 * anyone's concern), by calendar and booking time: one query.
 */
export function seenEdits(store: Store, nowAt: number, calendarId?: number): SeenEdit[] {
  const rows = store
    .sql(
      `SELECT e.calendar_id AS calendarId, e.booking_id AS bookingId, b.reference, b.start_at AS startAt,
              b.end_at AS endAt, e.edit, e.edit_seen_at AS seenAt
       FROM calendar_events e JOIN bookings b ON b.id = e.booking_id
       WHERE e.edit IS NOT NULL AND b.end_at > ? AND (? IS NULL OR e.calendar_id = ?)
       ORDER BY e.calendar_id, b.start_at, b.id`,
    )
    .all(nowAt, calendarId ?? null, calendarId ?? null) as unknown as (Omit<SeenEdit, 'edit'> & { edit: string })[];
  return rows.map((row) => ({ ...row, edit: JSON.parse(row.edit) as EventEdit }));
}

/**
 * Returns, of `bookingIds`, those whose event in `calendarId` was written at `sinceMs` or later, and those that still
 * wait for a write (pending): one query.
 */
export function writtenSince(
  store: Store,
  calendarId: number,
  bookingIds: readonly number[],
  sinceMs: number,
): { written: number[]; waiting: number[] } {
  const rows = store
    .sql(
      `SELECT value AS bookingId,
              EXISTS (SELECT 1 FROM calendar_events e WHERE e.calendar_id = ? AND e.booking_id = value
                      AND e.written_at >= ? AND e.edit IS NULL) AS written,
              EXISTS (SELECT 1 FROM calendar_writes w WHERE w.calendar_id = ? AND w.booking_id = value
                      AND w.status = 'pending') AS waiting
       FROM json_each(?)`,
    )
    .all(calendarId, sinceMs, calendarId, JSON.stringify(bookingIds)) as {
    bookingId: number;
    written: number;
    waiting: number;
  }[];
  return {
    written: rows.filter((row) => row.written === 1).map((row) => row.bookingId),
    waiting: rows.filter((row) => row.written === 0 && row.waiting === 1).map((row) => row.bookingId),
  };
}

/**
 * Queues a write of every booking not over at `nowAt` whose event was seen edited in `calendarId`, each due at once;
 * returns how many.
 */
export function queueEdited(store: Store, calendarId: number, nowAt: number, createdAt: string): number {
  const result = store
    .sql(
      `INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
       SELECT e.calendar_id, e.booking_id, ? FROM calendar_events e JOIN bookings b ON b.id = e.booking_id
       WHERE e.calendar_id = ? AND e.edit IS NOT NULL AND b.end_at > ? AND true
       ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1, next_attempt_at = 0`,
    )
    .run(createdAt, calendarId, nowAt);
  return Number(result.changes);
}

/** Forgets what was written of `bookingId` into `calendarId` (its event was deleted). */
export function forgetEvent(store: Store, calendarId: number, bookingId: number): void {
  store.sql('DELETE FROM calendar_events WHERE calendar_id = ? AND booking_id = ?').run(calendarId, bookingId);
}

/**
 * Queues a write of every booking of the calendar's schedule that is booked and not over at `nowAt` (writing turned
 * on): one statement. Returns how many were queued.
 */
export function queueUpcoming(store: Store, calendarId: number, nowAt: number, createdAt: string): number {
  const result = store
    .sql(
      `INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
       SELECT c.id, b.id, ? FROM calendars c JOIN bookings b ON b.schedule_id = c.schedule_id
       WHERE c.id = ? AND b.status = 'booked' AND b.erased_at IS NULL AND b.end_at > ?
       ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1`,
    )
    .run(createdAt, calendarId, nowAt);
  return Number(result.changes);
}

/**
 * Queues a write of every event planner wrote into the calendar (to remove them: its writing is off), each due at
 * once: one that waited out a retry (the calendar was unreachable) is due now too, since the admin asks now.
 * Returns how many.
 */
export function queueWritten(store: Store, calendarId: number, createdAt: string): number {
  const result = store
    .sql(
      `INSERT INTO calendar_writes (calendar_id, booking_id, created_at)
       SELECT calendar_id, booking_id, ? FROM calendar_events WHERE calendar_id = ? AND true
       ON CONFLICT (calendar_id, booking_id) WHERE status = 'pending' DO UPDATE SET version = version + 1, next_attempt_at = 0`,
    )
    .run(createdAt, calendarId);
  return Number(result.changes);
}

/** Drops the writes of the calendar that wait (writing turned off, leaving what was written), and forgets its events. */
export function dropWrites(store: Store, calendarId: number): void {
  store.sql("DELETE FROM calendar_writes WHERE calendar_id = ? AND status = 'pending'").run(calendarId);
  store.sql('DELETE FROM calendar_events WHERE calendar_id = ?').run(calendarId);
}

/** Puts a calendar's failed writes back in the queue, due now; returns how many. */
export function requeueWrites(store: Store, calendarId: number, nowAt: number): number {
  // A failed row beside a waiting one of the same booking: the waiting one writes its state; the failed one stays.
  return queue.requeue(
    store,
    nowAt,
    "calendar_id = ? AND status = 'failed' AND NOT EXISTS (SELECT 1 FROM calendar_writes o WHERE o.calendar_id = calendar_writes.calendar_id AND o.booking_id = calendar_writes.booking_id AND o.status = 'pending')",
    calendarId,
  );
}

/** How one calendar's writes stand: waiting, of which retrying since when with the last error; failed for good. */
export interface WriteCounts {
  waiting: number;
  retrying: number;
  /** Unix seconds: when the oldest write still retrying was first tried. */
  retryingSince: number | null;
  failed: number;
  lastError: string | null;
}

/** Returns how the writes of each calendar stand (calendars with none: zeros), by calendar id. One read. */
export function writeCounts(store: Store): Map<number, WriteCounts> {
  const rows = store
    .sql(
      `SELECT calendar_id AS calendarId,
              count(*) FILTER (WHERE status = 'pending') AS waiting,
              count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS retrying,
              min(retry_from) FILTER (WHERE status = 'pending' AND attempts > 0) AS retryingSince,
              count(*) FILTER (WHERE status = 'failed') AS failed,
              (SELECT last_error FROM calendar_writes l WHERE l.calendar_id = w.calendar_id AND l.last_error IS NOT NULL
               ORDER BY l.next_attempt_at DESC, l.id DESC LIMIT 1) AS lastError
       FROM calendar_writes w GROUP BY calendar_id`,
    )
    .all() as unknown as (WriteCounts & { calendarId: number })[];
  return new Map(rows.map(({ calendarId, ...counts }) => [calendarId, counts]));
}

/** Returns how many events planner wrote into the calendar (and has not deleted). */
export function countEvents(store: Store, calendarId: number): number {
  return (store.sql('SELECT count(*) AS n FROM calendar_events WHERE calendar_id = ?').get(calendarId) as { n: number })
    .n;
}
