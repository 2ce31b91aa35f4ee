import { type LocalTexts, parseLocalTexts } from '../domain/languages.ts';
import type { Store } from './db.ts';

/** A service offered by one or more schedules, with the length of its appointments. */
export interface Reason {
  id: number;
  /** The schedule it was made for (its first): `scheduleIds` says who offers it. */
  scheduleId: number;
  /** The schedules that offer it (reason_schedules, migration 17), not removed, in id order. */
  scheduleIds: number[];
  name: string;
  description: string;
  durationMinutes: number;
  /** Minutes a booking of this reason keeps free before and after itself (0 to 240; outside the hours too). */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  position: number;
  /** The most weekly dates the booking page offers for it as a series; 0: no series there. */
  seriesMax: number;
  /** Its name and description in other languages than the practice's own (`reason set --name fr=…`). */
  names: LocalTexts;
  descriptions: LocalTexts;
}

export type ReasonValues = Pick<
  Reason,
  'name' | 'description' | 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'position'
>;

interface ReasonRow {
  id: number;
  schedule_id: number;
  name: string;
  description: string;
  duration_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  position: number;
  series_max: number;
  /** The offering schedules' ids, comma-separated (NULL: none left). */
  schedule_ids: string | null;
  names: string;
  descriptions: string;
}

function toReason(row: ReasonRow): Reason {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    scheduleIds: row.schedule_ids === null ? [] : row.schedule_ids.split(',').map(Number),
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    position: row.position,
    seriesMax: row.series_max,
    names: parseLocalTexts(row.names),
    descriptions: parseLocalTexts(row.descriptions),
  };
}

/** The offering schedules of `r`, read in the reason's own row (a subquery: no query per reason). */
const SCHEDULE_IDS = `(SELECT group_concat(o.schedule_id, ',' ORDER BY o.schedule_id) FROM reason_schedules o
    JOIN schedules s ON s.id = o.schedule_id AND s.removed_at IS NULL WHERE o.reason_id = r.id) AS schedule_ids`;

const COLUMNS = `r.id, r.schedule_id, r.name, r.description, r.duration_minutes, r.buffer_before_minutes,
  r.buffer_after_minutes, r.position, r.series_max, r.names, r.descriptions, ${SCHEDULE_IDS}`;

/** Returns the reasons a schedule offers (its own and those shared with it) in display order. */
export function listReasons(store: Store, scheduleId: number): Reason[] {
  const rows = store
    .sql(
      `SELECT ${COLUMNS} FROM reason_schedules rs JOIN reasons r ON r.id = rs.reason_id
       WHERE rs.schedule_id = ? AND r.removed_at IS NULL ORDER BY r.position, r.id`,
    )
    .all(scheduleId);
  return (rows as unknown as ReasonRow[]).map(toReason);
}

/** Returns every reason (not removed) in display order (each schedule's, filtered by `scheduleIds`, in its order): one query. */
export function listAllReasons(store: Store): Reason[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM reasons r WHERE r.removed_at IS NULL ORDER BY r.position, r.id`).all();
  return (rows as unknown as ReasonRow[]).map(toReason);
}

/** Returns the reason with `id` unless it does not exist or was removed. */
export function findReason(store: Store, id: number): Reason | undefined {
  const row = store.sql(`SELECT ${COLUMNS} FROM reasons r WHERE r.id = ? AND r.removed_at IS NULL`).get(id);
  return row ? toReason(row as unknown as ReasonRow) : undefined;
}

/**
 * Inserts a reason offered by `scheduleIds` (the first is its own `schedule_id`), after every reason any of them
 * offers, and returns its id. Call inside a transaction.
 */
export function insertReason(
  store: Store,
  scheduleIds: readonly number[],
  values: Omit<ReasonValues, 'position'>,
): number {
  const result = store
    .sql(
      `INSERT INTO reasons (schedule_id, name, description, duration_minutes, buffer_before_minutes, buffer_after_minutes, position)
       VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(r.position), 0) + 1 FROM reason_schedules rs
         JOIN reasons r ON r.id = rs.reason_id WHERE rs.schedule_id IN (SELECT value FROM json_each(?))))`,
    )
    .run(
      scheduleIds[0]!,
      values.name,
      values.description,
      values.durationMinutes,
      values.bufferBeforeMinutes,
      values.bufferAfterMinutes,
      JSON.stringify(scheduleIds),
    );
  const id = Number(result.lastInsertRowid);
  writeReasonSchedules(store, id, scheduleIds);
  return id;
}

/**
 * Makes `scheduleIds` the schedules that offer reason `id` (all others stop offering it); the first becomes its own
 * `schedule_id`. Call inside a transaction.
 */
export function writeReasonSchedules(store: Store, id: number, scheduleIds: readonly number[]): void {
  store.sql('UPDATE reasons SET schedule_id = ? WHERE id = ?').run(scheduleIds[0]!, id);
  store
    .sql('DELETE FROM reason_schedules WHERE reason_id = ? AND schedule_id NOT IN (SELECT value FROM json_each(?))')
    .run(id, JSON.stringify(scheduleIds));
  store
    .sql('INSERT OR IGNORE INTO reason_schedules (reason_id, schedule_id) SELECT ?, value FROM json_each(?)')
    .run(id, JSON.stringify(scheduleIds));
}

/** Writes the name, description, duration and buffers of a reason (its place is set by `writeReasonOrder`). */
export function updateReason(store: Store, id: number, values: Omit<ReasonValues, 'position'>): void {
  store
    .sql(
      'UPDATE reasons SET name = ?, description = ?, duration_minutes = ?, buffer_before_minutes = ?, buffer_after_minutes = ? WHERE id = ?',
    )
    .run(
      values.name,
      values.description,
      values.durationMinutes,
      values.bufferBeforeMinutes,
      values.bufferAfterMinutes,
      id,
    );
}

/** Numbers the reasons 1, 2, 3 … in the order of `ids`. Call inside a transaction. */
export function writeReasonOrder(store: Store, ids: readonly number[]): void {
  const update = store.sql('UPDATE reasons SET position = ? WHERE id = ?');
  ids.forEach((id, index) => update.run(index + 1, id));
}

/** Marks a reason removed; bookings that name it keep it. */
export function markReasonRemoved(store: Store, id: number, at: string): void {
  store.sql('UPDATE reasons SET removed_at = ? WHERE id = ?').run(at, id);
}

/** Writes a reason's name and description in other languages (each `{}` for none). */
export function setReasonTexts(store: Store, id: number, names: LocalTexts, descriptions: LocalTexts): void {
  store
    .sql('UPDATE reasons SET names = ?, descriptions = ? WHERE id = ?')
    .run(JSON.stringify(names), JSON.stringify(descriptions), id);
}

/** Sets the most weekly dates the booking page offers for a reason as a series (0: none). */
export function setReasonSeriesMax(store: Store, id: number, seriesMax: number): void {
  store.sql('UPDATE reasons SET series_max = ? WHERE id = ?').run(seriesMax, id);
}

/** Returns how many future bookings (not cancelled) of reason `id` each schedule holds, by schedule id: one query. */
export function futureBookingsBySchedule(store: Store, id: number, fromAt: number): Map<number, number> {
  const rows = store
    .sql(
      `SELECT schedule_id, COUNT(*) AS n FROM bookings WHERE reason_id = ? AND start_at >= ? AND status = 'booked'
       GROUP BY schedule_id`,
    )
    .all(id, fromAt) as unknown as { schedule_id: number; n: number }[];
  return new Map(rows.map((row) => [row.schedule_id, row.n]));
}
