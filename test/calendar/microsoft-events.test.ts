/**
 * Graph's events read into planner's texts (calendar/microsoft-events.ts), pure: times in UTC, a Windows or IANA
 * zone, all-day dates, planner's own and check events by their transactionId, occurrences kept apart by their start.
 */
import { describe, expect, it } from 'vitest';
import { heldOf, instantOf, meets, sameAsWritten, textOf } from '../../src/calendar/microsoft-events.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('microsoft-events', () => {
  it('a dateTime in UTC, in a Windows zone as Outlook names it, in an IANA zone; an unknown zone is no time', () => {
    expect(instantOf({ dateTime: '2030-03-04T09:00:00.0000000', timeZone: 'UTC' })).toBe(at('2030-03-04T09:00:00Z'));
    expect(instantOf({ dateTime: '2030-07-04T09:00:00.0000000', timeZone: 'W. Europe Standard Time' })).toBe(
      at('2030-07-04T07:00:00Z'),
    );
    expect(instantOf({ dateTime: '2030-01-04T09:00:00', timeZone: 'America/New_York' })).toBe(
      at('2030-01-04T14:00:00Z'),
    );
    expect(instantOf({ dateTime: '2030-01-04T09:00:00', timeZone: 'Mars Standard Time' })).toBeUndefined();
    expect(heldOf({ id: 'x', start: { dateTime: '2030-01-04T09:00:00', timeZone: 'Mars Standard Time' } })).toBe(
      'zoneless',
    );
  });

  it("planner's booking and check events by transactionId; others by iCalUId and start (a series' occurrences apart)", () => {
    const time = {
      start: { dateTime: '2030-03-04T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-03-04T10:00:00', timeZone: 'UTC' },
    };
    expect(heldOf({ id: 'a', transactionId: 'planner-abcdefgh23456789', ...time })).toMatchObject({
      u: 'ABCDEFGH23456789@planner',
    });
    expect(heldOf({ id: 'b', transactionId: 'planner-check-0011aabb', ...time })).toMatchObject({
      u: 'check-0011aabb@planner',
    });
    expect(heldOf({ id: 'c', iCalUId: '0400AB', ...time })).toMatchObject({ u: '0400AB-20300304T090000Z' });
    expect(heldOf({ id: 'd', transactionId: 'another-app', ...time })).toMatchObject({ u: 'd-20300304T090000Z' });
  });

  it('a delta item with only what changed keeps the rest of what was held', () => {
    const before = { s: at('2030-03-04T09:00:00Z'), e: at('2030-03-04T10:00:00Z'), u: 'x-1' };
    expect(heldOf({ id: 'x', showAs: 'free' }, before)).toEqual({ ...before, f: 1 });
    expect(heldOf({ id: 'x', isCancelled: true }, { ...before, f: 1 })).toEqual({ ...before, f: 1, c: 1 });
  });

  it('all-day: dates, with DTEND the day after; meets the window with the zones either side', () => {
    const held = heldOf({
      id: 'y',
      isAllDay: true,
      start: { dateTime: '2030-03-31T00:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2030-04-01T00:00:00.0000000', timeZone: 'UTC' },
    });
    if (!held || held === 'zoneless') throw new Error('read');
    expect(textOf(held)).toContain('DTSTART;VALUE=DATE:20300331\r\nDTEND;VALUE=DATE:20300401\r\n');
    expect(meets(held, { from: at('2030-04-01T00:00:00Z'), to: at('2030-05-01T00:00:00Z') })).toBe(true);
    expect(meets(held, { from: at('2030-04-02T00:00:00Z'), to: at('2030-05-01T00:00:00Z') })).toBe(false);
  });

  it("what a write found: its summary escaped; sameAsWritten compares planner's fields only", () => {
    const held = { s: at('2030-03-04T09:00:00Z'), e: at('2030-03-04T10:00:00Z'), u: 'R@planner' };
    expect(textOf(held, 'Lunch; with, Bob\nlater')).toContain('SUMMARY:Lunch\\; with\\, Bob\\nlater\r\n');
    const event = {
      reference: 'R',
      summary: 'S',
      description: 'D',
      location: '',
      startAt: held.s,
      endAt: held.e,
      zone: 'Europe/Berlin',
    };
    const item = {
      subject: 'S',
      body: { contentType: 'html', content: '<p>D</p>' },
      location: { displayName: '' },
      start: { dateTime: '2030-03-04T09:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2030-03-04T10:00:00.0000000', timeZone: 'UTC' },
      showAs: 'busy',
    };
    expect(sameAsWritten(item, event)).toBe(true);
    expect(sameAsWritten({ ...item, showAs: 'free' }, event)).toBe(false);
    expect(sameAsWritten({ ...item, body: { contentType: 'text', content: 'other' } }, event)).toBe(false);
  });
});
