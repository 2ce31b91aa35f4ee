import { describe, expect, it } from 'vitest';
import {
  DROPPED,
  formatOffsets,
  offsetsAfterDeadline,
  parseOffsets,
  reminderTimes,
  reminderTooLate,
} from '../../src/domain/reminders.ts';

describe('parseOffsets (planner reminders set)', () => {
  it.each([
    ['24h', [1440]],
    ['24h,2h', [1440, 120]],
    ['2h,24h', [1440, 120]], // stored largest first
    [' 1d , 30m ', [1440, 30]],
    ['1m', [1]],
    ['30d', [43200]],
    ['720h', [43200]],
    ['90m', [90]],
    ['off', []],
    ['OFF', []],
    ['7d,3d,1d,2h,15m', [10080, 4320, 1440, 120, 15]],
    // Read as every duration is (issue 24): a bare number is minutes, units combine, upper case too.
    ['45', [45]],
    ['24H', [1440]],
    ['1h30m,30', [90, 30]],
    ['1d12h', [2160]],
  ])('%j is %j minutes', (text, minutes) => expect(parseOffsets(text)).toEqual({ ok: true, minutes }));

  it.each([
    ['', '"" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    ['1.5h', '"1.5h" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    ['-2h', '"-2h" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    ['24h,', '"" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    [
      '30m1h',
      '"30m1h" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off',
    ],
    ['1y', '"1y" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    ['0m', '"0m" is out of range: each offset is from 1m to 30d'],
    ['31d', '"31d" is out of range: each offset is from 1m to 30d'],
    ['721h', '"721h" is out of range: each offset is from 1m to 30d'],
    ['24h,1d', '"1d" is given twice (24h)'],
    ['1d,2d,3d,4d,5d,6d', 'at most 5 offsets, not 6'],
    [
      'off,2h',
      '"off" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off',
    ],
  ])('%j is refused: %s', (text, error) => expect(parseOffsets(text)).toEqual({ ok: false, error }));
});

describe('formatOffsets', () => {
  it.each([
    [[], 'off'],
    [[1440, 120], '24h,2h'],
    [[2880, 90, 1], '2d,90m,1m'],
    [[43200], '30d'],
    [[2880, 2150], '2d,1d11h50m'], // 35h50m (issue 41, item 13)
    [[150, 119], '2h30m,119m'],
  ])('%j is %s', (minutes, text) => expect(formatOffsets(minutes)).toBe(text));

  it('reads back what it writes', () => {
    for (const minutes of [
      [1440, 120],
      [2880, 90, 1],
      [43200, 60],
      [2880, 2150, 150],
    ])
      expect(parseOffsets(formatOffsets(minutes))).toEqual({ ok: true, minutes });
  });
});

describe('reminderTimes', () => {
  const start = 1_800_000_000;
  it('is the offset in real seconds before the start; an offset whose time is not after now is skipped', () => {
    expect(reminderTimes(start, [1440, 120], start - 3 * 3600)).toEqual([{ offsetMinutes: 120, dueAt: start - 7200 }]);
    expect(reminderTimes(start, [1440, 120], start - 86400)).toEqual([{ offsetMinutes: 120, dueAt: start - 7200 }]); // exactly at the time: skipped
    expect(reminderTimes(start, [1440, 120], start - 86401)).toEqual([
      { offsetMinutes: 1440, dueAt: start - 86400 },
      { offsetMinutes: 120, dueAt: start - 7200 },
    ]);
    expect(reminderTimes(start, [], start - 86401)).toEqual([]);
  });
});

describe('offsetsAfterDeadline (issue 24, item 3)', () => {
  it.each([
    [[2880], 24, []], // the defaults: 48 h reminder, changes until 24 h before
    [[1440], 24, [1440]], // arrives as the deadline passes
    [[1441], 24, []],
    [[1440, 120], 12, [120]],
    [[60], 0, []], // changes until the start: never too late
  ])('%j with --cancel-until %d: %j', (offsets, hours, late) =>
    expect(offsetsAfterDeadline(offsets, hours)).toEqual(late),
  );
});

describe('reminderTooLate (the sender asks it of every due message)', () => {
  const start = 1_900_000_000;
  it('sends a reminder of a booked appointment up to the second before it begins', () => {
    expect(
      reminderTooLate({ kind: 'reminder', booking: { startAt: start, cancelled: false } }, start - 1),
    ).toBeUndefined();
  });
  it('drops it from the second the appointment begins, and when its booking was cancelled', () => {
    expect(reminderTooLate({ kind: 'reminder', booking: { startAt: start, cancelled: false } }, start)).toBe(
      DROPPED.begun,
    );
    expect(reminderTooLate({ kind: 'reminder', booking: { startAt: start, cancelled: true } }, start - 3600)).toBe(
      DROPPED.cancelledAtDue,
    );
  });
  it('never drops another mail, nor a reminder whose booking is gone (erased mails are scrubbed elsewhere)', () => {
    expect(
      reminderTooLate({ kind: 'confirmation', booking: { startAt: start, cancelled: true } }, start + 1),
    ).toBeUndefined();
    expect(reminderTooLate({ kind: 'reminder', booking: null }, start + 1)).toBeUndefined();
  });
});
