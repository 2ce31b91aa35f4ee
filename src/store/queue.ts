/**
 * The state of a queue's items, for every queue planner keeps: the mail outbox (outbox.ts), webhook
 * deliveries (webhooks.ts) and the bookings written into practitioners' calendars (calendar-writes.ts). Each table has
 * the same columns for it: `status` ('pending', its done word, 'failed'), `attempts`, `next_attempt_at` (Unix seconds),
 * `lease_until` (a sender holds the item until then), `retry_from` (the start of its retry period), `last_error`, and
 * the time it was done. The statements that move an item between those states are written here once; what an item
 * is, and how it is read with what it needs, stays with its table.
 */
import type { Store } from './db.ts';

/** A queue table: its name, the status and column of an item that is done. */
export interface QueueTable {
  table: 'outbox' | 'webhook_deliveries' | 'calendar_writes';
  /** The status of an item that is done: 'sent', 'delivered', 'written'. */
  done: string;
  /** The column that holds when it was done (ISO time). */
  doneAt: string;
}

/** The condition of an item due at `?` and not held at `?` (the two parameters, both now): one range of its due index. */
export function dueCondition(alias: string): string {
  return `${alias}.status = 'pending' AND ${alias}.next_attempt_at <= ? AND ${alias}.lease_until <= ?`;
}

/** The statements that move an item of `queue` from one state to the next. */
export function queueStates(queue: QueueTable) {
  const { table, done, doneAt } = queue;
  return {
    /**
     * Holds a pending item for one sender until `until`; false when another sender holds it or it is done. An item
     * never tried (`retry_from` 0: queued by a trigger, which knows no clock of the app's) starts its retry period now.
     */
    claim(store: Store, id: number, nowAt: number, until: number): boolean {
      return (
        store
          .sql(
            `UPDATE ${table} SET lease_until = ?, retry_from = CASE retry_from WHEN 0 THEN ? ELSE retry_from END WHERE id = ? AND status = 'pending' AND lease_until <= ?`,
          )
          .run(until, nowAt, id, nowAt).changes === 1
      );
    },
    /** Marks an item done at `at`; `returning` (a RETURNING clause) reads something of it as it is marked. */
    done(store: Store, id: number, at: string, returning = ''): Record<string, unknown> | undefined {
      return store
        .sql(
          `UPDATE ${table} SET status = '${done}', ${doneAt} = ?, attempts = attempts + 1, lease_until = 0, last_error = NULL WHERE id = ? ${returning}`,
        )
        .get(at, id);
    },
    /** Records a failed attempt and when to try again. */
    retry(store: Store, id: number, error: string, nextAt: number): void {
      store
        .sql(
          `UPDATE ${table} SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?, lease_until = 0 WHERE id = ?`,
        )
        .run(error, nextAt, id);
    },
    /** Marks an item failed for good, with the reason; `returning` as for `done`. */
    failed(store: Store, id: number, error: string, returning = ''): Record<string, unknown> | undefined {
      return store
        .sql(
          `UPDATE ${table} SET status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = 0 WHERE id = ? ${returning}`,
        )
        .get(error, id);
    },
    /**
     * Puts items back in the queue, due at `nowAt` with a fresh retry period: those `where` (a condition on the
     * table, with `params`) selects. Returns how many.
     */
    requeue(store: Store, nowAt: number, where: string, ...params: (number | string)[]): number {
      const sql = `UPDATE ${table} SET status = 'pending', attempts = 0, next_attempt_at = ?, retry_from = ?, lease_until = 0, ${doneAt} = NULL WHERE ${where}`;
      return Number(store.sql(sql).run(nowAt, nowAt, ...params).changes);
    },
  };
}
