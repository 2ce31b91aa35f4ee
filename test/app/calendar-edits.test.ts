/**
 * What the read of a calendar makes of planner's own event against its booking (`editOf`), and how each edit is said
 * (`overwrittenLine`, `editsLine`): pure, with fixed instants.
 */
import { describe, expect, it } from 'vitest';
import { editOf, editsLine, localSpan, overwrittenLine } from '../../src/app/calendars/calendar-edits.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const booking = { startAt: at('2026-12-03T09:00:00Z'), endAt: at('2026-12-03T09:30:00Z') };
const read = { from: at('2026-12-01T00:00:00Z'), to: at('2026-12-31T00:00:00Z') };
const seen = (startAt: number, endAt: number, cancelled = false) => ({ reference: 'R', startAt, endAt, cancelled });

describe('editOf', () => {
  it.each([
    ['as written', seen(booking.startAt, booking.endAt), null],
    [
      'moved',
      seen(booking.startAt + 3600, booking.endAt + 3600),
      { kind: 'moved', startAt: booking.startAt + 3600, endAt: booking.endAt + 3600 },
    ],
    [
      'longer',
      seen(booking.startAt, booking.endAt + 900),
      { kind: 'moved', startAt: booking.startAt, endAt: booking.endAt + 900 },
    ],
    ['cancelled in the app, at its time', seen(booking.startAt, booking.endAt, true), { kind: 'cancelled' }],
    ['gone, inside what was read', undefined, { kind: 'removed' }],
  ] as const)('%s', (_name, event, edit) => {
    expect(editOf(booking, event, read)).toEqual(edit);
  });

  it('gone, but outside what was read: unknown (it would not have come back either way)', () => {
    expect(editOf(booking, undefined, { from: booking.endAt, to: booking.endAt + 86_400 })).toBeUndefined();
    expect(editOf(booking, undefined, { from: 0, to: booking.startAt })).toBeUndefined();
  });
});

describe('the words of an edit', () => {
  const zone = 'Europe/Berlin';
  it('a span in local time, both dates when it ends on another day', () => {
    expect(localSpan(booking.startAt, booking.endAt, zone)).toBe('2026-12-03 10:00–10:30');
    expect(localSpan(booking.startAt, booking.startAt + 86_400, zone)).toBe('2026-12-03 10:00–2026-12-04 10:00');
  });
  it('what planner wrote over, for each kind', () => {
    const wrote = '2026-12-03 10:00–10:30';
    expect(
      overwrittenLine(
        'R',
        wrote,
        { kind: 'moved', startAt: booking.startAt + 3600, endAt: booking.endAt + 3600 },
        zone,
      ),
    ).toBe(
      'the event of booking R had been changed in the calendar (it showed 2026-12-03 11:00–11:30); planner wrote its own over it (2026-12-03 10:00–10:30)',
    );
    expect(overwrittenLine('R', wrote, { kind: 'cancelled' }, zone)).toBe(
      'the event of booking R had been changed in the calendar (it was cancelled there); planner wrote its own over it (2026-12-03 10:00–10:30)',
    );
    expect(overwrittenLine('R', wrote, 'gone', zone)).toBe(overwrittenLine('R', wrote, { kind: 'removed' }, zone));
    expect(overwrittenLine('R', wrote, 'gone', zone)).toBe(
      'the event of booking R had been removed from the calendar; planner wrote it again (2026-12-03 10:00–10:30)',
    );
    expect(overwrittenLine('R', wrote, undefined, zone)).toBe(
      'the event of booking R had been changed in the calendar; planner wrote its own over it (2026-12-03 10:00–10:30)',
    );
  });
  it('the one line of status and doctor', () => {
    expect(
      editsLine([
        { calendarId: 1, reference: 'A', kind: 'moved', booked: 'b1', shown: 's1', seenAt: '' },
        { calendarId: 1, reference: 'B', kind: 'cancelled', booked: 'b2', shown: null, seenAt: '' },
      ]),
    ).toBe(
      '2 booking(s) changed in a calendar app, not in planner: A (booked b1) moved to s1, B (booked b2) cancelled',
    );
  });
});
