import type { ExtraHours } from '../domain/availability.ts';
import type { MinuteRange } from '../domain/hours.ts';
import type { Store } from './db.ts';

/** Weekly hours of one schedule: index 1 (Monday) … 7 (Sunday) holds that day's sorted ranges. */
export type WeeklyHours = MinuteRange[][];

interface HoursRow {
  weekday: number;
  start_minute: number;
  end_minute: number;
}

/** Returns the weekly opening hours of a schedule. */
export function readWeeklyHours(store: Store, scheduleId: number): WeeklyHours {
  const week: WeeklyHours = Array.from({ length: 8 }, () => []);
  const rows = store
    .sql(
      'SELECT weekday, start_minute, end_minute FROM opening_hours WHERE schedule_id = ? ORDER BY weekday, start_minute',
    )
    .all(scheduleId) as unknown as HoursRow[];
  for (const row of rows) week[row.weekday]!.push({ start: row.start_minute, end: row.end_minute });
  return week;
}

/** Replaces the ranges of the given weekdays (empty ranges: closed on those days). Call inside a transaction. */
export function replaceHours(store: Store, scheduleId: number, weekdays: number[], ranges: MinuteRange[]): void {
  const remove = store.sql('DELETE FROM opening_hours WHERE schedule_id = ? AND weekday = ?');
  const insert = store.sql(
    'INSERT INTO opening_hours (schedule_id, weekday, start_minute, end_minute) VALUES (?, ?, ?, ?)',
  );
  for (const weekday of weekdays) {
    remove.run(scheduleId, weekday);
    for (const range of ranges) insert.run(scheduleId, weekday, range.start, range.end);
  }
}

interface ExtraRow {
  day: string;
  start_minute: number;
  end_minute: number;
}

/** Returns a schedule's extra hours on local dates from `fromDay` (`YYYY-MM-DD`) on, by day: one query. */
export function readExtraHours(store: Store, scheduleId: number, fromDay: string): ExtraHours[] {
  const rows = store
    .sql(
      'SELECT day, start_minute, end_minute FROM extra_hours WHERE schedule_id = ? AND day >= ? ORDER BY day, start_minute',
    )
    .all(scheduleId, fromDay) as unknown as ExtraRow[];
  const extra: { day: string; ranges: MinuteRange[] }[] = [];
  for (const row of rows) {
    const range = { start: row.start_minute, end: row.end_minute };
    const last = extra.at(-1);
    if (last?.day === row.day) last.ranges.push(range);
    else extra.push({ day: row.day, ranges: [range] });
  }
  return extra;
}

/** Replaces the extra hours of one local date (empty ranges: none). Call inside a transaction. */
export function replaceExtraHours(store: Store, scheduleId: number, day: string, ranges: readonly MinuteRange[]): void {
  store.sql('DELETE FROM extra_hours WHERE schedule_id = ? AND day = ?').run(scheduleId, day);
  const insert = store.sql('INSERT INTO extra_hours (schedule_id, day, start_minute, end_minute) VALUES (?, ?, ?, ?)');
  for (const range of ranges) insert.run(scheduleId, day, range.start, range.end);
}
