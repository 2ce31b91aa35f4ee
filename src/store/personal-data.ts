/**
 * Where a customer's personal data is stored, and its erasure (issue 28). A booking keeps its skeleton (time,
 * schedule, reason, status, its history of changes); what the customer submitted, the mails written to them (and
 * about them, to the practice), the webhook payloads that carried their name and address, the kept answers of
 * their bookings' Idempotency-Keys and their self-service links go. The file's connections run with
 * `secure_delete`, so what is overwritten is zeroed; the caller checkpoints the WAL afterwards (`truncateWal`).
 */
import { BUSY_TIMEOUT_MS, type Store } from './db.ts';

/** What replaces an erased text where one must stay (a mail's recipient and subject, a name). */
export const ERASED = '[erased]';

/**
 * Erases the personal data of `bookingIds` (already cancelled where they had to be) at `at`; mails created at
 * `keepFrom` or later stay as they are while they wait (the erase's own cancellation: the trigger of migration 12
 * scrubs each once it is sent or fails). Returns the references of the bookings erased.
 */
export function eraseBookings(store: Store, bookingIds: readonly number[], at: string, keepFrom: string): string[] {
  if (bookingIds.length === 0) return [];
  const ids = JSON.stringify(bookingIds);
  const references = (store.sql('SELECT reference FROM bookings WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(ids) as { reference: string }[]).map((row) => row.reference);
  store.sql(`UPDATE bookings SET submission = '{}', cancel_reason = NULL, erased_at = ? WHERE id IN (SELECT value FROM json_each(?))`).run(at, ids);
  // Mails: those that waited are dropped, unless the erase itself wrote them (its cancellation); the others scrubbed.
  store.sql(`DELETE FROM outbox WHERE booking_id IN (SELECT value FROM json_each(?)) AND status = 'pending' AND created_at < ?`).run(ids, keepFrom);
  store
    .sql(`UPDATE outbox SET recipient = '${ERASED}', subject = '${ERASED}', body = '{}', last_error = NULL WHERE booking_id IN (SELECT value FROM json_each(?)) AND status != 'pending'`)
    .run(ids);
  // Webhook payloads lose the customer, waiting ones too: the erase's own cancellation events go without it (an
  // integrator knows the booking by its id), so nothing of the customer waits in the file for a delivery.
  store
    .sql(
      `UPDATE webhook_deliveries SET payload = json_remove(payload, '$.data.customer'), last_error = NULL
       WHERE json_extract(payload, '$.data.booking_id') IN (SELECT value FROM json_each(?)) AND json_extract(payload, '$.data.customer') IS NOT NULL`,
    )
    .run(ids);
  store
    .sql(`DELETE FROM idempotency_keys WHERE json_extract(body, '$.booking_id') IN (SELECT value FROM json_each(?)) OR json_extract(body, '$.reference') IN (SELECT value FROM json_each(?))`)
    .run(ids, JSON.stringify(references));
  store.sql('DELETE FROM manage_links WHERE booking_id IN (SELECT value FROM json_each(?))').run(ids);
  return references;
}

/** Erases the customer records of `customerIds` whose bookings are all erased (the record is their e-mail address). */
export function eraseCustomersWithoutData(store: Store, customerIds: readonly number[]): number {
  return store
    .sql(
      `UPDATE customers SET email = NULL, email_key = NULL, first_name = '${ERASED}', last_name = '', phone = '', fields = '{}'
       WHERE id IN (SELECT value FROM json_each(?)) AND email_key IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_id = customers.id AND b.erased_at IS NULL)`,
    )
    .run(JSON.stringify(customerIds)).changes as number;
}

/** What became of the WAL after an erase: emptied; kept by another process's read (try again later); left to Litestream. */
export type WalOutcome = 'emptied' | 'busy' | 'replicated';

/**
 * True when Litestream has opened this file to replicate it: it makes its table `_litestream_seq` in the database
 * the first time, before it holds or copies anything (and the table stays, in a restored file too).
 */
export function replicatedByLitestream(store: Store): boolean {
  return store.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_litestream_seq'").get() !== undefined;
}

/**
 * Writes the WAL's pages into the file and empties it (`wal_checkpoint(TRUNCATE)`), so that no older copy of an
 * erased row stays in it. Returns 'busy' when another connection's read kept it from finishing (a backup, a CLI
 * command): then the copy stays until a later call succeeds. `waitMs` 0 (the server) never waits for that reader, so
 * no request waits. On a file Litestream replicates it does nothing and returns 'replicated': the WAL's checkpoints are
 * Litestream's there (CONTRIBUTING: "Planner and Litestream" says why, test/replication/erase.test.ts shows it).
 */
export function truncateWal(store: Store, waitMs = 0): WalOutcome {
  if (replicatedByLitestream(store)) return 'replicated';
  store.db.exec(`PRAGMA busy_timeout = ${waitMs}`);
  try {
    const result = store.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    return result.busy === 0 ? 'emptied' : 'busy';
  } catch {
    return 'busy';
  } finally {
    store.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** When a booking was last erased ('' for never): the server empties the WAL when this moved. */
export function lastErasedAt(store: Store): string {
  return (store.sql('SELECT coalesce(max(erased_at), \'\') AS at FROM bookings').get() as { at: string }).at;
}
