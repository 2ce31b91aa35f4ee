/**
 * The self-service page's deadline is one rule (src/domain/deadline.ts), read by the core's change, the page,
 * each mail's manage line and the reminders' warning, and settled here at the exact second: a change is in time up to
 * and including the deadline; a mail written or sent at that second still has the link; a reminder due at that second
 * counts as after it (it is sent at that second at the earliest, and its line is decided when it is sent).
 */
import { describe, expect, it } from 'vitest';
import { changeDeadline, deadlineState, reminderInTime } from '../../src/domain/deadline.ts';
import { offsetsAfterDeadline } from '../../src/domain/reminders.ts';
import { manageActionAt } from '../../src/mail/messages.ts';

const START = Date.parse('2026-12-10T09:00:00Z') / 1000;
const HOURS = 24;
const DEADLINE = START - HOURS * 3600;
const PORTAL = { url: 'https://praxis.example/manage/', cancelUntilHours: HOURS, reschedule: true } as never;

describe('one deadline, at the exact second (issue 37)', () => {
  it.each([
    [DEADLINE - 1, 'open'],
    [DEADLINE, 'open'],
    [DEADLINE + 1, 'past-deadline'],
    [START - 1, 'past-deadline'],
    [START, 'started'],
  ] as const)('a change at %d: %s', (now, state) => {
    expect(changeDeadline(START, HOURS)).toBe(DEADLINE);
    expect(deadlineState(START, HOURS, now)).toBe(state);
  });

  it('a mail written and sent at the deadline’s second has the link; a second later it does not', () => {
    const booking = { startAt: START, cancelled: false };
    expect(manageActionAt(PORTAL, booking, DEADLINE, DEADLINE - 600)).toEqual({
      kind: 'link',
      until: DEADLINE,
      move: true,
    });
    expect(manageActionAt(PORTAL, booking, DEADLINE, DEADLINE)).toEqual({ kind: 'link', until: DEADLINE, move: true });
    expect(manageActionAt(PORTAL, booking, DEADLINE + 1, DEADLINE)).toEqual({ kind: 'closed', until: DEADLINE });
    expect(manageActionAt(PORTAL, booking, DEADLINE + 1, DEADLINE + 1)).toEqual({ kind: 'call' });
  });

  it('a reminder due at the deadline’s second counts as after it; one due a minute before does not', () => {
    expect(reminderInTime(HOURS * 60 + 1, HOURS)).toBe(true);
    expect(reminderInTime(HOURS * 60, HOURS)).toBe(false);
    expect(offsetsAfterDeadline([HOURS * 60 + 1, HOURS * 60, 120], HOURS)).toEqual([HOURS * 60, 120]);
    expect(offsetsAfterDeadline([60], 0)).toEqual([]); // changes until the start: never too late
  });
});
