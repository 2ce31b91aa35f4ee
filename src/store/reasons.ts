import type { Store } from './db.ts';

/** A service of a schedule, with the length of its appointments. */
export interface Reason {
  id: number;
  scheduleId: number;
  name: string;
  description: string;
  durationMinutes: number;
  /** Minutes a booking of this reason keeps free before and after itself (0 to 240; outside the hours too). */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  position: number;
  /** The most weekly dates the booking page offers for it as a series (issue 40); 0: no series there. */
  seriesMax: number;
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
}

function toReason(row: ReasonRow): Reason {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    position: row.position,
    seriesMax: row.series_max,
  };
}

const COLUMNS =
  'id, schedule_id, name, description, duration_minutes, buffer_before_minutes, buffer_after_minutes, position, series_max';

/** Returns the reasons of a schedule in display order. */
export function listReasons(store: Store, scheduleId: number): Reason[] {
  const rows = store
    .sql(`SELECT ${COLUMNS} FROM reasons WHERE schedule_id = ? AND removed_at IS NULL ORDER BY position, id`)
    .all(scheduleId);
  return (rows as unknown as ReasonRow[]).map(toReason);
}

/** Returns the reasons of every schedule (not removed), by schedule and then in display order: one query. */
export function listAllReasons(store: Store): Reason[] {
  const rows = store
    .sql(`SELECT ${COLUMNS} FROM reasons WHERE removed_at IS NULL ORDER BY schedule_id, position, id`)
    .all();
  return (rows as unknown as ReasonRow[]).map(toReason);
}

/** Returns the reason with `id` unless it does not exist or was removed. */
export function findReason(store: Store, id: number): Reason | undefined {
  const row = store.sql(`SELECT ${COLUMNS} FROM reasons WHERE id = ? AND removed_at IS NULL`).get(id);
  return row ? toReason(row as unknown as ReasonRow) : undefined;
}

/** Inserts a reason at the end of its schedule's list and returns its id. */
export function insertReason(store: Store, scheduleId: number, values: Omit<ReasonValues, 'position'>): number {
  const result = store
    .sql(
      `INSERT INTO reasons (schedule_id, name, description, duration_minutes, buffer_before_minutes, buffer_after_minutes, position)
       VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM reasons WHERE schedule_id = ?))`,
    )
    .run(
      scheduleId,
      values.name,
      values.description,
      values.durationMinutes,
      values.bufferBeforeMinutes,
      values.bufferAfterMinutes,
      scheduleId,
    );
  return Number(result.lastInsertRowid);
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

/** Sets the most weekly dates the booking page offers for a reason as a series (0: none). */
export function setReasonSeriesMax(store: Store, id: number, seriesMax: number): void {
  store.sql('UPDATE reasons SET series_max = ? WHERE id = ?').run(seriesMax, id);
}
