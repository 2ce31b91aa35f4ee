import { describe, expect, it } from 'vitest';
import { fitsInputType, formatLocal, isDay, isEmail, isPhone, isTimeZone, localDay, parsePlainInt } from '../../src/domain/values.ts';
import { localToUnix } from '../../src/domain/zone.ts';

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

describe('isTimeZone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/Argentina/Buenos_Aires', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['', false],
    ['Europe/Berlin; drop', false],
  ])('%j is %s', (zone, ok) => expect(isTimeZone(zone)).toBe(ok));
});

describe('isEmail', () => {
  it.each([
    ['anna@example.com', true],
    ['a.b+c@sub.example.de', true],
    ['anna@localhost', false],
    ['anna example.com', false],
    ['@example.com', false],
    ['anna@', false],
  ])('%j is %s', (text, ok) => expect(isEmail(text)).toBe(ok));
});

describe('parsePlainInt', () => {
  it.each([
    ['1', 1],
    ['0', 0],
    ['42', 42],
    ['-3', -3],
    ['01', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['abc', undefined],
    ['', undefined],
    [' 1', undefined],
    ['9999999999999999', undefined],
  ])('%j gives %s', (text, value) => expect(parsePlainInt(text)).toBe(value));
});

describe('input types', () => {
  it.each([
    ['tel', '+49 30 1234567', true],
    ['tel', '12', false],
    ['tel', 'call me', false],
    ['number', '-1.5', true],
    ['number', '1,5', false],
    ['date', '2026-02-28', true],
    ['date', '2026-02-30', false],
    ['email', 'x@y.de', true],
    ['text', 'anything', true],
  ] as const)('%s %j fits: %s', (type, text, ok) => expect(fitsInputType(type, text)).toBe(ok));

  it('isPhone counts digits, not characters', () => {
    expect(isPhone('(030) 12-34')).toBe(true);
    expect(isPhone('+'.padEnd(25, '1'))).toBe(false);
  });
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

  it('localToUnix: spring-forward gap moves later, fall-back overlap takes the earlier instant', () => {
    // Europe/Berlin 2026-03-29 02:30 does not exist: compatible gives 03:30 CEST = 01:30Z.
    expect(localToUnix('2026-03-29', 150, 'Europe/Berlin')).toBe(Date.parse('2026-03-29T01:30:00Z') / 1000);
    // 2026-10-25 02:30 happens twice: the earlier is CEST = 00:30Z.
    expect(localToUnix('2026-10-25', 150, 'Europe/Berlin')).toBe(Date.parse('2026-10-25T00:30:00Z') / 1000);
    // 24:00 is the next midnight.
    expect(localToUnix('2026-07-01', 1440, 'Europe/Berlin')).toBe(Date.parse('2026-07-01T22:00:00Z') / 1000);
  });
});
