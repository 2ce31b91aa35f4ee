import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { freeSlots, freeSlotsByDay, lookAhead, nextFreeSlots, nextWindow } from '../../src/domain/availability.ts';
import { type BookedTime, strandedBookings, whyNotFree } from '../../src/domain/refusal.ts';
import { at, engineInput, MONDAY_8, type Overrides, week } from './engine-input.ts';

/** Mon and Tue 09:00-12:00, 15-minute step, 30-minute appointments, 14 days ahead, capacity 1, no notice. */
const input = (overrides: Overrides = {}) => engineInput(overrides, { 1: '09:00-12:00', 2: '09:00-12:00' });

/** A booking whose appointment is [from, to) and that keeps `before`/`after` minutes around it. */
function booked(from: string, to: string, before = 0, after = 0): BookedTime {
  return {
    startAt: at(from) - before * 60,
    endAt: at(to) + after * 60,
    appointmentStartAt: at(from),
    appointmentEndAt: at(to),
  };
}

describe('whyNotFree: the first rule that excludes a time', () => {
  // Tuesday 2026-06-02 10:00 local is 08:00Z.
  const tenOClock = booked('2026-06-02T08:00:00Z', '2026-06-02T08:30:00Z');
  it.each([
    ['free: the engine offers it', {}, '2026-06-02 10:00:00', [], undefined],
    ['past: earlier today', {}, '2026-06-01 07:30:00', [], 'past'],
    ['past: a day before today', {}, '2026-05-29 10:00:00', [], 'past'],
    [
      'notice: 09:00 with 120 minutes notice at 08:00',
      { rules: { noticeMinutes: 120 } },
      '2026-06-01 09:00:00',
      [],
      'notice',
    ],
    ['look-ahead: 15 days ahead of 14', {}, '2026-06-16 10:00:00', [], 'look-ahead'],
    [
      'closure: a closed Tuesday',
      { closures: [{ fromDay: '2026-06-02', toDay: '2026-06-05' }] },
      '2026-06-02 10:00:00',
      [],
      'closure',
    ],
    ['hours: before the opening', {}, '2026-06-02 08:30:00', [], 'hours'],
    ['hours: partly outside (11:45 + 30 minutes ends after 12:00)', {}, '2026-06-02 11:45:00', [], 'hours'],
    ['hours: a weekday without hours', {}, '2026-06-03 10:00:00', [], 'hours'],
    ['grid: 10:10 on a 15-minute step', {}, '2026-06-02 10:10:00', [], 'grid'],
    ['grid: seconds', {}, '2026-06-02 10:00:30', [], 'grid'],
    ['taken: the same time', {}, '2026-06-02 10:00:00', [tenOClock], 'taken'],
    ['taken: overlapping it', {}, '2026-06-02 09:45:00', [tenOClock], 'taken'],
    [
      'buffer: this reason keeps 15 minutes after, which the 10:00 booking has',
      { bufferAfterMinutes: 15 },
      '2026-06-02 09:30:00',
      [tenOClock],
      'buffer',
    ],
    [
      'buffer: the 10:00 booking keeps 15 minutes after it',
      {},
      '2026-06-02 10:30:00',
      [booked('2026-06-02T08:00:00Z', '2026-06-02T08:30:00Z', 0, 15)],
      'buffer',
    ],
    ['free: capacity 2 with one booking', { rules: { capacity: 2 } }, '2026-06-02 10:00:00', [tenOClock], undefined],
    [
      'no-such-time: 02:30 on the night the clocks go forward',
      { now: at('2026-03-20T00:00:00Z'), week: week({ 7: '00:00-24:00' }) },
      '2026-03-29 02:30:00',
      [],
      'no-such-time',
    ],
  ] as const)('%s', (_name, overrides, slot, bookings, expected) => {
    expect(whyNotFree(input(overrides as Overrides), slot, bookings)?.why).toBe(expected);
  });

  it('says which closure, when the notice ends, and the look-ahead’s last day', () => {
    const closure = { id: 7, fromDay: '2026-06-02', toDay: '2026-06-02', note: 'training' };
    expect(whyNotFree({ ...input(), closures: [closure] }, '2026-06-02 10:00:00', [])).toEqual({
      why: 'closure',
      closure,
    });
    expect(whyNotFree(input({ rules: { noticeMinutes: 120 } }), '2026-06-01 09:00:00', [])).toEqual({
      why: 'notice',
      earliest: MONDAY_8 + 7200,
    });
    expect(whyNotFree(input(), '2026-06-16 10:00:00', [])).toEqual({ why: 'look-ahead', lastDay: '2026-06-15' });
  });

  // The engine decides whether a time is free; the refusal only explains. Whatever the rules, they agree.
  property.prop([
    fc.integer({ min: 0, max: 3 * 24 * 4 - 1 }), // a quarter hour within Monday to Wednesday
    fc.constantFrom(0, 10, 30, 45),
    fc.constantFrom(5, 15, 20),
    fc.integer({ min: 0, max: 180 }),
    fc.array(fc.integer({ min: 0, max: 3 * 24 * 4 - 1 }), { maxLength: 6 }),
    fc.integer({ min: 1, max: 2 }),
    fc.constantFrom(0, 15),
  ])(
    'a time is refused with a reason exactly when the engine does not offer it',
    (quarter, minute, step, notice, starts, capacity, buffer) => {
      const rules = input({
        rules: { stepMinutes: step, noticeMinutes: notice, capacity },
        bufferAfterMinutes: buffer,
      });
      const bookings = starts
        .map((start) =>
          booked(
            new Date((at('2026-05-31T22:00:00Z') + start * 900) * 1000).toISOString(),
            new Date((at('2026-05-31T22:00:00Z') + start * 900 + 1800) * 1000).toISOString(),
            0,
            buffer,
          ),
        )
        .sort((a, b) => a.startAt - b.startAt);
      const day = ['2026-06-01', '2026-06-02', '2026-06-03'][Math.floor(quarter / 96)]!;
      const wall = (quarter % 96) * 15 + (minute % 15);
      const slot = `${day} ${String(Math.floor(wall / 60)).padStart(2, '0')}:${String(wall % 60).padStart(2, '0')}:00`;
      const offered = freeSlots(rules, day, bookings).some((free) => free.local === slot);
      const refusal = whyNotFree(rules, slot, bookings);
      expect(refusal === undefined).toBe(offered);
    },
  );
});

