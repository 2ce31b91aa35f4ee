/**
 * Series (issue 40) on the customer's pages, in a real Chromium (Debian's, JavaScript off, a 320 px phone). The
 * booking page: a reason offered as a series (`reason set --series`), the choice of once or every week, each date
 * and whether it is free before the details, the review and the booking of every date, a date not free, and a date
 * taken between the review and the booking (nothing booked, the way back). The self-service page: the series' dates,
 * one date moved alone, and (with the keyboard alone) a date cancelled with the later ones, one mail. Every page and
 * state is checked at 320 and 360 px (16 px text, no sideways scroll, WCAG AA contrast) and by axe-core. With
 * PLANNER_SCREENSHOTS=1 it writes docs/series/ (360 px wide).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageSetup, written } from '../booking-page/flow.ts';
import { cli, cliJson, cliOk, ROOT, snapshot } from '../helpers.ts';
import { bookingState, linkIn, setup, slotsOf } from '../portal/page.ts';
import { expectReadable, launchChromium, phonePage, tabTo } from './chromium.ts';

declare const document: any;

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/series') : undefined;

/** Checks the page as it is now (one h1, no script, readable at 320 and 360 px, axe-core); its screenshot when asked. */
async function look(page: Page, name: string): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name, async () => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  });
}

/** Runs `action` (a click that loads a new page) and resolves once that page has loaded. */
async function loads(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('framenavigated'), action()]);
  await page.waitForLoadState('load');
}

/** `YYYY-MM-DD` `weeks` weeks after `day`. */
function weeksAfter(day: string, weeks: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + weeks * 7 * 86_400_000).toISOString().slice(0, 10);
}

/** The bookings of the file: reference, local day and time as stored (start_at), status and series. */
function bookingRows(db: string) {
  return (snapshot(db).bookings as Record<string, any>[]).map((row) => ({
    reference: row.reference as string,
    startAt: row.start_at as number,
    status: row.status as string,
    seriesId: row.series_id as number | null,
  }));
}

/** Whether a mail was sent to `address`. */
function sentTo(mail: ParsedMail, address: string): boolean {
  return [mail.to ?? []].flat().some((to) => to.text.includes(address));
}

/** The status of a date in the series' list: the word its second line begins with (`Booked`, `Cancelled`, `Past`). */
function statusOf(item: string): string {
  return item.split('\n')[1]!.split('.')[0]!;
}

const CUSTOMER = ['--field', 'first_name=Grace', '--field', 'last_name=Hopper', '--field', 'email=grace@example.com'];

