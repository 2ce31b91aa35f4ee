/**
 * The self-service page in a real Chromium (Debian's, JavaScript off, 320 px wide), as a customer uses it: the link
 * from the confirmation mail of a real SMTP server, a move by day, time and confirmation, then a cancel. After each
 * step: GET /slots, the webhook receiver, the mails and their .ics SEQUENCE, and `planner bookings show`. Every page
 * is checked at 320 and 360 px for 16 px text, no sideways scroll and WCAG AA contrast, and by axe-core (no
 * violation); one move is made with the keyboard alone. With PLANNER_SCREENSHOTS=1 it writes the screenshots of
 * docs/portal/ (en and de, 360 px wide).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliJson, cliOk, ROOT } from '../helpers.ts';
import { book, bookingState, bookWithLink, confirmUrl, icsOf, setup, slotsOf } from '../portal/page.ts';
import {
  axeViolations,
  checkPage,
  expectReadable,
  launchChromium,
  type PageReport,
  phonePage,
  tabTo,
} from './chromium.ts';

// The page's globals, as the checks below use them inside the browser (not compiled with the DOM library).
declare const document: any;

/** A customer as the screenshots show one (test/portal/ has the one whose name holds markup). */
const MARIA = { first_name: 'Maria', last_name: 'Schmidt', email: 'maria@example.com' };
/** Where the practice is and how to reach it, as `planner practice set` takes them. */
const CONTACT = [
  '--address',
  'Hauptstraße 1, 10115 Berlin',
  '--phone',
  '+49 30 1234567',
  '--website',
  'https://praxis-sonne.example',
];

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/portal') : undefined;

/**
 * Checks the page as it is now, at 320 px and at 360 px (the readability checks at both, axe-core once) and, when
 * asked for, saves its screenshot at 360 px as docs/portal/<name>.png.
 */
async function look(page: Page, name: string, reports: Record<string, PageReport>): Promise<void> {
  reports[name] = await expectReadable(page, name, async () => {
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

/** The visible text of the first element matching `selector`. */
function textOf(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().innerText();
}

/**
 * The bottom edge (CSS px from the top of the page, not scrolled) of the `count`-th choice of the page: the choices
 * up to it show on the first screen when it is at most the screen's height.
 */
function bottomOfChoice(page: Page, count: number): Promise<number> {
  return page
    .locator('ul.choices li')
    .nth(count - 1)
    .evaluate((element: any) => element.getBoundingClientRect().bottom);
}

/**
 * The first screen of a 320 × 640 phone shows at least three rows of choices (six), below the booking, which is one
 * line (closed) there.
 */
async function choicesOnFirstScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.scrollingElement.scrollTop)).toBe(0);
  expect(await page.locator('details.card').count()).toBe(1);
  expect(await page.locator('details.card').getAttribute('open')).toBeNull();
  const [height, line] = await page
    .locator('summary')
    .evaluate((summary: any) => [
      summary.getBoundingClientRect().height,
      parseFloat((globalThis as any).getComputedStyle(summary).lineHeight),
    ]);
  expect(height).toBeLessThan(line! * 1.5);
  expect(await bottomOfChoice(page, 6)).toBeLessThanOrEqual(640);
}

