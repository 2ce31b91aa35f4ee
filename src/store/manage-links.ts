import { createHash, randomBytes } from 'node:crypto';
import type { Store } from './db.ts';

/**
 * The self-service page's links. Each customer mail that carries a link gets a token of its own, made when the mail
 * is sent: 32 random bytes (256 bits), base64url (43 characters). Only its SHA-256 is stored, with the booking it
 * opens: a token is as unguessable as a key, so a fast hash suffices (argon2 would put a slow hash on every page view).
 */

/** The shape of a token: anything else is not looked up. */
export const MANAGE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Makes a new token for `bookingId`, stores its hash, and returns the token (to be put in one mail, never stored). */
export function createManageToken(store: Store, bookingId: number, createdAt: string): string {
  const token = randomBytes(32).toString('base64url');
  store
    .sql('INSERT INTO manage_links (token_hash, booking_id, created_at) VALUES (?, ?, ?)')
    .run(hashOf(token), bookingId, createdAt);
  return token;
}

/** Returns the booking id a token opens, or undefined for a token of another shape or one never made. */
export function bookingOfManageToken(store: Store, token: string): number | undefined {
  if (!MANAGE_TOKEN.test(token)) return undefined;
  const row = store.sql('SELECT booking_id FROM manage_links WHERE token_hash = ?').get(hashOf(token)) as
    | { booking_id: number }
    | undefined;
  return row?.booking_id;
}
