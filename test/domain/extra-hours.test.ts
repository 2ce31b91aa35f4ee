/**
 * Extra hours on a date (issue 40) in the engine: a date's extra ranges are added to its weekday's (merged where they
 * overlap or touch), a closure still wins, and every other day is as before. The property compares the engine with
 * extra hours against the engine without, given that date's merged ranges as its weekday's hours.
 */
import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  type AvailabilityInput,
  type ExtraHours,
  freeDays,
  freeSlots,
  lookAhead,
} from '../../src/domain/availability.ts';
import { dayNumber, dayText, isoWeekday } from '../../src/domain/days.ts';
import { type MinuteRange, mergeRanges } from '../../src/domain/hours.ts';
import { whyNotFree } from '../../src/domain/refusal.ts';
import { at, engineInput, week } from './engine-input.ts';

const times = (slots: { local: string }[]) => slots.map((slot) => slot.local.slice(11, 16));

/** Saturday 2026-06-06: no weekly hours (the week is Monday 09:00-12:00 unless given). */
const SATURDAY = '2026-06-06';
const clinic: ExtraHours = { day: SATURDAY, ranges: [{ start: 9 * 60, end: 11 * 60 }] };

describe('mergeRanges', () => {
  it.each([
    ['apart', '09:00-12:00', '18:00-20:00', [540, 720, 1080, 1200]],
    ['touching', '09:00-12:00', '12:00-14:00', [540, 840]],
    ['overlapping', '09:00-12:00', '11:00-13:00', [540, 780]],
    ['inside', '08:00-18:00', '10:00-11:00', [480, 1080]],
    ['bridging two', '09:00-10:00,11:00-12:00', '10:00-11:00', [540, 720]],
    ['none added', '09:00-12:00', 'closed', [540, 720]],
  ] as const)('%s', (_name, a, b, expected) => {
    const ranges = mergeRanges(week({ 1: a })[1]!, week({ 1: b })[1]!);
    expect(ranges.flatMap((range) => [range.start, range.end])).toEqual(expected);
  });

  const ranges = fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 287 }), fc.integer({ min: 1, max: 48 })).map(([from, length]) => ({
        start: from * 5,
        end: Math.min(1440, (from + length) * 5),
      })),
      { maxLength: 5 },
    )
    .map((list) => mergeRanges([], list));
  property.prop([ranges, ranges])('covers exactly the minutes of either, sorted, apart', (a, b) => {
    const merged = mergeRanges(a, b);
    const covers = (list: readonly MinuteRange[], minute: number) =>
      list.some((range) => range.start <= minute && minute < range.end);
    const minutes = Array.from({ length: 1440 }, (_, minute) => minute);
    expect(minutes.map((minute) => covers(merged, minute))).toEqual(
      minutes.map((minute) => covers(a, minute) || covers(b, minute)),
    );
    for (let index = 1; index < merged.length; index++)
      expect(merged[index]!.start).toBeGreaterThan(merged[index - 1]!.end);
  });
});

