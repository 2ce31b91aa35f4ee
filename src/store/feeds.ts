import { createHash, randomBytes } from 'node:crypto';
import type { Store } from './db.ts';

/**
 * The calendar feed of a schedule: `<url>/feed/<secret>.ics`. The secret is 32 random bytes (base64url, 43
 * characters); only its SHA-256 is stored, so the URL is shown once, when it is made.
 */

/** The shape of a secret: anything else is not looked up. */
export const FEED_SECRET = /^[A-Za-z0-9_-]{43}$/;

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Makes a new secret for the schedule's feed (the previous one stops working at once) and returns it. */
export function rotateFeedSecret(store: Store, scheduleId: number, at: string): string {
  const secret = randomBytes(32).toString('base64url');
  store
    .sql(
      `INSERT INTO feeds (schedule_id, secret_hash, created_at) VALUES (?, ?, ?)
       ON CONFLICT (schedule_id) DO UPDATE SET secret_hash = excluded.secret_hash, created_at = excluded.created_at`,
    )
    .run(scheduleId, hashOf(secret), at);
  return secret;
}

/** Returns when the schedule's feed URL was made, or undefined when it has none. */
export function feedMadeAt(store: Store, scheduleId: number): string | undefined {
  return (store.sql('SELECT created_at FROM feeds WHERE schedule_id = ?').get(scheduleId) as { created_at: string } | undefined)?.created_at;
}

/** Returns the schedule a secret opens, or undefined for a secret of another shape or one not (or no longer) valid. */
export function scheduleOfFeed(store: Store, secret: string): number | undefined {
  if (!FEED_SECRET.test(secret)) return undefined;
  return (store.sql('SELECT schedule_id FROM feeds WHERE secret_hash = ?').get(hashOf(secret)) as { schedule_id: number } | undefined)?.schedule_id;
}
