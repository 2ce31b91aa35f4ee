/**
 * Stranded bookings and closures in the past (src/app/practice/hours.ts), in process with a clock the test sets: only
 * upcoming booked appointments count, the past is judged in the installation's zone, and `--all-schedules` closes
 * the schedules that are not removed, in one transaction.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking } from '../../src/app/bookings/lifecycle.ts';
import { addClosure, setHours } from '../../src/app/practice/hours.ts';
import { addSchedule, removeSchedule } from '../../src/app/practice/schedules.ts';
import { AppError } from '../../src/errors.ts';
import { snapshot } from '../helpers.ts';
import { practice } from '../practice.ts';

/** Schedules 1 and 2 (open every day 08:00-18:00, 30-minute steps, no notice) with reasons 1 and 2, in Berlin. */
function installation(now: string) {
  const { file, ctx, clock } = practice({
    clock: { now: new Date(now) },
    schedules: [{ name: 'Dr. A' }, { name: 'Dr. B' }],
    reasons: [
      { name: 'Visit', schedules: [1] },
      { name: 'Visit', schedules: [2] },
    ],
  });
  const book = (scheduleId: number, slot: string, first: string, phone?: string) =>
    createBooking(
      ctx,
      {
        scheduleId,
        reasonId: scheduleId,
        slot,
        submission: { first_name: first, last_name: 'T', email: `${first}@example.com`, ...(phone ? { phone } : {}) },
      },
      'admin',
    ).reference;
  return { ctx, clock, file, book };
}

describe('stranded bookings', () => {
  it('lists upcoming booked appointments only: not those already begun or past, cancelled, or of another schedule', () => {
    const { ctx, clock, book } = installation('2026-06-01T05:00:00Z'); // Monday 07:00 in Berlin
    const early = book(1, '2026-06-01 08:00:00', 'early');
    const later = book(1, '2026-06-01 15:00:00', 'later', '+49 30 1');
    const cancelled = book(1, '2026-06-01 16:00:00', 'cancelled');
    cancelBooking(ctx, cancelled, { notify: false });
    book(2, '2026-06-01 15:00:00', 'other');
    clock.now = new Date('2026-06-01T06:15:00Z'); // 08:15: the 08:00 appointment has begun
    const result = addClosure(ctx, 1, '2026-06-01', undefined, 'ill');
    expect(result.stranded.map((item) => [item.reference, item.why, item.customerName, item.phone])).toEqual([
      [later, 'closure', 'later T', '+49 30 1'],
    ]);
    expect(result.stranded.map((item) => item.reference)).not.toContain(early);
  });

  it('hours set reports what the new hours leave outside; a booking off the new step grid is not stranded', () => {
    const { ctx, book } = installation('2026-06-01T05:00:00Z');
    const nine = book(1, '2026-06-02 09:00:00', 'nine');
    const five = book(1, '2026-06-02 17:30:00', 'five');
    expect(setHours(ctx, 1, 'tue', '08:15-17:45').stranded.map((item) => [item.reference, item.why])).toEqual([
      [five, 'hours'],
    ]);
    expect(setHours(ctx, 1, 'tue', 'closed').stranded.map((item) => item.reference)).toEqual([nine, five]);
    expect(setHours(ctx, 1, 'mon-sun', '08:00-18:00').stranded).toEqual([]);
  });

  it('--all-schedules closes each schedule that is not removed, and reports the bookings of all', () => {
    const { ctx, book } = installation('2026-06-01T05:00:00Z');
    const a = book(1, '2026-06-03 10:00:00', 'a');
    const b = book(2, '2026-06-03 09:00:00', 'b');
    const removed = addSchedule(ctx, { name: 'Gone' });
    removeSchedule(ctx, removed, false);
    const result = addClosure(ctx, 'all', '2026-06-03', '2026-06-04', 'holiday');
    expect(result.closures.map((closure) => closure.scheduleId)).toEqual([1, 2]);
    expect(result.stranded.map((item) => [item.reference, item.scheduleId])).toEqual([
      [b, 2],
      [a, 1],
    ]);
  });

  it('a closure wholly in the past is refused, judged by the local day of the installation’s zone', () => {
    // 22:30Z on Monday is already Tuesday 00:30 in Berlin: Monday is past there, though not in UTC.
    const { ctx, file } = installation('2026-06-01T22:30:00Z');
    const before = snapshot(file);
    const refusal = (() => {
      try {
        addClosure(ctx, 'all', '2026-05-30', '2026-06-01', '');
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect([refusal.code, refusal.message]).toEqual([
      'invalid',
      '2026-05-30 to 2026-06-01 lies wholly in the past (today is 2026-06-02 in Europe/Berlin): a closure must end today or later',
    ]);
    expect(snapshot(file)).toEqual(before);
    expect(addClosure(ctx, 1, '2026-05-30', '2026-06-02', '').closures).toHaveLength(1);
  });
});
