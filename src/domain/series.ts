/** The shape of a series: how many dates, how far apart. Pure. */
import { dayNumber, dayText } from './days.ts';
import { parseDuration } from './durations.ts';

/** How many dates a series may have. */
export const SERIES_COUNT = { min: 2, max: 52 } as const;
/** The days between dates: a day to 52 weeks. */
export const SERIES_INTERVAL_DAYS = { min: 1, max: 364 } as const;

/** Returns the days of a `repeat` text (`1w`, `2w`, `7d`, a bare number of days), or undefined unless whole days from 1d to 52w. */
export function repeatDays(text: string): number | undefined {
  const parsed = parseDuration(text, 'days');
  if (!parsed.ok || parsed.value % 1440 !== 0) return undefined;
  const days = parsed.value / 1440;
  return days >= SERIES_INTERVAL_DAYS.min && days <= SERIES_INTERVAL_DAYS.max ? days : undefined;
}

/** Returns the local times of the dates: the first slot's wall-clock time every `intervalDays` days. */
export function occurrenceSlots(first: string, intervalDays: number, count: number): string[] {
  const day = dayNumber(first.slice(0, 10));
  return Array.from({ length: count }, (_, index) => `${dayText(day + index * intervalDays)}${first.slice(10)}`);
}
