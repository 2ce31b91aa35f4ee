import type { Store } from './db.ts';

/** The details of a customer taken from a booking's submission. */
export interface CustomerValues {
  email: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  /** Every other submitted field, kept as given. */
  fields: Record<string, unknown>;
}

/** Returns the key customers are matched by: the e-mail address trimmed and lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Returns the id of the customer with this e-mail address (case-insensitive, trimmed). */
export function findCustomerIdByEmail(store: Store, email: string): number | undefined {
  const row = store.sql('SELECT id FROM customers WHERE email_key = ?').get(emailKey(email)) as { id: number } | undefined;
  return row?.id;
}

/** Inserts a customer and returns its id. */
export function insertCustomer(store: Store, customer: CustomerValues, at: string): number {
  const result = store
    .sql(
      `INSERT INTO customers (email_key, email, first_name, last_name, phone, fields, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      customer.email === null ? null : emailKey(customer.email),
      customer.email === null ? null : customer.email.trim(),
      customer.firstName,
      customer.lastName,
      customer.phone,
      JSON.stringify(customer.fields),
      at,
    );
  return Number(result.lastInsertRowid);
}
