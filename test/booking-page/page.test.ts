/**
 * The booking page (issue 27) over HTTP, against a real `planner serve`, a real SMTP server and a webhook receiver:
 * a booking through every step, its mails, webhook and confirmation; a form sent twice; a time taken meanwhile; each
 * abuse rule, each refused with one page and nothing written; the frame headers; and the CLI that turns it on.
 */
import { createHmac } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { api, cli, cliJson, cliOk, initDb, serve, snapshot, tempDb } from '../helpers.ts';
import { expectThrottled } from '../http/throttled.ts';
import {
  get,
  hiddenFields,
  links,
  longDay,
  MARIA,
  otherDayForm,
  pageSetup,
  post,
  times,
  toReview,
  unescapeHtml,
  wholeDay,
  written,
} from './flow.ts';

/** The page secret's form token of `parts`, as src/http/form-guard.ts makes it (to make a ticket the clock cannot). */
function tokenFor(db: string, parts: (string | number)[]): string {
  const handle = new DatabaseSync(db, { readOnly: true });
  const { portal_secret: secret } = handle.prepare('SELECT portal_secret FROM settings').get() as {
    portal_secret: string;
  };
  handle.close();
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

describe('the booking page over HTTP', () => {
  it('a customer books through every step: one booking made by the customer, its mails and webhook, and a confirmation with calendar links and the self-service link', async () => {
    const s = await pageSetup();
    const { review, slot } = await toReview(s);
    expect(review['f.email']).toBe('maria@example.com');
    const done = await post(`${s.base}/book/confirm`, review);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('<h1>Your appointment is booked</h1>');
    expect(Buffer.byteLength(done.html)).toBeLessThanOrEqual(15 * 1024); // issue 27: at most 15 KB a page (bench row 10 has each)
    expect(done.html).toContain('A confirmation is on its way to maria@example.com.');
    expect(unescapeHtml(done.html)).toContain('Hauptstraße 1, 10115 Berlin');
    expect(done.html).toContain('href="tel:+49301234567"');
    expect(done.html).toMatch(/<dd>30 minutes<\/dd>/);
    const reference = /<dt>Reference<\/dt><dd>([A-Z0-9]{16})<\/dd>/.exec(done.html)![1]!;
    const booking = (await cliJson(s.db, 'bookings', 'show', reference)) as any;
    expect(booking).toMatchObject({
      reference,
      status: 'booked',
      source: 'page',
      localStart: slot.slice(0, 16),
      submission: { first_name: 'Maria', last_name: 'Schmidt', email: 'maria@example.com' },
    });
    expect(booking.history[0]).toMatchObject({ kind: 'created', by: 'customer' });
    // The audit log (issue 28) names it, by the customer, with its reference.
    expect((await cliJson(s.db, 'audit')).find((entry: any) => entry.action === 'booking created')).toMatchObject({
      actor: 'customer',
      reference,
    });
    // The same engine: the time is no longer offered on the page.
    const day = await get(`${s.base}/book/times?schedule=1&reason=1&day=${slot.slice(0, 10)}`);
    expect(times(day.html)).not.toContain(slot.slice(11, 16));
    const calendar = links(done.html, 'https://calendar.google.com/');
    expect(calendar[0]).toContain('action=TEMPLATE');
    expect(links(done.html, 'https://outlook.live.com/')[0]).toContain('startdt=');
    const ics = links(done.html, '/book/event/')[0]!;
    const file = await get(`${s.base}${ics}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(file.html).toContain(`UID:${reference}`);
    expect((await get(`${s.base}${ics.replace(/k=.*/, 'k=wrong')}`)).status).toBe(404);
    // The self-service link opens the booking.
    const manage = links(done.html, `${s.base}/manage/`)[0]!;
    expect((await get(manage)).html).toContain(reference);
    // The mails (the customer's confirmation and the practice's notice) and the webhook, with actor customer.
    const mails = await s.smtp.received(2);
    const to = mails.map((mail) => (mail.to as any).text);
    expect(to).toContain('maria@example.com');
    expect(mails.find((mail) => (mail.to as any).text === 'maria@example.com')!.text).toContain(`${s.base}/manage/`);
    const [delivery] = await s.receiver.next(1);
    expect(delivery!.json.type).toBe('booking.created');
    expect(delivery!.json.data.actor).toBe('customer');
    expect(delivery!.json.data.booking_details_id ?? delivery!.json.data.reference).toBe(reference);
    await s.server.stop();
  });

  it('a form sent twice makes one booking: the second answer is the same confirmation', async () => {
    const s = await pageSetup();
    const { review } = await toReview(s);
    const [first, second] = await Promise.all([
      post(`${s.base}/book/confirm`, review),
      post(`${s.base}/book/confirm`, review),
    ]);
    const third = await post(`${s.base}/book/confirm`, review);
    const references = [first, second, third].map(
      (answer) => /<dt>Reference<\/dt><dd>([A-Z0-9]{16})<\/dd>/.exec(answer.html)?.[1],
    );
    expect(new Set(references).size).toBe(1);
    expect(references[0]).toBeDefined();
    expect(third.html).toContain('This form was sent before: this is the appointment it booked.');
    expect(written(s.db).bookings).toBe(1);
    // A resend makes no new self-service link (one per answer would be a link per POST): it points to the mail.
    const linksBefore = written(s.db).links;
    const fourth = await post(`${s.base}/book/confirm`, review);
    expect(fourth.html).toContain('To cancel or change it, use the link in your confirmation e-mail.');
    expect(links(fourth.html, `${s.base}/manage/`)).toEqual([]);
    expect(written(s.db).links).toBe(linksBefore);
    // Its reason removed since (bookings kept): the resend and the calendar file still show the booking.
    await cliOk(s.db, 'reason', 'remove', '1', '--force');
    const after = await post(`${s.base}/book/review`, review);
    expect(after.status).toBe(200);
    expect(after.html).toContain(references[0]!);
    const ics = await get(`${s.base}${links(first.html, '/book/event/')[0]}`);
    expect(ics.status).toBe(200);
    expect(ics.html).toContain(`UID:${references[0]}`);
    await s.receiver.next(1);
    await s.smtp.received(2);
    expect(written(s.db).deliveries).toBe(1);
    await s.server.stop();
  });

  it('a time taken meanwhile returns to the day’s times with a clear notice, keeping what was typed; the next time books', async () => {
    const s = await pageSetup();
    const { review, slot } = await toReview(s);
    const token = (await cliJson(s.db, 'token', 'new')).token;
    await cliOk(s.db, 'api', 'enable');
    const taken = await api(s.base, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot,
        submission: { first_name: 'Other', last_name: 'Person', email: 'other@example.com' },
      }),
    });
    expect(taken.status).toBe(201);
    await s.smtp.received(2); // its mails are sent (the confirmation's link is written then), and its webhook
    await s.receiver.next(1);
    const before = written(s.db);
    const back = await post(`${s.base}/book/confirm`, review);
    expect(back.status).toBe(409);
    expect(back.html).toContain('this time was booked by someone else just now');
    expect(written(s.db)).toEqual(before);
    const carried = hiddenFields(back.html, '/book/details');
    expect(carried['f.first_name']).toBe('Maria');
    expect(carried.key).toBe(review.key);
    expect(times(back.html)).not.toContain(slot.slice(11, 16));
    expect(otherDayForm(back.html).fields['f.last_name']).toBe('Schmidt');
    expect(otherDayForm(back.html).selected).toBe(slot.slice(0, 10)); // the day itself, which has other times
    // A month of days to choose from (the 30 days ahead, today too while it has a time), still within 15 KB.
    expect(otherDayForm(back.html).days.length).toBeGreaterThanOrEqual(30);
    expect(otherDayForm(back.html).days.length).toBeLessThanOrEqual(31);
    expect(Buffer.byteLength(back.html)).toBeLessThanOrEqual(15 * 1024);
    // Another time: the details come back filled in, then review and book.
    const details = await post(`${s.base}/book/details`, { ...carried, time: times(back.html)[0]! });
    expect(details.status).toBe(200);
    expect(details.html).toContain('value="Maria"');
    const again = await post(`${s.base}/book/review`, {
      ...hiddenFields(details.html, '/book/review'),
      ...MARIA,
      homepage: '',
    });
    const done = await post(`${s.base}/book/confirm`, hiddenFields(again.html, '/book/confirm'));
    expect(done.status).toBe(200);
    expect(written(s.db).bookings).toBe(2);
    await s.server.stop();
  });

  it('the last free time of a day taken meanwhile: a clear notice, another day chosen in a form that keeps what was typed; it books', async () => {
    // One time a day (09:00), so the time chosen is its day's last.
    const s = await pageSetup({
      more: async (db) => void (await cliOk(db, 'hours', 'set', '1', 'mon-sun', '09:00-09:30')),
    });
    const { review, slot } = await toReview(s);
    await cliOk(
      s.db,
      'bookings',
      'add',
      '1',
      '1',
      slot,
      '--field',
      'first_name=Other',
      '--field',
      'last_name=Person',
      '--field',
      'email=other@example.com',
    );
    const before = written(s.db);
    const back = await post(`${s.base}/book/confirm`, review);
    expect(back.status).toBe(409);
    expect(back.html).toContain('this time was booked by someone else just now');
    expect(back.html).toContain('There is no free time left on this day. Please choose another day.');
    expect(times(back.html)).toEqual([]);
    expect(written(s.db)).toEqual(before);
    const other = otherDayForm(back.html);
    expect(other.fields).toMatchObject({
      'f.first_name': 'Maria',
      'f.last_name': 'Schmidt',
      'f.email': 'maria@example.com',
      key: review.key,
    });
    expect(other.days).not.toContain(slot.slice(0, 10));
    const next = other.days.find((day) => day > slot.slice(0, 10))!;
    expect(other.selected).toBe(next); // the list shows the next free day first
    const timesPage = await post(`${s.base}/book/details`, { ...other.fields, day: next });
    expect(timesPage.status).toBe(200);
    expect(times(timesPage.html)).toEqual(['09:00']);
    const details = await post(`${s.base}/book/details`, {
      ...hiddenFields(timesPage.html, '/book/details'),
      time: '09:00',
    });
    expect(details.html).toContain('value="Schmidt"');
    const again = await post(`${s.base}/book/review`, {
      ...hiddenFields(details.html, '/book/review'),
      ...MARIA,
      homepage: '',
    });
    const done = await post(`${s.base}/book/confirm`, hiddenFields(again.html, '/book/confirm'));
    expect(done.status).toBe(200);
    expect(unescapeHtml(done.html)).toContain(`${longDay(next)}, 09:00`);
    expect(written(s.db).bookings).toBe(2);
    await s.server.stop();
  });

  it('"another time" from the form keeps what was typed, also through another day; nothing is written on the way', async () => {
    const s = await pageSetup();
    const first = await get(`${s.base}/book/`);
    const timesPage = await get(`${s.base}${wholeDay(first.html)}`);
    const details = await get(
      `${s.base}/book/details?${new URLSearchParams({ ...hiddenFields(timesPage.html, '/book/details'), time: times(timesPage.html)[0]! })}`,
    );
    const before = snapshot(s.db);
    // The form's second button: the same form to /book/details with change=day, half filled in (nothing checked yet).
    const typed = {
      ...hiddenFields(details.html, '/book/review'),
      'f.first_name': 'Maria',
      'f.last_name': '',
      'f.email': 'maria@exa',
      homepage: '',
    };
    expect(details.html).toContain('formaction="/book/details" name="change" value="day">Choose another time</button>');
    const back = await post(`${s.base}/book/details`, { ...typed, change: 'day' });
    expect(back.status).toBe(200);
    expect(back.html).not.toContain('role="alert"');
    expect(times(back.html).length).toBeGreaterThan(1);
    const other = otherDayForm(back.html);
    expect(other.fields).toMatchObject({ 'f.first_name': 'Maria', 'f.email': 'maria@exa' });
    const later = other.days.at(-1)!;
    const laterTimes = await post(`${s.base}/book/details`, { ...other.fields, day: later });
    expect(unescapeHtml(laterTimes.html)).toContain(`Free times on ${longDay(later)}`);
    const chosen = hiddenFields(laterTimes.html, '/book/details');
    const filled = await post(`${s.base}/book/details`, { ...chosen, time: times(laterTimes.html)[0]! });
    expect(filled.status).toBe(200);
    expect(filled.html).toContain('value="maria@exa"');
    expect(hiddenFields(filled.html, '/book/review').slot!.slice(0, 10)).toBe(later);
    expect(snapshot(s.db)).toEqual(before);
    await s.server.stop();
  });

  it('a field left out or wrong: the form again with each error next to its field and everything typed still there; nothing written', async () => {
    const s = await pageSetup({
      more: async (db) => {
        await cliOk(db, 'field', 'add', 'news', '--form', 'checkbox', '--default', 'true', '--label', 'Newsletter');
        await cliOk(db, 'field', 'add', 'insurer', '--default', 'AOK', '--label', 'Insurer');
      },
    });
    const first = await get(`${s.base}/book/`);
    const timesPage = await get(`${s.base}${wholeDay(first.html)}`);
    const details = await get(
      `${s.base}/book/details?${new URLSearchParams({ ...hiddenFields(timesPage.html, '/book/details'), time: times(timesPage.html)[0]! })}`,
    );
    const before = snapshot(s.db);
    const wrong = await post(`${s.base}/book/review`, {
      ...hiddenFields(details.html, '/book/review'),
      'f.first_name': 'Maria',
      'f.last_name': '',
      'f.email': 'not-an-address',
      homepage: '',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Please correct the 2 fields marked below.');
    expect(wrong.html).toMatch(
      /id="f-last_name" name="f\.last_name" value="" autocomplete="family-name" required aria-describedby="e-last_name" aria-invalid="true"/,
    );
    expect(wrong.html).toContain(
      '<p class="field-error" id="e-email">Please enter an e-mail address such as name@example.com.</p>',
    );
    expect(wrong.html).toContain('value="not-an-address"');
    expect(wrong.html).toContain('value="Maria"');
    // What the customer unticked or cleared stays so (a browser sends nothing for an unticked box).
    expect(details.html).toMatch(/name="f\.news" value="on" checked/);
    expect(details.html).toContain('name="f.insurer" value="AOK"');
    expect(wrong.html).toMatch(/name="f\.news" value="on">/);
    expect(wrong.html).toContain('name="f.insurer" value=""');
    expect(snapshot(s.db)).toEqual(before);
    // Through the review and "Change my details": still unticked and empty.
    const review = await post(`${s.base}/book/review`, {
      ...hiddenFields(details.html, '/book/review'),
      ...MARIA,
      homepage: '',
    });
    const carried = hiddenFields(review.html, '/book/confirm');
    expect(carried['f.news']).toBe('');
    expect(carried['f.insurer']).toBe('');
    const changing = await post(`${s.base}/book/details`, carried);
    expect(changing.html).toMatch(/name="f\.news" value="on">/);
    expect(changing.html).toContain('name="f.insurer" value=""');
    const booked = await post(`${s.base}/book/confirm`, hiddenFields(review.html, '/book/confirm'));
    expect(booked.status).toBe(200);
    const reference = /<dt>Reference<\/dt><dd>([A-Z0-9]{16})<\/dd>/.exec(booked.html)![1]!;
    expect((await cliJson(s.db, 'bookings', 'show', reference)).submission).toEqual({
      first_name: 'Maria',
      last_name: 'Schmidt',
      email: 'maria@example.com',
      news: false,
    });
    // Without a time chosen: the times again, with the notice.
    const noTime = await get(
      `${s.base}/book/details?${new URLSearchParams(hiddenFields(timesPage.html, '/book/details'))}`,
    );
    expect(noTime.status).toBe(400);
    expect(noTime.html).toContain('Please choose a time.');
    await s.server.stop();
  });

  it('each abuse rule refuses with one clear page and writes nothing', async () => {
    const s = await pageSetup({
      env: { PLANNER_FORM_MIN_SECONDS: '3' },
      page: ['--per-hour', '1', '--per-email', '1'],
    });
    const { review } = await toReview(s);
    const before = written(s.db);
    const refused = async (answer: Promise<{ status: number; html: string }>, status: number, text: string) => {
      const got = await answer;
      expect(got.status, got.html).toBe(status);
      expect(got.html).toContain(text);
      expect(got.html).toContain('<a class="button" href="/book/">Start again</a>');
      expect(written(s.db)).toEqual(before);
    };
    // From another site, and a ticket the page did not make.
    await refused(
      post(`${s.base}/book/confirm`, review, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
      403,
      'sent from another site',
    );
    await refused(
      post(`${s.base}/book/confirm`, { ...review, sig: 'A'.repeat(43) }),
      403,
      'This form could not be checked',
    );
    // Not a form, or one too large to read.
    await refused(
      get(`${s.base}/book/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'null' },
        body: JSON.stringify(review),
      }),
      415,
      'This form could not be read.',
    );
    await refused(
      post(`${s.base}/book/confirm`, { ...review, 'f.first_name': 'x'.repeat(70_000) }),
      413,
      'This form could not be read.',
    );
    // Sooner than 3 s after the form was made (this one was made just now).
    await refused(post(`${s.base}/book/confirm`, review), 400, 'This form was sent too quickly.');
    // Older than 2 hours: a ticket made 2 h 1 s ago (signed with the page's secret, as the page would have).
    const issued = String(Math.floor(Date.now() / 1000) - 7201);
    await refused(
      post(`${s.base}/book/confirm`, { ...review, issued, sig: tokenFor(s.db, ['book', review.key!, issued]) }),
      400,
      'This form is too old',
    );
    // The honeypot, filled in as a form-filling script does.
    await refused(
      post(`${s.base}/book/review`, { ...review, homepage: 'https://spam.example' }),
      400,
      'This form could not be accepted.',
    );
    // A ticket made 10 s ago books (then per hour: one from this address; per e-mail: one future booking).
    const old = String(Math.floor(Date.now() / 1000) - 10);
    const fresh = { ...review, issued: old, sig: tokenFor(s.db, ['book', review.key!, old]) };
    expect((await post(`${s.base}/book/confirm`, fresh)).status).toBe(200);
    await s.smtp.received(2); // its mails are sent (the confirmation's link is written then)
    await s.receiver.next(1);
    const one = written(s.db);
    expect(one.bookings).toBe(1);
    // The second booking from the same address within the hour, and one more under the same e-mail address: each
    // refused as soon as its details are sent, on the form with what was typed (test/booking-page/limits.test.ts).
    const dayPage = await get(`${s.base}${wholeDay((await get(`${s.base}/book/`)).html)}`);
    const choice = { ...hiddenFields(dayPage.html, '/book/details'), time: times(dayPage.html)[1]! };
    const details = await get(`${s.base}/book/details?${new URLSearchParams(choice)}`);
    const second = { ...hiddenFields(details.html, '/book/review'), ...MARIA, homepage: '' };
    const hour = await post(`${s.base}/book/review`, second);
    expect(hour.status).toBe(429);
    expect(Number(hour.headers.get('retry-after'))).toBeGreaterThan(3000);
    // The 429 of every door (issue 36, item 10): Retry-After and the rate-limit fields, from tooManyRequests().
    expectThrottled(hour.headers, 'bookings-per-hour', 1, 3600);
    expect(hour.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(hour.html).toContain('Too many bookings were made from your connection.');
    // From another address (a trusted proxy says so), the same e-mail address: it holds its one future booking.
    await cliOk(s.db, 'proxy', 'set', '127.0.0.1');
    const email = await post(`${s.base}/book/review`, second, { 'x-forwarded-for': '203.0.113.9' });
    expect(email.status, email.html).toBe(409);
    expect(email.html).toContain('This e-mail address already has 1 upcoming appointment');
    expect(written(s.db)).toEqual(one);
    await s.server.stop();
  });

  it('frames: none by default; --embed-from names the origins for /book/ only; off: not found', async () => {
    const s = await pageSetup();
    const plain = await get(`${s.base}/book/`);
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(plain.headers.get('x-frame-options')).toBe('DENY');
    expect(plain.headers.get('set-cookie')).toBeNull();
    await cliOk(s.db, 'booking-page', 'enable', '--embed-from', 'https://www.praxis.example,https://praxis.example');
    const framed = await get(`${s.base}/book/`);
    expect(framed.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://www.praxis.example https://praxis.example;',
    );
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const manage = await get(`${s.base}/manage/${'a'.repeat(43)}`);
    expect(manage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(manage.headers.get('x-frame-options')).toBe('DENY');
    const openapi = await get(`${s.base}/api/openapi.json`);
    expect(Object.keys(JSON.parse(openapi.html).paths)).toEqual([
      '/schedules',
      '/reasons',
      '/days',
      '/slots',
      '/forms',
      '/bookings',
      '/series', // issue 40's three, beside the six
      '/slots/any',
      '/bookings/any',
    ]);
    // A schedule it does not offer, a day that is not one: the page's own "start again" (404).
    const unknown = await get(`${s.base}/book/days?schedule=9&reason=1`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('This page does not exist, or no longer offers anything to book.');
    expect((await get(`${s.base}/book/times?schedule=1&reason=1&day=2026-02-30`)).status).toBe(404);
    await cliOk(s.db, 'booking-page', 'disable');
    expect((await get(`${s.base}/book/`)).status).toBe(404);
    await s.server.stop();
  });
});

describe('the booking page while it is off (issue 36, item 15)', () => {
  it('says that online booking is not offered and how to reach the practice (phone, e-mail), in en and de; never "link not valid"', async () => {
    const db = tempDb();
    await initDb(db); // the practice's e-mail: desk@practice.example
    await cliOk(db, 'practice', 'set', '--address', 'Hauptstraße 1, 10115 Berlin', '--phone', '+49 30 1234567');
    const server = await serve(db);
    const text = (html: string) => unescapeHtml(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
    const contact =
      '<ul class="links"><li>Phone: <a href="tel:+49301234567">+49 30 1234567</a></li><li>E-mail: <a href="mailto:desk@practice.example">desk@practice.example</a></li></ul>';
    // Never turned on, the self-service page off too: every path of the page, and a form sent to it.
    for (const answer of [
      await get(`${server.url}/book/`),
      await get(`${server.url}/book/days?schedule=1&reason=1`),
      await post(`${server.url}/book/confirm`, { key: 'x' }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.html).toContain('<h1>Online booking is not offered</h1>');
      expect(text(answer.html)).toContain(
        'Test Practice does not take appointments online. To make an appointment, please call or write to the practice:',
      );
      expect(answer.html).toContain(contact);
      expect(answer.html).not.toMatch(/Link not valid|most recent e-mail/);
    }
    // Turned on, then off: the same page.
    await cliOk(db, 'portal', 'enable', '--url', server.url);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'booking-page', 'enable');
    expect((await get(`${server.url}/book/`)).html).not.toContain('Online booking is not offered');
    await cliOk(db, 'booking-page', 'disable');
    const off = await get(`${server.url}/book/`);
    expect([off.status, off.html.includes(contact)]).toEqual([404, true]);
    // In German; and without a phone number, the e-mail alone.
    await cliOk(db, 'practice', 'set', '--locale', 'de');
    const de = await get(`${server.url}/book/`);
    expect(de.html).toContain('<h1>Online-Terminbuchung nicht möglich</h1>');
    expect(text(de.html)).toContain(
      'Test Practice nimmt keine Termine online an. Für einen Termin rufen Sie bitte an oder schreiben Sie der Praxis:',
    );
    expect(de.html).toContain(
      '<ul class="links"><li>Telefon: <a href="tel:+49301234567">+49 30 1234567</a></li><li>E-Mail: <a href="mailto:desk@practice.example">desk@practice.example</a></li></ul>',
    );
    await cliOk(db, 'practice', 'set', '--phone', '');
    const noPhone = await get(`${server.url}/book/`);
    expect(text(noPhone.html)).toContain('Für einen Termin schreiben Sie bitte der Praxis:');
    expect(noPhone.html).toContain(
      '<ul class="links"><li>E-Mail: <a href="mailto:desk@practice.example">desk@practice.example</a></li></ul>',
    );
    expect(noPhone.html).not.toContain('tel:');
    await server.stop();
  });
});

describe('planner booking-page', () => {
  it('needs the public address first; refuses bad options in one line and changes nothing; status says what it offers', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    const before = snapshot(db);
    const first = await cli(db, 'booking-page', 'enable');
    expect(first.code).toBe(1);
    expect(first.stderr).toBe(
      "planner: the booking page is served at the self-service page's public address: run planner portal enable --url https://booking.praxis.example first\n",
    );
    expect(snapshot(db)).toEqual(before);
    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.praxis.example');
    const portalOn = snapshot(db);
    for (const [args, message] of [
      [
        ['--schedules', '1,x'],
        '--schedules takes schedule ids separated by commas, or all (got "1,x"): e.g. --schedules 1,2',
      ],
      [['--schedules', '7'], 'schedule 7 does not exist (planner schedule list shows the ids)'],
      [
        ['--embed-from', 'https://www.praxis.example/page'],
        '--embed-from takes origins only, without a path (got "https://www.praxis.example/page"): e.g. https://www.praxis.example',
      ],
      [['--privacy-url', 'ftp://x'], '--privacy-url must be an http(s) address (got "ftp://x")'],
      [['--per-hour', '0'], '--per-hour takes a whole number from 1 to 10000 (got "0")'],
      [['--per-email', 'many'], '--per-email takes a whole number from 1 to 1000 (got "many")'],
    ] as const) {
      const refused = await cli(db, 'booking-page', 'enable', ...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`planner: ${message}\n`);
      expect(snapshot(db)).toEqual(portalOn);
    }
    await cliOk(
      db,
      'booking-page',
      'enable',
      '--privacy-url',
      'https://www.praxis.example/privacy',
      '--per-hour',
      '10',
    );
    const status = await cliJson(db, 'booking-page', 'status', '--json');
    expect(status).toMatchObject({
      enabled: true,
      url: 'https://booking.praxis.example/book/',
      schedules: 'all',
      perHour: 10,
      perEmail: 3,
      privacyUrl: 'https://www.praxis.example/privacy',
      embedFrom: [],
    });
    // Options not given keep their values.
    await cliOk(db, 'booking-page', 'enable', '--per-email', '2');
    expect(await cliJson(db, 'booking-page', 'status', '--json')).toMatchObject({
      perHour: 10,
      perEmail: 2,
      privacyUrl: 'https://www.praxis.example/privacy',
    });
    expect(await cliOk(db, 'booking-page', 'status')).toContain(
      'Abuse limits: 10 booking(s) an hour per address, 2 future booking(s) per e-mail address',
    );
    await cliOk(db, 'booking-page', 'disable');
    expect(await cliJson(db, 'booking-page', 'status', '--json')).toEqual({ enabled: false });
  });
});
