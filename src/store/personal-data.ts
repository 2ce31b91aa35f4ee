/**
 * Where a customer's personal data is stored, and its erasure. A booking keeps its skeleton (time,
 * schedule, reason, status, its history of changes); what the customer submitted, the mails written to them (and
 * about them, to the practice), the webhook payloads that carried their name and address, the kept answers of
 * their bookings' Idempotency-Keys and their self-service links go. The file's connections run with
 * `secure_delete`, so what is overwritten is zeroed; the caller checkpoints the WAL afterwards (`truncateWal`).
 */
import { bookingMatches, bookingSearch } from './bookings.ts';
import { BUSY_TIMEOUT_MS, type Store } from './db.ts';

/** What replaces an erased text where one must stay (a mail's recipient and subject, a name). */
export const ERASED = '[erased]';

/** A message scrubbed of its personal data: the one scrub, of an erase and of a message that ends after it. */
const SCRUBBED = `recipient = '${ERASED}', subject = '${ERASED}', body = '{}', last_error = NULL`;

/**
 * Scrubs message `id` when its booking is erased (the erase's own cancellation, which waited to be sent
 * while the rest was erased, loses the customer's data once it is sent, fails for good or is dropped). Returns
 * whether it was scrubbed. Call in the transaction that ends the message.
 */
export function scrubIfErased(store: Store, id: number): boolean {
  const sql = `UPDATE outbox SET ${SCRUBBED} WHERE id = ? AND recipient != '${ERASED}' AND (SELECT erased_at FROM bookings WHERE id = outbox.booking_id) IS NOT NULL`;
  return store.sql(sql).run(id).changes === 1;
}

/**
 * Erases the personal data of `bookingIds` (already cancelled where they had to be) at `at`; mails created at
 * `keepFrom` or later stay as they are while they wait (the erase's own cancellation: `scrubIfErased` scrubs each
 * once it is sent or fails). Returns the references of the bookings erased.
 */
export function eraseBookings(store: Store, bookingIds: readonly number[], at: string, keepFrom: string): string[] {
  if (bookingIds.length === 0) return [];
  const ids = JSON.stringify(bookingIds);
  const references = (
    store.sql('SELECT reference FROM bookings WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(ids) as {
      reference: string;
    }[]
  ).map((row) => row.reference);
  store
    .sql(
      `UPDATE bookings SET submission = '{}', cancel_reason = NULL, staff_note = '', erased_at = ?, searched = 0
       WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .run(at, ids);
  // Out of the search's index, which is merged at once: no trigram of a name stays in a segment of it.
  store.sql('DELETE FROM booking_search WHERE rowid IN (SELECT value FROM json_each(?))').run(ids);
  store.sql("INSERT INTO booking_search (booking_search) VALUES ('optimize')").run();
  // Mails: those that waited are dropped, unless the erase itself wrote them (its cancellation); the others scrubbed.
  store
    .sql(
      `DELETE FROM outbox WHERE booking_id IN (SELECT value FROM json_each(?)) AND status = 'pending' AND created_at < ?`,
    )
    .run(ids, keepFrom);
  store
    .sql(`UPDATE outbox SET ${SCRUBBED} WHERE booking_id IN (SELECT value FROM json_each(?)) AND status != 'pending'`)
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
    .sql(
      `DELETE FROM idempotency_keys WHERE json_extract(body, '$.booking_id') IN (SELECT value FROM json_each(?)) OR json_extract(body, '$.reference') IN (SELECT value FROM json_each(?))`,
    )
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

/**
 * Rewrites the file page by page (VACUUM) so that no copy of erased data stays outside the rows. `secure_delete`
 * zeroes the bytes a row gives up, but a page that SQLite rebuilt when it split or merged keeps earlier bytes of its
 * cells in its unused space, where no later delete reaches (a CI run of test/replication/erase.test.ts found an erased
 * surname there, in a bookings leaf page). About 0.1 s for 50,000 bookings. Returns undefined when done, else why not
 * (another connection's write held the file for `waitMs`, or the disk lacked the room for the copy): the server's
 * hourly pass tries again.
 */
export function rewriteFile(store: Store, waitMs = 0): string | undefined {
  store.db.exec(`PRAGMA busy_timeout = ${waitMs}`);
  try {
    store.db.exec('VACUUM');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    store.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/**
 * When a booking was last erased ('' for never): the server empties the WAL when this moved. The last entry of the
 * index bookings_by_erasure (migration 22), not a read of the whole table.
 */
export function lastErasedAt(store: Store): string {
  return (
    store.sql("SELECT coalesce(max(erased_at), '') AS at FROM bookings WHERE erased_at IS NOT NULL").get() as {
      at: string;
    }
  ).at;
}

/**
 * The rows `customer find` groups: every booking of each customer who has a booking that matches `needle` (among
 * `scheduleIds` only, when given: the desk's practitioner finds a customer by their own bookings alone).
 */
export function customerRowsMatching(
  store: Store,
  needle: string,
  callingCode: string,
  scheduleIds?: readonly number[],
): { customerId: number; email: string | null; reference: string; submission: string; scheduleId: number }[] {
  const search = bookingMatches(bookingSearch(needle, callingCode));
  return store
    .sql(
      `SELECT c.id AS customerId, c.email AS email, b.reference AS reference, b.submission AS submission,
         b.schedule_id AS scheduleId
       FROM customers c JOIN bookings b ON b.customer_id = c.id
       WHERE c.id IN (SELECT b.customer_id FROM bookings b WHERE ${search.sql}
         AND (:schedules IS NULL OR b.schedule_id IN (SELECT value FROM json_each(:schedules))))
       ORDER BY c.id, b.id`,
    )
    .all({ ...search.params, schedules: scheduleIds === undefined ? null : JSON.stringify(scheduleIds) }) as {
    customerId: number;
    email: string | null;
    reference: string;
    submission: string;
    scheduleId: number;
  }[];
}

/** Returns the customer of the booking `reference`, if there is one. */
export function customerOfReference(store: Store, reference: string): number | undefined {
  return (
    store.sql('SELECT customer_id AS id FROM bookings WHERE reference = ?').get(reference) as { id: number } | undefined
  )?.id;
}

/** The customer record: its id, its e-mail address (NULL once erased) and when it was made. */
export function customerRecord(store: Store, id: number): { id: number; email: string | null; createdAt: string } {
  return store.sql('SELECT id, email, created_at AS createdAt FROM customers WHERE id = ?').get(id) as {
    id: number;
    email: string | null;
    createdAt: string;
  };
}

/** A customer's bookings as an export shows them (the submission as stored, JSON). */
export interface CustomerBookingRow {
  id: number;
  reference: string;
  schedule: string;
  reason: string;
  startAt: number;
  status: string;
  source: string;
  createdAt: string;
  cancelReason: string | null;
  submission: string;
  /** Whether the customer came (the desk's mark), or null. */
  attendance: string | null;
  /** The staff's private note at the desk ('' for none): the customer's data too (GDPR Art. 15). */
  staffNote: string;
}

/** Returns every booking of customer `id`, by id. */
export function customerBookings(store: Store, id: number): CustomerBookingRow[] {
  return store
    .sql(
      `SELECT b.id, b.reference, s.name AS schedule, r.name AS reason, b.start_at AS startAt, b.status, b.source,
              b.created_at AS createdAt, b.cancel_reason AS cancelReason, b.submission, b.attendance,
              b.staff_note AS staffNote
       FROM bookings b JOIN schedules s ON s.id = b.schedule_id JOIN reasons r ON r.id = b.reason_id
       WHERE b.customer_id = ? ORDER BY b.id`,
    )
    .all(id) as unknown as CustomerBookingRow[];
}

/** Returns the mails of the bookings `ids` (the body as stored, JSON), oldest first. */
export function mailsOfBookings(store: Store, ids: readonly number[]) {
  return store
    .sql(
      `SELECT booking_id AS bookingId, kind, recipient, subject, body, status, created_at AS createdAt, sent_at AS sentAt
       FROM outbox WHERE booking_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    )
    .all(JSON.stringify(ids)) as {
    bookingId: number;
    kind: string;
    recipient: string;
    subject: string;
    body: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
  }[];
}