describe('next free times and the days of a range, from the engine', () => {
  it('nextFreeSlots gives the first free starts after a time, across days, within the look-ahead', () => {
    const rules = input({ rules: { stepMinutes: 30 } });
    const busy = [booked('2026-06-02T09:30:00Z', '2026-06-02T10:00:00Z')]; // 11:30 local on Tuesday
    const next = nextFreeSlots(rules, at('2026-06-02T09:00:00Z'), 3, busy); // after Tuesday 11:00
    expect(next.map((slot) => slot.local)).toEqual([
      '2026-06-08 09:00:00',
      '2026-06-08 09:30:00',
      '2026-06-08 10:00:00',
    ]);
    // Monday 15th 11:00, the look-ahead's last day: only 11:30 is left.
    expect(nextFreeSlots(rules, at('2026-06-15T09:00:00Z'), 3, []).map((slot) => slot.local)).toEqual([
      '2026-06-15 11:30:00',
    ]);
    expect(nextFreeSlots(rules, at('2026-06-16T00:00:00Z'), 3, [])).toEqual([]); // beyond the look-ahead
    expect(nextFreeSlots(rules, at('2026-05-01T00:00:00Z'), 1, []).map((slot) => slot.local)).toEqual([
      '2026-06-01 09:00:00',
    ]); // before now
    expect(nextWindow(rules, at('2026-06-02T09:00:00Z')).firstDay).toBe(lookAhead(rules).firstDay + 1);
  });

  it('freeSlotsByDay lists each day of the range the look-ahead allows, empty ones included', () => {
    const rules = input({ week: week({ 1: '09:00-10:00' }), rules: { stepMinutes: 30, daysAhead: 7 } });
    const window = {
      ...lookAhead(rules),
      firstDay: lookAhead(rules).firstDay - 2,
      lastDay: lookAhead(rules).lastDay + 5,
    };
    const days = freeSlotsByDay(rules, window, []);
    expect(days.map((day) => day.day)).toEqual([
      '2026-06-01',
      '2026-06-02',
      '2026-06-03',
      '2026-06-04',
      '2026-06-05',
      '2026-06-06',
      '2026-06-07',
      '2026-06-08',
    ]);
    expect(days[0]!.slots.map((slot) => slot.local)).toEqual(['2026-06-01 09:00:00', '2026-06-01 09:30:00']);
    expect(days[1]!.slots).toEqual([]);
    expect(days.map((day) => day.slots.length)).toEqual([2, 0, 0, 0, 0, 0, 0, 2]);
  });
});

