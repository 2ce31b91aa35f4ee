/**
 * Every date of a series is the customer's to change (issue 47), in a real Chromium (Debian's, JavaScript off, a
 * 320 px phone), in German (`init --locale de`): a series of six booked, its confirmation speaking of each date; on
 * the series' page the third date cancelled from its own link; the fifth date moved from the link in that
 * cancellation's mail (read from the test SMTP server); the rest untouched, as the CLI shows after. Every page and
 * state is checked at 320 and 360 px (16 px text, no sideways scroll, WCAG AA contrast) and by axe-core. With
 * PLANNER_SCREENSHOTS=1 it writes docs/series/de-series-*.png (360 px wide).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliJson, cliOk, ROOT } from '../helpers.ts';
import { linkIn, setup, slotsOf } from '../portal/page.ts';
import { expectReadable, launchChromium, phonePage } from './chromium.ts';

declare const document: any;

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/series') : undefined;

/** Checks the page as it is now (one h1, no script, readable at 320 and 360 px, axe-core); its screenshot when asked. */
async function look(page: Page, name: string, shot = false): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name, async () => {
    if (!SHOTS || !shot) return;
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

/** The series' dates as `planner bookings show` gives them: reference, status, local start. */
async function datesOf(db: string, reference: string): Promise<[string, string, string][]> {
  const shown = await cliJson(db, 'bookings', 'show', reference);
  return shown.series.dates.map((date: any) => [date.reference, date.status, date.localStart]);
}

/** The status line of each date of the series' list, in order (`Gebucht`, `Abgesagt`, …). */
async function listed(page: Page): Promise<string[]> {
  const items = await page.locator('ol.dates li').allInnerTexts();
  return items.map((item) => item.split('\n')[1]!.split('.')[0]!);
}

describe('every date of a series on the self-service page, in German, in Chromium', { timeout: 240_000 }, () => {
  it('six dates: the third cancelled from its own link, the fifth moved from the cancellation mail’s link', async () => {
    const s = await setup(['--cancel-until', '24'], 'de');
    await cliOk(s.db, 'schedule', 'set', '1', '--days-ahead', '60');
    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'de-DE' });
    const day = s.days[2]!; // two days ahead: every date before its deadline (24 h)
    const first = (await slotsOf(s, day))[2]!;
    const time = first.slice(11, 16);
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
      '6',
      '--json',
      ...['--field', 'first_name=Maria', '--field', 'last_name=Schmidt', '--field', 'email=maria@example.com'],
    );
    const references = made.bookings.map((booking: any) => booking.reference) as string[];
    expect(references).toHaveLength(6);

    // One confirmation: each date, the rule for each date, one link.
    const confirmation = (await s.smtp.received(1)).find((mail) => /^Ihre 6 Termine/.test(mail.subject ?? ''))!;
    expect(confirmation.text).toContain(
      'Sie können jeden dieser Termine bis 24 Stunden vor seinem Beginn online absagen oder verlegen.',
    );
    expect(confirmation.text).toContain('Termine verwalten: ');
    const link = linkIn(confirmation)!;

    // The series' page: six dates, each booked with its own deadline and its own "Verlegen" and "Absagen".
    await page.goto(link);
    expect(await page.locator('h1').innerText()).toBe('Ihr Termin');
    expect(await page.locator('#series-dates').innerText()).toBe('Ihre Terminserie: 6 Termine');
    expect(await listed(page)).toEqual(Array(6).fill('Gebucht'));
    expect(await page.locator('ol.dates li', { hasText: 'Hier änderbar bis' }).count()).toBe(6);
    // The first date's own buttons are above the list; each other date has its own.
    expect(await page.getByRole('link', { name: /^Verlegen: / }).count()).toBe(5);
    expect(await page.getByRole('link', { name: /^Absagen: / }).count()).toBe(5);
    await look(page, 'de-series-page', true);

    // The third date cancelled from its own "Absagen": its own steps, under its own path; the others stay booked.
    const third = page.locator('ol.dates li').nth(2);
    await loads(page, () => third.getByRole('link', { name: /^Absagen: / }).click());
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/date/${references[2]}/cancel$`));
    expect(await page.locator('h1').innerText()).toBe('Diesen Termin absagen?');
    expect(await page.getByLabel('Nur diesen Termin').isChecked()).toBe(true);
    await look(page, 'de-series-cancel-third');
    const mailsBefore = s.smtp.messages.length;
    await loads(page, () => page.getByRole('button', { name: 'Ja, Termin absagen' }).click());
    expect(await page.locator('.note').innerText()).toMatch(/^Ihr Termin ist abgesagt/);
    expect(await page.locator('main').innerText()).toContain('Die anderen Termine Ihrer Serie bleiben gebucht');
    expect(await listed(page)).toEqual(['Gebucht', 'Gebucht', 'Abgesagt', 'Gebucht', 'Gebucht', 'Gebucht']);
    await look(page, 'de-series-third-cancelled');

    // Its cancellation mail: the dates still booked, and the link to the page.
    const mine = (mail: ParsedMail) => [mail.to ?? []].flat().some((to) => to.text.includes('maria@example.com'));
    let cancellation: ParsedMail | undefined;
    for (let count = mailsBefore + 1; !cancellation; count++)
      cancellation = (await s.smtp.received(count)).slice(mailsBefore).find(mine);
    expect(cancellation.subject).toMatch(/^Abgesagt: Ihr Termin/);
    expect(cancellation.text).toContain('Die anderen 5 Termine Ihrer Serie bleiben gebucht.');
    expect(cancellation.text).toContain('Weiterhin gebucht:');
    expect(cancellation.text).toContain('Sie können jeden dieser Termine bis 24 Stunden');
    const mailLink = linkIn(cancellation)!;
    expect(mailLink).toBeDefined();
    expect(mailLink).not.toBe(link);

    // The mail's link opens the cancelled date's page, which lists the others with their own links.
    await page.goto(mailLink);
    expect(await page.locator('main').innerText()).toContain('Dieser Termin ist abgesagt');
    expect(await page.locator('main').innerText()).toContain('Die anderen Termine Ihrer Serie bleiben gebucht');
    expect(await page.getByRole('link', { name: /^Verlegen: / }).count()).toBe(5);
    await look(page, 'de-series-cancellation-link', true);

    // The fifth date moved from there: its own steps, to another time of its own day.
    const fifthDay = weeksAfter(day, 4);
    const to = (await slotsOf(s, fifthDay)).find((slot) => slot.slice(11, 16) !== time)!;
    await loads(page, () =>
      page
        .locator('ol.dates li')
        .nth(4)
        .getByRole('link', { name: /^Verlegen: / })
        .click(),
    );
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/date/${references[4]}/reschedule$`));
    await look(page, 'de-series-move-fifth-days');
    await loads(page, () => page.locator(`a[href$="/reschedule?day=${fifthDay}"]`).click());
    await loads(page, () => page.getByRole('link', { name: to.slice(11, 16), exact: true }).click());
    await look(page, 'de-series-move-fifth-confirm');
    await loads(page, () => page.getByRole('button', { name: 'Ja, Termin verlegen' }).click());
    expect(await page.locator('.note').innerText()).toMatch(/^Ihr Termin wurde verlegt/);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/date/${references[4]}$`));
    await look(page, 'de-series-fifth-moved');

    // The rest untouched, as the CLI shows it.
    expect(await datesOf(s.db, references[0]!)).toEqual(
      references.map((reference, n) => [
        reference,
        n === 2 ? 'cancelled' : 'booked',
        n === 4 ? to.slice(0, 16) : `${weeksAfter(day, n)} ${time}`,
      ]),
    );
  });
});
