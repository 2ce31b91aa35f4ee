import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  localToUnix,
  offsetTable,
  timeZoneProblem,
  wallToUnix,
  wallToUnixCompatible,
} from '../../src/domain/zone.ts';

const DAY = 86_400;

/** Returns `day` as whole days since 1970-01-01. */
function epochDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000 / DAY;
}

describe('offset table against Temporal', () => {
  // Every 5 minutes across both transitions of each zone's year: the arithmetic must agree with Temporal.
  it.each([
    ['Europe/Berlin', ['2026-03-29', '2026-10-25']],
    ['America/New_York', ['2026-03-08', '2026-11-01']],
    ['Australia/Sydney', ['2026-04-05', '2026-10-04']],
    ['America/Santiago', ['2026-04-05', '2026-09-06']],
    ['Australia/Lord_Howe', ['2026-04-05', '2026-10-04']], // a half-hour shift
    ['Asia/Kolkata', ['2026-06-01']],
  ])('%s', (zone, days) => {
    const table = offsetTable(
      zone,
      Date.parse('2026-01-01T00:00:00Z') / 1000 - 2 * DAY,
      Date.parse('2027-01-01T00:00:00Z') / 1000,
    );
    for (const day of days) {
      for (let minute = -24 * 60; minute < 48 * 60; minute += 5) {
        const wall = epochDay(day) * DAY + minute * 60;
        const plain = Temporal.PlainDateTime.from(new Date(wall * 1000).toISOString().slice(0, 19));
        const compatible = plain.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds / 1000;
        const exists = plain.toZonedDateTime(zone, { disambiguation: 'compatible' }).toPlainDateTime().equals(plain);
        expect(wallToUnix(table, wall), `${zone} ${plain}`).toBe(exists ? compatible : undefined);
        expect(wallToUnixCompatible(table, wall), `${zone} ${plain}`).toBe(compatible);
      }
    }
  });

  it('a zone without transitions has one offset', () => {
    const table = offsetTable('Asia/Tokyo', 0, 2_000_000_000);
    expect(table.offsets).toEqual([9 * 3600]);
  });

  it('localToUnix agrees for a plain day', () => {
    expect(localToUnix('2026-07-01', 600, 'Europe/Berlin')).toBe(Date.parse('2026-07-01T08:00:00Z') / 1000);
  });
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

describe('timeZoneProblem: a practice lives by a place, not a legacy or fixed-offset name (issue 24, item 1)', () => {
  it.each([
    ['Europe/Berlin', undefined],
    ['Asia/Kolkata', undefined],
    ['Asia/Calcutta', undefined],
    ['Europe/Kyiv', undefined],
    ['America/Argentina/Buenos_Aires', undefined],
    ['UTC', undefined],
    ['CET', 'use Europe/Berlin'],
    ['MET', 'use Europe/Berlin'],
    ['EET', 'use Europe/Athens'],
    ['EST', 'use America/New_York'],
    ['PST8PDT', 'use America/Los_Angeles'],
    ['GB', 'use Europe/London'],
    ['US/Pacific', 'use America/Los_Angeles'],
    ['Etc/UTC', 'use UTC'],
    ['GMT', 'use UTC'],
    ['europe/berlin', 'use Europe/Berlin'],
    ['Etc/GMT-2', "use the place's zone"],
    ['Europe/Nowhere', 'is not an IANA time zone'],
  ])('%j: %s', (zone, hint) => {
    const problem = timeZoneProblem(zone);
    if (hint === undefined) expect(problem).toBeUndefined();
    else expect(problem).toContain(hint);
  });
});

describe('local instants', () => {
  it('localToUnix: spring-forward gap moves later, fall-back overlap takes the earlier instant', () => {
    // Europe/Berlin 2026-03-29 02:30 does not exist: compatible gives 03:30 CEST = 01:30Z.
    expect(localToUnix('2026-03-29', 150, 'Europe/Berlin')).toBe(Date.parse('2026-03-29T01:30:00Z') / 1000);
    // 2026-10-25 02:30 happens twice: the earlier is CEST = 00:30Z.
    expect(localToUnix('2026-10-25', 150, 'Europe/Berlin')).toBe(Date.parse('2026-10-25T00:30:00Z') / 1000);
    // 24:00 is the next midnight.
    expect(localToUnix('2026-07-01', 1440, 'Europe/Berlin')).toBe(Date.parse('2026-07-01T22:00:00Z') / 1000);
  });
});
