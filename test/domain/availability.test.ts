import { describe, expect, it } from 'vitest';
import { type BookedInterval, freeDays, freeSlots, lookAhead } from '../../src/domain/availability.ts';
import { at, engineInput, type Overrides, week } from './engine-input.ts';

const input = engineInput;

const times = (slots: { local: string }[]) => slots.map((slot) => slot.local.slice(11, 16));
const booked = (from: string, to: string): BookedInterval => ({ startAt: at(from), endAt: at(to) });

describe('freeSlots: the grid', () => {
  it.each([
    ['step 15, 30 minutes in 09:00-10:00', { week: week({ 1: '09:00-10:00' }) }, ['09:00', '09:15', '09:30']],
    [
      'step 25 does not divide the hour',
      { week: week({ 1: '09:00-10:00' }), durationMinutes: 10, rules: { stepMinutes: 25 } },
      ['09:00', '09:25', '09:50'],
    ],
    [
      'each range starts its own grid',
      { week: week({ 1: '09:10-10:00,13:05-13:40' }), rules: { stepMinutes: 20 } },
      ['09:10', '09:30', '13:05'],
    ],
    ['duration longer than the range', { week: week({ 1: '09:00-09:20' }) }, []],
    [
      '24:00 as an end',
      { week: week({ 1: '22:00-24:00' }), durationMinutes: 60, rules: { stepMinutes: 30 } },
      ['22:00', '22:30', '23:00'],
    ],
    ['closed day', { week: week({ 2: '09:00-12:00' }) }, []],
  ] as const)('%s', (_name, overrides, expected) => {
    expect(times(freeSlots(input(overrides as Overrides), '2026-06-01', []))).toEqual(expected);
  });

  it('gives local strings and UTC instants', () => {
    const [first] = freeSlots(input(), '2026-06-01', []);
    expect(first).toEqual({ local: '2026-06-01 09:00:00', startAt: at('2026-06-01T07:00:00Z') });
  });
});

describe('freeSlots: bookings and capacity', () => {
  const range = { week: week({ 1: '09:00-11:00' }) };
  it.each([
    [
      'a 30-minute booking at 10:00 removes 09:45, 10:00 and 10:15',
      1,
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z')],
      ['09:00', '09:15', '09:30', '10:30'],
    ],
    [
      'a booking ending at 10:00 does not block 10:00',
      1,
      [booked('2026-06-01T07:30:00Z', '2026-06-01T08:00:00Z')],
      ['09:00', '10:00', '10:15', '10:30'],
    ],
    [
      'capacity 2: one booking blocks nothing',
      2,
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z')],
      ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30'],
    ],
    [
      'capacity 2: two overlapping bookings block where both overlap',
      2,
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z'), booked('2026-06-01T08:15:00Z', '2026-06-01T08:45:00Z')],
      ['09:00', '09:15', '09:30', '09:45', '10:30'],
    ],
    [
      'capacity 2: two bookings that do not overlap each other block nothing',
      2,
      [booked('2026-06-01T07:00:00Z', '2026-06-01T07:30:00Z'), booked('2026-06-01T08:30:00Z', '2026-06-01T09:00:00Z')],
      ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30'],
    ],
    [
      'a long booking of another reason blocks all it covers',
      1,
      [booked('2026-06-01T07:00:00Z', '2026-06-01T08:15:00Z')],
      ['10:15', '10:30'],
    ],
  ])('%s', (_name, capacity, bookings, expected) => {
    expect(times(freeSlots(input({ ...range, rules: { capacity } }), '2026-06-01', bookings))).toEqual(expected);
  });
});

describe('freeSlots: notice and look-ahead', () => {
  // Buffers (issue 16): a booking keeps its own (the query returns them in its interval); a new one needs its own free.
  it.each([
    [
      'a booking 10:00-10:30 that keeps 15 minutes after: 10:30 is gone (free without buffers, above)',
      {},
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:45:00Z')],
      ['09:00', '09:15', '09:30'],
    ],
    [
      'a reason with 15 minutes before: 10:30 would need 10:15-10:30, which the 10:00 booking has',
      { bufferBeforeMinutes: 15 },
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z')],
      ['09:00', '09:15', '09:30'],
    ],
    [
      'a reason with 15 minutes after: 09:30 would need 10:00-10:15',
      { bufferAfterMinutes: 15 },
      [booked('2026-06-01T08:00:00Z', '2026-06-01T08:30:00Z')],
      ['09:00', '09:15', '10:30'],
    ],
    [
      'buffers may lie outside the hours: 09:00 and 10:30 stay offered',
      { bufferBeforeMinutes: 60, bufferAfterMinutes: 60 },
      [],
      ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30'],
    ],
    [
      'a booking before the opening whose buffer reaches into it',
      {},
      [booked('2026-06-01T06:00:00Z', '2026-06-01T07:20:00Z')],
      ['09:30', '09:45', '10:00', '10:15', '10:30'],
    ],
  ] as const)('buffers: %s', (_name, reason, bookings, expected) => {
    expect(times(freeSlots(input({ week: week({ 1: '09:00-11:00' }), ...reason }), '2026-06-01', bookings))).toEqual(
      expected,
    );
  });

  it('no slot starts before now + notice', () => {
    expect(times(freeSlots(input({ rules: { noticeMinutes: 90 } }), '2026-06-01', [])).slice(0, 2)).toEqual([
      '09:30',
      '09:45',
    ]);
  });

  it('slots already past are gone', () => {
    const later = input({ now: at('2026-06-01T08:10:00Z') }); // 10:10 local
    expect(times(freeSlots(later, '2026-06-01', []))[0]).toBe('10:15');
  });

  it('days beyond today + days ahead, and days before today, are empty', () => {
    const rules = { daysAhead: 7 };
    expect(freeSlots(input({ rules }), '2026-06-08', [])).toHaveLength(11); // today + 7 is allowed
    expect(freeSlots(input({ rules }), '2026-06-15', [])).toEqual([]);
    expect(freeSlots(input({ rules }), '2026-05-25', [])).toEqual([]);
  });
});

