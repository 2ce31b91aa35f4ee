import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking, moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { setReminders, showReminders } from '../../src/app/messages/reminders.ts';
import { changeField } from '../../src/app/practice/fields.ts';
import { messagesOfBooking } from '../../src/store/outbox.ts';
import { practice } from '../practice.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/**
 * An installation in Europe/Berlin with a clock the test moves: schedule 1 open every day 00:00-18:00, 30-minute
 * steps, a year ahead, no notice; reason 1 of 30 minutes. New installations remind 48 h ahead (planner init; issue 24,
 * item 3: a day before the page's default deadline of 24 h).
 */
function installation(now: string, locale: 'en' | 'de' = 'en') {
  const { ctx, clock } = practice({
    clock: { now: new Date(now) },
    practiceName: 'Praxis Weber',
    locale,
    schedules: [{ daysAhead: 365, capacity: 5, hours: { 'mon-sun': '00:00-18:00' } }],
  });
  const book = (slot: string, submission: Record<string, string> = ADA) =>
    createBooking(ctx, { scheduleId: 1, reasonId: 1, slot, submission }, 'admin');
  /** The booking's reminders: status, due time (ISO), reason, and the .ics' UID and SEQUENCE. */
  const reminders = (bookingId: number) =>
    messagesOfBooking(ctx.store, bookingId)
      .filter((message) => message.kind === 'reminder')
      .map((message) => {
        const event = new ICAL.Component(ICAL.parse(message.ics)).getFirstSubcomponent('vevent')!;
        return {
          status: message.status,
          due: new Date(message.nextAttemptAt * 1000).toISOString().replace('.000', ''),
          dueAt: message.nextAttemptAt,
          retryFrom: message.retryFrom,
          lastError: message.lastError,
          uid: event.getFirstPropertyValue('uid'),
          sequence: event.getFirstPropertyValue('sequence'),
          subject: message.subject,
          text: message.text,
        };
      });
  return { ctx, clock, book, reminders };
}

describe('reminders are written with the booking (src/app/messages/reminders.ts), fixed clock', () => {
  it('a new installation reminds 48 h ahead; the reminder is due 48 h before, in the booking’s transaction', () => {
    const { ctx, book, reminders } = installation('2026-06-01T06:00:00Z');
    expect(showReminders(ctx)).toEqual({ offsets: '2d', minutes: [2880], scheduled: 0 });
    const booked = book('2026-06-10 09:00:00'); // 07:00Z
    const [reminder, ...rest] = reminders(booked.bookingId);
    expect(rest).toEqual([]);
    expect(reminder).toMatchObject({
      status: 'pending',
      due: '2026-06-08T07:00:00Z',
      uid: `${booked.reference}@planner`,
      sequence: 0,
      lastError: null,
    });
    expect(reminder!.retryFrom).toBe(reminder!.dueAt); // retries count from the reminder's time
    expect(reminder!.subject).toBe('Reminder: your appointment at Praxis Weber, Wednesday, 10 June 2026, 09:00 CEST');
    expect(reminder!.text).toContain('Hello Ada Lovelace,\n\nThis is a reminder of your appointment.');
    expect(reminder!.text).toContain(`Reference: ${booked.reference}`);
    expect(reminder!.text).toContain('\n\u0000manage-link\u0000\nOpen the attached calendar file'); // the worker writes what is still possible there
    expect(showReminders(ctx).scheduled).toBe(1);
  });

  it('is in the installation’s language', () => {
    const { book, reminders } = installation('2026-06-01T06:00:00Z', 'de');
    const [reminder] = reminders(book('2026-06-10 09:00:00').bookingId);
    expect(reminder!.subject).toBe('Erinnerung: Ihr Termin bei Praxis Weber, Mittwoch, 10. Juni 2026, 09:00 MESZ');
    expect(reminder!.text).toContain('Guten Tag Ada Lovelace,\n\nwir erinnern Sie an Ihren Termin.');
    expect(reminder!.text).toMatch(/Buchungsnummer: +[0-9A-Z]{16}/);
  });

  it('a booking made inside an offset’s window skips that reminder: 3 h ahead with 24h,2h gets only the 2 h one', () => {
    const { ctx, book, reminders } = installation('2026-06-01T06:00:00Z'); // 08:00 in Berlin
    setReminders(ctx, '24h,2h');
    const soon = book('2026-06-01 11:00:00'); // 3 h ahead (09:00Z)
    expect(reminders(soon.bookingId).map((r) => r.due)).toEqual(['2026-06-01T07:00:00Z']);
    const later = book('2026-06-03 11:00:00');
    expect(reminders(later.bookingId).map((r) => r.due)).toEqual(['2026-06-02T09:00:00Z', '2026-06-03T07:00:00Z']);
    const tooSoon = book('2026-06-01 09:30:00'); // 1.5 h ahead: inside both windows
    expect(reminders(tooSoon.bookingId)).toEqual([]);
  });

  it('no reminder without a customer e-mail', () => {
    const { ctx, book, reminders } = installation('2026-06-01T06:00:00Z');
    changeField(ctx, 'email', { required: false });
    const booked = book('2026-06-10 09:00:00', { first_name: 'Ada', last_name: 'Lovelace' });
    expect(messagesOfBooking(ctx.store, booked.bookingId).map((m) => m.kind)).toEqual(['notice']);
    expect(reminders(booked.bookingId)).toEqual([]);
  });

  it('a cancelled booking gets no more reminders: they are dropped with the reason', () => {
    const { ctx, book, reminders } = installation('2026-06-01T06:00:00Z');
    setReminders(ctx, '2d,24h');
    const booked = book('2026-06-10 09:00:00');
    cancelBooking(ctx, booked.reference, { notify: false });
    expect(reminders(booked.bookingId).map((r) => [r.status, r.lastError])).toEqual([
      ['dropped', 'booking cancelled'],
      ['dropped', 'booking cancelled'],
    ]);
    expect(showReminders(ctx).scheduled).toBe(0);
  });

  it('a moved booking’s reminders follow the new time (new SEQUENCE, same UID); those of the old time are dropped, also one already due', () => {
    const { ctx, clock, book, reminders } = installation('2026-06-01T06:00:00Z');
    setReminders(ctx, '24h,2h');
    const booked = book('2026-06-10 09:00:00'); // 07:00Z: due 06-09 07:00Z and 06-10 05:00Z
    clock.now = new Date('2026-06-09T08:00:00Z'); // the 24 h reminder came due an hour ago (not sent yet: no server)
    moveBooking(ctx, booked.reference, '2026-06-12 10:00:00', { notify: true, force: false }); // 08:00Z
    const after = reminders(booked.bookingId);
    expect(after.map((r) => [r.status, r.due, r.sequence, r.lastError])).toEqual([
      ['dropped', '2026-06-09T07:00:00Z', 0, 'booking moved'],
      ['dropped', '2026-06-10T05:00:00Z', 0, 'booking moved'],
      ['pending', '2026-06-11T08:00:00Z', 1, null],
      ['pending', '2026-06-12T06:00:00Z', 1, null],
    ]);
    expect(new Set(after.map((r) => r.uid))).toEqual(new Set([`${booked.reference}@planner`]));
    expect(after[2]!.text).toContain('Friday, 12 June 2026, 10:00 CEST');
    // Moved again, to 3 h ahead: only the 2 h reminder, with SEQUENCE 2.
    moveBooking(ctx, booked.reference, '2026-06-09 13:00:00', { notify: false, force: false });
    expect(
      reminders(booked.bookingId)
        .filter((r) => r.status === 'pending')
        .map((r) => [r.due, r.sequence]),
    ).toEqual([['2026-06-09T09:00:00Z', 2]]);
  });

  it('changing the offsets applies to bookings made or moved afterwards; existing ones keep their reminders', () => {
    const { ctx, book, reminders } = installation('2026-06-01T06:00:00Z');
    const first = book('2026-06-10 09:00:00'); // the default: 48 h before
    expect(setReminders(ctx, '2h,24h')).toEqual({ offsets: '24h,2h', minutes: [1440, 120], scheduled: 1 }); // the one of `first` keeps its time
    expect(reminders(first.bookingId).map((r) => r.due)).toEqual(['2026-06-08T07:00:00Z']);
    const second = book('2026-06-10 10:00:00');
    expect(reminders(second.bookingId).map((r) => r.due)).toEqual(['2026-06-09T08:00:00Z', '2026-06-10T06:00:00Z']);
    expect(setReminders(ctx, 'off')).toEqual({ offsets: 'off', minutes: [], scheduled: 3 });
    expect(reminders(book('2026-06-10 11:00:00').bookingId)).toEqual([]);
    expect(reminders(second.bookingId)).toHaveLength(2); // not rescheduled: still sent
    // A move after `off` follows the settings of the moment: the old reminders go, no new ones.
    moveBooking(ctx, first.reference, '2026-06-11 09:00:00', { notify: false, force: false });
    expect(reminders(first.bookingId).map((r) => r.status)).toEqual(['dropped']);
  });

  it('a refused value changes nothing', () => {
    const { ctx } = installation('2026-06-01T06:00:00Z');
    expect(() => setReminders(ctx, '24h,45d')).toThrow('"45d" is out of range: each offset is from 1m to 30d');
    expect(showReminders(ctx).offsets).toBe('2d');
  });
});

describe('"24h before" is 24 real hours, across both daylight-saving changes (Europe/Berlin, 2027)', () => {
  it.each([
    // Spring, 2027-03-28 02:00 CET → 03:00 CEST: the day before 01:00 CEST on the 29th is 00:00 CET on the 28th.
    [
      'spring',
      '2027-03-29 01:00:00',
      '2027-03-28T23:00:00Z',
      '2027-03-27T23:00:00Z',
      'Monday, 29 March 2027, 01:00 CEST',
    ],
    // Autumn, 2027-10-31 03:00 CEST → 02:00 CET: the day before 01:00 CET on 1 November is 02:00 CEST on the 31st.
    [
      'autumn',
      '2027-11-01 01:00:00',
      '2027-11-01T00:00:00Z',
      '2027-10-31T00:00:00Z',
      'Monday, 1 November 2027, 01:00 CET',
    ],
  ])(
    '%s: a booking the day after the change is reminded exactly 86,400 s before',
    (_name, slot, startUtc, dueUtc, when) => {
      const { ctx, book, reminders } = installation('2027-03-01T00:00:00Z');
      setReminders(ctx, '24h');
      const booked = book(slot);
      expect(new Date(booked.startAt * 1000).toISOString().replace('.000', '')).toBe(startUtc);
      const [reminder] = reminders(booked.bookingId);
      expect(reminder!.due).toBe(dueUtc);
      expect(booked.startAt - reminder!.dueAt).toBe(86_400);
      expect(reminder!.text).toContain(`When:      ${when}`);
    },
  );
});
