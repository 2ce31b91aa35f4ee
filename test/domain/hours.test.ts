import { describe, expect, it } from 'vitest';
import { formatRange, parseDays, parseRanges, parseTime } from '../../src/domain/hours.ts';
import { AppError, valueOrInvalid } from '../../src/errors.ts';

describe('parseDays', () => {
  it.each([
    ['mon-fri', [1, 2, 3, 4, 5]],
    ['sat', [6]],
    ['mon,wed', [1, 3]],
    ['mon-sun', [1, 2, 3, 4, 5, 6, 7]],
    ['mon-wed,fri', [1, 2, 3, 5]],
    ['fri-mon', [1, 5, 6, 7]],
    ['SUN', [7]],
    ['tue,tue', [2]],
  ])('%s gives %j', (spec, days) => {
    expect(parseDays(spec)).toEqual({ ok: true, value: days });
  });

  it.each(['', 'monday', 'mon-', 'mon-fri-sat', 'mon,,fri', 'xyz'])('refuses %j', (spec) => {
    expect(parseDays(spec)).toEqual({ ok: false, error: expect.stringMatching(/day/) });
  });
});

describe('parseTime', () => {
  it.each([
    ['00:00', false, 0],
    ['09:30', false, 570],
    ['23:59', false, 1439],
    ['24:00', true, 1440],
    ['9:00', false, 540], // a one-digit hour reads as 09:00 (issue 24)
    ['0:05', false, 5],
  ])('%s (end allowed: %s) is minute %d', (text, allowEnd, minutes) => {
    expect(parseTime(text, allowEnd)).toEqual({ ok: true, value: minutes });
  });

  it.each([
    ['24:00', false],
    ['24:01', true],
    ['9:0', false],
    ['123:00', false],
    [':30', false],
    ['09:60', false],
    ['25:00', true],
    ['ab:cd', false],
  ])('refuses %s (end allowed: %s)', (text, allowEnd) => {
    expect(parseTime(text, allowEnd)).toEqual({ ok: false, error: expect.stringMatching(/not a time/) });
  });
});

describe('parseRanges', () => {
  it.each([
    [
      '09:00-12:00,13:00-17:30',
      [
        { start: 540, end: 720 },
        { start: 780, end: 1050 },
      ],
    ],
    [
      '13:00-17:30,09:00-12:00',
      [
        { start: 540, end: 720 },
        { start: 780, end: 1050 },
      ],
    ],
    ['00:00-24:00', [{ start: 0, end: 1440 }]],
    ['closed', []],
    ['09:00-12:00,12:00-13:00', [{ start: 540, end: 780 }]],
    [
      '8:00-12:00, 13:00-17:30',
      [
        { start: 480, end: 720 },
        { start: 780, end: 1050 },
      ],
    ],
  ])('%s', (spec, ranges) => {
    expect(parseRanges(spec)).toEqual({ ok: true, value: ranges });
  });

  it.each([
    ['12:00-09:00', /ends before it starts/],
    ['09:00-09:00', /ends before it starts/],
    ['09:00-12:00,11:00-13:00', /overlap/],
    ['09:00', /not a time range/],
    ['09:00-10:00-11:00', /not a time range/],
    ['24:00-24:00', /not a time/],
    ['', /not a time range/],
  ])('refuses %j', (spec, message) => {
    expect(parseRanges(spec)).toEqual({ ok: false, error: expect.stringMatching(message) });
  });

  it('returns its problems as values, which the app throws as `invalid` with the same text', () => {
    expect(parseRanges('09:00-12:00,11:00-13:00')).toEqual({
      ok: false,
      error: 'ranges 09:00-12:00 and 11:00-13:00 overlap',
    });
    expect(parseDays('mon-xyz')).toEqual({
      ok: false,
      error: 'unknown day "xyz" (use mon, tue, wed, thu, fri, sat, sun)',
    });
    expect(() => valueOrInvalid(parseRanges('12:00-09:00'))).toThrow(
      new AppError('invalid', 'range 12:00-09:00 ends before it starts'),
    );
    expect(valueOrInvalid(parseRanges('closed'))).toEqual([]);
  });

  it('formats a range back', () => {
    expect(formatRange({ start: 0, end: 1440 })).toBe('00:00-24:00');
  });
});
