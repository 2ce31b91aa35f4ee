import type { Store } from './db.ts';

/** A bookable calendar: a practitioner, a room or a service line. */
export interface Schedule {
  id: number;
  name: string;
  /** Look-ahead: no day later than today + daysAhead is offered. */
  daysAhead: number;
  /** Minimum notice: no slot starting before now + noticeMinutes. */
  noticeMinutes: number;
  /** Candidate starts every stepMinutes from the start of each opening range. */
  stepMinutes: number;
  /** How many bookings may overlap. */
  capacity: number;
  createdAt: string;
}

export type ScheduleValues = Omit<Schedule, 'id' | 'createdAt'>;

interface ScheduleRow {
  id: number;
  name: string;
  days_ahead: number;
  notice_minutes: number;
  step_minutes: number;
  capacity: number;
  created_at: string;
}

function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    name: row.name,
    daysAhead: row.days_ahead,
    noticeMinutes: row.notice_minutes,
    stepMinutes: row.step_minutes,
    capacity: row.capacity,
    createdAt: row.created_at,
  };
}

const COLUMNS = 'id, name, days_ahead, notice_minutes, step_minutes, capacity, created_at';

/** Returns the schedules that are not removed, by id. */
export function listSchedules(store: Store): Schedule[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM schedules WHERE removed_at IS NULL ORDER BY id`).all();
  return (rows as unknown as ScheduleRow[]).map(toSchedule);
}

/** Returns the schedule with `id` unless it does not exist or was removed. */
export function findSchedule(store: Store, id: number): Schedule | undefined {
  const row = store.sql(`SELECT ${COLUMNS} FROM schedules WHERE id = ? AND removed_at IS NULL`).get(id);
  return row ? toSchedule(row as unknown as ScheduleRow) : undefined;
}

/** Inserts a schedule and returns its id. */
export function insertSchedule(store: Store, values: ScheduleValues, at: string): number {
  const result = store
    .sql(
      `INSERT INTO schedules (name, days_ahead, notice_minutes, step_minutes, capacity, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(values.name, values.daysAhead, values.noticeMinutes, values.stepMinutes, values.capacity, at);
  return Number(result.lastInsertRowid);
}

/** Writes all editable values of a schedule. */
export function updateSchedule(store: Store, id: number, values: ScheduleValues): void {
  store
    .sql(
      `UPDATE schedules SET name = ?, days_ahead = ?, notice_minutes = ?, step_minutes = ?, capacity = ?
       WHERE id = ? AND removed_at IS NULL`,
    )
    .run(values.name, values.daysAhead, values.noticeMinutes, values.stepMinutes, values.capacity, id);
}

/** Marks a schedule removed. Its bookings, hours and reasons stay in the file, so no booking is lost. */
export function markScheduleRemoved(store: Store, id: number, at: string): void {
  store.sql('UPDATE schedules SET removed_at = ? WHERE id = ?').run(at, id);
}
