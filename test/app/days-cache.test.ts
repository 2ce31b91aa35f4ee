import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { availableDays, availableSlots } from '../../src/app/bookings/availability.ts';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createDaysCache, DAYS_CACHE_ENTRIES } from '../../src/app/bookings/days-cache.ts';
import { cancelBooking, moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { type AppContext, createContext } from '../../src/app/context.ts';
import { addClosure, setHours } from '../../src/app/practice/hours.ts';
import { addReason, changeReason } from '../../src/app/practice/reasons.ts';
import { AppError } from '../../src/errors.ts';
import {
  applyBusyChanges,
  busyPieces,
  countBusy,
  dropUncounted,
  replaceBusy,
  switchGeneration,
} from '../../src/store/busy-times.ts';
import { insertCalendar } from '../../src/store/calendars.ts';
import { openStore } from '../../src/store/db.ts';
import { practice } from '../practice.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/**
 * Two connections on one file with a clock the test moves: `ctx` is the server's (the cache's), `other` stands for
 * the CLI or a second server. Schedule 1 (capacity 2, 30-minute steps, 60 days ahead, 2 h notice) in Berlin, open
 * Monday to Saturday; reasons 1 (30 min), 2 (60 min with 15 min buffers before and after).
 */
function installation(now: string) {
  const { file, ctx, clock } = practice({
    clock: { now: new Date(now) },
    schedules: [
      {
        daysAhead: 60,
        noticeMinutes: 120,
        capacity: 2,
        hours: { 'mon-fri': '08:00-12:00,13:00-17:00', sat: '09:00-11:00' },
      },
    ],
    reasons: [
      { name: 'Short', durationMinutes: 30 },
      { name: 'Long', durationMinutes: 60, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
    ],
  });
  const other: AppContext = createContext(openStore(file), () => clock.now);
  return { ctx, other, clock };
}

describe('the cache of free days (src/app/bookings/days-cache.ts)', () => {
  it('answers as the engine does, and after a booking recomputes only the days it touched', () => {
    const { ctx, clock } = installation('2026-06-01T06:00:00Z'); // a Monday
    const cache = createDaysCache();
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    expect(cache.stats()).toMatchObject({ entries: 1, computed: 61 });

    // Asked again: nothing new is computed but the days within the notice of now (today: the clock's days).
    const before = cache.stats().computed;
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    const unsettled = cache.stats().computed - before;
    expect(unsettled).toBeLessThanOrEqual(2);

    // Fill Wednesday 10 June for reason 1 (capacity 2): the day goes, and only that day is computed again.
    const slots = availableSlots(ctx, 1, 1, '2026-06-10').map((slot) => slot.local);
    for (const slot of slots) {
      createBooking(ctx, { scheduleId: 1, reasonId: 1, slot, submission: ADA }, 'api');
      createBooking(ctx, { scheduleId: 1, reasonId: 1, slot, submission: ADA }, 'api');
    }
    const mark = cache.stats().computed;
    const days = cache.days(ctx, 1, 1);
    expect(days).not.toContain('2026-06-10');
    expect(days).toEqual(availableDays(ctx, 1, 1));
    expect(cache.stats().computed - mark - unsettled).toBe(1);

    // The clock moves a day: the window moves with it, the day that left it is forgotten.
    clock.now = new Date('2026-06-02T06:00:00Z');
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    expect(cache.stats().days).toBeLessThanOrEqual(61);
  });

  it('a sync that changes one busy time of the practitioner’s calendar (issue 25) makes it forget only the days that time touches', () => {
    const { ctx, other } = installation('2026-06-01T06:00:00Z');
    const cache = createDaysCache();
    // 2,000 busy times over the window (a short one every 45 minutes, day and night) from another connection, as a sync writes them.
    const start = Date.parse('2026-06-01T06:00:00Z') / 1000;
    const busy = Array.from({ length: 2000 }, (_, i) => ({
      startAt: start + i * 2700,
      endAt: start + i * 2700 + 600,
      uidHash: `u${i}`,
    }));
    const calendar = insertCalendar(other.store, {
      scheduleId: 1,
      label: 'Own',
      kind: 'caldav',
      url: 'https://dav.example/cal/',
      user: 'anna',
      password: 'secret',
      everyMinutes: 5,
      allowInsecure: false,
      fetchState: '{}',
      createdAt: '2026-06-01T06:00:00Z',
      syncedAt: start,
    });
    replaceBusy(other.store, { id: calendar, scheduleId: 1, generation: 0 }, busyPieces(busy));
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    const mark = cache.stats().computed;
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    const unsettled = cache.stats().computed - mark;

    // The same set again (a sync that found a change elsewhere in the file): nothing written, nothing forgotten.
    expect(replaceBusy(other.store, { id: calendar, scheduleId: 1, generation: 0 }, busyPieces(busy))).toEqual({
      added: 0,
      removed: 0,
    });
    let before = cache.stats().computed;
    cache.days(ctx, 1, 1);
    expect(cache.stats().computed - before).toBe(unsettled);

    // One event moved from Wednesday 10 June to Friday 12 June, midday: those two days are computed again, no other.
    const moved = busy.findIndex((time) => new Date(time.startAt * 1000).toISOString() >= '2026-06-10T10:00');
    busy[moved] = {
      startAt: Date.parse('2026-06-12T10:00:00Z') / 1000,
      endAt: Date.parse('2026-06-12T10:10:00Z') / 1000,
      uidHash: busy[moved]!.uidHash,
    };
    expect(replaceBusy(other.store, { id: calendar, scheduleId: 1, generation: 0 }, busyPieces(busy))).toEqual({
      added: 1,
      removed: 1,
    });
    before = cache.stats().computed;
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    expect(cache.stats().computed - before - unsettled).toBe(2);

    // A busy time over the whole of Thursday 11 June: the day goes from the answer, at once.
    expect(cache.days(ctx, 1, 1)).toContain('2026-06-11');
    busy.push({
      startAt: Date.parse('2026-06-10T22:00:00Z') / 1000,
      endAt: Date.parse('2026-06-11T22:00:00Z') / 1000,
      uidHash: 'allday',
    });
    replaceBusy(other.store, { id: calendar, scheduleId: 1, generation: 0 }, busyPieces(busy));
    expect(cache.days(ctx, 1, 1)).not.toContain('2026-06-11');
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));

    // A sync with many changes writes a new generation beside the old one: it does not count (nor reach the cache)
    // until the switch, and then it does, in full.
    const freed = busyPieces(busy.filter((time) => time.uidHash !== 'allday'));
    applyBusyChanges(other.store, { id: calendar, scheduleId: 1, generation: 1 }, { remove: [], add: freed });
    const counting = cache.days(ctx, 1, 1);
    expect(counting).toEqual(availableDays(ctx, 1, 1));
    expect(countBusy(other.store, calendar, 0, Number.MAX_SAFE_INTEGER)).toBe(busyPieces(busy).length);
    expect(switchGeneration(other.store, calendar, 1, 2)).toBe(false); // not the generation that counts: no switch
    expect(switchGeneration(other.store, calendar, 0, 1)).toBe(true);
    expect(countBusy(other.store, calendar, 0, Number.MAX_SAFE_INTEGER)).toBe(freed.length);
    const switched = cache.days(ctx, 1, 1);
    expect(switched).toEqual(availableDays(ctx, 1, 1));
    expect(counting).not.toContain('2026-06-11');
    expect(switched).toContain('2026-06-11'); // Thursday is free again
    expect(dropUncounted(other.store, calendar, 100_000)).toBe(busyPieces(busy).length);
    expect(cache.days(ctx, 1, 1)).toEqual(switched);
  });

  it('follows changes by another connection (the CLI, a second server): bookings, hours, closures, reasons', () => {
    const { ctx, other } = installation('2026-06-01T06:00:00Z');
    const cache = createDaysCache();
    const check = () => {
      for (const reason of [1, 2]) expect(cache.days(ctx, 1, reason)).toEqual(availableDays(ctx, 1, reason));
    };
    check();
    // Saturday 6 June filled by the other connection, until no time is left for reason 2.
    for (
      let free = availableSlots(other, 1, 2, '2026-06-06');
      free.length > 0;
      free = availableSlots(other, 1, 2, '2026-06-06')
    ) {
      createBooking(other, { scheduleId: 1, reasonId: 2, slot: free[0]!.local, submission: ADA }, 'admin');
    }
    check();
    expect(cache.days(ctx, 1, 2)).not.toContain('2026-06-06');
    cancelBooking(other, '1', { notify: false });
    check();
    expect(cache.days(ctx, 1, 2)).toContain('2026-06-06');
    setHours(other, 1, 'sat', '09:00-10:00'); // too short for reason 2 now
    check();
    addClosure(other, 1, '2026-06-15', '2026-06-19', 'away');
    check();
    changeReason(other, 2, { durationMinutes: 90 });
    check();
  });

  it('follows a log emptied by hand (ids are never reused), and starts afresh when it was pruned past its cursor', () => {
    const { ctx, other } = installation('2026-06-01T06:00:00Z');
    const cache = createDaysCache();
    const slot = availableSlots(ctx, 1, 1, '2026-06-10')[0]!.local;
    createBooking(other, { scheduleId: 1, reasonId: 1, slot, submission: ADA }, 'admin');
    cache.days(ctx, 1, 1);
    // Emptied by hand: the next change still takes the next id, and fills the day.
    other.store.db.exec('DELETE FROM booking_changes');
    createBooking(other, { scheduleId: 1, reasonId: 1, slot, submission: ADA }, 'admin');
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    // Pruned: rows between the cursor and the log's start are gone.
    const cursor = (ctx.store.db.prepare('SELECT max(id) AS id FROM booking_changes').get() as { id: number }).id;
    other.store.db.exec(
      `INSERT INTO booking_changes (id, schedule_id, from_at, to_at) VALUES (${cursor + 5}, 1, 0, 1)`,
    );
    other.store.db.exec(`DELETE FROM booking_changes WHERE id <= ${cursor + 4}`);
    const before = cache.stats().computed;
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
    expect(cache.stats().computed - before).toBeGreaterThanOrEqual(58); // every day again
  });

  it('computes the days within the notice of now afresh: a day whose times the clock passed is no longer offered', () => {
    // Saturday open 00:00-01:00 in Berlin (UTC+2), 2 h notice. Friday 21:45Z is 23:45 local: the earliest start is
    // Saturday 01:45 local, so Saturday has no time left, although its UTC date has not begun.
    const { ctx, clock } = installation('2026-06-05T10:00:00Z');
    setHours(ctx, 1, 'sat', '00:00-01:00');
    const cache = createDaysCache();
    expect(cache.days(ctx, 1, 1)).toContain('2026-06-06');
    clock.now = new Date('2026-06-05T21:45:00Z');
    expect(availableDays(ctx, 1, 1)).not.toContain('2026-06-06');
    expect(cache.days(ctx, 1, 1)).toEqual(availableDays(ctx, 1, 1));
  });

  it('keeps at most DAYS_CACHE_ENTRIES pairs, each at most its window of days (the bound `npm test` holds)', () => {
    const { ctx } = installation('2026-06-01T06:00:00Z');
    for (let n = 0; n < 8; n++) addReason(ctx, 1, { name: `R${n}`, durationMinutes: 15 + n });
    const cache = createDaysCache({ maxEntries: 4 });
    for (let reason = 1; reason <= 10; reason++) cache.days(ctx, 1, reason);
    expect(cache.stats().entries).toBe(4);
    expect(cache.stats().days).toBeLessThanOrEqual(4 * 61);
    expect(DAYS_CACHE_ENTRIES).toBe(256);
    // Unknown pairs are refused before anything is kept.
    expect(() => cache.days(ctx, 1, 99)).toThrow(AppError);
    expect(() => cache.days(ctx, 7, 1)).toThrow(AppError);
    expect(cache.stats().entries).toBe(4);
  });

  /** One step of the property: who writes, what, and how far the clock moves. */
  const step = fc.record({
    kind: fc.constantFrom('book', 'book', 'book', 'cancel', 'move', 'hours', 'clock'),
    byOther: fc.boolean(),
    reason: fc.constantFrom(1, 2),
    day: fc.nat({ max: 59 }),
    pick: fc.nat(),
    hours: fc.integer({ min: 1, max: 40 }),
  });

  test.prop([fc.array(step, { minLength: 1, maxLength: 25 })], { numRuns: 40 })(
    'after any sequence of writes by either connection and moves of the clock, the cache answers as the engine',
    (steps) => {
      const { ctx, other, clock } = installation('2026-06-01T05:30:00Z');
      const cache = createDaysCache();
      const check = () => {
        for (const reason of [1, 2]) expect(cache.days(ctx, 1, reason)).toEqual(availableDays(ctx, 1, reason));
      };
      check();
      const booked: number[] = [];
      for (const { kind, byOther, reason, day, pick, hours } of steps) {
        const by = byOther ? other : ctx;
        const days = availableDays(by, 1, reason);
        const dayText = days[day % Math.max(days.length, 1)];
        const slots = dayText ? availableSlots(by, 1, reason, dayText) : [];
        const slot = slots[pick % Math.max(slots.length, 1)]?.local;
        if (kind === 'book' && slot)
          booked.push(createBooking(by, { scheduleId: 1, reasonId: reason, slot, submission: ADA }, 'api').bookingId);
        if (kind === 'cancel' && booked.length > 0) {
          try {
            cancelBooking(by, String(booked[pick % booked.length]), { notify: false });
          } catch {
            // already cancelled, or begun: nothing changed
          }
        }
        if (kind === 'move' && booked.length > 0 && slot) {
          try {
            moveBooking(by, String(booked[pick % booked.length]), slot, { notify: false, force: false });
          } catch {
            // cancelled, begun, or the time does not fit its reason: nothing changed
          }
        }
        if (kind === 'hours') setHours(by, 1, 'sat', pick % 2 === 0 ? '09:00-11:00' : '08:00-12:30');
        if (kind === 'clock') clock.now = new Date(clock.now.getTime() + hours * 3_600_000);
        check();
      }
    },
  );
});