/** Returns the webhook deliveries that carry the bookings `ids` (the payload as stored, JSON), oldest first. */
export function deliveriesOfBookings(store: Store, ids: readonly number[]) {
  return store
    .sql(
      `SELECT d.payload, d.type, w.url, d.status, d.created_at AS createdAt, d.delivered_at AS deliveredAt
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE json_extract(d.payload, '$.data.booking_id') IN (SELECT value FROM json_each(?)) ORDER BY d.id`,
    )
    .all(JSON.stringify(ids)) as {
    payload: string;
    type: string;
    url: string;
    status: string;
    createdAt: string;
    deliveredAt: string | null;
  }[];
}

/** Returns when a self-service link was made for each of the bookings `ids`. */
export function linksOfBookings(store: Store, ids: readonly number[]) {
  return store
    .sql(
      'SELECT booking_id AS bookingId, created_at AS at FROM manage_links WHERE booking_id IN (SELECT value FROM json_each(?)) ORDER BY created_at',
    )
    .all(JSON.stringify(ids)) as { bookingId: number; at: string }[];
}

/** Returns the history of the bookings `ids` (made, moved, cancelled; by whom). */
export function changesOfBookings(store: Store, ids: readonly number[]) {
  return store
    .sql(
      'SELECT booking_id AS bookingId, at, kind, actor FROM booking_events WHERE booking_id IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
    .all(JSON.stringify(ids)) as { bookingId: number; at: string; kind: string; actor: string | null }[];
}

/** Returns the references of customer `id`'s bookings that are booked and begin after `now`, by start. */
export function futureReferencesOf(store: Store, id: number, now: number): string[] {
  return (
    store
      .sql(
        "SELECT reference FROM bookings WHERE customer_id = ? AND status = 'booked' AND start_at > ? ORDER BY start_at",
      )
      .all(id, now) as { reference: string }[]
  ).map((row) => row.reference);
}

/** Returns the ids of customer `id`'s bookings that are not erased yet. */
export function unerasedBookingsOf(store: Store, id: number): number[] {
  return (
    store.sql('SELECT id FROM bookings WHERE customer_id = ? AND erased_at IS NULL ORDER BY id').all(id) as {
      id: number;
    }[]
  ).map((row) => row.id);
}

/** Returns up to `limit` bookings that ended before `before` and are not erased: the retention's (the partial index bookings_to_anonymise). */
export function bookingsToAnonymise(store: Store, before: number, limit: number): { id: number; customerId: number }[] {
  return store
    .sql(
      'SELECT id, customer_id AS customerId FROM bookings WHERE end_at < ? AND erased_at IS NULL ORDER BY end_at LIMIT ?',
    )
    .all(before, limit) as {
    id: number;
    customerId: number;
  }[];
}
