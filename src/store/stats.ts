import type { Store } from './db.ts';

export type Counts = Record<'schedules' | 'reasons' | 'fields' | 'customers' | 'bookings' | 'upcoming', number>;

/** Returns counts for `planner status`. */
export function countRows(store: Store, nowAt: number): Counts {
  return store
    .sql(
      `SELECT (SELECT COUNT(*) FROM schedules WHERE removed_at IS NULL) AS schedules,
              (SELECT COUNT(*) FROM reasons r WHERE r.removed_at IS NULL AND EXISTS (SELECT 1 FROM reason_schedules o
                 JOIN schedules s ON s.id = o.schedule_id WHERE o.reason_id = r.id AND s.removed_at IS NULL)) AS reasons,
              (SELECT COUNT(*) FROM form_fields) AS fields,
              (SELECT COUNT(*) FROM customers) AS customers,
              (SELECT COUNT(*) FROM bookings) AS bookings,
              (SELECT COUNT(*) FROM bookings WHERE start_at >= ? AND status = 'booked') AS upcoming`,
    )
    .get(nowAt) as Counts;
}
