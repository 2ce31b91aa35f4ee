/**
 * The self-service page on a real `planner serve` process, with a real SMTP server and a real webhook receiver: the
 * link from the confirmation mail, a move and a cancel through the page's forms, and every refusal and security
 * rule of issue 15. (test/browser/ drives the same page in Chromium.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookableDb, cli, cliJson, cliOk, serve, snapshot, tempDb } from '../helpers.ts';
import { expectThrottled } from '../http/throttled.ts';
import {
  book,
  bookingState,
  bookWithLink,
  confirmUrl,
  formFields,
  icsOf,
  linkIn,
  moveForm,
  offeredSlots,
  page,
  postForm,
  type Setup,
  setup,
  slotsOf,
  textOf,
} from './page.ts';

describe('the self-service page, as a customer uses it (real server, SMTP and webhook receiver)', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });

  it('the confirmation links to the page; a move and a cancel there work like the CLI’s, with actor customer', async () => {
    const first = (await slotsOf(s, s.days[1]!))[0]!;
    const { booked, link, confirmation } = await bookWithLink(s, first);
    expect(link.startsWith(`${s.server.url}/manage/`)).toBe(true);
    expect(confirmation.html).toContain(`<a href="${link}" `); // the button (issue 24, item 8)

    // The page: practice, schedule, reason, local time with the zone, the reference; the customer's name escaped.
    const overview = await page(link);
    expect(overview.status).toBe(200);
    expect(overview.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = textOf(overview.html);
    for (const shown of [
      'Test Practice',
      'Dr. Weber',
      'Check-up',
      booked.booking_details_id,
      '<script>alert(1)</script> Lovelace "Ada"',
    ]) {
      expect(text).toContain(shown);
    }
    expect(overview.html).not.toContain('<script');
    expect(overview.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');

    // Move: a day, then a time on it (from the same engine as GET /slots: the booking itself not counted), then
    // the confirmation step, whose form makes the move.
    const days = await page(`${link}/reschedule`);
    expect(days.status).toBe(200);
    const target = s.days[2]!;
    expect(days.html).toContain(`/reschedule?day=${target}`);
    const times = await page(`${link}/reschedule?day=${target}`);
    const offered = offeredSlots(times.html);
    expect(offered).toEqual(await slotsOf(s, target));
    expect(formFields(times.html, '/reschedule')).toBeUndefined(); // picking a time changes nothing yet
    const form = await moveForm(link, offered[2]!);
    const webhooksBefore = s.receiver.received.length;
    const moved = await postForm(`${link}/reschedule`, { ...form, slot: offered[2]! });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`${new URL(link).pathname}?done=moved`);
    const after = textOf((await page(`${link}?done=moved`)).html);
    expect(after).toContain('Your appointment has been moved');
    expect(after).toContain(offered[2]!.slice(11, 16));
    // GET /slots: the old time is free again, the new one taken.
    expect(await slotsOf(s, s.days[1]!)).toContain(first);
    expect(await slotsOf(s, target)).not.toContain(offered[2]);
    // The webhook and the update mail, SEQUENCE 1, with a link of its own that opens the same booking.
    const [changed] = (await s.receiver.next(webhooksBefore + 1)).slice(webhooksBefore);
    expect(changed!.json).toMatchObject({
      type: 'booking.changed',
      data: { booking_id: booked.booking_id, previous_slot: booked.slot, actor: 'customer' },
    });
    const update = (await s.smtp.received(3))[2]!;
    expect(update.subject).toMatch(/^Changed: your appointment/);
    expect(icsOf(update).event.getFirstPropertyValue('sequence')).toBe(1);
    const updateLink = linkIn(update)!;
    expect(updateLink).not.toBe(link);
    expect(textOf((await page(updateLink)).html)).toContain(booked.booking_details_id);
    const shown = await cliJson(s.db, 'bookings', 'show', booked.booking_details_id);
    expect(shown).toMatchObject({ status: 'booked', sequence: 1 });
    expect(shown.localStart).toBe(offered[2]!.slice(0, 16));

    // The same form again (back button, second tab): refused, nothing changed.
    const before = bookingState(s.db);
    const replay = await postForm(`${link}/reschedule`, { ...form, slot: offered[3]! });
    expect(replay.status).toBe(409);
    expect(textOf(replay.html)).toContain('was changed in the meantime');
    expect(bookingState(s.db)).toEqual(before);

    // Cancel: a confirmation step with an optional reason.
    const confirm = await page(`${link}/cancel`);
    expect(textOf(confirm.html)).toContain('Cancel this appointment?');
    const cancelForm = formFields(confirm.html, '/cancel')!;
    const cancelled = await postForm(`${link}/cancel`, { ...cancelForm, reason: 'Ill\r\n<b>today</b>' }); // a text box's line break becomes a space
    expect(cancelled.status).toBe(303);
    const gone = await page(`${link}?done=cancelled`);
    expect(textOf(gone.html)).toContain('Your appointment is cancelled');
    expect(gone.html).toContain('Ill &#60;b&#62;today&#60;/b&#62;');
    expect(gone.html).not.toContain('<form');
    const [cancelEvent] = (await s.receiver.next(webhooksBefore + 2)).slice(webhooksBefore + 1);
    expect(cancelEvent!.json).toMatchObject({
      type: 'booking.cancelled',
      data: { booking_id: booked.booking_id, status: 'cancelled', actor: 'customer' },
    });
    const cancellation = (await s.smtp.received(5))[4]!; // after the update and the practice's notice of the move (issue 24, item 4)
    expect(icsOf(cancellation).method).toBe('CANCEL');
    expect(icsOf(cancellation).event.getFirstPropertyValue('sequence')).toBe(2);
    expect(linkIn(cancellation)).toBeUndefined();
    expect(await slotsOf(s, target)).toContain(offered[2]);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      status: 'cancelled',
      sequence: 2,
    });

    // After the cancellation: the page says so, and a replayed cancel changes nothing.
    const again = bookingState(s.db);
    const replayed = await postForm(`${link}/cancel`, cancelForm);
    expect(replayed.status).toBe(409);
    expect(textOf(replayed.html)).toContain('is already cancelled');
    expect(bookingState(s.db)).toEqual(again);

    // The access log shows /manage/…, never a token.
    const log = s.server.output();
    expect(log).not.toContain('self-service page on'); // it was enabled after the start
    const restarted = await serve(s.db);
    const line = (await restarted.waitFor(/planner: self-service page on at .*\n/))[0];
    expect(line).toBe(
      `planner: self-service page on at ${restarted.url}/manage/… (links in the mails: ${s.server.url}/manage/…)\n`,
    );
    await restarted.stop();
    expect(log).toContain('/manage/…');
    expect(log).not.toContain(new URL(link).pathname.slice(8));
    expect(log).not.toContain(new URL(updateLink).pathname.slice(8));
  });

  it('a time taken meanwhile: a clear message and nothing changed', async () => {
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[3]!))[0]!);
    const day = s.days[4]!;
    const times = await page(`${link}/reschedule?day=${day}`);
    const wanted = offeredSlots(times.html)[0]!;
    const form = await moveForm(link, wanted); // the customer is on the confirmation step
    await book(s, wanted, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }); // someone else wins it
    const before = bookingState(s.db).bookings;
    const answer = await postForm(`${link}/reschedule`, form);
    expect(answer.status).toBe(409);
    expect(textOf(answer.html)).toContain('that time was taken a moment ago');
    expect(offeredSlots(answer.html)).not.toContain(wanted);
    expect(offeredSlots(answer.html).length).toBeGreaterThan(0); // the day's other times, to choose again
    // The confirmation step of the taken time, opened now (an old tab of the times page): the same answer.
    const late = await page(confirmUrl(link, wanted));
    expect(late.status).toBe(409);
    expect(textOf(late.html)).toContain('that time was taken a moment ago');
    expect(formFields(late.html, '/reschedule')).toBeUndefined();
    expect(bookingState(s.db).bookings).toEqual(before);
  });

  it('a double submit at the same moment (two tabs): one change, the other refused', async () => {
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[8]!))[0]!);
    const day = s.days[9]!;
    const times = await page(`${link}/reschedule?day=${day}`);
    const [one, two] = offeredSlots(times.html);
    const form = await moveForm(link, one!);
    const answers = await Promise.all([
      postForm(`${link}/reschedule`, { ...form, slot: one! }),
      postForm(`${link}/reschedule`, { ...form, slot: two! }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const shown = await cliJson(s.db, 'bookings', 'show', booked.booking_details_id);
    expect(shown.sequence).toBe(1);
    const won = answers[0]!.status === 303 ? one! : two!;
    expect(shown.localStart).toBe(won.slice(0, 16));
    const free = await slotsOf(s, day);
    expect(free).not.toContain(won);
    expect(free).toContain(won === one ? two : one);
  });

  it('the security headers on every answer, no CORS, and the same 404 for a tampered, unknown or missing link', async () => {
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[5]!))[0]!);
    const tampered = link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A');
    const answers = await Promise.all([
      page(link, { headers: { origin: 'https://evil.example' } }),
      page(tampered),
      page(`${s.server.url}/manage/`),
      page(`${s.server.url}/manage/not-a-token`),
      page(`${link}/unknown`),
      page(link, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      const csp = answer.headers.get('content-security-policy')!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src/);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(answer.html).not.toMatch(/<script|\son\w+=/i);
    }
    const [ok, ...missing] = answers;
    expect(ok!.status).toBe(200);
    for (const answer of missing) {
      expect(answer.status).toBe(404);
      expect(answer.html).toBe(missing[0]!.html);
    }
    // The style sheet is the one the policy names by its hash.
    const style = /<style>(.*?)<\/style>/s.exec(ok!.html)![1]!;
    const { createHash } = await import('node:crypto');
    expect(ok!.headers.get('content-security-policy')).toContain(
      `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
  });

  it('forms: refused without the CSRF token, from another origin or site, or with a token for another link; nothing changed', async () => {
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[6]!))[0]!);
    const other = await bookWithLink(s, (await slotsOf(s, s.days[6]!))[1]!);
    const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
    const before = bookingState(s.db);
    const refusals = await Promise.all([
      postForm(`${link}/cancel`, { sequence: form.sequence! }),
      postForm(`${link}/cancel`, { ...form, csrf: form.csrf!.slice(0, -2) + 'AA' }),
      postForm(`${link}/cancel`, form, { origin: 'https://evil.example' }),
      postForm(`${link}/cancel`, form, { 'sec-fetch-site': 'cross-site' }),
      postForm(`${other.link}/cancel`, form), // a form of one link, sent to another
      page(`${link}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(form),
      }),
    ]);
    expect(refusals.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 400]);
    expect(textOf(refusals[0]!.html)).toContain('This form could not be accepted');
    expect(bookingState(s.db)).toEqual(before);
    // The right form still works once.
    expect((await postForm(`${link}/cancel`, form)).status).toBe(303);
  });
});

describe('the page’s rules on a server of its own', () => {
  it('unknown links are throttled per address (429); a real link from there always opens, also while someone guesses (issue 23, finding 5)', async () => {
    const s = await setup(); // a server of its own: no failures of other tests counted for this address
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const unknown = (n: number) => `${s.server.url}/manage/${String(n).padStart(43, 'x')}`;
    const statuses: number[] = [];
    for (let n = 0; n < 20; n++) statuses.push((await page(unknown(n))).status);
    expect(statuses).toEqual(Array(20).fill(404));
    // Throttled now: unknown links get 429 (the page's own, with Retry-After and the rate-limit fields every 429 has) …
    const throttled = await page(unknown(20));
    expect(throttled.status).toBe(429);
    expectThrottled(throttled.headers, 'unknown-link', 20);
    expect(throttled.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(textOf(throttled.html)).toContain('Too many invalid links');
    // … while a guesser goes on from the same address, one after the other and all at once, the real link opens
    // every time (the probe: 15 of 15 tries got 429 while 40 guesses a second came from the same address).
    const interleaved: number[] = [];
    for (let n = 0; n < 60; n++) interleaved.push((await page(n % 4 === 3 ? link : unknown(100 + n))).status);
    expect(interleaved).toEqual(Array.from({ length: 60 }, (_, n) => (n % 4 === 3 ? 200 : 429)));
    const together = await Promise.all(
      Array.from({ length: 45 }, (_, n) => page(n % 9 === 0 ? link : unknown(200 + n))),
    );
    expect(together.map((one) => one.status)).toEqual(Array.from({ length: 45 }, (_, n) => (n % 9 === 0 ? 200 : 429)));
  });

  it('X-Forwarded-For counts only from a proxy the admin trusts; from a trusted one, each customer is counted apart (issue 23, finding 6)', async () => {
    const s = await setup();
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const unknown = (n: number) => `${s.server.url}/manage/${String(n).padStart(43, 'x')}`;
    const via = (forwarded: string, n: number) => page(unknown(n), { headers: { 'x-forwarded-for': forwarded } });
    // No proxy trusted (the default): a client on this host cannot pick its address with the header. The probe sent
    // 100 guesses, each naming another address: all 100 got 404, never 429.
    expect(await cliOk(s.db, 'proxy', 'show')).toMatch(/^Trusted proxies: none\./);
    const untrusted: number[] = [];
    for (let n = 0; n < 100; n++) untrusted.push((await via(`198.51.100.${n + 1}`, n)).status);
    expect(untrusted.filter((status) => status === 404)).toHaveLength(20);
    expect(untrusted.slice(20)).toEqual(Array(80).fill(429));

    // A proxy on this machine, trusted: the address that counts is the last X-Forwarded-For entry the proxy added;
    // earlier entries are the client's own and do not count.
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--trust-proxy', '127.0.0.1');
    expect(await cliJson(s.db, 'proxy', 'show', '--json')).toEqual({ trustedProxies: ['127.0.0.1'] });
    expect((await via('198.51.100.1', 1000)).status).toBe(404);
    for (let n = 1; n < 20; n++) expect((await via('203.0.113.50, 198.51.100.1', 1000 + n)).status).toBe(404);
    expect((await via('198.51.100.1', 1020)).status).toBe(429);
    expect((await via('198.51.100.1, 198.51.100.2', 1021)).status).toBe(404); // another customer, though the first entry names the throttled one
    expect((await page(link, { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(200);
    // A chain of two trusted proxies: the client is the first address from the right that is not one of them.
    await cliOk(s.db, 'proxy', 'set', '127.0.0.1,10.0.0.0/8');
    expect((await via('198.51.100.1, 10.1.2.3', 1022)).status).toBe(429);
    expect((await via('198.51.100.3, 10.1.2.3', 1023)).status).toBe(404);

    // Bad lists: one line, exit 1, nothing changed.
    const before = snapshot(s.db);
    for (const bad of [
      ['proxy', 'set', '127.0.0.300'],
      ['proxy', 'set', '10.0.0.0/33'],
      ['portal', 'enable', '--url', s.server.url, '--trust-proxy', 'proxy.example'],
    ]) {
      const refused = await cli(s.db, ...bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /is not an IP address or CIDR range \(examples: 127\.0\.0\.1, ::1, 10\.0\.0\.0\/8; none to trust no proxy\)\n$/,
      );
      expect(refused.stderr.split('\n')).toHaveLength(2);
    }
    expect(snapshot(s.db)).toEqual(before);
    await cliOk(s.db, 'proxy', 'set', 'none');
    expect((await via('198.51.100.77', 1024)).status).toBe(429); // 127.0.0.1 again, throttled since the first part
  });

  it('after the --cancel-until deadline: no forms, a clear text, and a POST is refused with nothing changed', async () => {
    const s = await setup();
    // The first time tomorrow is less than 48 h ahead.
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '48');
    const overview = await page(link);
    expect(textOf(overview.html)).toContain('Changes here were possible until');
    expect(overview.html).not.toContain('/cancel"');
    const before = bookingState(s.db);
    const refused = await postForm(`${link}/cancel`, form);
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain('It is too late to change this appointment here');
    expect(bookingState(s.db)).toEqual(before);

    // --reschedule off: cancelling only.
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '0', '--reschedule', 'off');
    const cancelOnly = await page(link);
    expect(cancelOnly.html).not.toContain('/reschedule"');
    expect(cancelOnly.html).toContain('/cancel"');
    expect(textOf((await page(`${link}/reschedule`)).html)).toContain('does not offer changing the time here');

    // Disabled: the same page as an unknown link.
    const unknown = await page(`${s.server.url}/manage/${'x'.repeat(43)}`);
    await cliOk(s.db, 'portal', 'disable');
    const off = await page(link);
    expect(off.status).toBe(404);
    expect(off.html).toBe(unknown.html);
    expect(await cliJson(s.db, 'portal', 'status', '--json')).toEqual({
      enabled: false,
      url: null,
      cancelUntilHours: null,
      reschedule: null,
    });
  });

  it('portal enable refuses plain http but for loopback, and bad options, in one line with nothing written', async () => {
    const db = tempDb();
    await bookableDb(db);
    const before = snapshot(db);
    for (const [args, message] of [
      [['--url', 'http://booking.example'], /--url must start with https:\/\//],
      [['--url', 'https://booking.example/book'], /without a path/],
      [['--url', 'not a url'], /is not a URL/],
      [['--url', 'https://booking.example', '--cancel-until', '-1'], /--cancel-until: "-1" is not a duration/],
      [['--url', 'https://booking.example', '--reschedule', 'maybe'], /--reschedule must be on or off/],
    ] as const) {
      const result = await cli(db, 'portal', 'enable', ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(snapshot(db)).toEqual(before);
    await cliOk(db, 'portal', 'enable', '--url', 'http://[::1]:8080/');
    expect(await cliJson(db, 'portal', 'status', '--json')).toEqual({
      enabled: true,
      url: 'http://[::1]:8080',
      cancelUntilHours: 24,
      reschedule: true,
    });
    // A second enable changes only what it names.
    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.example', '--reschedule', 'off');
    expect(await cliJson(db, 'portal', 'status', '--json')).toEqual({
      enabled: true,
      url: 'https://booking.example',
      cancelUntilHours: 24,
      reschedule: false,
    });
    const status = await cliOk(db, 'status');
    expect(status).toMatch(/^page +on at https:\/\/booking\.example\/manage\/… · cancel until 24 h before$/m);
    expect(status).toMatch(/^reminders +2d before each appointment$/m); // the default: a day before the page's deadline (issue 24, item 3)
    expect(await cliJson(db, 'status')).toMatchObject({
      portal: { url: 'https://booking.example', cancelUntilHours: 24, reschedule: false },
      reminderOffsets: [2880],
    });
  });
});
