/**
 * Issue 40: on the self-service page, a booking whose reason several practitioners offer may move to another of them.
 * In a real Chromium with JavaScript off on a phone, with the keyboard alone: the practitioners listed (the booking's
 * own marked), another chosen, a day, a time, the confirmation; the booking is theirs after. Every page passes the
 * readability checks and axe-core with no violation.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliJson, cliOk, ROOT } from '../helpers.ts';
import { bookWithLink, setup, slotsOf } from '../portal/page.ts';
import { expectReadable, launchChromium, phonePage } from './chromium.ts';

declare const document: any;
const SHOTS = join(ROOT, 'docs/portal');

/** Checks the page as it is now (one h1, no script, readable, axe-core), and with PLANNER_SCREENSHOTS=1 keeps a PNG. */
async function look(page: Page, name: string): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name, async () => {
    if (process.env.PLANNER_SCREENSHOTS !== '1') return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  });
}

/** Presses Tab until the focused element's text starts with `text`, then Enter, and waits for the page it loads. */
async function choose(page: Page, text: string): Promise<void> {
  for (let presses = 1; presses <= 80; presses++) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(() => (document.activeElement?.innerText ?? '').trim())) as string;
    if (focused.startsWith(text)) {
      await Promise.all([page.waitForEvent('framenavigated'), page.keyboard.press('Enter')]);
      await page.waitForLoadState('load');
      return;
    }
  }
  throw new Error(`no element "${text}" reached with Tab`);
}

describe('the self-service page: another practitioner (Chromium, JavaScript off, keyboard only)', {
  timeout: 180_000,
}, () => {
  it('lists who offers the reason, shows the chosen one’s times, and moves the booking to them', async () => {
    const s = await setup();
    await cliOk(s.db, 'schedule', 'add', 'Dr. Roth', '--days-ahead', '30', '--notice', '0', '--step', '30');
    await cliOk(s.db, 'hours', 'set', '2', 'mon-sun', '10:00-12:00');
    await cliOk(s.db, 'reason', 'set', '1', '--schedules', '1,2');
    const { booked, link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const browser = await launchChromium();
    try {
      const page = await phonePage(browser, { locale: 'en-GB' });
      await page.goto(link);
      await choose(page, 'Change the time');
      expect(await page.locator('nav[aria-label="With"] li').allInnerTexts()).toEqual(['Dr. Weber', 'Dr. Roth']);
      expect(await page.locator('nav[aria-label="With"] [aria-current="true"]').innerText()).toBe('Dr. Weber');
      await look(page, 'en-move-practitioners');
      await choose(page, 'Dr. Roth');
      expect(await page.locator('nav[aria-label="With"] [aria-current="true"]').innerText()).toBe('Dr. Roth');
      await look(page, 'en-move-practitioner-days');
      // The second day offered: after today, so all four of its times are ahead whatever the hour the test runs (the
      // first was today, whose 10:00 had passed after 10:00 in Berlin).
      const offered = page.locator('ul.choices a[href*="day="]').nth(1);
      const day = (await offered.getAttribute('href'))!;
      await choose(page, (await offered.innerText()).trim());
      expect(page.url()).toContain(day.replace(/&amp;/g, '&'));
      expect((await page.locator('ul.times a, .times a').allInnerTexts()).map((t) => t.trim())).toEqual([
        '10:00',
        '10:30',
        '11:00',
        '11:30',
      ]);
      await look(page, 'en-move-practitioner-times');
      await choose(page, '10:30');
      expect(await page.locator('main').innerText()).toContain('Dr. Roth');
      await look(page, 'en-move-practitioner-confirm');
      await choose(page, 'Yes, move the appointment');
      await look(page, 'en-move-practitioner-moved');
      const shown = await cliJson(s.db, 'bookings', 'show', booked.booking_details_id);
      expect(shown).toMatchObject({ scheduleId: 2, scheduleName: 'Dr. Roth' });
      expect(shown.localStart.slice(11)).toBe('10:30');
    } finally {
      await browser.close();
    }
  });
});
