/**
 * The booking page's limits, told as soon as the details are sent (issue 41, item 1: they refused only after the
 * review, with "Start again" and nothing kept): the bookings from one address in an hour, and the future bookings one
 * e-mail address holds (a family under one address). The form comes back with what was typed, why, and what the
 * customer can do (call, with the number; another person under their own e-mail address); nothing is written; the
 * same when the limit is reached between the review and the booking.
 */
import { describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import { expectThrottled } from '../http/throttled.ts';
import {
  get,
  hiddenFields,
  links,
  MARIA,
  type PageSetup,
  pageSetup,
  post,
  times,
  toReview,
  unescapeHtml,
  wholeDay,
  written,
} from './flow.ts';

/** The details form's own fields (choice and ticket) of a fresh form for the `pick`-th time of a whole day. */
async function freshForm(s: PageSetup, pick: number): Promise<Record<string, string>> {
  const days = await get(`${s.base}/book/`);
  const timesPage = await get(`${s.base}${wholeDay(days.html)}`);
  const time = times(timesPage.html)[pick]!;
  const details = await get(
    `${s.base}/book/details?${new URLSearchParams({ ...hiddenFields(timesPage.html, '/book/details'), time })}`,
  );
  expect(details.status).toBe(200);
  return hiddenFields(details.html, '/book/review');
}

/** Checks that `html` is the details form again with `typed` in its fields, and no way out but the form. */
function expectKept(html: string, typed: Record<string, string>): void {
  expect(html).toContain('<h1>Your details</h1>');
  for (const [name, value] of Object.entries(typed)) expect(html, name).toContain(`name="${name}" value="${value}"`);
  expect(html).toContain('<form method="post" action="/book/review"');
  expect(html).not.toContain('Start again');
  expect(html).toContain('To book by phone, call the practice: <a href="tel:+49301234567">+49 30 1234567</a>');
}

describe('the booking page’s limits, when the details are sent', () => {
  it('an e-mail address that holds its share: the form again with what was typed, another address for another person, the phone; another address books', async () => {
    const s = await pageSetup({ page: ['--per-email', '1'] });
    const { review } = await toReview(s);
    expect((await post(`${s.base}/book/confirm`, review)).status).toBe(200);
    await s.smtp.received(2); // its mails are sent (the confirmation's link is written then)
    const before = written(s.db);
    // The family's next booking under the same address: refused when the details are sent, not after the review.
    const ticket = await freshForm(s, 1);
    const child = { ...MARIA, 'f.first_name': 'Lena' };
    const refused = await post(`${s.base}/book/review`, { ...ticket, ...child, homepage: '' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('This e-mail address already has 1 upcoming appointment');
    expect(refused.html).toContain(
      'To book for another person, enter their own e-mail address; what you typed is kept.',
    );
    expect(refused.html).toMatch(/<div class="note error" role="alert">/);
    expectKept(refused.html, child);
    expect(written(s.db)).toEqual(before);
    // The same form with the child's own address: the review, then the booking.
    const own = { ...child, 'f.email': 'lena@example.com' };
    const reviewed = await post(`${s.base}/book/review`, {
      ...hiddenFields(refused.html, '/book/review'),
      ...own,
      homepage: '',
    });
    expect(reviewed.status, reviewed.html).toBe(200);
    const booked = await post(`${s.base}/book/confirm`, hiddenFields(reviewed.html, '/book/confirm'));
    expect(booked.status, booked.html).toBe(200);
    expect(written(s.db).bookings).toBe(2);
    await s.server.stop();
  });

  it('too many bookings from one address: a 429 with the form and what was typed, at the review and at the booking', async () => {
    const s = await pageSetup({ page: ['--per-hour', '1'] });
    // Two forms reviewed before any booking; the first books, which reaches the limit of one an hour.
    const first = await toReview(s);
    const jonas = { 'f.first_name': 'Jonas', 'f.last_name': 'Weber', 'f.email': 'jonas@example.com' };
    const second = await toReview(s, jonas, 1);
    expect((await post(`${s.base}/book/confirm`, first.review)).status).toBe(200);
    await s.smtp.received(2);
    const before = written(s.db);
    // Booked after the limit was reached meanwhile: the form again, what was typed kept, not "Start again".
    const late = await post(`${s.base}/book/confirm`, second.review);
    expect(late.status).toBe(429);
    expectThrottled(late.headers, 'bookings-per-hour', 1, 3600);
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(late.html).toContain('Too many bookings were made from your connection.');
    expectKept(late.html, jonas);
    // A new form from the same address: refused when its details are sent.
    const ticket = await freshForm(s, 2);
    const fresh = await post(`${s.base}/book/review`, { ...ticket, ...jonas, homepage: '' });
    expect(fresh.status).toBe(429);
    expectThrottled(fresh.headers, 'bookings-per-hour', 1, 3600);
    expect(fresh.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expectKept(fresh.html, jonas);
    expect(written(s.db)).toEqual(before);
    await s.server.stop();
  });

  it('a series that takes an address past its share: the true numbers on the done page, no "book another", and on the next form', async () => {
    // At most 3 per address (the default); a series of 5 is one booking and counts 5 dates once made.
    const s = await pageSetup({ more: (db) => cliOk(db, 'reason', 'set', '1', '--series', '5').then(() => {}) });
    const days = await get(`${s.base}/book/`);
    const dayPage = await get(`${s.base}${wholeDay(days.html)}`);
    const choice = hiddenFields(dayPage.html, '/book/weeks');
    // The details form of the `pick`-th time: of the series of 5 (`0`) or of that date only (`1`).
    const detailsOf = async (pick: number, which: 0 | 1) => {
      const weeks = await get(
        `${s.base}/book/weeks?${new URLSearchParams({ ...choice, time: times(dayPage.html)[pick]!, weeks: '5' })}`,
      );
      return get(`${s.base}${links(weeks.html, '/book/details?')[which]!}`);
    };
    /** Sends the details form `details` for `typed`, then its review: the done page. */
    const book = async (details: { html: string }, typed: Record<string, string>) => {
      const review = await post(`${s.base}/book/review`, {
        ...hiddenFields(details.html, '/book/review'),
        ...typed,
        homepage: '',
      });
      expect(review.status, review.html).toBe(200);
      return post(`${s.base}/book/confirm`, hiddenFields(review.html, '/book/confirm'));
    };
    // Below the share, the done page offers another booking.
    const one = await book(await detailsOf(0, 1), { ...MARIA, 'f.email': 'single@example.com' });
    expect(one.status, one.html).toBe(200);
    expect(one.html).toContain('<p><a href="/book/">Book another appointment</a></p>');
    const done = await book(await detailsOf(1, 0), MARIA);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('<h1>Your appointments are booked</h1>');
    // The address could book nothing more here: the page says why, with the true numbers, and links to no new booking.
    expect(unescapeHtml(done.html)).toContain(
      'This e-mail address now has 5 upcoming appointments; at most 3 can be booked here for one address, so no more can be booked with it here.',
    );
    expect(done.html).not.toContain('Book another appointment');
    expect(done.html).not.toContain('href="/book/"');
    // The next form under that address: refused with the same numbers, not "5, the maximum".
    const before = written(s.db);
    const next = hiddenFields((await detailsOf(3, 1)).html, '/book/review');
    const refused = await post(`${s.base}/book/review`, { ...next, ...MARIA, homepage: '' });
    expect(refused.status).toBe(409);
    expect(unescapeHtml(refused.html)).toContain(
      'This e-mail address already has 5 upcoming appointments; at most 3 can be booked here for one address. Please contact the practice.',
    );
    expect(written(s.db)).toEqual(before);
    await s.server.stop();
  });
});
