import { phoneDigits, searchText, type Store } from './db.ts';
import type { BookedInterval } from '../domain/availability.ts';
import type { BookedTime } from '../domain/refusal.ts';

export type BookingSource = 'api' | 'admin';
export type BookingStatus = 'booked' | 'cancelled';

/** A booking as the admin sees it, with the names it refers to. Times are UTC instants in Unix seconds. */
export interface Booking {
  id: number;
  reference: string;
  scheduleId: number;
  scheduleName: string;
  reasonId: number;
  reasonName: string;
  customerId: number;
  customerName: string;
  customerFirstName: string;
  customerLastName: string;
  customerEmail: string | null;
  /** The phone number submitted with it ('' when none). */
  customerPhone: string;
  startAt: number;
  endAt: number;
  submission: Record<string, unknown>;
  source: BookingSource;
  createdAt: string;
  status: BookingStatus;
  /** The .ics SEQUENCE: 0 when booked, +1 for each move or cancellation. */
  sequence: number;
  changedAt: string | null;
  cancelReason: string | null;
}

interface BookingRow {
  id: number;
  reference: string;
  schedule_id: number;
  schedule_name: string;
  reason_id: number;
  reason_name: string;
  customer_id: number;
  start_at: number;
  end_at: number;
  submission: string;
  source: BookingSource;
  created_at: string;
  status: BookingStatus;
  sequence: number;
  changed_at: string | null;
  cancel_reason: string | null;
}

/** Returns the start instants of the bookings still on (booked) that start at `fromAt` or later. */
export function upcomingStarts(store: Store, fromAt: number): number[] {
  return (store.sql("SELECT start_at FROM bookings WHERE status = 'booked' AND start_at >= ?").all(fromAt) as { start_at: number }[]).map(
    (row) => row.start_at,
  );
}