describe('the engine with extra hours', () => {
  it('opens a Saturday that has no weekly hours, and only that Saturday', () => {
    const input = engineInput({ extra: [clinic] });
    expect(times(freeSlots(input, SATURDAY, []))).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
    ]);
    expect(freeSlots(input, '2026-06-13', [])).toEqual([]);
    expect(freeDays(input, lookAhead(input), [])).toEqual(['2026-06-01', SATURDAY, '2026-06-08', '2026-06-15']);
  });

  it('adds an evening to a weekday and merges a range that touches the weekly one', () => {
    const evening = engineInput(
      { rules: { stepMinutes: 30 }, extra: [{ day: '2026-06-08', ranges: [{ start: 12 * 60, end: 13 * 60 }] }] },
      { 1: '09:00-12:00' },
    );
    // 11:30 runs across the seam: one range 09:00-13:00.
    expect(times(freeSlots(evening, '2026-06-08', []))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
    ]);
    expect(times(freeSlots(evening, '2026-06-01', []))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
  });

  it('a closure wins over extra hours', () => {
    const closed = engineInput({ extra: [clinic], closures: [{ fromDay: SATURDAY, toDay: SATURDAY }] });
    expect(freeSlots(closed, SATURDAY, [])).toEqual([]);
    expect(freeDays(closed, lookAhead(closed), [])).not.toContain(SATURDAY);
  });

  it('counts bookings on an extra date as on any other', () => {
    const input = engineInput({ extra: [clinic], rules: { stepMinutes: 60 } });
    const nine = { startAt: at('2026-06-06T07:00:00Z'), endAt: at('2026-06-06T07:30:00Z') };
    expect(times(freeSlots(input, SATURDAY, [nine]))).toEqual(['10:00']);
  });

  it('explains a refused time on an extra date: free, taken, off the step, outside both, closed', () => {
    const input = { ...engineInput({ extra: [clinic] }), closures: [] as { fromDay: string; toDay: string }[] };
    const nine = {
      startAt: at('2026-06-06T07:00:00Z'),
      endAt: at('2026-06-06T07:30:00Z'),
      appointmentStartAt: at('2026-06-06T07:00:00Z'),
      appointmentEndAt: at('2026-06-06T07:30:00Z'),
    };
    expect(whyNotFree(input, `${SATURDAY} 09:00:00`, [])).toBeUndefined();
    expect(whyNotFree(input, `${SATURDAY} 09:00:00`, [nine])).toEqual({ why: 'taken' });
    expect(whyNotFree(input, `${SATURDAY} 09:10:00`, [])).toEqual({ why: 'grid' });
    expect(whyNotFree(input, `${SATURDAY} 10:45:00`, [])).toEqual({ why: 'hours' }); // ends after 11:00
    expect(whyNotFree(input, '2026-06-13 09:00:00', [])).toEqual({ why: 'hours' }); // a Saturday without
    const closure = { fromDay: SATURDAY, toDay: SATURDAY };
    expect(whyNotFree({ ...input, closures: [closure] }, `${SATURDAY} 09:00:00`, [])).toEqual({
      why: 'closure',
      closure,
    });
  });
});

describe('property: extra hours are the weekday hours of that date, merged', () => {
  const ranges = fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 24 })).map(([from, length]) => ({
        start: from * 15,
        end: Math.min(1440, (from + length) * 15),
      })),
      { maxLength: 3 },
    )
    .map((list) => mergeRanges([], list));
  // Two clocks: a Monday in June, and a Monday whose fortnight holds the autumn change (2026-10-25, 25 hours).
  const nows = fc.constantFrom(at('2026-06-01T06:00:00Z'), at('2026-10-19T06:00:00Z'));
  const extraDays = fc.array(fc.tuple(fc.integer({ min: 0, max: 16 }), ranges), { maxLength: 4 });
  const closedOffsets = fc.array(fc.integer({ min: 0, max: 16 }), { maxLength: 2 });

  property.prop([
    nows,
    fc.array(ranges, { minLength: 7, maxLength: 7 }),
    extraDays,
    closedOffsets,
    fc.constantFrom(15, 30, 45),
  ])(
    'each day offers what the engine without extra hours offers with that day’s merged ranges as its weekday’s; closed days nothing',
    (now, weekly, extraList, closedList, step) => {
      const base = engineInput({ now, rules: { stepMinutes: step } });
      const today = lookAhead(base).firstDay;
      const weekHours = [[], ...weekly];
      const extra: ExtraHours[] = extraList.map(([offset, list]) => ({ day: dayText(today + offset), ranges: list }));
      const closures = closedList.map((offset) => ({
        fromDay: dayText(today + offset),
        toDay: dayText(today + offset),
      }));
      const input: AvailabilityInput = { ...base, week: weekHours, extra, closures };
      const offered: string[] = [];
      for (let day = today; day <= today + 16; day++) {
        const text = dayText(day);
        const slots = freeSlots(input, text, []);
        if (slots.length) offered.push(text);
        if (closures.some((closure) => closure.fromDay === text)) {
          expect(slots).toEqual([]);
          continue;
        }
        let merged: readonly MinuteRange[] = weekHours[isoWeekday(day)]!;
        for (const item of extra) if (dayNumber(item.day) === day) merged = mergeRanges(merged, item.ranges);
        const model = weekHours.map((list, weekday) => (weekday === isoWeekday(day) ? merged : list));
        expect(slots).toEqual(freeSlots({ ...input, week: model, extra: [] }, text, []));
      }
      // The days the engine offers are the days whose slots it gives.
      expect(freeDays(input, lookAhead(input), [])).toEqual(
        offered.filter((day) => dayNumber(day) <= lookAhead(input).lastDay),
      );
    },
  );
});
