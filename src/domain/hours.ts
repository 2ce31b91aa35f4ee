/** Weekly opening hours: day lists like `mon-fri` and time ranges like `09:00-12:00,13:00-17:30`. Pure. */
import { invalid } from '../errors.ts';

/** A half-open range of minutes from local midnight: [start, end), end at most 1440 (24:00). */
export interface MinuteRange {
  start: number;
  end: number;
}

/** ISO weekday numbers: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];

function weekdayNumber(name: string): number {
  const index = WEEKDAYS.indexOf(name.toLowerCase() as WeekdayName);
  if (index < 0) throw invalid(`unknown day "${name}" (use mon, tue, wed, thu, fri, sat, sun)`);
  return index + 1;
}

/**
 * Returns the sorted ISO weekdays named by `spec`: `mon-fri`, `sat`, `mon,wed`, `mon-wed,fri`.
 * A range may wrap past Sunday (`fri-mon`). Throws an `invalid` AppError with a user-facing message.
 */
export function parseDays(spec: string): number[] {
  const days = new Set<number>();
  for (const part of spec.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') throw invalid(`empty day in "${spec}" (example: mon-fri,sat)`);
    const [from, to, extra] = trimmed.split('-');
    if (extra !== undefined) throw invalid(`"${trimmed}" is not a day or a day range (example: mon-fri)`);
    const first = weekdayNumber(from!);
    const last = to === undefined ? first : weekdayNumber(to);
    for (let day = first; ; day = (day % 7) + 1) {
      days.add(day);
      if (day === last) break;
    }
  }
  return [...days].sort((a, b) => a - b);
}

const TIME = /^(\d{2}):(\d{2})$/;

/** Returns minutes from midnight for `HH:MM` (`24:00` only where `allowEnd`), or throws. */
export function parseTime(text: string, allowEnd = false): number {
  const match = TIME.exec(text);
  const hours = match ? Number(match[1]) : NaN;
  const minutes = match ? Number(match[2]) : NaN;
  const ok = match !== null && minutes < 60 && (hours < 24 || (allowEnd && hours === 24 && minutes === 0));
  if (!ok) throw invalid(`"${text}" is not a time HH:MM between 00:00 and ${allowEnd ? '24:00' : '23:59'}`);
  return hours * 60 + minutes;
}

/** Returns `HH:MM` for minutes from midnight (1440 gives `24:00`). */
export function formatTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Returns the sorted ranges of `spec` (`09:00-12:00,13:00-17:30`, `00:00-24:00`), or [] for `closed`.
 * Overlapping ranges are refused; ranges that touch (`09:00-12:00,12:00-13:00`) are merged into one,
 * because a slot may run across the seam.
 */
export function parseRanges(spec: string): MinuteRange[] {
  if (spec.trim().toLowerCase() === 'closed') return [];
  const ranges = spec.split(',').map((part) => {
    const [from, to, extra] = part.trim().split('-');
    if (to === undefined || extra !== undefined) {
      throw invalid(`"${part.trim()}" is not a time range (example: 09:00-12:00, or closed)`);
    }
    const range = { start: parseTime(from!), end: parseTime(to, true) };
    if (range.end <= range.start) throw invalid(`range ${part.trim()} ends before it starts`);
    return range;
  });
  ranges.sort((a, b) => a.start - b.start);
  const merged: MinuteRange[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.start < last.end) {
      throw invalid(`ranges ${formatRange(last)} and ${formatRange(range)} overlap`);
    }
    if (last && range.start === last.end) last.end = range.end;
    else merged.push({ ...range });
  }
  return merged;
}

/** Returns `HH:MM-HH:MM`. */
export function formatRange(range: MinuteRange): string {
  return `${formatTime(range.start)}-${formatTime(range.end)}`;
}
