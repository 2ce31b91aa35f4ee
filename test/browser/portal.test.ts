/**
 * The self-service page in a real Chromium (Debian's, JavaScript off, 320 px wide), as a customer uses it: the link
 * from the confirmation mail of a real SMTP server, a move by day and time, then a cancel. After each step: GET /slots,
 * the webhook receiver, the mails and their .ics SEQUENCE, and `planner bookings show`. Every page is checked for
 * 16 px text, no sideways scroll and WCAG AA contrast. With PLANNER_SCREENSHOTS=1 it writes the screenshots of
 * docs/portal/ (en and de).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliJson, cliOk, ROOT } from '../helpers.ts';
import { bookingState, bookWithLink, icsOf, setup, slotsOf } from '../portal/page.ts';
import { checkPage, launchChromium, phonePage, type PageReport } from './chromium.ts';

/** A customer as the screenshots show one (test/portal/ has the one whose name holds markup). */
const MARIA = { first_name: 'Maria', last_name: 'Schmidt', email: 'maria@example.com' };

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/portal') : undefined;

/** Checks the page as it is now and, when asked for, saves its screenshot as docs/portal/<name>.png. */
async function look(page: Page, name: string, reports: Record<string, PageReport>): Promise<void> {
  const report = await checkPage(page);
  expect(report.problems, `${name}: ${report.problems.join('; ')}`).toEqual([]);
  reports[name] = report;
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }
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

