import { describe, expect, it } from 'vitest';
import { durationIn, formatDuration, parseDuration } from '../../src/domain/durations.ts';

describe('parseDuration (every option that takes a duration, issue 24)', () => {
  it.each<[string, 'minutes' | 'hours' | 'days' | undefined, number]>([
    ['45', undefined, 45],
    ['45m', undefined, 45],
    ['1h30m', undefined, 90],
    ['12h', undefined, 720],
    ['2d', undefined, 2880],
    ['1d12h', undefined, 2160],
    ['1d0h5m', undefined, 1445],
    ['0', undefined, 0],
    [' 90M ', undefined, 90],
    ['1H30M', undefined, 90],
    ['48', 'hours', 2880], // --cancel-until: a bare number counts hours
    ['48h', 'hours', 2880],
    ['90m', 'hours', 90],
    ['1w', undefined, 10080], // a series' --repeat (issue 40): weeks, and a bare number of days
    ['2W', undefined, 20160],
    ['1w2d', undefined, 12960],
    ['7', 'days', 10080],
  ])('%j (bare %s) is %d minutes', (text, bare, minutes) =>
    expect(parseDuration(text, bare)).toEqual({ ok: true, value: minutes }),
  );

  it.each(['', 'h', '1.5h', '-5', '30m1h', '1h1h', '1y', '1d1w', '5 min', '1h 30m', '12345678'])('refuses %j', (text) =>
    expect(parseDuration(text)).toEqual({
      ok: false,
      error: `"${text}" is not a duration: write 45 (minutes), 45m, 1h30m, 12h or 2d`,
    }),
  );

  it('says which unit a bare number counts in', () => {
    expect(parseDuration('soon', 'hours')).toEqual({
      ok: false,
      error: '"soon" is not a duration: write 48 (hours), 48h, 2d or 1h30m',
    });
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0'],
    [45, '45m'],
    [90, '1h30m'],
    [240, '4h'],
    [1440, '1d'],
    [2160, '1d12h'],
    [525_600, '365d'],
  ])('%d minutes is %s, which reads back', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
    expect(parseDuration(text)).toEqual({ ok: true, value: minutes });
  });
});

describe('durationIn', () => {
  it('names the option and the value as typed', () => {
    expect(durationIn('5h', '--buffer-after', { min: 0, max: 240 })).toEqual({
      ok: false,
      error: '--buffer-after must be from 0 to 4h (got "5h")',
    });
    expect(durationIn('soon', '--notice', { min: 0, max: 60 })).toEqual({
      ok: false,
      error: '--notice: "soon" is not a duration: write 45 (minutes), 45m, 1h30m, 12h or 2d',
    });
    expect(durationIn('1h30m', '--duration', { min: 1, max: 1440 })).toEqual({ ok: true, value: 90 });
  });
});
