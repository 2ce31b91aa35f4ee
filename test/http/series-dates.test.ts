/**
 * Every date of a series from any of its links (issue 47), in-process: `/manage/<token>/date/<reference>` opens another
 * date of the link's own series, with its own steps and form tokens; every other reference (another series', a
 * booking made alone, the link's own booking) is the not-found page of an unknown link; a form of one date posted to
 * another is refused and changes nothing; a date that is over shows as past; the link lives until 30 days after the
 * series' last date.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createSeries } from '../../src/app/bookings/series.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason, removeReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { findBooking } from '../../src/store/bookings.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import { tempDb } from '../helpers.ts';
import { formFields, textOf } from '../portal/page.ts';

/** Monday 2026-06-01, 08:00 in Berlin. */
const NOW = new Date('2026-06-01T06:00:00Z');
const DAY = 86_400_000;

/** Two weekly series of four (Tuesdays 09:00 and 10:00) and a booking made alone; a link to each first date. */
async function installation() {
  const store = openStore(tempDb());
  let now = NOW;
  const ctx = createContext(store, () => now);
  initInstallation(ctx, {
    practiceName: 'Praxis',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@p.example',
    locale: 'en',
  });
  const schedule = addSchedule(ctx, { name: 'Dr. Weber', daysAhead: 60, noticeMinutes: 0, stepMinutes: 30 });
  const reason = addReason(ctx, schedule, { name: 'Physio', durationMinutes: 30 });
  setHours(ctx, schedule, 'mon-fri', '09:00-12:00');
  enablePortal(ctx, { url: 'https://booking.example' });
  const submission = { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' };
  const series = (slot: string) =>
    createSeries(
      ctx,
      { scheduleId: schedule, reasonId: reason, slot, submission, intervalDays: 7, count: 4, skipTaken: false },
      'api',
    ).bookings.map((booking) => findBooking(store, booking.bookingId)!);
  const mine = series('2026-06-02 09:00:00');
  const other = series('2026-06-02 10:00:00');
  const alone = findBooking(
    store,
    createBooking(ctx, { scheduleId: schedule, reasonId: reason, slot: '2026-06-03 09:00:00', submission }, 'api')
      .bookingId,
  )!;
  const token = createManageToken(store, mine[0]!.id, NOW.toISOString());
  const aloneToken = createManageToken(store, alone.id, NOW.toISOString());
  const app = createHttpApp({ runtime: await startRuntime(store, { now: () => now }), log: () => {} });
  const get = async (path: string) => {
    const answer = await app.request(path);
    return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
  };
  const post = async (path: string, fields: Record<string, string>) => {
    const answer = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
  };
  const statuses = () => mine.map((booking) => findBooking(store, booking.id)!.status);
  return {
    get,
    post,
    mine,
    other,
    alone,
    token,
    aloneToken,
    statuses,
    removeReason: () => removeReason(ctx, reason, true),
    setNow: (at: Date) => {
      now = at;
    },
  };
}

describe('the dates of a series on the self-service page (in-process)', () => {
  it('opens every date of the link’s series, each with its own move and cancel; any other reference is an unknown link', async () => {
    const s = await installation();
    const home = `/manage/${s.token}`;
    const unknown = await s.get(`/manage/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);

    const first = await s.get(home);
    expect(first.status).toBe(200);
    // Every other date is a link to its own page; each date's own steps.
    for (const booking of s.mine.slice(1)) {
      const path = `${home}/date/${booking.reference}`;
      expect(first.html).toContain(`<a href="${path}">`);
      expect(first.html).toContain(`href="${path}/reschedule"`);
      expect(first.html).toContain(`href="${path}/cancel"`);
    }
    const third = await s.get(`${home}/date/${s.mine[2]!.reference}`);
    expect(third.status).toBe(200);
    expect(textOf(third.html)).toContain(s.mine[2]!.reference);
    expect(third.html).toMatch(/<li aria-current="true"><p><strong>Tue 16 Jun, 09:00<\/strong> \(this appointment\)/);
    const steps = await s.get(`${home}/date/${s.mine[2]!.reference}/cancel`);
    expect(steps.status).toBe(200);
    expect(formFields(steps.html, `${home}/date/${s.mine[2]!.reference}/cancel`)).toBeDefined();
    expect((await s.get(`${home}/date/${s.mine[2]!.reference}/reschedule`)).status).toBe(200);

    for (const [why, path] of [
      ['another series’ date', `${home}/date/${s.other[1]!.reference}`],
      ['another series’ date, its cancel step', `${home}/date/${s.other[1]!.reference}/cancel`],
      ['a booking made alone', `${home}/date/${s.alone.reference}`],
      ['the link’s own booking', `${home}/date/${s.mine[0]!.reference}`],
      ['no such reference', `${home}/date/ZZZZZZZZZZZZZZZZ`],
      ['a link of a booking made alone', `/manage/${s.aloneToken}/date/${s.mine[1]!.reference}`],
    ]) {
      const answer = await s.get(path!);
      expect([why, answer.status]).toEqual([why, 404]);
      expect([why, answer.html]).toEqual([why, unknown.html]);
    }
  });

  it('offers no date a move once the series’ reason can no longer be booked; each can still be cancelled', async () => {
    const s = await installation();
    const home = `/manage/${s.token}`;
    s.removeReason();
    const first = await s.get(home);
    expect(first.html).not.toContain('/reschedule');
    for (const booking of s.mine.slice(1))
      expect(first.html).toContain(`href="${home}/date/${booking.reference}/cancel"`);
  });

  it('refuses a form of one date posted to another; cancels a date from its own page and keeps the others reachable', async () => {
    const s = await installation();
    const home = `/manage/${s.token}`;
    const dateOf = (n: number) => `${home}/date/${s.mine[n]!.reference}`;
    const third = formFields((await s.get(`${dateOf(2)}/cancel`)).html, '/cancel')!;
    expect(third.csrf).toBeDefined();

    // Date 3's form (its token bound to date 3's booking) posted to date 4: refused, nothing changed.
    const crossed = await s.post(`${dateOf(3)}/cancel`, third);
    expect(crossed.status).toBe(403);
    expect(textOf(crossed.html)).toContain('This form could not be accepted.');
    expect(s.statuses()).toEqual(['booked', 'booked', 'booked', 'booked']);
    // … and to the link's own date, and to the other series' date (not found: the reference is not the link's).
    expect((await s.post(`${home}/cancel`, third)).status).toBe(403);
    expect((await s.post(`/manage/${s.token}/date/${s.other[2]!.reference}/cancel`, third)).status).toBe(404);
    expect(s.statuses()).toEqual(['booked', 'booked', 'booked', 'booked']);

    // To its own date: cancelled, back to that date's page, which says the others stay booked and links to them.
    const done = await s.post(`${dateOf(2)}/cancel`, third);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${dateOf(2)}?done=cancelled`);
    expect(s.statuses()).toEqual(['booked', 'booked', 'cancelled', 'booked']);
    const after = await s.get(done.location!);
    const text = textOf(after.html);
    expect(text).toContain('The other dates of your series stay booked');
    expect(text).toMatch(/Tue 16 Jun, 09:00 \(this appointment\) Cancelled/);
    expect(after.html).not.toContain(`href="${dateOf(2)}/cancel"`);
    for (const n of [1, 3]) expect(after.html).toContain(`href="${dateOf(n)}/reschedule"`);
    expect(after.html).toContain(`href="${home}/cancel"`);
  });

  it('shows a date that is over as past, and opens until 30 days after the series’ last date', async () => {
    const s = await installation();
    const home = `/manage/${s.token}`;
    // The first two dates over: Past, without steps; the others still Booked.
    s.setNow(new Date(Date.parse('2026-06-10T06:00:00Z')));
    const page = textOf((await s.get(`${home}/date/${s.mine[2]!.reference}`)).html);
    expect(page).toMatch(/Tue 2 Jun, 09:00 Past Tue 9 Jun, 09:00 Past Tue 16 Jun, 09:00 \(this appointment\) Booked\./);
    const first = textOf((await s.get(home)).html);
    expect(first).toMatch(/Status Past/);
    // 31 days after the first date's end, the first date's link still opens (its series goes on) …
    s.setNow(new Date(s.mine[0]!.endAt * 1000 + 31 * DAY));
    expect((await s.get(home)).status).toBe(200);
    // … until 30 days after the last date's end.
    s.setNow(new Date(s.mine[3]!.endAt * 1000 + 30 * DAY));
    expect((await s.get(home)).status).toBe(200);
    s.setNow(new Date(s.mine[3]!.endAt * 1000 + 30 * DAY + 1000));
    expect((await s.get(home)).status).toBe(404);
    expect((await s.get(`${home}/date/${s.mine[3]!.reference}`)).status).toBe(404);
  });
});
