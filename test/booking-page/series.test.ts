/**
 * Series (issue 40) on the customer pages over HTTP, against a real `planner serve`: the booking page's weekly dates
 * (a form sent twice books once, a number of weeks the reason does not offer is refused with nothing written, the
 * e-mail address's limit counts a series as one booking), and the self-service page's "this and the later dates" on
 * a booking made alone (refused, nothing changed). test/browser/series.test.ts walks the same pages in Chromium.
 */
import { describe, expect, it } from 'vitest';
import { cliJson, cliOk } from '../helpers.ts';
import { bookingState, bookWithLink, formFields, page, postForm, setup, slotsOf } from '../portal/page.ts';
import { get, hiddenFields, links, MARIA, pageSetup, post, times, unescapeHtml, wholeDay, written } from './flow.ts';

describe('series on the customer pages over HTTP', () => {
  it('"any practitioner" books one date: a course stays with one practitioner, so its times offer no weeks', async () => {
    const s = await pageSetup({
      more: async (db) => {
        await cliOk(db, 'schedule', 'add', 'Dr. Roth', '--days-ahead', '30', '--notice', '0', '--step', '30');
        await cliOk(db, 'hours', 'set', '2', 'mon-sun', '08:00-12:00');
        await cliOk(db, 'reason', 'set', '1', '--schedules', '1,2', '--series', '4');
      },
    });
    const first = await get(`${s.base}/book/`);
    const any = links(first.html, '/book/days?').find((link) => link.includes('schedule=0'))!;
    expect(any).toBeDefined();
    const days = await get(`${s.base}${any}`);
    const day = await get(`${s.base}${wholeDay(days.html)}`);
    expect(day.html).not.toContain('action="/book/weeks"');
    const choice = new URLSearchParams(wholeDay(days.html).split('?')[1]);
    const time = times(day.html)[0]!;
    const weeks = await get(
      `${s.base}/book/weeks?${new URLSearchParams({ ...Object.fromEntries(choice), time, weeks: '3' })}`,
    );
    expect(weeks.status).toBe(404);
    // The same reason with Dr. Weber alone still offers them.
    const weber = links(first.html, '/book/days?').find((link) => link.includes('schedule=1'))!;
    const weberDay = await get(`${s.base}${wholeDay((await get(`${s.base}${weber}`)).html)}`);
    expect(weberDay.html).toContain('action="/book/weeks"');
  });

  it('the booking page books the weekly dates once per form, and refuses a number of weeks the reason does not offer', async () => {
    const s = await pageSetup({ more: (db) => cliOk(db, 'reason', 'set', '1', '--series', '4').then(() => {}) });
    const first = await get(`${s.base}/book/`);
    const dayPage = await get(`${s.base}${wholeDay(first.html)}`);
    // The times lead to the choice of once or every week.
    expect(dayPage.html).toContain('<form method="get" action="/book/weeks">');
    const choice = hiddenFields(dayPage.html, '/book/weeks');
    const time = times(dayPage.html)[0]!;
    const weeks = (n: string) => `${s.base}/book/weeks?${new URLSearchParams({ ...choice, time, weeks: n })}`;
    const choosing = await get(`${s.base}/book/weeks?${new URLSearchParams({ ...choice, time })}`);
    expect(choosing.status).toBe(200);
    expect([...choosing.html.matchAll(/<option value="(\d+)"/g)].map((match) => match[1])).toEqual(['2', '3', '4']);
    for (const bad of ['5', '0', 'x', '-2', '3.0']) expect((await get(weeks(bad))).status, bad).toBe(404);
    const three = await get(weeks('3'));
    expect(three.status).toBe(200);
    const [next, once] = links(three.html, '/book/details?'); // the three dates, then "Book this date only"
    expect(new URLSearchParams(next!.split('?')[1]).get('weeks')).toBe('3');
    expect(new URLSearchParams(once!.split('?')[1]).get('weeks')).toBeNull();

    // The details carry the weeks; the review lists the three dates; the booking makes three, once.
    const details = await get(`${s.base}${next}`);
    const ticket = hiddenFields(details.html, '/book/review');
    expect(ticket.weeks).toBe('3');
    const review = await post(`${s.base}/book/review`, { ...ticket, ...MARIA, homepage: '' });
    expect(review.status, review.html).toBe(200);
    expect([...unescapeHtml(review.html).matchAll(/<li>([^<]*): free<\/li>/g)]).toHaveLength(3);
    const form = hiddenFields(review.html, '/book/confirm');
    // A number of weeks the reason does not offer, sent by hand: refused, nothing written.
    const before = written(s.db);
    const tampered = await post(`${s.base}/book/confirm`, { ...form, weeks: '9' });
    expect(tampered.status).toBe(409);
    expect(written(s.db)).toEqual(before);
    const done = await post(`${s.base}/book/confirm`, form);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('<h1>Your appointments are booked</h1>');
    const made = written(s.db);
    expect({ bookings: made.bookings, keys: made.keys }).toEqual({ bookings: 3, keys: 1 });
    const again = await post(`${s.base}/book/confirm`, form);
    expect(again.status).toBe(200);
    expect(again.html).toContain('This form was sent before');
    expect(written(s.db).bookings).toBe(3);
    // A calendar file per date, each its own booking's invitation (one UID each, METHOD:REQUEST, as in the mails).
    const files = await Promise.all(links(done.html, '/book/event/').map((link) => get(`${s.base}${link}`)));
    expect(files).toHaveLength(3);
    const uids = files.map((file) => {
      expect(file.html.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(file.html).toMatch(/^METHOD:REQUEST\r$/m);
      return /^UID:(.*)\r$/m.exec(file.html)![1];
    });
    expect(new Set(uids).size).toBe(3);

    // The address now holds three future bookings, the page's limit (--per-email 3): another series is refused on
    // the form, as a single booking would be.
    const other = await get(
      `${s.base}/book/details?${new URLSearchParams({ ...choice, time: times(dayPage.html)[1]!, weeks: '2' })}`,
    );
    const refused = await post(`${s.base}/book/review`, {
      ...hiddenFields(other.html, '/book/review'),
      ...MARIA,
      homepage: '',
    });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('already has 3 upcoming appointments');
    expect(written(s.db).bookings).toBe(3);
  });

  it('the self-service page: "this and the later dates" of a booking made alone changes nothing', async () => {
    const s = await setup();
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const cancel = await page(`${link}/cancel?scope=later`);
    expect(cancel.html).not.toContain('name="scope"'); // no choice: there are no later dates
    const fields = formFields(cancel.html, '/cancel')!;
    const before = bookingState(s.db);
    const refused = await postForm(`${link}/cancel`, { ...fields, scope: 'later', reason: '' });
    expect(refused.status).toBe(400);
    expect(bookingState(s.db)).toEqual(before);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({ status: 'booked' });
  });
});