describe('strandedBookings: appointments the hours and closures no longer allow', () => {
  const appointment = (from: string, to: string) => ({ startAt: at(from), endAt: at(to) });
  const rules = {
    zone: 'Europe/Berlin',
    week: week({ 1: '09:00-12:00', 2: '09:00-12:00,14:00-16:00' }),
    // Issue 40: a Saturday with extra hours only, a Monday with its morning extended, a closed Tuesday with some too.
    extra: [
      { day: '2026-06-06', ranges: [{ start: 9 * 60, end: 13 * 60 }] },
      { day: '2026-06-08', ranges: [{ start: 12 * 60, end: 14 * 60 }] },
      { day: '2026-06-09', ranges: [{ start: 16 * 60, end: 18 * 60 }] },
    ],
    closures: [{ fromDay: '2026-06-09', toDay: '2026-06-10' }],
  };
  it.each([
    ['inside a range', appointment('2026-06-01T07:00:00Z', '2026-06-01T07:30:00Z'), undefined],
    ['ending exactly at the close', appointment('2026-06-01T09:30:00Z', '2026-06-01T10:00:00Z'), undefined],
    ['off the step grid still fits', appointment('2026-06-01T07:07:00Z', '2026-06-01T07:37:00Z'), undefined],
    ['before the opening', appointment('2026-06-01T06:30:00Z', '2026-06-01T07:00:00Z'), 'hours'],
    ['partly outside: 11:45-12:15', appointment('2026-06-01T09:45:00Z', '2026-06-01T10:15:00Z'), 'hours'],
    ['across the lunch break: 11:30-14:30', appointment('2026-06-02T09:30:00Z', '2026-06-02T12:30:00Z'), 'hours'],
    ['a weekday without hours', appointment('2026-06-03T07:00:00Z', '2026-06-03T07:30:00Z'), 'hours'],
    ['on a closed day inside the hours', appointment('2026-06-09T07:00:00Z', '2026-06-09T07:30:00Z'), 'closure'],
    ['a Saturday inside its extra hours', appointment('2026-06-06T09:00:00Z', '2026-06-06T11:00:00Z'), undefined],
    ['a Saturday past its extra hours', appointment('2026-06-06T10:30:00Z', '2026-06-06T11:30:00Z'), 'hours'],
    ['a Saturday without extra hours', appointment('2026-06-13T07:00:00Z', '2026-06-13T07:30:00Z'), 'hours'],
    ['across the seam of weekly and extra', appointment('2026-06-08T09:30:00Z', '2026-06-08T10:30:00Z'), undefined],
    ['the extra hours of a closed day', appointment('2026-06-09T14:00:00Z', '2026-06-09T14:30:00Z'), 'closure'],
    [
      'the local day counts, not the UTC one: Tuesday 00:30 local is Monday 22:30Z',
      appointment('2026-06-08T22:30:00Z', '2026-06-08T23:00:00Z'),
      'closure',
    ],
  ] as const)('%s', (_name, booking, expected) => {
    expect(strandedBookings(rules, [booking]).map((item) => item.why)[0]).toBe(expected);
  });

  it('keeps the order given and returns the caller’s objects', () => {
    const a = { ...appointment('2026-06-03T07:00:00Z', '2026-06-03T07:30:00Z'), reference: 'A' };
    const b = { ...appointment('2026-06-01T07:00:00Z', '2026-06-01T07:30:00Z'), reference: 'B' };
    const c = { ...appointment('2026-06-09T07:00:00Z', '2026-06-09T07:30:00Z'), reference: 'C' };
    expect(strandedBookings(rules, [a, b, c])).toEqual([
      { booking: a, why: 'hours' },
      { booking: c, why: 'closure' },
    ]);
    expect(strandedBookings(rules, [])).toEqual([]);
  });
});
