import type { Store } from './db.ts';

/** Who made a change: the admin (CLI), the customer (the pages), an integrator (the API), a person at the desk. */
export type BookingActor = 'admin' | 'customer' | 'api' | 'staff';
/** What changed: the booking's life, and the desk's marks (attendance, its undo, the note, a confirmation sent again). */
export type BookingEventKind =
  | 'created'
  | 'moved'
  | 'cancelled'
  | 'arrived'
  | 'no_show'
  | 'attendance_undone'
  | 'noted'
  | 'confirmation_sent';

/** One change of a booking (migration 9). */
export interface BookingEvent {
  /** When (ISO instant). */
  at: string;
  kind: BookingEventKind;
  /** Null for a change made before planner recorded who made it. */
  actor: BookingActor | null;
  /** A move: the start it had before (Unix seconds); else null. */
  previousStartAt: number | null;
  /** The person at the desk (actor 'staff'), else absent. */
  staffId?: number;
}

/** A change as the history shows it: with the desk person's name and role (actor 'staff'). */
export interface BookingEventShown extends BookingEvent {
  staff?: { name: string; role: string };
}

interface BookingEventRow {
  at: string;
  kind: BookingEventKind;
  actor: BookingActor | null;
  previous_start: number | null;
  staff_id: number | null;
  staff_name: string | null;
  staff_role: string | null;
}

/** Records a change of a booking. Call inside the transaction that makes the change. */
export function insertBookingEvent(store: Store, bookingId: number, event: BookingEvent): void {
  store
    .sql('INSERT INTO booking_events (booking_id, at, kind, actor, previous_start, staff_id) VALUES (?, ?, ?, ?, ?, ?)')
    .run(bookingId, event.at, event.kind, event.actor, event.previousStartAt, event.staffId ?? null);
}

/** Returns the changes of a booking, oldest first (one range of booking_events_by_booking). */
export function bookingEvents(store: Store, bookingId: number): BookingEventShown[] {
  const rows = store
    .sql(
      `SELECT e.at, e.kind, e.actor, e.previous_start, e.staff_id, p.name AS staff_name, p.role AS staff_role
       FROM booking_events e LEFT JOIN staff p ON p.id = e.staff_id WHERE e.booking_id = ? ORDER BY e.id`,
    )
    .all(bookingId) as unknown as BookingEventRow[];
  return rows.map((row) => ({
    at: row.at,
    kind: row.kind,
    actor: row.actor,
    previousStartAt: row.previous_start,
    ...(row.staff_id === null
      ? {}
      : { staffId: row.staff_id, staff: { name: row.staff_name!, role: row.staff_role! } }),
  }));
}
