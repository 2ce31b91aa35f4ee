/**
 * What the desk marks on a booking (app/desk/marks.ts), in process on the test's clock: attendance by its rules, the
 * staff's private note in the history under the person's name, and both part of the customer's data: in their
 * export (GDPR Art. 15), and gone with their erase.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking } from '../../src/app/bookings/lifecycle.ts';
import { createSeries } from '../../src/app/bookings/series.ts';
import { exportCustomer } from '../../src/app/customers/customers.ts';
import { eraseCustomer } from '../../src/app/customers/erase.ts';
import { deskPerson } from '../../src/app/desk/agenda.ts';
import { deskBook, deskFields, resendConfirmation } from '../../src/app/desk/book.ts';
import { markAttendance, noteBooking } from '../../src/app/desk/marks.ts';
import { bookingEvents } from '../../src/store/booking-events.ts';
import { findBooking } from '../../src/store/bookings.ts';
import { upsertStaff } from '../../src/store/staff.ts';
import { practice } from '../practice.ts';

describe('the desk’s marks on a booking', () => {
  it('attendance by its rules; the note in the history, in the export, and gone with an erase', () => {
    const { ctx, store, clock } = practice({ schedules: [{}, { name: 'Dr. Roth' }], reasons: [{ schedules: [1, 2] }] });
    const id = upsertStaff(
      store,
      { email: 'rita@praxis.example', name: 'Rita', role: 'reception', schedules: [] },
      'x',
    );
    const rita = deskPerson(ctx, id)!;
    const doctor = deskPerson(
      ctx,
      upsertStaff(store, { email: 'roth@praxis.example', name: 'Roth', role: 'practitioner', schedules: [2] }, 'x'),
    )!;
    const submission = { first_name: 'Jana', last_name: 'Müller', email: 'jana@example.com' };
    const { reference } = createBooking(
      ctx,
      { scheduleId: 1, reasonId: 1, slot: '2026-06-02 09:00:00', submission },
      'api',
    );
    // Before its day: not arrived; before its time: no no-show. Another practitioner's booking: not found.
    expect(() => markAttendance(ctx, rita, reference, 'arrived')).toThrow(/later day/);
    clock.now = new Date('2026-06-02T06:30:00Z'); // 08:30 in Berlin, its day
    expect(() => markAttendance(ctx, rita, reference, 'no_show')).toThrow(/has not begun/);
    expect(markAttendance(ctx, rita, reference, 'arrived').attendance).toBe('arrived');
    expect(() => markAttendance(ctx, doctor, reference, null)).toThrow(/not found/);
    expect(markAttendance(ctx, rita, reference, null).attendance).toBeNull();
    noteBooking(ctx, rita, reference, '  latex allergy \r\n second line ');
    expect(findBooking(store, reference)!.staffNote).toBe('latex allergy \n second line');
    const events = bookingEvents(store, findBooking(store, reference)!.id);
    expect(events.map((event) => [event.kind, event.actor, event.staff?.name])).toEqual([
      ['created', 'api', undefined],
      ['arrived', 'staff', 'Rita'],
      ['attendance_undone', 'staff', 'Rita'],
      ['noted', 'staff', 'Rita'],
    ]);
    // The customer's data includes the note; the erase takes it with the rest.
    expect(JSON.stringify(exportCustomer(ctx, 'jana@example.com'))).toContain('latex allergy');
    eraseCustomer(ctx, 'jana@example.com', { notify: false });
    expect(findBooking(store, reference)!.staffNote).toBe('');
    expect(store.db.prepare('SELECT count(*) AS n FROM booking_search').get()).toEqual({ n: 0 });
    store.close();
  });

  it('a caller without an e-mail address joins the customer picked; a new caller without one is a customer of their own', () => {
    const { ctx, store } = practice();
    const rita = deskPerson(
      ctx,
      upsertStaff(store, { email: 'rita@praxis.example', name: 'Rita', role: 'reception', schedules: [] }, 'x'),
    )!;
    const fields = deskFields(ctx, 'Phone');
    const book = (slot: string, customerId?: number) =>
      deskBook(
        ctx,
        rita,
        {
          schedule: 1,
          reasonId: 1,
          slot,
          submission: { first_name: 'Paul', last_name: 'Kraus', phone: '0151 1112223' },
          confirmation: true,
          outsideHours: false,
          ...(customerId === undefined ? {} : { customerId }),
        },
        fields,
      ) as { customerId: number };
    const first = book('2026-06-02 09:00:00');
    expect(book('2026-06-03 09:00:00', first.customerId).customerId).toBe(first.customerId);
    expect(book('2026-06-04 09:00:00').customerId).not.toBe(first.customerId);
    // Without an address and without a phone, the desk refuses: the phone is then required.
    expect(() =>
      deskBook(
        ctx,
        rita,
        {
          schedule: 1,
          reasonId: 1,
          slot: '2026-06-05 09:00:00',
          submission: { first_name: 'Paul', last_name: 'Kraus' },
          confirmation: true,
          outsideHours: false,
        },
        fields,
      ),
    ).toThrow(/required/);
    store.close();
  });

  it("the confirmation again of a date of a series is the series', with its dates still booked", () => {
    const { ctx, store } = practice({});
    const rita = deskPerson(
      ctx,
      upsertStaff(store, { email: 'rita@praxis.example', name: 'Rita', role: 'reception', schedules: [] }, 'x'),
    )!;
    const submission = { first_name: 'Jana', last_name: 'Müller', email: 'jana@example.com' };
    const made = createSeries(
      ctx,
      {
        scheduleId: 1,
        reasonId: 1,
        slot: '2026-06-02 09:00:00',
        submission,
        intervalDays: 7,
        count: 3,
        skipTaken: false,
      },
      'api',
    );
    cancelBooking(ctx, made.bookings[1]!.reference, { notify: false });
    const before = store.db.prepare('SELECT max(id) AS id FROM outbox').get() as { id: number };
    resendConfirmation(ctx, rita, made.bookings[2]!.reference);
    const sent = store.db
      .prepare("SELECT booking_id, subject, body FROM outbox WHERE id > ? AND kind = 'confirmation'")
      .all(before.id) as { booking_id: number; subject: string; body: string }[];
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toMatch(/^Your 2 appointments at /);
    expect(sent[0]!.booking_id).toBe(made.bookings[0]!.bookingId);
    expect(JSON.parse(sent[0]!.body).text).not.toContain('9 Jun'); // the cancelled date is not in it
    store.close();
  });
});
