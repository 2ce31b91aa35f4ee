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
  return (
    store.sql('SELECT created_at FROM feeds WHERE schedule_id = ?').get(scheduleId) as
      | { created_at: string }
      | undefined
  )?.created_at;
}

/** Returns how many schedules have a feed URL. */
export function countFeeds(store: Store): number {
  return (store.sql('SELECT count(*) AS n FROM feeds').get() as { n: number }).n;
}

/** A schedule's feed as the secret opens it, with the body it last served. */
export interface OpenedFeed {
  scheduleId: number;
  /** The ETag of the body last served, and since when (Unix ms) it has been served; null before the first. */
  servedEtag: string | null;
  servedSince: number | null;
}

/** Returns the feed a secret opens, or undefined for a secret of another shape or one not (or no longer) valid. */
export function openFeed(store: Store, secret: string): OpenedFeed | undefined {
  if (!FEED_SECRET.test(secret)) return undefined;
  const row = store
    .sql('SELECT schedule_id, served_etag, served_since FROM feeds WHERE secret_hash = ?')
    .get(hashOf(secret)) as
    | { schedule_id: number; served_etag: string | null; served_since: number | null }
    | undefined;
  return row && { scheduleId: row.schedule_id, servedEtag: row.served_etag, servedSince: row.served_since };
}

/**
 * Records that the schedule's feed serves the body `etag` since `since` (Unix ms), unless it already does (another
 * server got there first). Returns since when the feed serves that body.
 */
export function markFeedServed(store: Store, scheduleId: number, etag: string, since: number): number {
  return store.tx(() => {
    store
      .sql('UPDATE feeds SET served_etag = ?, served_since = ? WHERE schedule_id = ? AND served_etag IS NOT ?')
      .run(etag, since, scheduleId, etag);
    return (
      store.sql('SELECT served_since FROM feeds WHERE schedule_id = ?').get(scheduleId) as { served_since: number }
    ).served_since;
  });
}
