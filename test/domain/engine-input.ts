/** The engine's input for the domain tests of availability.ts and refusal.ts: a week in Berlin, seen at a fixed now. */
import type { AvailabilityInput } from '../../src/domain/availability.ts';
import { type MinuteRange, parseRanges } from '../../src/domain/hours.ts';
import { valueOrInvalid } from '../../src/errors.ts';

export const at = (iso: string) => Date.parse(iso) / 1000;

/** Returns a week with `ranges` on the given ISO weekdays. */
export function week(days: Record<number, string>): MinuteRange[][] {
  const result: MinuteRange[][] = Array.from({ length: 8 }, () => []);
  for (const [day, spec] of Object.entries(days)) result[Number(day)] = valueOrInvalid(parseRanges(spec));
  return result;
}

// Monday 2026-06-01 08:00 in Berlin (CEST, UTC+2).
export const MONDAY_8 = at('2026-06-01T06:00:00Z');

export type Overrides = Partial<Omit<AvailabilityInput, 'rules'>> & { rules?: Partial<AvailabilityInput['rules']> };

/** `hours` (default Monday 09:00-12:00), a 15-minute step, 30-minute appointments, 14 days ahead, capacity 1, no notice. */
export function engineInput(
  overrides: Overrides = {},
  hours: Record<number, string> = { 1: '09:00-12:00' },
): AvailabilityInput {
  return {
    zone: 'Europe/Berlin',
    now: MONDAY_8,
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    closures: [],
    week: week(hours),
    extra: [],
    ...overrides,
    rules: { daysAhead: 14, noticeMinutes: 0, stepMinutes: 15, capacity: 1, ...overrides.rules },
  };
}
