/**
 * Weekly opening hours: day lists like `mon-fri` and time ranges like `09:00-12:00,13:00-17:30`. Pure: a parse
 * returns its problem as a value (a user-facing text); the app layer turns it into an `invalid` AppError.
 */
import type { Checked } from './checks.ts';

/** A half-open range of minutes from local midnight: [start, end), end at most 1440 (24:00). */
export interface MinuteRange {
  start: number;
  end: number;
}

/** ISO weekday numbers: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const problem = (error: string): { ok: false; error: string } => ({ ok: false, error });

function weekdayNumber(name: string): Checked<number> {
  const index = WEEKDAYS.indexOf(name.toLowerCase() as WeekdayName);
  if (index < 0) return problem(`unknown day "${name}" (use mon, tue, wed, thu, fri, sat, sun)`);
  return ok(index + 1);
}

/**
 * Returns the sorted ISO weekdays named by `spec`: `mon-fri`, `sat`, `mon,wed`, `mon-wed,fri`, or the problem.
 * A range may wrap past Sunday (`fri-mon`).
 */
export function parseDays(spec: string): Checked<number[]> {
  const days = new Set<number>();
  for (const part of spec.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') return problem(`empty day in "${spec}" (example: mon-fri,sat)`);
    const [from, to, extra] = trimmed.split('-');
    if (extra !== undefined) return problem(`"${trimmed}" is not a day or a day range (example: mon-fri)`);
    const first = weekdayNumber(from!);
    if (!first.ok) return first;
    const last = to === undefined ? first : weekdayNumber(to);
    if (!last.ok) return last;
    for (let day = first.value; ; day = (day % 7) + 1) {
      days.add(day);
      if (day === last.value) break;
    }
  }
  return ok([...days].sort((a, b) => a - b));
}

/** `HH:MM`, or `H:MM` with a one-digit hour (`8:00` is `08:00`). */
const TIME = /^(\d{1,2}):(\d{2})$/;

/** Returns minutes from midnight for `HH:MM` or `H:MM` (`24:00` only where `allowEnd`), or the problem. */
export function parseTime(text: string, allowEnd = false): Checked<number> {
  const match = TIME.exec(text.trim());
  const hours = match ? Number(match[1]) : NaN;
  const minutes = match ? Number(match[2]) : NaN;
  const fits = match !== null && minutes < 60 && (hours < 24 || (allowEnd && hours === 24 && minutes === 0));
  if (!fits) return problem(`"${text}" is not a time HH:MM between 00:00 and ${allowEnd ? '24:00' : '23:59'}`);
  return ok(hours * 60 + minutes);
}

/** Returns `HH:MM` for minutes from midnight (1440 gives `24:00`). */
export function formatTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Returns the sorted ranges of `spec` (`09:00-12:00,13:00-17:30`, `00:00-24:00`), or [] for `closed`, or the
 * problem. Overlapping ranges are refused; ranges that touch (`09:00-12:00,12:00-13:00`) are merged into one,
 * because a slot may run across the seam.
 */
export function parseRanges(spec: string): Checked<MinuteRange[]> {
  if (spec.trim().toLowerCase() === 'closed') return ok([]);
  const ranges: MinuteRange[] = [];
  for (const part of spec.split(',')) {
    const [from, to, extra] = part.trim().split('-');
    if (to === undefined || extra !== undefined)
      return problem(`"${part.trim()}" is not a time range (example: 09:00-12:00, or closed)`);
    const start = parseTime(from!);
    if (!start.ok) return start;
    const end = parseTime(to, true);
    if (!end.ok) return end;
    if (end.value <= start.value) return problem(`range ${part.trim()} ends before it starts`);
    ranges.push({ start: start.value, end: end.value });
  }
  ranges.sort((a, b) => a.start - b.start);
  const merged: MinuteRange[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.start < last.end) return problem(`ranges ${formatRange(last)} and ${formatRange(range)} overlap`);
    if (last && range.start === last.end) last.end = range.end;
    else merged.push({ ...range });
  }
  return ok(merged);
}

/** Returns `HH:MM-HH:MM`. */
export function formatRange(range: MinuteRange): string {
  return `${formatTime(range.start)}-${formatTime(range.end)}`;
}

/**
 * Returns the union of two sorted lists of ranges, sorted, with ranges that overlap or touch merged into one (a slot
 * may run across the seam): a date's weekly hours and its extra hours.
 */
export function mergeRanges(a: readonly MinuteRange[], b: readonly MinuteRange[]): MinuteRange[] {
  const all = [...a, ...b].sort((x, y) => x.start - y.start);
  const merged: MinuteRange[] = [];
  for (const range of all) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ start: range.start, end: range.end });
  }
  return merged;
}
