import type { Store } from './db.ts';

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
  const body = JSON.parse(row.body) as { text: string; html: string; ics: string };
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

const COLUMNS = 'id, booking_id, kind, recipient, subject, body, status, attempts, next_attempt_at, retry_from, last_error, created_at, sent_at';

/** Adds a message, due at once. Call inside the transaction that writes its booking. */
export function enqueue(store: Store, bookingId: number | null, message: OutgoingMessage, nowAt: number, createdAt: string): number {
  const body = JSON.stringify({ text: message.text, html: message.html, ics: message.ics });
  const result = store
    .sql(
      `INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(bookingId, message.kind, message.recipient, message.subject, body, nowAt, nowAt, createdAt);
  return Number(result.lastInsertRowid);
}

/** Returns up to `limit` pending messages that are due at `nowAt` and not held by a sender, oldest first. */
export function dueMessages(store: Store, nowAt: number, limit: number): OutboxEntry[] {
  const rows = store
    .sql(`SELECT ${COLUMNS} FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until <= ? ORDER BY id LIMIT ?`)
    .all(nowAt, nowAt, limit);
  return (rows as unknown as OutboxRow[]).map(toEntry);
}

/** Holds a pending message for one sender until `until`; returns false when another sender holds it or it is done. */
export function claim(store: Store, id: number, nowAt: number, until: number): boolean {
  return store.sql(`UPDATE outbox SET lease_until = ? WHERE id = ? AND status = 'pending' AND lease_until <= ?`).run(until, id, nowAt).changes === 1;
}

/** Marks a message sent. */
export function markSent(store: Store, id: number, sentAt: string): void {
  store.sql(`UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, lease_until = 0, last_error = NULL WHERE id = ?`).run(sentAt, id);
}

/** Records a failed attempt and when to try again. */
export function markRetry(store: Store, id: number, error: string, nextAt: number): void {
  store.sql('UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?, lease_until = 0 WHERE id = ?').run(error, nextAt, id);
}

/** Marks a message failed for good, with the reason. */
export function markFailed(store: Store, id: number, error: string): void {
  store.sql(`UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = 0 WHERE id = ?`).run(error, id);
}

/** Returns the messages not yet sent (pending and failed), oldest first. */
export function unsentMessages(store: Store): OutboxEntry[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM outbox WHERE status != 'sent' ORDER BY id`).all();
  return (rows as unknown as OutboxRow[]).map(toEntry);
}

/** Returns the messages of one booking, oldest first. */
export function messagesOfBooking(store: Store, bookingId: number): OutboxEntry[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM outbox WHERE booking_id = ? ORDER BY id`).all(bookingId);
  return (rows as unknown as OutboxRow[]).map(toEntry);
}

/** Puts failed messages (one, or all when `id` is undefined) back in the queue, due now; returns how many. */
export function requeueFailed(store: Store, id: number | undefined, nowAt: number): number {
  const sql = `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, retry_from = ?, lease_until = 0
               WHERE status = 'failed'`;
  const result = id === undefined ? store.sql(sql).run(nowAt, nowAt) : store.sql(`${sql} AND id = ?`).run(nowAt, nowAt, id);
  return Number(result.changes);
}

/** Returns how many messages are pending and failed. */
export function outboxCounts(store: Store): { pending: number; failed: number } {
  return store
    .sql(`SELECT (SELECT COUNT(*) FROM outbox WHERE status = 'pending') AS pending, (SELECT COUNT(*) FROM outbox WHERE status = 'failed') AS failed`)
    .get() as { pending: number; failed: number };
}
