/**
 * Issue 47 in a real Chromium (Debian's, JavaScript off, a 360 px phone): a French customer's self-service page, from
 * the link of a real confirmation mail, in the practice's colour with its logo, readable (16 px, AA contrast, no
 * sideways scroll) and with no axe-core violation; and each time on it keeps its zone on its line: the tops of their
 * boxes are measured, also at the width where a plain space would let the zone wrap alone (the test shows that too). With PLANNER_SCREENSHOTS=1 it writes docs/portal/look-fr.png.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pngOf } from '../booking-page/flow.ts';
import { cliOk, ROOT, tempDir } from '../helpers.ts';
import { book, linkIn, setup, slotsOf } from '../portal/page.ts';
import { expectReadable, launchChromium, phonePage } from './chromium.ts';

// The page's globals, as the checks below use them inside the browser (not compiled with the DOM library).
declare const document: any;
declare const NodeFilter: any;

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/portal') : undefined;

/** Where a time with its zone sits: the top of the time's box and of the zone's, in CSS px. */
interface Tops {
  time: number;
  zone: number;
}

/**
 * Measures each time followed by its zone in `main`: as served (`served`); then, the time's element made narrower 2 px
 * at a time until a plain space there (as before issue 47) lets the zone wrap alone, at that width with the plain
 * space (`plain`) and with the space served (`kept`). `width` is undefined when no width split them.
 */
function zoneLines(page: Page): Promise<{ text: string; served: Tops; width?: number; plain?: Tops; kept?: Tops }[]> {
  return page.evaluate(() => {
    const TIMED = /(\d{2}:\d{2})[\u00a0 ]([A-Z]{2,5}(?:[+\u2212-]\d{1,2}(?::\d{2})?)?)/;
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    const nodes: any[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (TIMED.test(node.textContent)) nodes.push(node);
    return nodes.map((node) => {
      const match = TIMED.exec(node.textContent)!;
      const served = node.textContent as string;
      const plain = served.slice(0, match.index + 5) + ' ' + served.slice(match.index + 6);
      const box = (from: number, to: number) => {
        const part = document.createRange();
        part.setStart(node, from);
        part.setEnd(node, to);
        return part.getClientRects()[0].top as number;
      };
      const tops = () => ({
        time: box(match.index, match.index + 5),
        zone: box(match.index + 6, match.index + match[0].length),
      });
      const result = { text: match[0], served: tops() };
      const element = node.parentElement;
      element.style.display = 'block';
      for (let width = Math.floor(element.getBoundingClientRect().width); width > 100; width -= 2) {
        element.style.width = `${width}px`;
        node.textContent = plain;
        const split = tops();
        node.textContent = served;
        if (split.zone > split.time) return { ...result, width, plain: split, kept: tops() };
      }
      return result;
    });
  });
}

describe('the practice’s look and French typography in Chromium (issue 47)', { timeout: 180_000 }, () => {
  it('a French customer’s page: the logo and colour, readable, no axe violation; each zone on its time’s line at 360 px', async () => {
    const s = await setup(['--cancel-until', '0'], 'fr');
    await cliOk(s.db, 'practice', 'set', '--phone', '+33 1 23 45 67 89', '--address', '12 rue de la Paix, 75002 Paris');
    const logo = join(tempDir(), 'logo.png');
    writeFileSync(logo, pngOf(240, 80, [10, 110, 79]));
    await cliOk(s.db, 'booking-page', 'enable', '--colour', '#0a6e4f', '--logo', logo);
    const booked = await book(s, (await slotsOf(s, s.days[1]!))[0]!, {
      first_name: 'Camille',
      last_name: 'Dubois',
      email: 'camille@example.com',
    });
    const mine = (mail: { subject?: string; text?: string }) =>
      (mail.subject ?? '').startsWith('Votre rendez-vous') && mail.text?.includes(booked.booking_details_id);
    for (let count = s.smtp.messages.length + 1; !s.smtp.messages.some(mine); count++) await s.smtp.received(count);
    const confirmation = s.smtp.messages.find(mine)!;
    expect(confirmation.attachments.some((part) => part.contentType === 'image/png' && part.cid)).toBe(true);

    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'fr-FR' });
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto(linkIn(confirmation)!);
    expect(await page.locator('h1').innerText()).toBe('Votre rendez-vous');
    // The logo is shown (loaded from the page's own origin), the buttons are in the practice's colour.
    expect(await page.locator('img.logo').evaluate((image: any) => [image.complete, image.naturalWidth])).toEqual([
      true,
      240,
    ]);
    expect(
      await page
        .locator('a.button')
        .first()
        .evaluate((a: any) => getComputedStyle(a).backgroundColor),
    ).toBe('rgb(10, 110, 79)');
    await expectReadable(page, 'look-fr');
    await page.setViewportSize({ width: 360, height: 640 });
    const shot = join(SHOTS ?? tempDir(), 'look-fr.png');
    await page.screenshot({ path: shot, fullPage: true });

    // As served, at 360 px: each time and its zone on one line (the card's date, and the deadline's sentence).
    const lines = await zoneLines(page);
    // Berlin's zone as French writes it: UTC+1 or UTC+2, by the season of the server's today.
    expect(lines.map((line) => line.text)).toEqual([
      expect.stringMatching(/^\d{2}:\d{2}\u00a0UTC\+[12]$/),
      expect.stringMatching(/^\d{2}:\d{2}\u00a0UTC\+[12]$/),
    ]);
    for (const line of lines) {
      expect(line.served.zone, line.text).toBe(line.served.time);
      // Where a plain space would leave the zone alone on the next line, the served one keeps it with its time.
      expect(line.width, line.text).toBeDefined();
      expect(line.plain!.zone, `${line.text} at ${line.width} px`).toBeGreaterThan(line.plain!.time);
      expect(line.kept!.zone, `${line.text} at ${line.width} px`).toBe(line.kept!.time);
    }
  });
});

// Chromium's global used inside page.evaluate above.
declare function getComputedStyle(element: any): any;
