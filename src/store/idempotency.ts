import type { Store } from './db.ts';

/** The answer kept for an Idempotency-Key. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

/** Returns the answer kept for `key` since `since` (Unix seconds), or undefined (never seen, or expired). */
export function keptAnswer(store: Store, key: string, since: number): KeptAnswer | undefined {
  return store
    .sql('SELECT fingerprint, status, body FROM idempotency_keys WHERE key = ? AND created_at >= ?')
    .get(key, since) as KeptAnswer | undefined;
}

/**
 * Keeps the answer to `key` unless a live one is kept already (an expired one is replaced); returns whether it was
 * kept. Forgets up to 50 keys older than `since`: a bounded range of `idempotency_keys_by_age`, never a scan. Call in
 * the transaction that made the answer.
 */
export function keepAnswer(store: Store, key: string, answer: KeptAnswer, nowAt: number, since: number): boolean {
  const kept =
    store
      .sql(
        `INSERT INTO idempotency_keys (key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at
       WHERE idempotency_keys.created_at < ?`,
      )
      .run(key, answer.fingerprint, answer.status, answer.body, nowAt, since).changes === 1;
  store
    .sql(
      'DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT 50)',
    )
    .run(since);
  return kept;
}
