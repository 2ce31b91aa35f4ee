/**
 * The bookings as the practitioner's calendar feed shows them (src/app/calendars/feed.ts): a schedule's bookings in a range
 * of starts, cancelled ones too, each with the customer as submitted with it and what was submitted.
 */
import { submittedCustomer } from '../domain/submission.ts';
import type { BookingStatus } from './bookings.ts';
import type { Store } from './db.ts';

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

interface FeedDbRow {
  reference: string;
  start_at: number;
  end_at: number;
  sequence: number;
  status: BookingStatus;
  reason_name: string;
  submission: string;
  changed_at: string;
}

function toFeedRow(row: FeedDbRow): FeedRow {
  const submission = JSON.parse(row.submission) as Record<string, unknown>;
  const customer = submittedCustomer(submission);
  return {
    reference: row.reference,
    startAt: row.start_at,
    endAt: row.end_at,
    sequence: row.sequence,
    cancelled: row.status === 'cancelled',
    reasonName: row.reason_name,
    customerName: customer.customerName,
    email: customer.customerEmail,
    phone: customer.customerPhone,
    submission,
    changedAt: row.changed_at,
  };
}

/** Returns the bookings of a schedule starting in [from, to), cancelled ones too, by start: one indexed range. */
export function feedBookings(store: Store, scheduleId: number, from: number, to: number): FeedRow[] {
  const rows = store
    .sql(
      `SELECT b.reference, b.start_at, b.end_at, b.sequence, b.status, r.name AS reason_name, b.submission,
              coalesce(b.changed_at, b.created_at) AS changed_at
       FROM bookings b JOIN reasons r ON r.id = b.reason_id
       WHERE b.schedule_id = ? AND b.start_at >= ? AND b.start_at < ? ORDER BY b.start_at, b.id`,
    )
    .all(scheduleId, from, to);
  return (rows as unknown as FeedDbRow[]).map(toFeedRow);
}

/** A booking as the practitioner sees it, with its schedule and whether it was erased: what a calendar write needs. */
export interface WrittenBooking extends FeedRow {
  id: number;
  scheduleId: number;
  erased: boolean;
}

/** Returns the booking `id` as the practitioner's feed shows it, or undefined. */
export function feedBookingById(store: Store, id: number): WrittenBooking | undefined {
  const row = store
    .sql(
      `SELECT b.id, b.schedule_id, b.erased_at, b.reference, b.start_at, b.end_at, b.sequence, b.status, r.name AS reason_name, b.submission,
              coalesce(b.changed_at, b.created_at) AS changed_at
       FROM bookings b JOIN reasons r ON r.id = b.reason_id WHERE b.id = ?`,
    )
    .get(id) as (FeedDbRow & { id: number; schedule_id: number; erased_at: string | null }) | undefined;
  return row && { ...toFeedRow(row), id: row.id, scheduleId: row.schedule_id, erased: row.erased_at !== null };
}
