/**
 * An installation in the test process for the calendar tests that drive planner's own code with a clock in their
 * hand: Praxis in Europe/Berlin, one schedule (30-minute steps, 30 days ahead unless told), one reason of 30 minutes,
 * open every day 08:00–18:00; and, for the writing tests, a calendar that receives the bookings.
 */
import { createContext, type AppContext } from '../../src/app/context.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { insertCalendar } from '../../src/store/calendars.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';

/** Opens `file` (a new one unless given) as that practice, read on `clock`. */
export function calendarPractice(
  clock: { now: Date },
  options: { file?: string; daysAhead?: number } = {},
): { store: Store; ctx: AppContext; file: string } {
  const file = options.file ?? tempDb();
  const store = openStore(file);
  const ctx = createContext(store, () => clock.now);
  initInstallation(ctx, {
    practiceName: 'Praxis',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@praxis.example',
    locale: 'en',
  });
  addSchedule(ctx, {
    name: 'Dr. A',
    daysAhead: options.daysAhead ?? 30,
    noticeMinutes: 0,
    stepMinutes: 30,
    capacity: 1,
  });
  addReason(ctx, 1, { name: 'Check-up', durationMinutes: 30 });
  setHours(ctx, 1, 'mon-sun', '08:00-18:00');
  return { store, ctx, file };
}

/**
 * Adds a CalDAV calendar at `url` (no login) to schedule 1 (or `scheduleId`), receiving its bookings (unless
 * `writeBookings` is false), as `calendar add --write-bookings` would: calendar 1 of a new practice.
 */
export function writingCalendar(
  store: Store,
  url: string,
  at: Date,
  options: { scheduleId?: number; label?: string; writeBookings?: boolean } = {},
): void {
  insertCalendar(store, {
    scheduleId: options.scheduleId ?? 1,
    label: options.label ?? 'Anna',
    kind: 'caldav',
    url,
    user: null,
    password: null,
    everyMinutes: 5,
    allowInsecure: true,
    fetchState: '{}',
    createdAt: at.toISOString(),
    syncedAt: null,
    writeBookings: options.writeBookings ?? true,
  });
}
