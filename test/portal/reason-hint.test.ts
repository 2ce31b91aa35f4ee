/**
 * Issue 24, item 16: the cancel reason's box takes line breaks (the page joins them), so its hint no longer says
 * "one line": a few words, at most 500 characters, in the installation's language.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import { onCleanup, tempDb } from '../helpers.ts';
import { textOf } from './page.ts';

/** Returns the text of the cancel page of a booking, in-process on a fixed clock, in `locale`. */
async function cancelPageText(locale: 'en' | 'de'): Promise<string> {
  const store = openStore(tempDb());
  const now = new Date('2026-06-01T06:00:00Z');
  const ctx = createContext(store, () => now);
  initInstallation(ctx, {
    practiceName: 'Praxis Sonne',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@sonne.example',
    locale,
  });
  const schedule = addSchedule(ctx, {
    name: 'Dr. Weber',
    daysAhead: 14,
    noticeMinutes: 0,
    stepMinutes: 30,
    capacity: 1,
  });
  const reason = addReason(ctx, schedule, { name: 'Check-up', durationMinutes: 30 });
  setHours(ctx, schedule, 'mon-fri', '09:00-12:00');
  const booked = createBooking(
    ctx,
    {
      scheduleId: schedule,
      reasonId: reason,
      slot: '2026-06-03 10:00:00',
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    },
    'api',
  );
  enablePortal(ctx, { url: 'https://booking.sonne.example', cancelUntilHours: 24 });
  const token = createManageToken(store, booked.bookingId, now.toISOString());
  const runtime = await startRuntime(store, { now: () => now });
  onCleanup(() => runtime.close());
  const page = await createHttpApp({ runtime, log: () => {} }).request(`/manage/${token}/cancel`);
  expect(page.status).toBe(200);
  return textOf(await page.text());
}

describe('the cancel reason’s hint', () => {
  it.each([
    ['en', 'A few words, at most 500 characters. The practice sees it.', 'One line'],
    ['de', 'Ein paar Worte, höchstens 500 Zeichen. Die Praxis sieht ihn.', 'Eine Zeile'],
  ] as const)('%s: %s', async (locale, hint, old) => {
    const text = await cancelPageText(locale);
    expect(text).toContain(hint);
    expect(text).not.toContain(old);
  });
});
