import { describe, expect, it } from 'vitest';
import { formatLocal, isDay, isSlotText, localDay } from '../../src/domain/dates.ts';

describe('isDay', () => {
  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-1-01', false],
    ['2026-01-01 ', false],
  ])('%j is %s', (text, ok) => expect(isDay(text)).toBe(ok));
});

describe('isSlotText', () => {
  it.each([
    ['2026-11-24 09:30:00', true],
    ['2026-11-24 23:59:59', true],
    ['2026-11-24 24:00:00', false],
    ['2026-11-24 09:60:00', false],
    ['2026-11-24 09:30:60', false],
    ['2026-02-30 09:30:00', false],
    ['2026-11-24T09:30:00', false],
    ['2026-11-24 09:30', false],
    ['2026-11-24 09:30:00 ', false],
  ])('%j is %s', (text, ok) => expect(isSlotText(text)).toBe(ok));
});

describe('local days and instants', () => {
  const now = new Date('2026-03-28T23:30:00Z'); // already 29 March in Berlin
  it('localDay uses the zone, not UTC', () => {
    expect(localDay(now, 'Europe/Berlin')).toBe('2026-03-29');
    expect(localDay(now, 'UTC')).toBe('2026-03-28');
  });

  it('formatLocal shows the wall clock of the zone', () => {
    expect(formatLocal(new Date('2026-07-01T08:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01 10:00');
    expect(formatLocal(new Date('2026-07-01T08:00:00Z'), 'Australia/Sydney')).toBe('2026-07-01 18:00');
  });
});
