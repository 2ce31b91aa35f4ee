/**
 * For random series (interval, count, existing bookings, busy times, closures), the series is
 * booked exactly when every date is free, and then all of them; otherwise nothing is written, or with `skipTaken`
 * exactly the free ones. "Free" is asked of the engine date by date (GET /slots' answer) before the series.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { availableSlots } from '../../src/app/bookings/availability.ts';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createSeries, SeriesNotFree } from '../../src/app/bookings/series.ts';
import { addClosure } from '../../src/app/practice/hours.ts';
import { dayNumber, dayText } from '../../src/domain/days.ts';
import { occurrenceSlots } from '../../src/domain/series.ts';
import { AppError } from '../../src/errors.ts';
import { type Store } from '../../src/store/db.ts';
import { busyCalendar, practice } from '../practice.ts';

const NOW = new Date('2026-03-02T06:00:00Z'); // a Monday, 07:00 in Berlin; the look-ahead crosses the spring-forward night
const TODAY = dayNumber('2026-03-02');
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const scenario = fc.record({
  capacity: fc.integer({ min: 1, max: 2 }),
  duration: fc.constantFrom(30, 45, 60),
  bufferAfter: fc.constantFrom(0, 0, 15),
  /** Existing single bookings: a day and a grid time (only those the engine offers are booked). */
  bookings: fc.array(fc.record({ day: fc.nat({ max: 45 }), minute: fc.nat({ max: 7 }) }), { maxLength: 25 }),
  /** Busy times of the practitioner's calendar: a day, a start on the hour or half hour, 30 to 120 minutes. */
  busy: fc.array(
    fc.record({ day: fc.nat({ max: 45 }), minute: fc.nat({ max: 7 }), length: fc.integer({ min: 1, max: 4 }) }),
    { maxLength: 4 },
  ),
  /** Closures: a first day and a length. */
  closures: fc.array(fc.record({ day: fc.nat({ max: 45 }), length: fc.integer({ min: 1, max: 4 }) }), {
    maxLength: 2,
  }),
  series: fc.record({
    day: fc.nat({ max: 20 }),
    minute: fc.nat({ max: 7 }), // 08:00 … 11:30, every 30 minutes
    interval: fc.constantFrom(1, 2, 7, 7, 14),
    count: fc.integer({ min: 2, max: 8 }),
    skipTaken: fc.boolean(),
  }),
});

const count = (store: Store, sql: string) => (store.db.prepare(sql).get() as { n: number }).n;

let booked = 0;
let refused = 0;
let skippedSome = 0;

describe('series (property)', () => {
  test.prop([scenario], { numRuns: 120 })(
    'books every date exactly when all are free; else nothing, or with skipTaken exactly the free ones',
    (s) => {
      const { store, ctx, schedules, reasons } = practice({
        clock: { now: NOW },
        schedules: [{ daysAhead: 40, noticeMinutes: 60, capacity: s.capacity, hours: { 'mon-fri': '08:00-12:00' } }],
        reasons: [{ name: 'Physio', durationMinutes: s.duration, bufferAfterMinutes: s.bufferAfter }],
      });
      try {
        const [schedule, reason] = [schedules[0]!, reasons[0]!];
        for (const closure of s.closures)
          addClosure(
            ctx,
            schedule,
            dayText(TODAY + closure.day),
            dayText(TODAY + closure.day + closure.length - 1),
            '',
          );
        const busy = s.busy.map((time) => {
          // 08:00 Berlin is 07:00 UTC before the spring-forward night, 06:00 after: a busy time is an instant.
          const startAt = (TODAY + time.day) * 86400 + 7 * 3600 + time.minute * 1800;
          return { startAt, endAt: startAt + time.length * 1800 };
        });
        busyCalendar(store, schedule, NOW, busy);
        for (const [n, b] of s.bookings.entries()) {
          const slot = `${dayText(TODAY + b.day)} ${hhmm(480 + b.minute * 30)}:00`;
          try {
            createBooking(
              ctx,
              {
                scheduleId: schedule,
                reasonId: reason,
                slot,
                submission: { first_name: 'B', last_name: `${n}`, email: `b${n}@p.example` },
              },
              'api',
            );
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
          }
        }

        const first = `${dayText(TODAY + s.series.day)} ${hhmm(480 + s.series.minute * 30)}:00`;
        const slots = occurrenceSlots(first, s.series.interval, s.series.count);
        // The oracle: each date asked of the engine alone, before the series (dates a day or more apart, within
        // 08:00-12:00, cannot meet each other).
        const starts = new Map<string, number>();
        for (const slot of slots)
          for (const offered of availableSlots(ctx, schedule, reason, slot.slice(0, 10)))
            if (offered.local === slot) starts.set(slot, offered.startAt);
        const free = slots.filter((slot) => starts.has(slot));
        const bookingsBefore = count(store, 'SELECT count(*) AS n FROM bookings');
        const outboxBefore = count(store, 'SELECT count(*) AS n FROM outbox');
        const order = {
          scheduleId: schedule,
          reasonId: reason,
          slot: first,
          submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@p.example' },
          intervalDays: s.series.interval,
          count: s.series.count,
          skipTaken: s.series.skipTaken,
        };
        const expectBooked = free.length === slots.length || (s.series.skipTaken && free.length > 0);
        if (!expectBooked) {
          let thrown: unknown;
          try {
            createSeries(ctx, order, 'api');
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(SeriesNotFree);
          expect((thrown as SeriesNotFree).dates.map((date) => date.slot)).toEqual(
            slots.filter((slot) => !free.includes(slot)),
          );
          // Nothing written: no booking, no series, no mail.
          expect(count(store, 'SELECT count(*) AS n FROM bookings')).toBe(bookingsBefore);
          expect(count(store, 'SELECT count(*) AS n FROM series')).toBe(0);
          expect(count(store, 'SELECT count(*) AS n FROM outbox')).toBe(outboxBefore);
          refused++;
          return;
        }
        const made = createSeries(ctx, order, 'api');
        // Exactly the free dates, at the instants the engine offered for them, all in one series.
        expect(made.bookings.map((b) => b.startAt)).toEqual(free.map((slot) => starts.get(slot)));
        expect(made.skipped.map((date) => date.slot)).toEqual(slots.filter((slot) => !free.includes(slot)));
        const rows = store.db
          .prepare(
            'SELECT start_at AS startAt, series_id AS seriesId FROM bookings WHERE series_id IS NOT NULL ORDER BY start_at',
          )
          .all() as { startAt: number; seriesId: number }[];
        expect(rows.map((row) => row.startAt)).toEqual(made.bookings.map((b) => b.startAt));
        expect(new Set(rows.map((row) => row.seriesId))).toEqual(new Set([made.seriesId]));
        expect(count(store, 'SELECT count(*) AS n FROM bookings')).toBe(bookingsBefore + free.length);
        // One confirmation and one notice for the whole series.
        expect(
          count(
            store,
            "SELECT count(*) AS n FROM outbox o JOIN bookings b ON b.id = o.booking_id WHERE b.series_id IS NOT NULL AND o.kind IN ('confirmation', 'notice')",
          ),
        ).toBe(2);
        booked++;
        if (made.skipped.length > 0) skippedSome++;
      } finally {
        store.close();
      }
    },
  );

  test('the runs above booked, refused and skipped (the property was not vacuous)', () => {
    process.stderr.write(`series property: ${booked} booked (${skippedSome} with dates skipped), ${refused} refused\n`);
    expect(booked).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(10);
    expect(skippedSome).toBeGreaterThan(5);
  });
});