describe('freeDays', () => {
  it('lists the open days of the look-ahead, without closures', () => {
    const days = freeDays(
      input({ rules: { daysAhead: 21 }, closures: [{ fromDay: '2026-06-08', toDay: '2026-06-08' }] }),
      lookAhead(input({ rules: { daysAhead: 21 } })),
      [],
    );
    expect(days).toEqual(['2026-06-01', '2026-06-15', '2026-06-22']);
  });

  it('a closure range removes every day in it', () => {
    const open = input({
      week: week({ 1: '09:00-12:00', 2: '09:00-12:00', 3: '09:00-12:00' }),
      closures: [{ fromDay: '2026-05-30', toDay: '2026-06-02' }],
    });
    expect(freeDays(open, lookAhead(open), []).slice(0, 2)).toEqual(['2026-06-03', '2026-06-08']);
  });

  it('leaves out a day whose every slot is booked, and today once it has passed', () => {
    const short = input({ week: week({ 1: '09:00-10:00' }), rules: { stepMinutes: 30 } });
    const full = [booked('2026-06-08T07:00:00Z', '2026-06-08T08:00:00Z')];
    expect(freeDays(short, lookAhead(short), full)).toEqual(['2026-06-01', '2026-06-15']);
    const evening = { ...short, now: at('2026-06-01T17:00:00Z') };
    expect(freeDays(evening, lookAhead(evening), [])).toEqual(['2026-06-08', '2026-06-15']);
  });

  it('today is the local day, not the UTC one', () => {
    // 2026-06-01T23:30Z is already Tuesday 01:30 in Berlin.
    const night = input({ now: at('2026-06-01T23:30:00Z'), week: week({ 2: '09:00-10:00' }), rules: { daysAhead: 0 } });
    expect(freeDays(night, lookAhead(night), [])).toEqual(['2026-06-02']);
  });
});

describe('daylight saving', () => {
  const allDay = (weekday: number) => week({ [weekday]: '00:00-24:00' });

  it('Europe/Berlin spring forward (2026-03-29): 02:00-02:59 is never offered', () => {
    const spring = input({ now: at('2026-03-20T00:00:00Z'), week: allDay(7), rules: { stepMinutes: 30 } });
    const slots = freeSlots(spring, '2026-03-29', []);
    expect(times(slots).filter((time) => time.startsWith('02:'))).toEqual([]);
    expect(slots).toHaveLength(46); // 23 hours of 30-minute slots
    expect(slots.find((slot) => slot.local.endsWith('03:00:00'))!.startAt).toBe(at('2026-03-29T01:00:00Z'));
    // A 60-minute slot at 01:30 CET ends at 03:30 CEST: one real hour.
    const hour = freeSlots({ ...spring, durationMinutes: 60 }, '2026-03-29', []);
    expect(hour.find((slot) => slot.local.endsWith('01:30:00'))!.startAt).toBe(at('2026-03-29T00:30:00Z'));
  });

  it('Europe/Berlin fall back (2026-10-25): each local time once, meaning its earlier instant', () => {
    const fall = input({ now: at('2026-10-20T00:00:00Z'), week: allDay(7), rules: { stepMinutes: 30 } });
    const slots = freeSlots(fall, '2026-10-25', []);
    expect(new Set(slots.map((slot) => slot.local)).size).toBe(slots.length);
    expect(slots).toHaveLength(48);
    expect(slots.find((slot) => slot.local.endsWith('02:00:00'))!.startAt).toBe(at('2026-10-25T00:00:00Z')); // CEST
    expect(slots.find((slot) => slot.local.endsWith('03:00:00'))!.startAt).toBe(at('2026-10-25T02:00:00Z')); // CET
    // A booking in the later 02:00 (CET, 01:00Z) blocks the real time it covers, not the earlier 02:00.
    const later = freeSlots(fall, '2026-10-25', [booked('2026-10-25T01:00:00Z', '2026-10-25T01:30:00Z')]);
    expect(times(later)).toContain('02:00');
    expect(later).toHaveLength(48);
    // The 25-hour day is longer in real time: a range 01:00-03:00 holds three 60-minute slots at 01:00, 02:00 (CEST), 02:30.
    const range = freeSlots({ ...fall, week: week({ 7: '01:00-03:00' }), durationMinutes: 60 }, '2026-10-25', []);
    expect(times(range)).toEqual(['01:00', '01:30', '02:00', '02:30']);
  });

  it('Australia/Sydney (southern hemisphere) spring forward 2026-10-04 and fall back 2026-04-05', () => {
    const base = { zone: 'Australia/Sydney', week: allDay(7), rules: { stepMinutes: 30 } };
    const spring = freeSlots(input({ ...base, now: at('2026-10-01T00:00:00Z') }), '2026-10-04', []);
    expect(times(spring).filter((time) => time.startsWith('02:'))).toEqual([]);
    expect(spring).toHaveLength(46);
    const fall = freeSlots(input({ ...base, now: at('2026-04-01T00:00:00Z') }), '2026-04-05', []);
    expect(fall).toHaveLength(48);
    // 02:00 happens twice (AEDT +11, then AEST +10): the earlier is 15:00Z the day before.
    expect(fall.find((slot) => slot.local.endsWith('02:00:00'))!.startAt).toBe(at('2026-04-04T15:00:00Z'));
  });
});
