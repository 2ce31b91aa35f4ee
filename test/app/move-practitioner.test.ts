/**
 * A move to another practitioner offering the booking's reason (the self-service page's choice) changes the
 * booking's schedule in one change, and both practitioners' written calendars hear of it: the old one's writer
 * deletes the event (it is no longer theirs), the new one's writes it. In-process on a real file, a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { availableSlots } from '../../src/app/bookings/availability.ts';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { AppError } from '../../src/errors.ts';
import { addTestCalendar, practice } from '../practice.ts';

const NOW = new Date('2026-06-01T06:00:00Z'); // a Monday, 08:00 in Berlin

describe('a move to another practitioner', () => {
  it('changes the schedule, frees the old time, and queues a write for both practitioners’ calendars', () => {
    const hours = { 'mon-sun': '08:00-12:00' };
    const { store, ctx, schedules, reasons } = practice({
      clock: { now: NOW },
      schedules: [
        { name: 'Dr. Weber', hours },
        { name: 'Dr. Roth', hours },
        { name: 'Dr. Lang', hours },
      ],
      reasons: [{ schedules: [1, 2] }],
    });
    const [weber, roth, lang] = schedules as [number, number, number];
    const checkUp = reasons[0]!;
    const calendars = [weber, roth].map((scheduleId) =>
      addTestCalendar(store, NOW, {
        scheduleId,
        url: `https://calendar.example/${scheduleId}/`,
        everyMinutes: 15,
        writeBookings: true,
      }),
    );
    const booked = createBooking(
      ctx,
      {
        scheduleId: weber,
        reasonId: checkUp,
        slot: '2026-06-03 09:00:00',
        submission: { first_name: 'A', last_name: 'B', email: 'a@b.example' },
      },
      'api',
    );
    store.db.exec("UPDATE calendar_writes SET status = 'written'"); // the create written
    // To a practitioner who does not offer the reason: refused (not_found), nothing changed.
    expect(() =>
      moveBooking(ctx, booked.reference, '2026-06-03 10:00:00', { notify: true, force: false, scheduleId: lang }),
    ).toThrow(AppError);
    const moved = moveBooking(ctx, booked.reference, '2026-06-03 09:00:00', {
      notify: true,
      force: false,
      scheduleId: roth,
    });
    expect(moved).toMatchObject({ scheduleId: roth, scheduleName: 'Dr. Roth', startAt: booked.startAt, sequence: 1 });
    // Dr. Weber's 09:00 is free again; Dr. Roth's is taken.
    expect(availableSlots(ctx, weber, checkUp, '2026-06-03').map((slot) => slot.local)).toContain(
      '2026-06-03 09:00:00',
    );
    expect(availableSlots(ctx, roth, checkUp, '2026-06-03').map((slot) => slot.local)).not.toContain(
      '2026-06-03 09:00:00',
    );
    // Both calendars have a write of it waiting: the old one's (to delete the event) and the new one's.
    const pending = store.db
      .prepare(
        "SELECT calendar_id AS calendar FROM calendar_writes WHERE booking_id = ? AND status = 'pending' ORDER BY calendar_id",
      )
      .all(booked.bookingId);
    expect(pending).toEqual(calendars.map((calendar) => ({ calendar })));
    store.close();
  });
});
