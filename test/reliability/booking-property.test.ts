import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { availableDays, availableSlots } from '../../src/app/bookings/availability.ts';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { AppError } from '../../src/errors.ts';
import { busyCalendar, practice } from '../practice.ts';

const NOW = new Date('2026-03-27T07:00:00Z'); // a Friday: the look-ahead crosses Berlin's spring-forward night
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A random practice: grid, capacity, reasons of random lengths, one or two opening ranges a day. */
const randomPractice = fc.record({
  zone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'),
  step: fc.constantFrom(5, 10, 15, 20, 30, 45, 60),
  capacity: fc.integer({ min: 1, max: 3 }),
  durations: fc.array(
    fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
    { minLength: 1, maxLength: 3 },
  ),
  // Buffers before and after, per reason (issue 16): none half the time, else 5 to 60 minutes.
  buffers: fc.array(
    fc.record({
      before: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 12 }).map((n) => n * 5),
      ),
      after: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 12 }).map((n) => n * 5),
      ),
    }),
    { minLength: 3, maxLength: 3 },
  ),
  // Opening from 00:00 to 23:55 in 5-minute units: first range, a gap, maybe a second range.
  open: fc.integer({ min: 0, max: 200 }),
  length: fc.integer({ min: 6, max: 80 }),
  gap: fc.integer({ min: 1, max: 30 }),
  second: fc.integer({ min: 0, max: 40 }),
});

/** One booking attempt: which reason and day, and which offered slot (or any grid time, offered or not). */
const attempt = fc.record({
  reason: fc.nat(),
  day: fc.nat(),
  pick: fc.nat(),
  offered: fc.boolean(),
  minute: fc.nat({ max: 287 }),
});

/**
 * Busy times of the practitioner's own calendar (issue 25): up to four, within the look-ahead, 5 minutes to 10 hours
 * long, starting on any 5-minute mark of the first four days after NOW.
 */
const busyTimes = fc.array(
  fc.record({ at: fc.nat({ max: 4 * 288 }), minutes: fc.integer({ min: 1, max: 120 }).map((n) => n * 5) }),
  { maxLength: 4 },
);

let acceptedInAll = 0;
let busyOffered = 0;

describe('no double booking (property)', () => {
  test.prop([randomPractice, fc.array(attempt, { minLength: 1, maxLength: 30 }), busyTimes], { numRuns: 150 })(
    'accepted bookings (buffers included) never exceed capacity at any instant nor meet a busy time, and every offered slot can be booked',
    (p, attempts, busyMarks) => {
      const firstEnd = Math.min(p.open + p.length, 287);
      const ranges = [`${hhmm(p.open * 5)}-${hhmm(firstEnd * 5)}`];
      const secondStart = firstEnd + p.gap;
      if (p.second > 0 && secondStart + p.second <= 287)
        ranges.push(`${hhmm(secondStart * 5)}-${hhmm((secondStart + p.second) * 5)}`);
      const { store, ctx, schedules, reasons } = practice({
        clock: { now: NOW },
        timeZone: p.zone,
        schedules: [
          { daysAhead: 3, stepMinutes: p.step, capacity: p.capacity, hours: { 'mon-sun': ranges.join(',') } },
        ],
        reasons: p.durations.map((minutes, i) => ({
          name: `R${i}`,
          durationMinutes: minutes,
          bufferBeforeMinutes: p.buffers[i]!.before,
          bufferAfterMinutes: p.buffers[i]!.after,
        })),
      });
      try {
        const schedule = schedules[0]!;
        // The practitioner's calendar, written as a sync writes it (busy times take every place of the capacity).
        const busy = busyMarks.map((mark) => {
          const startAt = NOW.getTime() / 1000 + mark.at * 300;
          return { startAt, endAt: startAt + mark.minutes * 60 };
        });
        busyCalendar(store, schedule, NOW, busy);
        const meetsBusy = (from: number, to: number) => busy.some((time) => time.startAt < to && from < time.endAt);

        const accepted: { startAt: number; endAt: number }[] = [];
        for (const [n, a] of attempts.entries()) {
          const index = a.reason % reasons.length;
          const reason = reasons[index]!;
          const days = availableDays(ctx, schedule, reason);
          if (days.length === 0) continue;
          const day = days[a.day % days.length]!;
          const offered = availableSlots(ctx, schedule, reason, day);
          const slot =
            a.offered && offered.length > 0
              ? offered[a.pick % offered.length]!.local
              : `${day} ${hhmm(a.minute * 5)}:00`;
          const wasOffered = offered.some((free) => free.local === slot);
          // Nothing offered meets a busy time, buffers included.
          for (const free of offered) {
            const kept = {
              from: free.startAt - p.buffers[index]!.before * 60,
              to: free.startAt + (p.durations[index]! + p.buffers[index]!.after) * 60,
            };
            expect(meetsBusy(kept.from, kept.to), `${free.local} was offered over a busy time`).toBe(false);
            if (busy.length > 0) busyOffered++;
          }
          const submission = { first_name: 'F', last_name: `L${n}`, email: `c${n}@p.example` };
          try {
            const created = createBooking(ctx, { scheduleId: schedule, reasonId: reason, slot, submission }, 'api');
            expect(wasOffered, `${slot} was booked without being offered`).toBe(true);
            // What the booking keeps: its appointment and its reason's buffers.
            accepted.push({
              startAt: created.startAt - p.buffers[index]!.before * 60,
              endAt: created.startAt + (p.durations[index]! + p.buffers[index]!.after) * 60,
            });
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
            expect(wasOffered, `${slot} was offered but could not be booked`).toBe(false);
          }
        }
        acceptedInAll += accepted.length;
        // Sweep over every start and end: at no instant more than `capacity` bookings, buffers counted.
        const edges = accepted
          .flatMap(
            (b) =>
              [
                [b.startAt, 1],
                [b.endAt, -1],
              ] as const,
          )
          .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        let open = 0;
        for (const [, step] of edges) expect((open += step)).toBeLessThanOrEqual(p.capacity);
        for (const kept of accepted)
          expect(meetsBusy(kept.startAt, kept.endAt), 'a booking was accepted over a busy time').toBe(false);
      } finally {
        store.close();
      }
    },
  );

  test('the runs above did book (the property was not vacuous)', () => {
    process.stderr.write(
      `property: ${acceptedInAll} bookings accepted, ${busyOffered} times offered beside busy times\n`,
    );
    expect(acceptedInAll).toBeGreaterThan(200); // about 2 a run: half the attempts aim at any grid time, busy times take some
    expect(busyOffered).toBeGreaterThan(500); // the busy times left times to offer around them
  });
});
