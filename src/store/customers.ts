/**
 * The customer record (issue 23): one per e-mail address, compared trimmed and case-insensitive, and one per booking
 * made without an address. It groups the bookings made with one address (the API's `user_id`; what a request for a
 * person's data will look up), and holds nothing else: names, phone numbers and other values belong to each
 * booking's submission, since families and practices share addresses (a parent books for two children; a placeholder
 * address for customers without one). Every booking shows what was submitted for it, everywhere.
 */
import type { Store } from './db.ts';

/** Returns the key customers are matched by: the e-mail address trimmed and lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Returns the id of the customer with this e-mail address (case-insensitive, trimmed). */
export function findCustomerIdByEmail(store: Store, email: string): number | undefined {
  const row = store.sql('SELECT id FROM customers WHERE email_key = ?').get(emailKey(email)) as { id: number } | undefined;
  return row?.id;
}

/**
 * Inserts a customer record for `email` (as first given, trimmed; null for a booking without one) and returns its id.
 * The name, phone and field columns of migration 1 stay empty (migration 7).
 */
export function insertCustomer(store: Store, email: string | null, at: string): number {
  const result = store
    .sql('INSERT INTO customers (email_key, email, created_at) VALUES (?, ?, ?)')
    .run(email === null ? null : emailKey(email), email === null ? null : email.trim(), at);
  return Number(result.lastInsertRowid);
}
