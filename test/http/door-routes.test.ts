/**
 * The routes of the HTML doors and the feed (src/http/door-routes.ts), in-process: each route answers its method (HEAD
 * as GET), and every other path or method under a door gets that door's own 404 (the feed's in plain text, the pages'
 * as a page), outside the /api gates; `/feed` itself is no door's. Odd spellings of the paths, which only a real
 * socket sends, are test/http/paths.test.ts's and test/http/access-log.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { makeFeedUrl } from '../../src/app/calendars/feed.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enableBookingPage } from '../../src/app/pages/booking-page.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import { tempDb } from '../helpers.ts';

const NOW = new Date('2026-06-01T06:00:00Z');

/** A practice with the self-service page and the booking page on, a booking with its link, a feed; the app in-process. */
async function doors() {
  const store = openStore(tempDb());
  const ctx = createContext(store, () => NOW);
  initInstallation(ctx, {
    practiceName: 'Praxis',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@p.example',
    locale: 'en',
  });
  const schedule = addSchedule(ctx, { name: 'Dr. Weber', daysAhead: 30, noticeMinutes: 0, stepMinutes: 30 });
  const reason = addReason(ctx, schedule, { name: 'Check-up', durationMinutes: 30 });
  setHours(ctx, schedule, 'mon-fri', '09:00-12:00');
  enablePortal(ctx, { url: 'https://booking.example' });
  enableBookingPage(ctx, {});
  const submission = { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' };
  const booked = createBooking(
    ctx,
    { scheduleId: schedule, reasonId: reason, slot: '2026-06-02 09:00:00', submission },
    'api',
  );
  const token = createManageToken(store, booked.bookingId, NOW.toISOString());
  const feed = new URL(makeFeedUrl(ctx, schedule, { rotate: false, url: 'https://booking.example' })).pathname;
  const app = createHttpApp({ runtime: await startRuntime(store, { now: () => NOW }), log: () => {} });
  const ask = async (method: string, path: string) => {
    const answer = await app.request(path, { method });
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      page: answer.headers.get('x-planner-page'),
      timing: answer.headers.has('server-timing'),
      body: await answer.text(),
    };
  };
  return { ask, token, feed, query: `schedule=${schedule}&reason=${reason}` };
}

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

describe('the doors as routes', () => {
  it('answers each route of each door for its method, and HEAD as GET without the body', async () => {
    const { ask, token, feed, query } = await doors();
    const routes: [string, string, string][] = [
      ['GET', feed, 'text/calendar; charset=utf-8'],
      ['GET', `/manage/${token}`, HTML],
      ['GET', `/manage/${token}/cancel`, HTML],
      ['GET', `/manage/${token}/reschedule`, HTML],
      ['GET', '/book', HTML],
      ['GET', '/book/', HTML],
      ['GET', `/book/days?${query}`, HTML],
      ['GET', `/book/times?${query}&day=2026-06-03`, HTML],
      ['GET', `/book/details?${query}&day=2026-06-03&time=10:00`, HTML],
    ];
    for (const [method, path, type] of routes) {
      const get = await ask(method, path);
      expect([path, get.status, get.type]).toEqual([path, 200, type]);
      const head = await ask('HEAD', path);
      expect([path, head.status, head.type, head.body]).toEqual([path, 200, type, '']);
    }
  });

  it('answers every other path and method under a door with that door’s 404, never the API’s gates', async () => {
    const { ask, token, feed } = await doors();
    const unknown: [string, string, string][] = [
      ['GET', '/feed/', TEXT],
      ['GET', '/feed/x', TEXT],
      ['GET', `${feed}/`, TEXT],
      ['POST', feed, TEXT],
      ['DELETE', feed, TEXT],
      ['GET', '/manage', HTML],
      ['GET', '/manage/', HTML],
      ['POST', `/manage/${token}`, HTML],
      ['DELETE', `/manage/${token}/cancel`, HTML],
      ['PUT', `/manage/${token}/reschedule`, HTML],
      ['GET', `/manage/${token}/elsewhere`, HTML],
      ['GET', `/manage/${token}/cancel/more`, HTML],
      ['POST', '/book/days', HTML],
      ['PUT', '/book/details', HTML],
      ['DELETE', '/book/confirm', HTML],
      ['POST', '/book/logo', HTML],
      ['GET', '/book/elsewhere', HTML],
      ['GET', '/book/event', HTML],
      ['GET', '/book/event/a/b', HTML],
      ['GET', '/book/event/ABCDEFGH23456789.ics', HTML],
    ];
    for (const [method, path, type] of unknown) {
      const answer = await ask(method, path);
      expect([method, path, answer.status, answer.type]).toEqual([method, path, 404, type]);
      if (type === HTML) expect([method, path, answer.page]).toEqual([method, path, 'not-found']);
    }
  });

  it('answers a link that leads nowhere in the booking page’s words, and a file or path it does not know as not found', async () => {
    const { ask } = await doors();
    const gone = await ask('GET', '/book/elsewhere');
    expect(gone.body).toContain('<a class="button" href="/book/">');
    expect((await ask('GET', '/book/event')).body).toBe(gone.body);
    const notFound = await ask('POST', '/book/days');
    expect(notFound.body).not.toContain('<a class="button" href="/book/">');
    expect((await ask('GET', '/book/event/a/b')).body).toBe(notFound.body);
    // Every answer of the booking page carries its own time, as every API answer does.
    expect([gone.timing, notFound.timing, (await ask('GET', '/book/')).timing]).toEqual([true, true, true]);
  });

  it('leaves `/feed` itself, and paths beside the doors, to the JSON 404 of every unknown path', async () => {
    const { ask } = await doors();
    for (const path of ['/feed', '/feeds', '/manager', '/books', '/'])
      expect([path, (await ask('GET', path)).body]).toEqual([path, '{"error":"Not Found"}']);
  });
});