/** The day `YYYY-MM-DD` as the confirmation step's title writes it (`Wednesday 3 June`, `Mittwoch, 3. Juni`). */
function mediumDay(day: string, dateLocale: string): string {
  return new Intl.DateTimeFormat(dateLocale, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(new Date(`${day}T12:00:00Z`));
}

// Each test walks a customer through a dozen pages, each checked twice and by axe-core: more than the default 30 s
// on a busy machine.
describe('the self-service page in Chromium (JavaScript off, a 320 px phone)', { timeout: 180_000 }, () => {
  it('a customer moves, then cancels, from the link in the confirmation; each step is seen everywhere', async () => {
    const s = await setup();
    await cliOk(s.db, 'practice', 'set', ...CONTACT);
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const reports: Record<string, PageReport> = {};
    const first = (await slotsOf(s, s.days[1]!))[0]!;
    const { booked, link } = await bookWithLink(s, first, MARIA);

    // The link from the mail: the booking, where it is, and whom to call.
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Your appointment');
    expect(await page.locator('main').innerText()).toContain(booked.booking_details_id);
    expect(await page.locator('main').innerText()).toContain('Hauptstraße 1, 10115 Berlin');
    expect(await page.locator('footer a').getAttribute('href')).toBe('tel:+49301234567');
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await look(page, 'en-overview', reports);

    // Move: a day (the booking's own marked), …
    await loads(page, () => page.getByRole('link', { name: 'Change the time' }).click());
    const marked = page.locator('a[aria-current="date"]');
    expect(await marked.getAttribute('href')).toMatch(new RegExp(`/reschedule\\?day=${s.days[1]}$`));
    expect(await marked.innerText()).toMatch(/your appointment$/);
    expect(await textOf(page, 'summary')).toBe(
      `Booked: ${await page.locator('a[aria-current="date"]').evaluate((a: any) => a.firstChild.textContent)}, ${first.slice(11, 16)}`,
    );
    await choicesOnFirstScreen(page);
    expect(await page.locator('footer').innerText()).toContain('+49 30 1234567');
    await look(page, 'en-days', reports);
    // … a time, grouped by the part of the day …
    const target = s.days[2]!;
    await loads(page, () => page.locator(`a[href$="/reschedule?day=${target}"]`).click());
    expect(await textOf(page, 'h1')).toContain('Free times on');
    expect(await page.locator('h2.group').allInnerTexts()).toEqual(['Morning', 'Afternoon', 'Evening']);
    await choicesOnFirstScreen(page);
    await look(page, 'en-times', reports);
    const offered = await page
      .locator('ul.choices a')
      .evaluateAll((links) => links.map((a: any) => new URL(a.href).searchParams.get('time')));
    const free = await slotsOf(s, target);
    expect(offered).toEqual(free.map((slot) => slot.slice(11, 16)));
    expect(await page.locator('form').count()).toBe(0); // picking a time changes nothing yet
    const chosen = free[1]!;
    // A second tab, on the confirmation step of another time, opened before the move.
    const second = await page.context().newPage();
    await second.goto(confirmUrl(link, free[3]!));
    // … and the confirmation step.
    await loads(page, () => page.getByRole('link', { name: chosen.slice(11, 16), exact: true }).click());
    expect(await textOf(page, 'h1')).toBe(`Move to ${mediumDay(target, 'en-GB')}, ${chosen.slice(11, 16)}?`);
    expect(await page.locator('.card').innerText()).toMatch(
      new RegExp(`From\\n.*${first.slice(11, 16)}.*\\nTo\\n.*${chosen.slice(11, 16)}`),
    );
    expect(await slotsOf(s, target)).toContain(chosen); // nothing moved yet
    await look(page, 'en-confirm-move', reports);
    await loads(page, () => page.getByRole('button', { name: 'Yes, move the appointment' }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment has been moved/);
    expect(await page.locator('main').innerText()).toContain(chosen.slice(11, 16));
    await look(page, 'en-moved', reports);
    expect(await slotsOf(s, s.days[1]!)).toContain(first);
    expect(await slotsOf(s, target)).not.toContain(chosen);
    const changed = (
      await s.receiver.until(() => s.receiver.received.some((r) => r.json.type === 'booking.changed'))
    ).find((r) => r.json.type === 'booking.changed')!;
    expect(changed.json.data).toMatchObject({
      booking_id: booked.booking_id,
      actor: 'customer',
      previous_slot: booked.slot,
    });
    const update = (await s.smtp.received(3))[2]!;
    expect(icsOf(update).event.getFirstPropertyValue('sequence')).toBe(1);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      sequence: 1,
      status: 'booked',
      localStart: chosen.slice(0, 16),
    });

    // The second tab's form was made before the move: confirming another time there changes nothing.
    const before = bookingState(s.db);
    await loads(second, () => second.getByRole('button', { name: 'Yes, move the appointment' }).click());
    expect(await textOf(second, '.note')).toMatch(/was changed in the meantime/);
    expect(await second.locator('main').innerText()).toContain(chosen.slice(11, 16)); // the booking as it stands now
    expect(bookingState(s.db)).toEqual(before);
    // The back button: the confirmation step is fetched again (no-store); its time is now the booking's own, so it
    // shows the day's times with that one marked, and no form.
    await loads(page, () => page.goBack());
    expect(await textOf(page, 'h1')).toContain('Free times on');
    expect(await textOf(page, '[aria-current="time"]')).toMatch(
      new RegExp(`^${chosen.slice(11, 16)}\\s*your appointment$`),
    );
    expect(await page.locator('form').count()).toBe(0);

    // Cancel, with a reason; then the way back to the practice.
    await page.goto(link);
    await loads(page, () => page.getByRole('link', { name: 'Cancel the appointment' }).click());
    expect(await textOf(page, 'h1')).toBe('Cancel this appointment?');
    await look(page, 'en-cancel', reports);
    await page.getByLabel('Reason (optional)').fill('I am ill');
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment is cancelled/);
    expect(await page.getByRole('link', { name: 'Website of Test Practice' }).getAttribute('href')).toBe(
      'https://praxis-sonne.example',
    );
    expect(await page.getByRole('link', { name: 'Call +49 30 1234567' }).getAttribute('href')).toBe('tel:+49301234567');
    await look(page, 'en-cancelled', reports);
    expect(await slotsOf(s, target)).toContain(chosen);
    const cancelled = (
      await s.receiver.until(() => s.receiver.received.some((r) => r.json.type === 'booking.cancelled'))
    ).find((r) => r.json.type === 'booking.cancelled')!;
    expect(cancelled.json.data).toMatchObject({
      booking_id: booked.booking_id,
      actor: 'customer',
      status: 'cancelled',
    });
    const cancellation = (await s.smtp.received(5))[4]!; // after the update and the practice's notice of the move (issue 24, item 4)
    expect(icsOf(cancellation).method).toBe('CANCEL');
    expect(icsOf(cancellation).event.getFirstPropertyValue('sequence')).toBe(2);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      sequence: 2,
      status: 'cancelled',
      cancelReason: 'I am ill',
    });

    // A tampered link: the not-found page, with the practice's phone.
    const response = await page.goto(link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A'));
    expect(response!.status()).toBe(404);
    expect(await textOf(page, 'h1')).toBe('Link not valid');
    expect(await page.locator('footer a').getAttribute('href')).toBe('tel:+49301234567');
    await look(page, 'en-not-found', reports);

    const smallest = Math.min(...Object.values(reports).map((report) => report.smallestFontPx));
    const lowest = Math.min(...Object.values(reports).map((report) => report.lowestContrast));
    expect(smallest).toBeGreaterThanOrEqual(16);
    expect(lowest).toBeGreaterThanOrEqual(4.5);
    process.stderr.write(
      `browser: ${Object.keys(reports).length} pages, smallest text ${smallest}px, lowest contrast ${lowest.toFixed(2)}:1\n`,
    );
  });

  it('with the keyboard alone: Tab to a time, Enter, confirm; earlier and later days; a time taken meanwhile; too late', async () => {
    const s = await setup();
    await cliOk(s.db, 'practice', 'set', ...CONTACT);
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const reports: Record<string, PageReport> = {};
    // An appointment three weeks ahead: the days open on the page that holds its day, with earlier and later days.
    const day = s.days[20]!;
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, day))[0]!, MARIA);
    await page.goto(link);
    await tabTo(page, 'Change the time');
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await page.locator('a[aria-current="date"]').getAttribute('href')).toMatch(new RegExp(`day=${day}$`));
    expect(await page.locator('ul.choices a').first().getAttribute('href')).toMatch(new RegExp(`day=${s.days[14]}$`));
    expect(await page.getByRole('link', { name: 'Earlier days' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Later days' }).count()).toBe(s.days.length > 28 ? 1 : 0);
    await look(page, 'en-days-earlier', reports);
    await loads(page, () => page.getByRole('link', { name: 'Earlier days' }).click());
    expect(await page.locator('ul.choices a').first().getAttribute('href')).toMatch(new RegExp(`day=${s.days[0]}$`));
    expect(await page.getByRole('link', { name: 'Earlier days' }).count()).toBe(0);
    expect(await page.locator('a[aria-current="date"]').count()).toBe(0); // its day is on the later page
    await loads(page, () => page.getByRole('link', { name: 'Later days' }).click());
    expect(await page.locator('a[aria-current="date"]').count()).toBe(1);

    // The keyboard: a day, a time, the confirmation.
    const target = s.days[21]!;
    const [time] = await slotsOf(s, target);
    await tabTo(page, (await page.locator(`a[href$="day=${target}"]`).innerText()).trim());
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page, 'h1')).toContain('Free times on');
    await tabTo(page, time!.slice(11, 16));
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page, 'h1')).toBe(`Move to ${mediumDay(target, 'en-GB')}, ${time!.slice(11, 16)}?`);
    await tabTo(page, 'Yes, move the appointment');
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page, '.note')).toMatch(/Your appointment has been moved/);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      sequence: 1,
      localStart: time!.slice(0, 16),
    });

    // A time someone else takes while the customer looks at its confirmation step: the conflict page (409), with
    // the day's other times to choose from, and nothing changed.
    const wanted = (await slotsOf(s, target)).at(-1)!;
    await page.goto(confirmUrl(link, wanted));
    await book(s, wanted, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    const before = bookingState(s.db).bookings;
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: 'Yes, move the appointment' }).click(),
    ]);
    await page.waitForLoadState('load');
    expect(response.status()).toBe(409);
    expect(await textOf(page, '.note')).toContain('that time was taken a moment ago');
    expect(await page.locator(`a[href$="time=${wanted.slice(11, 16)}"]`).count()).toBe(0);
    expect(bookingState(s.db).bookings).toEqual(before);
    await look(page, 'en-taken', reports);

    // Too late to change here: how to reach the practice, by phone; without a phone, by a reply to the mail.
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '8760');
    await page.goto(link);
    expect(await page.locator('main').innerText()).toContain(
      'To change or cancel the appointment now, please call Test Practice.',
    );
    expect(await page.getByRole('link', { name: 'Call +49 30 1234567' }).getAttribute('href')).toBe('tel:+49301234567');
    await look(page, 'en-too-late', reports);
    await cliOk(s.db, 'practice', 'set', '--phone', '');
    await page.goto(link);
    expect(await page.locator('main').innerText()).toContain(
      'please reply to your confirmation e-mail from Test Practice',
    );
    expect(await page.locator('a[href^="tel:"]').count()).toBe(0);
    await look(page, 'en-too-late-no-phone', reports);
  });

  it('in German: the same pages read in the installation’s language', async () => {
    const s = await setup(['--cancel-until', '0'], 'de');
    await cliOk(s.db, 'practice', 'set', ...CONTACT);
    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'de-DE' });
    const reports: Record<string, PageReport> = {};
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!, MARIA);
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Ihr Termin');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('footer').innerText()).toContain('Telefon: +49 30 1234567');
    await look(page, 'de-overview', reports);
    await loads(page, () => page.getByRole('link', { name: 'Termin verlegen' }).click());
    expect(await page.locator('a[aria-current="date"]').innerText()).toMatch(/Ihr Termin$/);
    expect(await textOf(page, 'summary')).toMatch(/^Gebucht: /);
    await choicesOnFirstScreen(page);
    await look(page, 'de-days', reports);
    const target = s.days[2]!;
    await loads(page, () => page.locator(`a[href$="/reschedule?day=${target}"]`).click());
    expect(await textOf(page, 'h1')).toContain('Freie Zeiten am');
    expect(await page.locator('h2.group').allInnerTexts()).toEqual(['Vormittag', 'Nachmittag', 'Abend']);
    await look(page, 'de-times', reports);
    const time = (await slotsOf(s, target))[0]!.slice(11, 16);
    await loads(page, () => page.getByRole('link', { name: time, exact: true }).click());
    expect(await textOf(page, 'h1')).toBe(`Auf ${mediumDay(target, 'de-DE')}, ${time} verlegen?`);
    await look(page, 'de-confirm-move', reports);
    await loads(page, () => page.getByRole('button', { name: 'Ja, Termin verlegen' }).click());
    expect(await textOf(page, '.note')).toMatch(/Ihr Termin wurde verlegt/);
    await loads(page, () => page.getByRole('link', { name: 'Termin absagen' }).click());
    await look(page, 'de-cancel', reports);
    await loads(page, () => page.getByRole('button', { name: 'Ja, Termin absagen' }).click());
    expect(await textOf(page, '.note')).toMatch(/Ihr Termin ist abgesagt/);
    expect(await page.getByRole('link', { name: 'Website von Test Practice' }).getAttribute('href')).toBe(
      'https://praxis-sonne.example',
    );
    await look(page, 'de-cancelled', reports);
    await cliOk(s.db, 'portal', 'disable');
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Link ungültig');
    await look(page, 'de-not-found', reports);
  });

  it('issue 41: after a cancel, "Book a new appointment" leads to the booking page while it is on (also at 1280 px)', async () => {
    const s = await setup();
    await cliOk(s.db, 'practice', 'set', ...CONTACT);
    await cliOk(s.db, 'booking-page', 'enable');
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const reports: Record<string, PageReport> = {};
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!, MARIA);
    await page.goto(`${link}/cancel`);
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment is cancelled/);
    const again = page.getByRole('link', { name: 'Book a new appointment' });
    expect(await again.getAttribute('href')).toBe('/book/');
    expect(await again.getAttribute('class')).toBe('button');
    expect(await page.getByRole('link', { name: 'Website of Test Practice' }).getAttribute('class')).toBe(
      'button secondary',
    );
    await look(page, 'en-cancelled-book-again', reports);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect((await checkPage(page)).problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await loads(page, () => again.click());
    expect(await textOf(page, 'h1')).toBe('Choose a day');
  });

  it('the refusals of issue 23: a booking that can no longer be moved, and a cancel reason refused', async () => {
    const s = await setup();
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const reports: Record<string, PageReport> = {};
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!, MARIA);
    await cliOk(s.db, 'reason', 'remove', '1', '--force');
    await page.goto(link);
    expect(await page.getByRole('link', { name: 'Change the time' }).count()).toBe(0);
    expect(await page.locator('footer').count()).toBe(0); // no address or phone given: nothing to show
    await look(page, 'en-cancel-only', reports);
    await page.goto(`${link}/reschedule`);
    expect(await textOf(page, '.note')).toContain(
      'This appointment can no longer be moved here. You can still cancel it',
    );
    await look(page, 'en-not-movable', reports);

    await loads(page, () => page.getByRole('link', { name: 'Cancel the appointment' }).click());
    const before = bookingState(s.db);
    await page.getByLabel('Reason (optional)').fill('ill\u001b[2J');
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await textOf(page, '.note')).toContain('The reason could not be taken');
    expect(await textOf(page, 'h1')).toBe('Cancel this appointment?');
    await look(page, 'en-bad-reason', reports);
    expect(bookingState(s.db)).toEqual(before);
    await page.getByLabel('Reason (optional)').fill('I am ill');
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment is cancelled/);
    expect(await page.getByRole('link', { name: /Website|Call/ }).count()).toBe(0); // no way back given: none offered
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'I am ill',
    });
  });
});
