/**
 * The Google OAuth web flows under way (migration 21): a row per `state` planner gave Google (its SHA-256: the state
 * itself is a secret of the command that made it), until the code Google sent back to planner's public address is
 * taken by that command.
 */
import type { Store } from './db.ts';

/** Starts a flow whose `state` hashes to `stateHash`, at `at` (Unix seconds); flows older than `expiredBefore` go. */
export function insertConsent(store: Store, stateHash: string, at: number, expiredBefore: number): void {
  store.sql('DELETE FROM calendar_consents WHERE created_at < ?').run(expiredBefore);
  store.sql('INSERT INTO calendar_consents (state_hash, created_at) VALUES (?, ?)').run(stateHash, at);
}

/**
 * Records Google's answer (a code, or an error) to the flow of `stateHash` when it is under way, started at or after
 * `startedAfter`, and not answered yet; returns whether it was.
 */
export function answerConsent(
  store: Store,
  stateHash: string,
  startedAfter: number,
  answer: { code: string } | { error: string },
): boolean {
  const result = store
    .sql(
      'UPDATE calendar_consents SET code = ?, error = ? WHERE state_hash = ? AND created_at >= ? AND code IS NULL AND error IS NULL',
    )
    .run('code' in answer ? answer.code : null, 'error' in answer ? answer.error : null, stateHash, startedAfter);
  return result.changes > 0;
}

/** Takes the answer to the flow of `stateHash` (deleting the row) when it came; undefined while it has not. */
export function takeConsent(
  store: Store,
  stateHash: string,
): { code: string | null; error: string | null } | undefined {
  const row = store.sql('SELECT code, error FROM calendar_consents WHERE state_hash = ?').get(stateHash) as
    | { code: string | null; error: string | null }
    | undefined;
  if (!row || (row.code === null && row.error === null)) return undefined;
  store.sql('DELETE FROM calendar_consents WHERE state_hash = ?').run(stateHash);
  return row;
}

/** Ends the flow of `stateHash` without an answer (the command gave up waiting). */
export function dropConsent(store: Store, stateHash: string): void {
  store.sql('DELETE FROM calendar_consents WHERE state_hash = ?').run(stateHash);
}
