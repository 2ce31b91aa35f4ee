/**
 * The availability window's reading of bookings, the hot path of GET /days and /slots and of every booking's
 * check: the time each booking of a schedule blocks (its appointment and buffers, src/domain/blocking.ts), in the
 * order it begins, from one range of the index `bookings_by_schedule_keeps` (on the virtual column `keeps_from`,
 * migration 5). Cancelled bookings never count. The one store module without a row type and a mapper: its columns
 * are named in SQL as the engine reads them, because it is the hottest read (every GET /slots, every booking's check
 * under the write lock, a year of bookings for a first GET /days), and a mapper over the 12,243 rows of the
 * benchmark's busiest schedule made that read take 15–23 ms instead of 9–14 ms (a rough reading, on a busy machine).
 * The busy times of the practitioner's own calendars (busy-times.ts) join them here, each taking every
 * place of the capacity: so every reader of bookings (the API, the page, the CLI, the cache of free days) counts them.
 */

import { type BookedInterval, EVERY_PLACE, withBusy } from '../domain/availability.ts';
import { BUFFER_MAX_SECONDS, LONGEST_BLOCK_SECONDS } from '../domain/blocking.ts';
import type { BookedTime } from '../domain/refusal.ts';
import { busyIntervals } from './busy-times.ts';
import type { Store } from './db.ts';

/**
 * Which bookings of a schedule can reach the window [from, to): those that block time within a buffer of it. No
 * booking blocks more than LONGEST_BLOCK_SECONDS, so one that begins before `from` minus that cannot reach it.
 * `except` leaves one booking out (the one being moved). One range of the index, in the order the time begins.
 */
const REACHING = `FROM bookings
  WHERE schedule_id = ? AND keeps_from >= ? AND keeps_from < ? AND end_at + buffer_after > ? AND status = 'booked' AND id <> ?
  ORDER BY keeps_from`;

/** The parameters of REACHING. */
function reaching(scheduleId: number, from: number, to: number, except: number): number[] {
  return [scheduleId, from - LONGEST_BLOCK_SECONDS, to + BUFFER_MAX_SECONDS, from - BUFFER_MAX_SECONDS, except];
}

/** Returns the time the bookings of a schedule block that comes within a buffer of [from, to): what the engine counts. */
export function bookedIntervals(
  store: Store,
  scheduleId: number,
  from: number,
  to: number,
  except = 0,
): readonly BookedInterval[] {
  const rows = store
    .sql(`SELECT keeps_from AS startAt, end_at + buffer_after AS endAt ${REACHING}`)
    .all(...reaching(scheduleId, from, to, except));
  return withBusy(rows as unknown as BookedInterval[], busyOf(store, scheduleId, from, to));
}

/** The busy times that can reach [from, to) (within a buffer of it), each taking every place, as the engine reads them. */
function busyOf(store: Store, scheduleId: number, from: number, to: number) {
  return busyIntervals(store, scheduleId, from - BUFFER_MAX_SECONDS, to + BUFFER_MAX_SECONDS).map(
    ({ startAt, endAt }) => ({
      startAt,
      endAt,
      places: EVERY_PLACE,
      appointmentStartAt: startAt,
      appointmentEndAt: endAt,
    }),
  );
}

/**
 * Returns what `bookedIntervals` returns, each with its appointment without buffers (`appointmentStartAt`,
 * `appointmentEndAt`): for telling why a time is refused, off the hot paths.
 */
export function bookedTimes(
  store: Store,
  scheduleId: number,
  from: number,
  to: number,
  except = 0,
): readonly BookedTime[] {
  const rows = store
    .sql(
      `SELECT keeps_from AS startAt, end_at + buffer_after AS endAt, start_at AS appointmentStartAt, end_at AS appointmentEndAt ${REACHING}`,
    )
    .all(...reaching(scheduleId, from, to, except));
  return withBusy(rows as unknown as BookedTime[], busyOf(store, scheduleId, from, to));
}

/**
 * Returns the minutes booked (not cancelled; appointments without buffers) with each of `scheduleIds` by bookings
 * that start in [from, to): one query for them all, by schedule id (a schedule with none is absent).
 */
export function bookedMinutesOfDay(
  store: Store,
  scheduleIds: readonly number[],
  from: number,
  to: number,
): Map<number, number> {
  const rows = store
    .sql(
      `SELECT schedule_id AS scheduleId, SUM(end_at - start_at) / 60 AS minutes FROM bookings
       WHERE schedule_id IN (SELECT value FROM json_each(?)) AND start_at >= ? AND start_at < ? AND status = 'booked'
       GROUP BY schedule_id`,
    )
    .all(JSON.stringify(scheduleIds), from, to) as unknown as { scheduleId: number; minutes: number }[];
  return new Map(rows.map((row) => [row.scheduleId, row.minutes]));
}
