import type { Store } from './db.ts';

/** Who made a change: the admin (CLI), the customer (the self-service page) or an integrator (the API). */
export type BookingActor = 'admin' | 'customer' | 'api';
export type BookingEventKind = 'created' | 'moved' | 'cancelled';

/** One change of a booking (migration 9). */
export interface BookingEvent {
  /** When (ISO instant). */
  at: string;
  kind: BookingEventKind;
  /** Null for a change made before planner recorded who made it. */
  actor: BookingActor | null;
  /** A move: the start it had before (Unix seconds); else null. */
  previousStartAt: number | null;
}

interface BookingEventRow {
  at: string;
  kind: BookingEventKind;
  actor: BookingActor | null;
  previous_start: number | null;
}

/** Records a change of a booking. Call inside the transaction that makes the change. */
export function insertBookingEvent(store: Store, bookingId: number, event: BookingEvent): void {
  store
    .sql('INSERT INTO booking_events (booking_id, at, kind, actor, previous_start) VALUES (?, ?, ?, ?, ?)')
    .run(bookingId, event.at, event.kind, event.actor, event.previousStartAt);
}

/** Returns the changes of a booking, oldest first (one range of booking_events_by_booking). */
export function bookingEvents(store: Store, bookingId: number): BookingEvent[] {
  const rows = store
    .sql('SELECT at, kind, actor, previous_start FROM booking_events WHERE booking_id = ? ORDER BY id')
    .all(bookingId) as unknown as BookingEventRow[];
  return rows.map((row) => ({ at: row.at, kind: row.kind, actor: row.actor, previousStartAt: row.previous_start }));
}
