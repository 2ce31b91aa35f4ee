/**
 * Issue 38, "never silent": with the clock in the test's hand, a calendar that cannot be written keeps every write
 * waiting (never given up), shows as failing with the last error and since when in `calendar list` (and so in
 * `status` and `doctor`), `stuck` after 48 hours; after an hour of failing the practice is mailed once, and once more
 * when the calendar takes the writes again. The calendar is the test's CalDAV server; the writes are planner's code.
 */
import { describe, expect, it } from 'vitest';
import { alertWriteFailures, deliverWrites } from '../../src/app/calendar-writes.ts';
import { calendars } from '../../src/app/calendar-views.ts';
import { createContext } from '../../src/app/context.ts';
import { createBooking } from '../../src/app/create-booking.ts';
import { setHours } from '../../src/app/hours.ts';
import { initInstallation } from '../../src/app/init.ts';
import { addReason } from '../../src/app/reasons.ts';
import { addSchedule } from '../../src/app/schedules.ts';
import { insertCalendar } from '../../src/store/calendars.ts';
import { openStore } from '../../src/store/db.ts';
import { unsentMessages } from '../../src/store/outbox.ts';
import { tempDb } from '../helpers.ts';
import { fakeCalDav } from './fake-caldav.ts';

describe('a calendar that cannot be written (issue 38)', () => {
  it('waits and retries, says failing at once and stuck after 48 h, mails the practice once after an hour and once when it writes again', async () => {
    const caldav = await fakeCalDav();
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const store = openStore(tempDb());
    const ctx = createContext(store, () => clock.now);
    initInstallation(ctx, {
      practiceName: 'Praxis',
      timeZone: 'Europe/Berlin',
      notifyEmail: 'desk@praxis.example',
      locale: 'en',
    });
    addSchedule(ctx, { name: 'Dr. A', daysAhead: 30, noticeMinutes: 0, stepMinutes: 30, capacity: 1 });
    addReason(ctx, 1, { name: 'Check-up', durationMinutes: 30 });
    setHours(ctx, 1, 'mon-sun', '08:00-18:00');
    insertCalendar(store, {
      scheduleId: 1,
      label: 'Anna',
      kind: 'caldav',
      url: caldav.url,
      user: null,
      password: null,
      everyMinutes: 5,
      allowInsecure: true,
      fetchState: '{}',
      createdAt: clock.now.toISOString(),
      syncedAt: null,
      writeBookings: true,
    });
    caldav.state.down = true;
    createBooking(
      ctx,
      {
        scheduleId: 1,
        reasonId: 1,
        slot: '2026-12-03 10:00:00',
        submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
      },
      'api',
    );
    const notices = () => unsentMessages(store).filter((message) => message.bookingId === null);
    const at = (iso: string) => {
      clock.now = new Date(iso);
    };

    const first = await deliverWrites(ctx, 1);
    expect(first).toEqual({
      written: 0,
      error: expect.stringMatching(/^127\.0\.0\.1:\d+ answered HTTP 503 to write the event$/),
    });
    expect(calendars(ctx)[0]!.writing).toEqual({
      waiting: 1,
      state: 'failing',
      failingSince: '2026-12-01T08:00:00.000Z',
      lastError: first.error,
      stuck: false,
    });
    at('2026-12-01T08:59:59Z');
    alertWriteFailures(ctx);
    expect(notices()).toEqual([]);
    at('2026-12-01T09:00:00Z');
    alertWriteFailures(ctx);
    at('2026-12-01T09:30:00Z');
    alertWriteFailures(ctx);
    expect(notices().map((message) => message.subject)).toEqual([
      'Calendar "Anna" cannot be written: new bookings are not in it',
    ]);
    expect(notices()[0]!.text).toContain('1 booking change(s) wait');
    expect(notices()[0]!.text).toContain('planner calendar set 1 --user <name> --password-stdin');

    // Never given up: two days on, still waiting, and stuck (status and doctor say so loudly).
    at('2026-12-03T08:00:00Z');
    expect((await deliverWrites(ctx, 1)).written).toBe(0);
    expect(calendars(ctx)[0]!.writing).toMatchObject({ waiting: 1, state: 'failing', stuck: true });

    caldav.state.down = false;
    at('2026-12-03T10:00:00Z');
    expect(await deliverWrites(ctx, 1)).toEqual({ written: 1, error: null });
    alertWriteFailures(ctx);
    expect(notices().map((message) => message.subject)).toEqual([
      'Calendar "Anna" cannot be written: new bookings are not in it',
      'Calendar "Anna" receives bookings again',
    ]);
    expect(calendars(ctx)[0]!.writing).toEqual({
      waiting: 0,
      state: 'ok',
      failingSince: null,
      lastError: null,
      stuck: false,
    });
    expect(caldav.resources.size).toBe(1);
    store.close();
  });
});
