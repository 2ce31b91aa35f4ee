/**
 * The availability window's reading of bookings, the hot path of GET /days and /slots and of every booking's
 * check: the time each booking of a schedule blocks (its appointment and buffers, src/domain/blocking.ts), in the
 * order it begins, from one range of the index `bookings_by_schedule_keeps` (on the virtual column `keeps_from`,
 * migration 5). Cancelled bookings never count.
 */
import { BUFFER_MAX_SECONDS, LONGEST_BLOCK_SECONDS } from '../domain/blocking.ts';
import type { BookedTime } from '../domain/refusal.ts';
import type { Store } from './db.ts';

interface BookedRow {
  keeps_from: number;
  keeps_to: number;
  start_at: number;
  end_at: number;
}

function toBookedTime(row: BookedRow): BookedTime {
  return { startAt: row.keeps_from, endAt: row.keeps_to, appointmentStartAt: row.start_at, appointmentEndAt: row.end_at };
}

/**
 * Returns the time the bookings of a schedule block that comes within a buffer of [from, to), in the order it
 * begins (`startAt`, `endAt`: what the engine counts), each with its appointment without buffers
 * (`appointmentStartAt`, `appointmentEndAt`: what a refusal tells). No booking blocks more than
 * LONGEST_BLOCK_SECONDS, so one that begins before `from` minus that cannot reach the window. `except` leaves one
 * booking out (the one being moved).
 */
export function bookedTimes(store: Store, scheduleId: number, from: number, to: number, except = 0): BookedTime[] {
  const rows = store
    .sql(
      `SELECT keeps_from, end_at + buffer_after AS keeps_to, start_at, end_at FROM bookings
       WHERE schedule_id = ? AND keeps_from >= ? AND keeps_from < ? AND end_at + buffer_after > ? AND status = 'booked' AND id <> ?
       ORDER BY keeps_from`,
    )
    .all(scheduleId, from - LONGEST_BLOCK_SECONDS, to + BUFFER_MAX_SECONDS, from - BUFFER_MAX_SECONDS, except);
  return (rows as unknown as BookedRow[]).map(toBookedTime);
}