describe('series on the customer pages in Chromium (JavaScript off, a 320 px phone)', { timeout: 240_000 }, () => {
  it('the booking page: once or every week, each date and whether it is free, the booking of all; a date taken meanwhile books nothing', async () => {
    const s = await pageSetup({ more: (db) => cliOk(db, 'reason', 'set', '1', '--series', '6').then(() => {}) });
    const browser = await launchChromium();
    const page = await phonePage(browser);

    // One thing to book: the days at once; a whole day (the second with free times), its first time.
    await page.goto(`${s.base}/book/`);
    await loads(page, () => page.locator('table.weeks a').nth(1).click());
    const day = new URL(page.url()).searchParams.get('day')!;
    const time = (await page.locator('button[name="time"]').first().getAttribute('value'))!;
    await loads(page, () => page.locator('button[name="time"]').first().click());
    expect(new URL(page.url()).pathname).toBe('/book/weeks');
    expect(await page.locator('h1').innerText()).toBe('Once or every week?');
    expect(await page.locator('main').innerText()).toContain('the same time every week, up to 6 times');
    expect(await page.locator('#weeks option').evaluateAll((options) => options.map((o: any) => o.value))).toEqual([
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(await page.getByRole('link', { name: 'Book this date only' }).getAttribute('href')).toBe(
      `/book/details?schedule=1&reason=1&day=${day}&time=${encodeURIComponent(time)}`,
    );
    await look(page, 'en-book-weeks');

    // Four weeks: each date, all free; nothing is booked yet.
    await page.getByLabel('How many weeks?').selectOption('4');
    await loads(page, () => page.getByRole('button', { name: 'Show the dates' }).click());
    const dates = await page.locator('ol li').allInnerTexts();
    expect(dates).toHaveLength(4);
    expect(dates.every((date) => date.endsWith(`${time}: free`))).toBe(true);
    expect(await page.locator('main').innerText()).toContain('All these dates are free.');
    expect(written(s.db).bookings).toBe(0);
    await look(page, 'en-book-dates');

    // The details, carrying the four dates; the review lists them; one button books them all.
    await loads(page, () => page.getByRole('link', { name: 'Continue with these 4 dates' }).click());
    expect(await page.locator('h1').innerText()).toBe('Your details');
    expect(await page.locator('main').innerText()).toContain('Every week, 4 dates');
    await page.getByLabel('First name').fill('Maria');
    await page.getByLabel('Last name').fill('Schmidt');
    await page.getByLabel('E-mail').fill('maria@example.com');
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    expect(await page.locator('h1').innerText()).toBe('Check and book');
    expect(await page.locator('ol li').allInnerTexts()).toEqual(dates);
    await look(page, 'en-book-series-review');
    expect(written(s.db).bookings).toBe(0);
    await loads(page, () => page.getByRole('button', { name: 'Book the 4 appointments' }).click());
    expect(await page.locator('h1').innerText()).toBe('Your appointments are booked');
    expect(await page.locator('ol li').count()).toBe(4);
    expect(await page.locator('main').innerText()).toContain('A confirmation is on its way to maria@example.com.');
    // A calendar file per date, each named by its date.
    expect(await page.getByRole('link', { name: /^Calendar file for .+, \d\d:\d\d \(\.ics\)$/ }).count()).toBe(4);
    await look(page, 'en-book-series-done');
    const rows = bookingRows(s.db);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((row) => row.seriesId)).size).toBe(1);
    expect(rows[0]!.seriesId).not.toBeNull();
    expect(rows.map((row) => row.startAt - rows[0]!.startAt)).toEqual([0, 1, 2, 3].map((n) => n * 7 * 86_400));
    const shown = await cliJson(s.db, 'bookings', 'show', rows[0]!.reference);
    expect(shown.source).toBe('page');
    expect(shown.series.dates.map((date: any) => date.localStart)).toEqual(
      [0, 1, 2, 3].map((n) => `${weeksAfter(day, n)} ${time}`),
    );
    // One confirmation with every date (and the practice's one notice).
    const mails = await s.smtp.received(2);
    const confirmation = mails.find((mail) => sentTo(mail, 'maria@example.com'))!;
    expect(confirmation.subject).toMatch(/^Your 4 appointments at /);
    // Each date's file is its own booking's invitation: one event, METHOD:REQUEST.
    for (const link of await page.locator('a[download]').all()) {
      const ics = await (await fetch(new URL((await link.getAttribute('href'))!, s.base))).text();
      expect([ics.match(/BEGIN:VEVENT/g)?.length, /^METHOD:(\w+)/m.exec(ics)?.[1]]).toEqual([1, 'REQUEST']);
    }

    // A date of a later week taken: the preview says which, and offers no way on with it.
    const other = `${weeksAfter(day, 2)} 11:00`;
    await cliOk(s.db, 'bookings', 'add', '1', '1', other, ...CUSTOMER);
    await page.goto(`${s.base}/book/weeks?schedule=1&reason=1&day=${day}&time=11:00&weeks=4`);
    const withTaken = await page.locator('ol li').allInnerTexts();
    expect(withTaken.map((date) => date.endsWith('not free'))).toEqual([false, false, true, false]);
    expect(await page.locator('.note.error').innerText()).toBe(
      '1 of the 4 dates is not free. Please choose fewer weeks or another time.',
    );
    expect(await page.getByRole('link', { name: /^Continue with/ }).count()).toBe(0);
    await look(page, 'en-book-dates-not-free');

    // Taken between the review and the booking: nothing booked, each date said, and the way to another time.
    await page.goto(`${s.base}/book/weeks?schedule=1&reason=1&day=${day}&time=14:00&weeks=3`);
    await loads(page, () => page.getByRole('link', { name: 'Continue with these 3 dates' }).click());
    await page.getByLabel('First name').fill('Maria');
    await page.getByLabel('Last name').fill('Schmidt');
    await page.getByLabel('E-mail').fill('maria.s@example.com');
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    await cliOk(s.db, 'bookings', 'add', '1', '1', `${weeksAfter(day, 1)} 14:00`, ...CUSTOMER);
    const before = written(s.db);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Book the 3 appointments' }).click(),
    ]);
    await page.waitForLoadState('load');
    expect(answer.status()).toBe(409);
    expect(await page.locator('.note.error').innerText()).toMatch(/^Sorry, not every date is free any more/);
    expect((await page.locator('ol li').allInnerTexts()).map((date) => date.endsWith('not free'))).toEqual([
      false,
      true,
      false,
    ]);
    expect(await page.getByRole('button', { name: /^Book the/ }).count()).toBe(0);
    // Nothing written by the refused form (the mail of the booking just made may be sent meanwhile: its link then).
    const { bookings, customers, keys, deliveries } = written(s.db);
    expect({ bookings, customers, keys, deliveries }).toEqual({
      bookings: before.bookings,
      customers: before.customers,
      keys: before.keys,
      deliveries: before.deliveries,
    });
    await look(page, 'en-book-series-taken');
    await loads(page, () => page.getByRole('button', { name: 'Choose another time' }).click());
    expect(await page.locator('h1').innerText()).toBe('Choose a time');
    // What was typed travels on (a POST form), with the weeks.
    expect(await page.locator('form input[name="weeks"]').first().getAttribute('value')).toBe('3');
    expect(await page.locator('form input[name="f.email"]').first().getAttribute('value')).toBe('maria.s@example.com');

    // Off again: the times lead to the details as before, and the weeks step is gone.
    await cliOk(s.db, 'reason', 'set', '1', '--series', 'off');
    const weeksGone = await page.goto(`${s.base}/book/weeks?schedule=1&reason=1&day=${day}&time=15:00`);
    expect(weeksGone!.status()).toBe(404);
    await page.goto(`${s.base}/book/times?schedule=1&reason=1&day=${day}`);
    expect(await page.locator('form').first().getAttribute('action')).toBe('/book/details');
  });

  it('the self-service page: the dates of the series, one date moved alone, then (keyboard only) a date cancelled with the later ones', async () => {
    const s = await setup();
    await cliOk(s.db, 'practice', 'set', '--phone', '+49 30 1234567');
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const first = (await slotsOf(s, s.days[1]!))[2]!;
    const made = await cliJson(
      s.db,
      'bookings',
      'add',
      '1',
      '1',
      first,
      '--repeat',
      '1w',
      '--count',
      '4',
      '--json',
      '--field',
      'first_name=Maria',
      '--field',
      'last_name=Schmidt',
      '--field',
      'email=maria@example.com',
    );
    const references = made.bookings.map((booking: any) => booking.reference) as string[];
    expect(references).toHaveLength(4);
    const confirmation = (await s.smtp.received(1))[0]!;
    expect(confirmation.subject).toMatch(/^Your 4 appointments/);
    const link = linkIn(confirmation)!;
    expect(link).toBeDefined();

    // The first date's page: the booking, then the four dates, this one marked; cancel it alone or with the others.
    await page.goto(link);
    expect(await page.locator('h1').innerText()).toBe('Your appointment');
    expect(await page.locator('#series-dates').innerText()).toBe('Your series: 4 dates');
    const listed = await page.locator('section ol li').allInnerTexts();
    expect(listed).toHaveLength(4);
    expect(listed.every((date) => date.includes(`${first.slice(11, 16)}`) && statusOf(date) === 'Booked')).toBe(true);
    expect(await page.locator('li[aria-current="true"]').innerText()).toMatch(/\(this appointment\)\nBooked/);
    expect(await page.getByRole('link', { name: 'Cancel this date only' }).getAttribute('href')).toMatch(/\/cancel$/);
    expect(
      await page.getByRole('link', { name: 'Cancel this date and the 3 later ones' }).getAttribute('href'),
    ).toMatch(/\/cancel\?scope=later$/);
    await look(page, 'en-manage-series');

    // Move this one date to another time of the same day: the others keep theirs.
    await loads(page, () => page.getByRole('link', { name: 'Change the time' }).click());
    await loads(page, () => page.locator(`a[href$="/reschedule?day=${s.days[1]}"]`).click());
    const to = (await slotsOf(s, s.days[1]!)).find((slot) => slot > first)!;
    await loads(page, () => page.getByRole('link', { name: to.slice(11, 16), exact: true }).click());
    expect(await page.locator('main').innerText()).toContain(
      'Only this date moves; the other dates of your series stay as they are.',
    );
    await look(page, 'en-manage-series-move');
    await loads(page, () => page.getByRole('button', { name: 'Yes, move the appointment' }).click());
    expect(await page.locator('.note').innerText()).toMatch(/Your appointment has been moved/);
    const afterMove = await page.locator('section ol li').allInnerTexts();
    expect(afterMove[0]).toContain(`${to.slice(11, 16)} (this appointment)\nBooked`);
    expect(afterMove.slice(1).every((date) => date.includes(`${first.slice(11, 16)}\nBooked`))).toBe(true);
    const series = (await cliJson(s.db, 'bookings', 'show', references[0]!)).series;
    expect(series.dates.map((date: any) => [date.reference, date.status, date.localStart])).toEqual([
      [references[0], 'booked', to.slice(0, 16)],
      ...[1, 2, 3].map((n) => [references[n], 'booked', `${weeksAfter(s.days[1]!, n)} ${first.slice(11, 16)}`]),
    ]);

    // The admin moves the second date: its update mail carries that date's own link.
    const second = `${weeksAfter(s.days[1]!, 1)} ${to.slice(11, 16)}`;
    await cliOk(s.db, 'bookings', 'move', references[1]!, second);
    const update = (await s.smtp.received(5)).find(
      (mail) => mail.text?.includes(references[1]!) && /^Changed/.test(mail.subject ?? ''),
    );
    expect(update, 'the update mail of the second date').toBeDefined();
    const secondLink = linkIn(update!)!;

    // With the keyboard alone: cancel the second date and the two after it.
    await page.goto(secondLink);
    expect(await page.locator('li[aria-current="true"]').innerText()).toContain(to.slice(11, 16));
    await tabTo(page, 'Cancel this date and the 2 later ones');
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await page.locator('h1').innerText()).toBe('Cancel this appointment?');
    expect(await page.locator('legend').innerText()).toBe('Which dates do you want to cancel?');
    expect(await page.getByLabel('This date and the 2 later dates').isChecked()).toBe(true);
    expect(await page.getByLabel('Only this date').isChecked()).toBe(false);
    await look(page, 'en-manage-series-cancel');
    const mailsBefore = s.smtp.messages.length;
    await tabTo(page, 'Yes, cancel the appointment');
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await page.locator('.note').innerText()).toMatch(
      /^This date and the later dates of your series are cancelled/,
    );
    expect((await page.locator('section ol li').allInnerTexts()).map(statusOf)).toEqual([
      'Booked',
      'Cancelled',
      'Cancelled',
      'Cancelled',
    ]);
    await look(page, 'en-manage-series-cancelled');
    const after = (await cliJson(s.db, 'bookings', 'show', references[0]!)).series.dates;
    expect(after.map((date: any) => date.status)).toEqual(['booked', 'cancelled', 'cancelled', 'cancelled']);
    // One mail to the customer for the three dates, one notice to the practice; three webhook events by the customer.
    const mails = await s.smtp.received(mailsBefore + 2);
    const cancellation = mails.slice(mailsBefore).find((mail) => sentTo(mail, 'maria@example.com'));
    expect(cancellation?.subject).toMatch(/^Cancelled: 3 appointments/);
    const events = await s.receiver.until(
      () => s.receiver.received.filter((r) => r.json.type === 'booking.cancelled').length >= 3,
    );
    expect(
      events
        .filter((r) => r.json.type === 'booking.cancelled')
        .map((r) => [r.json.data.booking_details_id, r.json.data.actor])
        .sort(),
    ).toEqual(
      references
        .slice(1)
        .map((reference) => [reference, 'customer'])
        .sort(),
    );

    // The first date past the page's deadline: no cancel offered, and a form from before changes nothing.
    await page.goto(`${link}/cancel?scope=later`);
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '8760');
    const state = bookingState(s.db);
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await page.locator('.note').innerText()).toContain('It is too late to change this appointment here.');
    expect(bookingState(s.db)).toEqual(state);
    expect(await page.getByRole('link', { name: /^Cancel/ }).count()).toBe(0);
    expect((await cli(s.db, 'bookings', 'show', references[0]!)).stdout).toMatch(/booked/);
  });
});