/** Returns the submitted value of `key` when it is text (a field made a checkbox holds true or false), else ''. */
function submittedText(submission: Record<string, unknown>, key: string): string {
  const value = submission[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The customer as submitted with this booking: every appointment shows what was given for it (issue 23), never the
 * details of whoever first booked with the same e-mail address (families share one). The customer record only
 * groups bookings by address (src/store/customers.ts).
 */
function customerOf(submission: Record<string, unknown>) {
  const firstName = submittedText(submission, 'first_name');
  const lastName = submittedText(submission, 'last_name');
  const email = submittedText(submission, 'email').trim();
  return {
    customerName: `${firstName} ${lastName}`.trim(),
    customerFirstName: firstName,
    customerLastName: lastName,
    customerEmail: email === '' ? null : email,
    customerPhone: submittedText(submission, 'phone').trim(),
  };
}

function toBooking(row: BookingRow): Booking {
  const submission = JSON.parse(row.submission) as Record<string, unknown>;
  return {
    id: row.id,
    reference: row.reference,
    scheduleId: row.schedule_id,
    scheduleName: row.schedule_name,
    reasonId: row.reason_id,
    reasonName: row.reason_name,
    customerId: row.customer_id,
    ...customerOf(submission),
    startAt: row.start_at,
    endAt: row.end_at,
    submission,
    source: row.source,
    createdAt: row.created_at,
    status: row.status,
    sequence: row.sequence,
    changedAt: row.changed_at,
    cancelReason: row.cancel_reason,
  };
}

const SELECT = `
  SELECT b.id, b.reference, b.schedule_id, s.name AS schedule_name, b.reason_id, r.name AS reason_name,
         b.customer_id, b.start_at, b.end_at, b.submission, b.source, b.created_at,
         b.status, b.sequence, b.changed_at, b.cancel_reason
  FROM bookings b
  JOIN schedules s ON s.id = b.schedule_id
  JOIN reasons r ON r.id = b.reason_id`;

/** What `planner bookings list` asks for: a range of starts, and optionally a schedule, a status and a search text. */
export interface BookingFilter {
  /** First start (Unix seconds), inclusive. */
  fromAt: number;
  /** End of the range (Unix seconds), exclusive; none: open. */
  toAt?: number;
  scheduleId?: number;
  status?: BookingStatus;
  /** Part of the name (first and last), e-mail, phone or reference, in any case (`searchText` in db.ts). */
  search?: string;
}

/**
 * Returns the bookings that start in the filter's range, by start: one statement for every combination of filters
 * (a range of bookings_by_start; the other conditions are checked on its rows). The search compares the text
 * folded as `searchText` folds it (case, Unicode compatibility forms), and a phone also by its digits alone.
 */
export function listBookings(store: Store, filter: BookingFilter): Booking[] {
  const search = filter.search === undefined ? null : searchText(filter.search);
  const digits = filter.search === undefined ? '' : phoneDigits(filter.search);
  const rows = store
    .sql(
      `${SELECT}
       WHERE b.start_at >= :from AND b.start_at < :to
         AND (:schedule IS NULL OR b.schedule_id = :schedule)
         AND (:status IS NULL OR b.status = :status)
         AND (:search IS NULL
              OR instr(planner_search(b.reference), :search) > 0
              OR instr(planner_search(concat_ws(' ', b.submission ->> '$.first_name', b.submission ->> '$.last_name')), :search) > 0
              OR instr(planner_search(b.submission ->> '$.email'), :search) > 0
              OR instr(planner_search(b.submission ->> '$.phone'), :search) > 0
              OR (:digits <> '' AND instr(planner_digits(b.submission ->> '$.phone'), :digits) > 0))
       ORDER BY b.start_at, b.id`,
    )
    .all({
      from: filter.fromAt,
      to: filter.toAt ?? Number.MAX_SAFE_INTEGER,
      schedule: filter.scheduleId ?? null,
      status: filter.status ?? null,
      search,
      digits,
    });
  return (rows as unknown as BookingRow[]).map(toBooking);
}

/** Returns the booking with this id or public reference. */
export function findBooking(store: Store, idOrReference: number | string): Booking | undefined {
  const row =
    typeof idOrReference === 'number'
      ? store.sql(`${SELECT} WHERE b.id = ?`).get(idOrReference)
      : store.sql(`${SELECT} WHERE b.reference = ?`).get(idOrReference);
  return row ? toBooking(row as unknown as BookingRow) : undefined;
}

/** Returns how many bookings start at or after `fromAt`, in one schedule or for one reason. */
export function countFutureBookings(store: Store, by: { scheduleId: number } | { reasonId: number }, fromAt: number): number {
  const row =
    'scheduleId' in by
      ? store.sql("SELECT COUNT(*) AS n FROM bookings WHERE schedule_id = ? AND start_at >= ? AND status = 'booked'").get(by.scheduleId, fromAt)
      : store.sql("SELECT COUNT(*) AS n FROM bookings WHERE reason_id = ? AND start_at >= ? AND status = 'booked'").get(by.reasonId, fromAt);
  return (row as { n: number }).n;
}

/** Inserts a booking row and returns its id. Call inside the transaction that checked the slot. */
export function insertBooking(
  store: Store,
  booking: {
    reference: string;
    scheduleId: number;
    reasonId: number;
    customerId: number;
    startAt: number;
    endAt: number;
    submission: Record<string, unknown>;
    source: BookingSource;
    createdAt: string;
    /** Seconds kept free before and after it (its reason's buffers when booked). */
    buffers: Buffers;
  },
): number {
  const result = store
    .sql(
      `INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at, buffer_before, buffer_after)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      booking.reference,
      booking.scheduleId,
      booking.reasonId,
      booking.customerId,
      booking.startAt,
      booking.endAt,
      JSON.stringify(booking.submission),
      booking.source,
      booking.createdAt,
      booking.buffers.before,
      booking.buffers.after,
    );
  return Number(result.lastInsertRowid);
}

/** Seconds a booking keeps free before and after itself. */
export interface Buffers {
  before: number;
  after: number;
}

/** The longest buffer, in seconds (reasons allow 240 minutes): how far the query below looks past its window. */
const BUFFER_MAX_SECONDS = 240 * 60;

/**
 * Returns the intervals the bookings of a schedule keep, buffers included, that come within a buffer of [from, to),
 * in the order they begin: one range of `bookings_by_schedule_keeps` for a whole window. No booking keeps more than a
 * day and two buffers, so one that begins before `from - 1 day - 2 buffers` cannot reach it. Cancelled bookings never
 * count. `except` leaves one booking out (the one being moved).
 */
export function bookedIntervals(store: Store, scheduleId: number, from: number, to: number, except = 0): BookedInterval[] {
  return store
    .sql(
      `SELECT keeps_from AS startAt, end_at + buffer_after AS endAt FROM bookings
       WHERE schedule_id = ? AND keeps_from >= ? AND keeps_from < ? AND end_at + buffer_after > ? AND status = 'booked' AND id <> ?
       ORDER BY keeps_from`,
    )
    .all(scheduleId, from - 86_400 - 2 * BUFFER_MAX_SECONDS, to + BUFFER_MAX_SECONDS, from - BUFFER_MAX_SECONDS, except) as unknown as BookedInterval[];
}

/**
 * Returns what `bookedIntervals` returns, each with its appointment without buffers (`appointmentStartAt`,
 * `appointmentEndAt`): for telling why a time is refused, off the hot paths.
 */
export function bookedTimes(store: Store, scheduleId: number, from: number, to: number, except = 0): BookedTime[] {
  return store
    .sql(
      `SELECT keeps_from AS startAt, end_at + buffer_after AS endAt, start_at AS appointmentStartAt, end_at AS appointmentEndAt FROM bookings
       WHERE schedule_id = ? AND keeps_from >= ? AND keeps_from < ? AND end_at + buffer_after > ? AND status = 'booked' AND id <> ?
       ORDER BY keeps_from`,
    )
    .all(scheduleId, from - 86_400 - 2 * BUFFER_MAX_SECONDS, to + BUFFER_MAX_SECONDS, from - BUFFER_MAX_SECONDS, except) as unknown as BookedTime[];
}

/** Marks a booking cancelled (with the admin's reason) and counts the change in its sequence. */
export function cancelBookingRow(store: Store, id: number, reason: string | null, at: string): void {
  store
    .sql("UPDATE bookings SET status = 'cancelled', cancel_reason = ?, sequence = sequence + 1, changed_at = ? WHERE id = ? AND status = 'booked'")
    .run(reason, at, id);
}

/**
 * Moves a booking to a new interval (with its reason's buffers as they are now), keeping its id and reference, and
 * counts the change in its sequence.
 */
export function moveBookingRow(store: Store, id: number, startAt: number, endAt: number, buffers: Buffers, at: string): void {
  store
    .sql('UPDATE bookings SET start_at = ?, end_at = ?, buffer_before = ?, buffer_after = ?, sequence = sequence + 1, changed_at = ? WHERE id = ?')
    .run(startAt, endAt, buffers.before, buffers.after, at, id);
}

/** A booking as the practitioner's feed shows it. */
export interface FeedRow {
  reference: string;
  startAt: number;
  endAt: number;
  sequence: number;
  cancelled: boolean;
  reasonName: string;
  customerName: string;
  email: string | null;
  phone: string;
  /** What was submitted with the booking (its JSON, parsed). */
  submission: Record<string, unknown>;
  /** When it was made or last changed (ISO). */
  changedAt: string;
}

function feedCustomer(row: { first_name: unknown; last_name: unknown; email: unknown; phone: unknown }) {
  const { customerName, customerEmail } = customerOf({ first_name: row.first_name, last_name: row.last_name, email: row.email });
  return { customerName, email: customerEmail, phone: typeof row.phone === 'string' ? row.phone : '' };
}

/** Returns the bookings of a schedule starting in [from, to), cancelled ones too, by start: one indexed range. */
export function feedBookings(store: Store, scheduleId: number, from: number, to: number): FeedRow[] {
  const rows = store
    .sql(
      `SELECT b.reference, b.start_at, b.end_at, b.sequence, b.status, r.name AS reason_name,
              b.submission ->> '$.first_name' AS first_name, b.submission ->> '$.last_name' AS last_name,
              b.submission ->> '$.email' AS email, b.submission ->> '$.phone' AS phone,
              b.submission, coalesce(b.changed_at, b.created_at) AS changed_at
       FROM bookings b JOIN reasons r ON r.id = b.reason_id
       WHERE b.schedule_id = ? AND b.start_at >= ? AND b.start_at < ? ORDER BY b.start_at, b.id`,
    )
    .all(scheduleId, from, to) as unknown as {
    reference: string;
    start_at: number;
    end_at: number;
    sequence: number;
    status: BookingStatus;
    reason_name: string;
    // What was submitted with the booking (issue 23); not text when a field was made a checkbox, absent when removed.
    first_name: unknown;
    last_name: unknown;
    email: unknown;
    phone: unknown;
    submission: string;
    changed_at: string;
  }[];
  return rows.map((row) => ({
    reference: row.reference,
    startAt: row.start_at,
    endAt: row.end_at,
    sequence: row.sequence,
    cancelled: row.status === 'cancelled',
    reasonName: row.reason_name,
    ...feedCustomer(row),
    submission: JSON.parse(row.submission) as Record<string, unknown>,
    changedAt: row.changed_at,
  }));
}

/** One change of a booking as the log of migration 6 keeps it: the time the booking kept before or after it. */
export interface BookingChange {
  id: number;
  scheduleId: number;
  fromAt: number;
  toAt: number;
}

/**
 * Returns the changes logged after `afterId`, oldest first (a range of the primary key: nothing when nothing
 * changed). The log keeps the last 10,000; a caller whose `afterId` was pruned sees the first id skip ahead.
 */
export function bookingChangesSince(store: Store, afterId: number): BookingChange[] {
  return store
    .sql('SELECT id, schedule_id AS scheduleId, from_at AS fromAt, to_at AS toAt FROM booking_changes WHERE id > ? ORDER BY id')
    .all(afterId) as unknown as BookingChange[];
}

/** Returns the id of the last logged change of a booking (0 when none). */
export function lastBookingChange(store: Store): number {
  return (store.sql('SELECT coalesce(max(id), 0) AS id FROM booking_changes').get() as { id: number }).id;
}
