/**
 * Series: bookings made at one go, at the same local time every `interval` days (`bookings add --repeat`,
 * POST /api/series). Each occurrence is a booking of its own that names its series (bookings.series_id).
 */
import type { BookingStatus } from './bookings.ts';
import type { Store } from './db.ts';

/** A series as stored: its public reference and the days between its occurrences. */
export interface Series {
  id: number;
  reference: string;
  intervalDays: number;
  createdAt: string;
}

/** One occurrence of a series, as a list of its dates shows it. */
export interface Occurrence {
  id: number;
  reference: string;
  startAt: number;
  endAt: number;
  status: BookingStatus;
  sequence: number;
}

/** Inserts a series and returns its id. Call inside the transaction that books its occurrences. */
export function insertSeries(store: Store, series: Omit<Series, 'id'>): number {
  const result = store
    .sql('INSERT INTO series (reference, interval_days, created_at) VALUES (?, ?, ?)')
    .run(series.reference, series.intervalDays, series.createdAt);
  return Number(result.lastInsertRowid);
}

/** Returns the series with this id, if any. */
export function findSeries(store: Store, id: number): Series | undefined {
  const row = store.sql('SELECT id, reference, interval_days, created_at FROM series WHERE id = ?').get(id) as
    | { id: number; reference: string; interval_days: number; created_at: string }
    | undefined;
  return row && { id: row.id, reference: row.reference, intervalDays: row.interval_days, createdAt: row.created_at };
}

/** Returns every occurrence of a series, by start: one range of the index bookings_by_series. */
export function seriesOccurrences(store: Store, seriesId: number): Occurrence[] {
  return store
    .sql(
      `SELECT id, reference, start_at AS startAt, end_at AS endAt, status, sequence
       FROM bookings WHERE series_id = ? ORDER BY start_at, id`,
    )
    .all(seriesId) as unknown as Occurrence[];
}

/** Returns the series with this public reference and its dates (by start), if there is one. */
export function findSeriesByReference(store: Store, reference: string): (Series & { dates: Occurrence[] }) | undefined {
  const row = store.sql('SELECT id FROM series WHERE reference = ?').get(reference) as { id: number } | undefined;
  const series = row && findSeries(store, row.id);
  return series && { ...series, dates: seriesOccurrences(store, series.id) };
}
