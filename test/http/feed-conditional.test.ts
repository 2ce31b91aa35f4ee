/**
 * The feed's answers to conditional requests, in-process with a fixed clock (issue 23, findings 8 and 9):
 * Last-Modified moves whenever the text changes (not only with a booking), also for two texts within one second,
 * and `If-None-Match: *` is answered 304 (RFC 9110 §13.1.2). test/http/feed.test.ts has the real server.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { makeFeedUrl } from '../../src/app/calendars/feed.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason, changeReason } from '../../src/app/practice/reasons.ts';
import { addSchedule, changeSchedule } from '../../src/app/practice/schedules.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';

async function feedFixture() {
  const store = openStore(tempDb());
  const clock = { now: new Date('2026-06-01T06:00:00.200Z') };
  const ctx = createContext(store, () => clock.now);
  initInstallation(ctx, {
    practiceName: 'Praxis Sonne',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@sonne.example',
    locale: 'en',
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
  createBooking(
    ctx,
    {
      scheduleId: schedule,
      reasonId: reason,
      slot: '2026-06-02 10:00:00',
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    },
    'api',
  );
  const path = new URL(makeFeedUrl(ctx, schedule, { rotate: false, url: 'https://booking.sonne.example' })).pathname;
  const runtime = await startRuntime(store, { now: () => clock.now });
  const app = createHttpApp({ runtime, log: () => {} });
  const get = async (headers: Record<string, string> = {}) => {
    const response = await app.request(path, { headers });
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      text: await response.text(),
    };
  };
  return { ctx, clock, schedule, reason, get, tick: (ms: number) => (clock.now = new Date(clock.now.getTime() + ms)) };
}

describe('the feed’s Last-Modified and conditional requests (fixed clock)', () => {
  it('moves Last-Modified with every change of the text, also a reason’s name, and two changes within one second', async () => {
    const f = await feedFixture();
    const first = await f.get();
    expect(first.status).toBe(200);
    expect(first.lastModified).toBe('Mon, 01 Jun 2026 06:00:00 GMT');
    expect((await f.get({ 'if-modified-since': first.lastModified! })).status).toBe(304);

    // The probe: a reason renamed; a client that sends only If-Modified-Since got 304 and kept the old name.
    f.tick(3000);
    changeReason(f.ctx, f.reason, { name: 'Follow-up' });
    const renamed = await f.get({ 'if-modified-since': first.lastModified! });
    expect(renamed.status).toBe(200);
    expect(renamed.text).toContain('Follow-up');
    expect(renamed.lastModified).toBe('Mon, 01 Jun 2026 06:00:03 GMT');
    expect((await f.get({ 'if-modified-since': renamed.lastModified! })).status).toBe(304);

    // Two texts within one second: the second cannot carry a date of its own yet, so it carries none, and the
    // first's date does not validate it.
    f.tick(100);
    changeSchedule(f.ctx, f.schedule, { name: 'Dr. Weber-Sonne' });
    const again = await f.get({ 'if-modified-since': renamed.lastModified! });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Weber-Sonne');
    expect(again.lastModified).toBeNull();
    expect((await f.get({ 'if-none-match': again.etag! })).status).toBe(304); // the ETag validates it meanwhile
    f.tick(1000);
    const later = await f.get({ 'if-modified-since': renamed.lastModified! });
    expect(later.status).toBe(200);
    expect(later.lastModified).toBe('Mon, 01 Jun 2026 06:00:04 GMT'); // a second after the text before it
    expect(later.etag).toBe(again.etag);
    expect((await f.get({ 'if-modified-since': later.lastModified! })).status).toBe(304);
    // An unchanged text keeps its date.
    f.tick(60_000);
    expect((await f.get()).lastModified).toBe(later.lastModified);
  });

  it('answers If-None-Match: * with 304, lets If-None-Match decide over If-Modified-Since, and ignores a bad date', async () => {
    const f = await feedFixture();
    const first = await f.get();
    expect((await f.get({ 'if-none-match': '*' })).status).toBe(304);
    expect((await f.get({ 'if-none-match': `"other", W/${first.etag}` })).status).toBe(304);
    expect((await f.get({ 'if-none-match': '"other"', 'if-modified-since': first.lastModified! })).status).toBe(200);
    expect((await f.get({ 'if-modified-since': 'yesterday' })).status).toBe(200);
  });
});
