/**
 * The log of what each change of a booking touched (migration 6), written by triggers whoever writes: the server's
 * cache of free days (src/app/bookings/days-cache.ts) follows it to forget only the days a change touched. Each entry is the
 * time the booking blocked (src/domain/blocking.ts) before or after the change.
 */
import type { Store } from './db.ts';

/** One change of a booking as the log keeps it: the time the booking blocked before or after it. */
export interface BookingChange {
  id: number;
  scheduleId: number;
  fromAt: number;
  toAt: number;
}

interface ChangeRow {
  id: number;
  schedule_id: number;
  from_at: number;
  to_at: number;
}

function toChange(row: ChangeRow): BookingChange {
  return { id: row.id, scheduleId: row.schedule_id, fromAt: row.from_at, toAt: row.to_at };
}

/**
 * Returns the changes logged after `afterId`, oldest first (a range of the primary key: nothing when nothing
 * changed). The log keeps the last 10,000; a caller whose `afterId` was pruned sees the first id skip ahead.
 */
export function bookingChangesSince(store: Store, afterId: number): BookingChange[] {
  const rows = store
    .sql('SELECT id, schedule_id, from_at, to_at FROM booking_changes WHERE id > ? ORDER BY id')
    .all(afterId);
  return (rows as unknown as ChangeRow[]).map(toChange);
}

/** Returns the id of the last logged change of a booking (0 when none). */
export function lastBookingChange(store: Store): number {
  return (store.sql('SELECT coalesce(max(id), 0) AS id FROM booking_changes').get() as { id: number }).id;
}