describe('the self-service page in Chromium (JavaScript off, a 320 px phone)', () => {
  it('a customer moves, then cancels, from the link in the confirmation; each step is seen everywhere', async () => {
    const s = await setup();
    const browser = await launchChromium();
    const page = await phonePage(browser);
    const reports: Record<string, PageReport> = {};
    const first = (await slotsOf(s, s.days[1]!))[0]!;
    const { booked, link } = await bookWithLink(s, first, MARIA);

    // The link from the mail.
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Your appointment');
    expect(await page.locator('main').innerText()).toContain(booked.booking_details_id);
    expect(await page.evaluate(() => (globalThis as any).document.scripts.length)).toBe(0);
    await look(page, 'en-overview', reports);

    // Move: a day, then a time.
    await loads(page, () => page.getByRole('link', { name: 'Change the time' }).click());
    await look(page, 'en-days', reports);
    const target = s.days[2]!;
    await loads(page, () => page.locator(`a[href$="/reschedule?day=${target}"]`).click());
    expect(await textOf(page, 'h1')).toContain('Free times on');
    await look(page, 'en-times', reports);
    const offered = await page.locator('button[name="slot"]').evaluateAll((buttons) => buttons.map((button: any) => button.value as string));
    expect(offered).toEqual(await slotsOf(s, target));
    const chosen = offered[1]!;
    // A second tab on the same times page, opened before the move.
    const second = await page.context().newPage();
    await second.goto(page.url());
    await loads(page, () => page.getByRole('button', { name: chosen.slice(11, 16), exact: true }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment has been moved/);
    expect(await page.locator('main').innerText()).toContain(chosen.slice(11, 16));
    await look(page, 'en-moved', reports);
    expect(await slotsOf(s, s.days[1]!)).toContain(first);
    expect(await slotsOf(s, target)).not.toContain(chosen);
    const changed = (await s.receiver.until(() => s.receiver.received.some((r) => r.json.type === 'booking.changed'))).find((r) => r.json.type === 'booking.changed')!;
    expect(changed.json.data).toMatchObject({ booking_id: booked.booking_id, actor: 'customer', previous_slot: booked.slot });
    const update = (await s.smtp.received(3))[2]!;
    expect(icsOf(update).event.getFirstPropertyValue('sequence')).toBe(1);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({ sequence: 1, status: 'booked', localStart: chosen.slice(0, 16) });

    // The second tab's form was made before the move: another time chosen there changes nothing.
    const before = bookingState(s.db);
    await loads(second, () => second.getByRole('button', { name: offered[3]!.slice(11, 16), exact: true }).click());
    expect(await textOf(second, '.note')).toMatch(/was changed in the meantime/);
    expect(await second.locator('main').innerText()).toContain(chosen.slice(11, 16)); // the booking as it stands now
    expect(bookingState(s.db)).toEqual(before);
    // The back button: the times page is fetched again (no-store), for the booking as it stands now, never the old form.
    await loads(page, () => page.goBack());
    expect(await textOf(page, 'h1')).toContain('Free times on');
    expect(await page.locator('.card').innerText()).toContain(chosen.slice(11, 16));
    expect(await page.locator('input[name="sequence"]').getAttribute('value')).toBe('1');

    // Cancel, with a reason.
    await page.goto(link);
    await loads(page, () => page.getByRole('link', { name: 'Cancel the appointment' }).click());
    expect(await textOf(page, 'h1')).toBe('Cancel this appointment?');
    await look(page, 'en-cancel', reports);
    await page.getByLabel('Reason (optional)').fill('I am ill');
    await loads(page, () => page.getByRole('button', { name: 'Yes, cancel the appointment' }).click());
    expect(await textOf(page, '.note')).toMatch(/Your appointment is cancelled/);
    await look(page, 'en-cancelled', reports);
    expect(await slotsOf(s, target)).toContain(chosen);
    const cancelled = (await s.receiver.until(() => s.receiver.received.some((r) => r.json.type === 'booking.cancelled'))).find((r) => r.json.type === 'booking.cancelled')!;
    expect(cancelled.json.data).toMatchObject({ booking_id: booked.booking_id, actor: 'customer', status: 'cancelled' });
    const cancellation = (await s.smtp.received(5))[4]!; // after the update and the practice's notice of the move (issue 24, item 4)
    expect(icsOf(cancellation).method).toBe('CANCEL');
    expect(icsOf(cancellation).event.getFirstPropertyValue('sequence')).toBe(2);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({ sequence: 2, status: 'cancelled', cancelReason: 'I am ill' });

    // A tampered link: the not-found page.
    const response = await page.goto(link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A'));
    expect(response!.status()).toBe(404);
    expect(await textOf(page, 'h1')).toBe('Link not valid');
    await look(page, 'en-not-found', reports);

    const smallest = Math.min(...Object.values(reports).map((report) => report.smallestFontPx));
    const lowest = Math.min(...Object.values(reports).map((report) => report.lowestContrast));
    expect(smallest).toBeGreaterThanOrEqual(16);
    expect(lowest).toBeGreaterThanOrEqual(4.5);
    process.stderr.write(`browser: ${Object.keys(reports).length} pages, smallest text ${smallest}px, lowest contrast ${lowest.toFixed(2)}:1\n`);
  });

  it('in German: the same pages read in the installation’s language', async () => {
    const s = await setup(['--cancel-until', '0'], 'de');
    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'de-DE' });
    const reports: Record<string, PageReport> = {};
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!, MARIA);
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Ihr Termin');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await look(page, 'de-overview', reports);
    await loads(page, () => page.getByRole('link', { name: 'Termin verlegen' }).click());
    await loads(page, () => page.locator('ul.choices a').nth(1).click());
    expect(await textOf(page, 'h1')).toContain('Freie Zeiten am');
    await look(page, 'de-times', reports);
    await page.goto(link);
    await loads(page, () => page.getByRole('link', { name: 'Termin absagen' }).click());
    await look(page, 'de-cancel', reports);
    await loads(page, () => page.getByRole('button', { name: 'Ja, Termin absagen' }).click());
    expect(await textOf(page, '.note')).toMatch(/Ihr Termin ist abgesagt/);
    await look(page, 'de-cancelled', reports);
    await cliOk(s.db, 'portal', 'disable');
    await page.goto(link);
    expect(await textOf(page, 'h1')).toBe('Link ungültig');
    await look(page, 'de-not-found', reports);
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
    await look(page, 'en-cancel-only', reports);
    await page.goto(`${link}/reschedule`);
    expect(await textOf(page, '.note')).toContain('This appointment can no longer be moved here. You can still cancel it');
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
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({ status: 'cancelled', cancelReason: 'I am ill' });
  });
});
