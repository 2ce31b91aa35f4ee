/**
 * Never silent: with the clock in the test's hand, a calendar that cannot be written keeps every write
 * waiting (never given up), shows as failing with the last error and since when in `calendar list` (and so in
 * `status` and `doctor`), `stuck` after 48 hours; after an hour of failing the practice is mailed once, and once more
 * when the calendar takes the writes again. The calendar is the test's CalDAV server; the writes are planner's code.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { calendars } from '../../src/app/calendars/calendar-views.ts';
import { alertWriteFailures, deliverWrites } from '../../src/app/calendars/calendar-writes.ts';
import { unsentMessages } from '../../src/store/outbox.ts';
import { practice, writingCalendar } from '../practice.ts';
import { fakeCalDav } from './fake-caldav.ts';

describe('a calendar that cannot be written (issue 38)', () => {
  it('waits and retries, says failing at once and stuck after 48 h, mails the practice once after an hour and once when it writes again', async () => {
    const caldav = await fakeCalDav();
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx } = practice({ clock });
    writingCalendar(store, caldav.url, clock.now);
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
    expect(notices()[0]!.text).toContain('1 booking change is waiting');
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
