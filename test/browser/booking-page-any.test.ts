/**
 * "Any practitioner (first free time)" on the booking page (issue 40), in a real Chromium with JavaScript off on a
 * 320 px phone: a reason offered by two schedules is offered once more, for whoever is free; the customer books it
 * through the same steps, and the confirmation names the practitioner chosen (the fewest booked minutes that day,
 * then the lowest id). Every page passes the readability checks and axe-core with no violation.
 */
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageSetup } from '../booking-page/flow.ts';
import { cliOk } from '../helpers.ts';
import { expectReadable, launchChromium, phonePage } from './chromium.ts';

declare const document: any;

/** Checks the page as it is now: one h1, no script, readable at 320 and 360 px, no axe-core violation. */
async function look(page: Page, name: string): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name);
}

/** Runs `action` (a click that loads a new page) and resolves once that page has loaded. */
async function loads(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('framenavigated'), action()]);
  await page.waitForLoadState('load');
}

/** The schedule of each booking (not cancelled), in the order made. */
function bookedSchedules(db: string): number[] {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const rows = handle.prepare("SELECT schedule_id AS s FROM bookings WHERE status = 'booked' ORDER BY id").all();
    return rows.map((row) => Number((row as { s: number }).s));
  } finally {
    handle.close();
  }
}

describe('the booking page: any practitioner (Chromium, JavaScript off)', { timeout: 240_000 }, () => {
  it('offers a shared reason with whoever is free, books it, and the confirmation names who', async () => {
    const s = await pageSetup({
      more: async (db) => {
        await cliOk(db, 'schedule', 'add', 'Dr. Roth', '--days-ahead', '30', '--notice', '0', '--step', '30');
        await cliOk(db, 'hours', 'set', '2', 'mon-sun', '08:00-12:00');
        await cliOk(db, 'reason', 'set', '1', '--schedules', '1,2'); // Check-up, by both
      },
    });
    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'en-GB' });

    const bookAny = async (first: string, shoot: boolean) => {
      await page.goto(`${s.base}/book/`);
      expect(await page.locator('main h2').allInnerTexts()).toEqual([
        'Any practitioner (first free time)',
        'With Dr. Weber',
        'With Dr. Roth',
      ]);
      if (shoot) await look(page, 'any-1-choose');
      await loads(page, () =>
        page
          .locator('ul.offers')
          .first()
          .getByRole('link', { name: /Check-up/ })
          .click(),
      );
      expect(await page.locator('h1').innerText()).toBe('Choose a day');
      expect(await page.locator('main').innerText()).toContain('Any practitioner (first free time)');
      if (shoot) await look(page, 'any-2-days');
      await loads(page, () => page.locator('table.weeks a').nth(1).click()); // a whole day, whatever the hour
      const firstTime = page.locator('ul.times button').first();
      expect(await firstTime.getAttribute('value')).toBe('08:00');
      if (shoot) await look(page, 'any-3-times');
      await loads(page, () => firstTime.click());
      expect(await page.locator('h1').innerText()).toBe('Your details');
      await page.locator('#f-first_name').fill(first);
      await page.locator('#f-last_name').fill('Schmidt');
      await page.locator('#f-email').fill(`${first.toLowerCase()}@example.com`);
      await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
      expect(await page.locator('h1').innerText()).toBe('Check and book');
      expect(await page.locator('main').innerText()).toMatch(/With\s+Any practitioner \(first free time\)/);
      if (shoot) await look(page, 'any-4-review');
      await loads(page, () => page.getByRole('button', { name: 'Book the appointment' }).click());
      expect(await page.locator('h1').innerText()).toBe('Your appointment is booked');
      if (shoot) await look(page, 'any-5-done');
      return page.locator('main').innerText();
    };

    // Both free at 08:00, no minutes booked that day: the lowest id; then the other, whose day is as empty.
    expect(await bookAny('Maria', true)).toMatch(/With\s+Dr\. Weber/);
    expect(bookedSchedules(s.db)).toEqual([1]);
    expect(await bookAny('Jonas', false)).toMatch(/With\s+Dr\. Roth/);
    expect(bookedSchedules(s.db)).toEqual([1, 2]);
    // The practitioner's own page still offers the reason with that practitioner only.
    await page.goto(`${s.base}/book/days?schedule=2&reason=1`);
    expect(await page.locator('h1').innerText()).toBe('Choose a day');
  });
});
