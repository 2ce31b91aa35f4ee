/**
 * The customer record: one per e-mail address, as `emailKey` (src/domain/checks.ts) compares addresses
 * (trimmed, ASCII case only), and one per booking made without an address. It groups the bookings made with one
 * address (the API's `user_id`; what a request for a person's data will look up), and holds nothing else: names, phone
 * numbers and other values belong to each booking's submission, since families and practices share addresses (a
 * parent books for two children; a placeholder address for customers without one). Every booking shows what was
 * submitted for it, everywhere.
 */
import { emailKey } from '../domain/checks.ts';
import type { Store } from './db.ts';

/** Returns the id of the customer with this e-mail address (`emailKey`); none for text that is not an address. */
export function findCustomerIdByEmail(store: Store, email: string): number | undefined {
  const key = emailKey(email);
  if (key === undefined) return undefined;
  const row = store.sql('SELECT id FROM customers WHERE email_key = ?').get(key) as { id: number } | undefined;
  return row?.id;
}

/**
 * Inserts a customer record for `email` (as first given, trimmed; null for a booking without one) and returns its id.
 * The name, phone and field columns of migration 1 stay empty (migration 7).
 */
export function insertCustomer(store: Store, email: string | null, at: string): number {
  const key = email === null ? null : emailKey(email);
  // The booking's submission was checked (checkSubmission): an address that is not one never gets here.
  if (key === undefined) throw new Error('a customer record needs an e-mail address or none');
  const result = store
    .sql('INSERT INTO customers (email_key, email, created_at) VALUES (?, ?, ?)')
    .run(key, email === null ? null : email.trim(), at);
  return Number(result.lastInsertRowid);
}
