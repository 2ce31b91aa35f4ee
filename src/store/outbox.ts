import type { Locale } from '../domain/locales.ts';
import type { Store } from './db.ts';
import { scrubIfErased } from './personal-data.ts';
import { dueCondition, queueStates } from './queue.ts';

const queue = queueStates({ table: 'outbox', done: 'sent', doneAt: 'sent_at' });

export type OutboxKind = 'confirmation' | 'notice' | 'cancellation' | 'update' | 'reminder';
/** `dropped`: a reminder not sent because its booking was cancelled or moved, or its appointment had begun (why: last_error). */
export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'dropped';

/** A message as the builders make it: what is sent, and to whom. */
export interface OutgoingMessage {
  kind: OutboxKind;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  /** An iCalendar file (RFC 5545) attached as appointment.ics. */
  ics: string;
  /**
   * The Reply-To address (the practice's notices: the customer's, so that answering reaches them). Kept in the
   * row's JSON body beside the text, so no column was needed.
   */
  replyTo?: string;
}

/** A message in the outbox. */
export interface OutboxEntry extends OutgoingMessage {
  id: number;
  bookingId: number | null;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: number;
  retryFrom: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

interface OutboxRow {
  id: number;
  booking_id: number | null;
  kind: OutboxKind;
  recipient: string;
  subject: string;
  body: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  retry_from: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

function toEntry(row: OutboxRow): OutboxEntry {
  const body = JSON.parse(row.body) as { text: string; html: string; ics: string; replyTo?: string };
  return {
    id: row.id,
    bookingId: row.booking_id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    ...body,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    retryFrom: row.retry_from,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

const COLUMNS =
  'id, booking_id, kind, recipient, subject, body, status, attempts, next_attempt_at, retry_from, last_error, created_at, sent_at';
/** The same columns of `outbox o`, for the queries that join its booking. */
const O_COLUMNS = COLUMNS.split(', ')
  .map((column) => `o.${column}`)
  .join(', ');

/**
 * Adds a message, due at `dueAt` (now for most; a reminder's time for a reminder), which is also where its retries
 * are counted from. Call inside the transaction that writes its booking.
 */
export function enqueue(
  store: Store,
  bookingId: number | null,
  message: OutgoingMessage,
  dueAt: number,
  createdAt: string,
): number {
  const body = JSON.stringify({
    text: message.text,
    html: message.html,
    ics: message.ics,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
  });
  const result = store
    .sql(
      `INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(bookingId, message.kind, message.recipient, message.subject, body, dueAt, dueAt, createdAt);
  return Number(result.lastInsertRowid);
}

/** A due message with what the worker needs to know of its booking (none for a message without one). */
export interface DueMessage extends OutboxEntry {
  /**
   * Its booking as it stands: its start, whether it is cancelled, its customer's language (null: the practice's), and
   * `seriesId`, the series of a date of one (its confirmation and a cancellation speak of every date).
   */
  booking: { startAt: number; cancelled: boolean; locale: Locale | null; seriesId: number | null } | null;
}

/**
 * Returns up to `limit` pending messages that are due at `nowAt` and not held by a sender, oldest first, each with
 * its booking's start and status. One indexed query: outbox_due for the messages, the bookings' primary key for each
 * one's booking (never a scan of the bookings: test/perf/statements.test.ts).
 */
export function dueMessages(store: Store, nowAt: number, limit: number): DueMessage[] {
  const rows = store
    .sql(
      `SELECT ${O_COLUMNS}, b.start_at AS booking_start_at, b.status AS booking_status, b.locale AS booking_locale,
              b.series_id AS series_id
       FROM outbox o LEFT JOIN bookings b ON b.id = o.booking_id
       WHERE ${dueCondition('o')} ORDER BY o.id LIMIT ?`,
    )
    .all(nowAt, nowAt, limit) as unknown as (OutboxRow & {
    booking_start_at: number | null;
    booking_status: string | null;
    booking_locale: Locale | null;
    series_id: number | null;
  })[];
  return rows.map((row) => ({
    ...toEntry(row),
    booking:
      row.booking_start_at === null
        ? null
        : {
            startAt: row.booking_start_at,
            cancelled: row.booking_status === 'cancelled',
            locale: row.booking_locale,
            seriesId: row.series_id,
          },
  }));
}

/** Holds a pending message for one sender until `until`; returns false when another sender holds it or it is done. */
export function claim(store: Store, id: number, nowAt: number, until: number): boolean {
  return queue.claim(store, id, nowAt, until);
}

/** Marks a message sent; returns true when it is of an erased booking (its personal data goes as it is marked). */
export function markSent(store: Store, id: number, sentAt: string): boolean {
  return store.tx(() => {
    queue.done(store, id, sentAt);
    return scrubIfErased(store, id);
  });
}

/** Records a failed attempt and when to try again. */
export function markRetry(store: Store, id: number, error: string, nextAt: number): void {
  queue.retry(store, id, error, nextAt);
}

/** Marks a message failed for good, with the reason; returns true when it is of an erased booking (as markSent). */
export function markFailed(store: Store, id: number, error: string): boolean {
  return store.tx(() => {
    queue.failed(store, id, error);
    return scrubIfErased(store, id);
  });
}

/**
 * Marks a pending message that no sender holds dropped (a reminder not sent), with the reason; returns false when
 * a sender holds it or it is done.
 */
export function markDropped(store: Store, id: number, reason: string, nowAt: number): boolean {
  return store.tx(() => {
    const dropped =
      store
        .sql(
          `UPDATE outbox SET status = 'dropped', last_error = ? WHERE id = ? AND status = 'pending' AND lease_until <= ?`,
        )
        .run(reason, id, nowAt).changes === 1;
    if (dropped) scrubIfErased(store, id);
    return dropped;
  });
}

/** Drops a booking's pending reminders (it was cancelled or moved), with the reason; returns how many (outbox_by_booking). */
export function dropReminders(store: Store, bookingId: number, reason: string): number {
  const result = store
    .sql(
      `UPDATE outbox SET status = 'dropped', last_error = ?, lease_until = 0 WHERE booking_id = ? AND kind = 'reminder' AND status = 'pending'`,
    )
    .run(reason, bookingId);
  return Number(result.changes);
}

/**
 * Rewrites the reminders of `bookingId` not yet sent as `message` (their times kept): the booking's customer now
 * reads another language. Returns how many.
 */
export function rewriteReminders(store: Store, bookingId: number, message: OutgoingMessage): number {
  const body = JSON.stringify({ text: message.text, html: message.html, ics: message.ics });
  const result = store
    .sql(`UPDATE outbox SET subject = ?, body = ? WHERE booking_id = ? AND kind = 'reminder' AND status = 'pending'`)
    .run(message.subject, body, bookingId);
  return Number(result.changes);
}

/** A scheduled reminder: pending, never tried, due after now (a retry of any message is waiting, not scheduled). */
const SCHEDULED = `o.status = 'pending' AND o.next_attempt_at > ? AND o.kind = 'reminder' AND o.attempts = 0`;

/** Returns how many reminders are scheduled (due after `nowAt`). */
export function countScheduledReminders(store: Store, nowAt: number): number {
  return (store.sql(`SELECT COUNT(*) AS n FROM outbox o WHERE ${SCHEDULED}`).get(nowAt) as { n: number }).n;
}

/** Where `planner mail queue` shows a message. */
export type QueueSection = 'waiting' | 'scheduled' | 'failed' | 'dropped';

/** A message as `planner mail queue` lists it: its section and its booking's reference. */
export interface QueueEntry extends OutboxEntry {
  section: QueueSection;
  bookingReference: string | null;
}

/**
 * Returns the outbox as `planner mail queue` shows it, each section oldest first: waiting (due or retrying), scheduled
 * reminders (by due time), failed, and reminders dropped by the sender (reason not `except`) that came due since
 * `droppedSince`. Each part is a range of outbox_due.
 */
export function queueMessages(
  store: Store,
  nowAt: number,
  droppedSince: number,
  except: readonly string[],
): QueueEntry[] {
  const select = `SELECT ${O_COLUMNS}, b.reference AS booking_reference
                  FROM outbox o LEFT JOIN bookings b ON b.id = o.booking_id`;
  const read = (section: QueueSection, sql: string, ...params: (number | string)[]) =>
    (store.sql(sql).all(...params) as unknown as (OutboxRow & { booking_reference: string | null })[]).map(
      (row): QueueEntry => ({ ...toEntry(row), section, bookingReference: row.booking_reference }),
    );
  return [
    ...read('waiting', `${select} WHERE o.status = 'pending' AND NOT (${SCHEDULED}) ORDER BY o.id`, nowAt),
    ...read('scheduled', `${select} WHERE ${SCHEDULED} ORDER BY o.next_attempt_at, o.id`, nowAt),
    ...read('failed', `${select} WHERE o.status = 'failed' ORDER BY o.id`),
    ...read(
      'dropped',
      `${select} WHERE o.status = 'dropped' AND o.next_attempt_at >= ? AND o.last_error NOT IN (${except.map(() => '?').join(', ')}) ORDER BY o.next_attempt_at, o.id`,
      droppedSince,
      ...except,
    ),
  ];
}

/** Returns the messages not yet sent (pending and failed), oldest first. */
export function unsentMessages(store: Store): OutboxEntry[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM outbox WHERE status IN ('pending', 'failed') ORDER BY id`).all();
  return (rows as unknown as OutboxRow[]).map(toEntry);
}

/** Returns the messages of one booking, oldest first. */
export function messagesOfBooking(store: Store, bookingId: number): OutboxEntry[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM outbox WHERE booking_id = ? ORDER BY id`).all(bookingId);
  return (rows as unknown as OutboxRow[]).map(toEntry);
}

/** Puts failed messages (one, or all when `id` is undefined) back in the queue, due now; returns how many. */
export function requeueFailed(store: Store, id: number | undefined, nowAt: number): number {
  // Not a message whose booking was erased: its address and text are gone.
  const failed = "status = 'failed' AND recipient != '[erased]'";
  return id === undefined
    ? queue.requeue(store, nowAt, failed)
    : queue.requeue(store, nowAt, `${failed} AND id = ?`, id);
}

/**
 * The outbox at a glance. `retrying`: messages still waiting whose last attempt failed (the SMTP server is down or
 * refuses), waiting since `retryingSince` (Unix seconds: when the oldest of them was first due); `lastError`: the
 * latest attempt's error of a message not sent.
 */
export interface OutboxCounts {
  pending: number;
  scheduled: number;
  failed: number;
  retrying: number;
  retryingSince: number | null;
  lastError: string | null;
}

/** Returns how many messages wait (due or retrying), how many reminders are scheduled, and how many failed (one read). */
export function outboxCounts(store: Store, nowAt: number): OutboxCounts {
  const scheduled = countScheduledReminders(store, nowAt);
  const counts = store
    .sql(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
              count(*) FILTER (WHERE status = 'failed') AS failed,
              count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS retrying,
              min(retry_from) FILTER (WHERE status = 'pending' AND attempts > 0) AS retryingSince,
              (SELECT last_error FROM outbox WHERE status IN ('pending', 'failed') AND attempts > 0 AND last_error IS NOT NULL
               ORDER BY next_attempt_at DESC, id DESC LIMIT 1) AS lastError
       FROM outbox WHERE status IN ('pending', 'failed')`,
    )
    .get() as {
    pending: number;
    failed: number;
    retrying: number;
    retryingSince: number | null;
    lastError: string | null;
  };
  return { ...counts, pending: counts.pending - scheduled, scheduled };
}
