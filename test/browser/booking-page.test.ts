/**
 * The booking page (issue 27) in a real Chromium (Debian's, JavaScript off, a 320 px phone): a customer books from
 * the first page to the confirmation in English and in German; every page and state (the choice, days, times, the
 * form, its errors, the review, the confirmation, a day without times, a refusal, a time taken meanwhile, the page
 * turned off) is checked at 320 and 360 px for
 * 16 px text, no sideways scroll and WCAG AA contrast, and by axe-core (no violation); one booking is made with the
 * keyboard alone; the page books inside a frame of an allowed origin and is refused in a frame of another. With
 * PLANNER_SCREENSHOTS=1 it writes docs/booking-page/ (en and de, 360 and 1280 px wide).
 */
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { longDay, pageSetup, pngOf, written } from '../booking-page/flow.ts';
import { readmeBlocks } from '../docs/readme.ts';
import { cliOk, onCleanup, ROOT, tempDir } from '../helpers.ts';
import { axeViolations, checkPage, expectReadable, launchChromium, phonePage, tabTo } from './chromium.ts';

declare const document: any;
declare const getComputedStyle: any;

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/booking-page') : undefined;

/** Checks the page as it is now at 320 and 360 px and by axe-core; saves its screenshots (360 and 1280 px) when asked. */
async function look(page: Page, name: string): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name, async () => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-360.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: true });
  });
}

/** Runs `action` (a click that loads a new page) and resolves once that page has loaded. */
async function loads(page: Page | Frame, action: () => Promise<unknown>): Promise<void> {
  const target = 'page' in page ? page.page() : page;
  await Promise.all([target.waitForEvent('framenavigated'), action()]);
  await page.waitForLoadState('load');
}

const WORDS = {
  en: {
    choose: 'Book an appointment',
    days: 'Choose a day',
    times: 'Choose a time',
    details: 'Your details',
    review: 'Check and book',
    done: 'Your appointment is booked',
    firstFree: 'the first free day',
    toReview: 'Continue to the review',
    book: 'Book the appointment',
    first: 'First name',
    last: 'Last name',
    email: 'E-mail',
    again: 'Start again',
    otherDay: 'Another day',
    showTimes: 'Show the times',
    off: 'Online booking is not offered',
  },
  de: {
    choose: 'Termin buchen',
    days: 'Tag wählen',
    times: 'Uhrzeit wählen',
    details: 'Ihre Angaben',
    review: 'Prüfen und buchen',
    done: 'Ihr Termin ist gebucht',
    firstFree: 'der erste freie Tag',
    toReview: 'Weiter zur Übersicht',
    book: 'Termin verbindlich buchen',
    first: 'Vorname',
    last: 'Nachname',
    email: 'E-Mail',
    again: 'Neu beginnen',
    otherDay: 'Anderer Tag',
    showTimes: 'Zeiten anzeigen',
    off: 'Online-Terminbuchung nicht möglich',
  },
};

/** Two things to book, a privacy notice, and the page on. */
function practice(locale: 'en' | 'de') {
  return pageSetup({
    locale,
    page: ['--privacy-url', 'https://praxis-sonne.example/privacy'],
    more: async (db) => {
      await cliOk(
        db,
        'reason',
        'add',
        '1',
        locale === 'de' ? 'Erstgespräch' : 'First consultation',
        '--duration',
        '45',
      );
    },
  });
}

describe('the booking page in Chromium (JavaScript off, a 320 px phone)', { timeout: 240_000 }, () => {
  for (const locale of ['en', 'de'] as const) {
    it(`a customer books from the first page to the confirmation (${locale}); every page and state passes the checks`, async () => {
      const w = WORDS[locale];
      const s = await practice(locale);
      const browser = await launchChromium();
      const page = await phonePage(browser, { locale: locale === 'de' ? 'de-DE' : 'en-GB' });
      await page.goto(`${s.base}/book/`);
      expect(await page.locator('h1').innerText()).toBe(w.choose);
      await look(page, `${locale}-1-choose`);
      await loads(page, () => page.locator('ul.offers a').first().click());
      expect(await page.locator('h1').innerText()).toBe(w.days);
      expect(await page.title()).toBe(`${w.days} · Test Practice`); // the step and the practice (issue 41)
      await look(page, `${locale}-2-days`);
      const dayLink = page.locator('table.weeks a').first();
      expect(await dayLink.getAttribute('class')).toBe('first'); // the first free day of all, marked
      const day = /day=(\d{4}-\d{2}-\d{2})/.exec((await dayLink.getAttribute('href'))!)![1]!;
      // Written out for screen readers: the weekday, the day, the month and the year.
      const dateLocale = locale === 'de' ? 'de-DE' : 'en-GB';
      const dayWritten = longDay(day, dateLocale);
      expect(await dayLink.locator('.sr').innerText()).toBe(`${dayWritten}, ${w.firstFree}`);
      await loads(page, () => dayLink.click());
      expect(await page.locator('h1').innerText()).toBe(w.times);
      expect(await page.locator('main h2').first().innerText()).toContain(dayWritten);
      const firstTime = page.locator('ul.times button').first();
      const time = (await firstTime.getAttribute('value'))!;
      // One tap on a time goes on; its name is the day and the time written out.
      expect(await page.getByRole('button', { name: `${dayWritten}, ${time}` }).count()).toBe(1);
      await look(page, `${locale}-3-times`);
      await loads(page, () => firstTime.click());
      expect(await page.locator('h1').innerText()).toBe(w.details);
      expect(await page.locator('#f-email').getAttribute('autocomplete')).toBe('email');
      expect(await page.locator('#f-email').getAttribute('type')).toBe('email');
      expect(await page.locator('#f-first_name').getAttribute('required')).toBe('');
      expect(await page.locator('a[href="https://praxis-sonne.example/privacy"]').count()).toBe(1);
      await look(page, `${locale}-4-details`);
      // Wrong: the errors next to their fields, tied to them, what was typed kept.
      await page.getByLabel(w.first, { exact: false }).fill('Maria');
      await page.locator('#f-email').fill('maria-at-example');
      await loads(page, () => page.getByRole('button', { name: w.toReview }).click());
      expect(await page.locator('#f-last_name').getAttribute('aria-describedby')).toBe('e-last_name');
      expect(await page.locator('#f-email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#f-first_name').inputValue()).toBe('Maria');
      expect(await page.locator('[role="alert"] a').count()).toBe(2);
      await look(page, `${locale}-5-errors`);
      await page.locator('#f-last_name').fill('Schmidt');
      await page.locator('#f-email').fill('maria@example.com');
      await loads(page, () => page.getByRole('button', { name: w.toReview }).click());
      expect(await page.locator('h1').innerText()).toBe(w.review);
      expect(await page.locator('main').innerText()).toContain('maria@example.com');
      await look(page, `${locale}-6-review`);
      await loads(page, () => page.getByRole('button', { name: w.book }).click());
      expect(await page.locator('h1').innerText()).toBe(w.done);
      expect(await page.locator('[role="status"]').innerText()).toContain('maria@example.com');
      expect(await page.locator('a[href^="https://calendar.google.com/"]').count()).toBe(1);
      expect(await page.locator('a[href^="https://outlook.live.com/"]').count()).toBe(1);
      expect(await page.locator('a[href^="/book/event/"]').count()).toBe(1);
      expect(await page.locator(`a[href^="${s.base}/manage/"]`).count()).toBe(1);
      await look(page, `${locale}-7-done`);
      expect(written(s.db).bookings).toBe(1);
      // A day without free times (past the look-ahead), and a refusal (the honeypot filled in, as a script would).
      await page.goto(`${s.base}/book/times?schedule=1&reason=1&day=2099-01-05`);
      await look(page, `${locale}-8-empty-day`);
      await page.goto(`${s.base}/book/days?schedule=1&reason=1`);
      await loads(page, () => page.locator('table.weeks a').nth(1).click()); // a whole day, whatever the hour
      await loads(page, () => page.locator('ul.times button').last().click());
      await page.locator('#trap').fill('https://spam.example', { force: true });
      await loads(page, () => page.getByRole('button', { name: w.toReview }).click());
      expect(await page.getByRole('link', { name: w.again }).count()).toBe(1);
      await look(page, `${locale}-9-refused`);
      expect(written(s.db).bookings).toBe(1);
      // A time taken meanwhile (booked at the desk during the review): the day's other times with a clear notice,
      // and another day chosen in a form of its own; what was typed is still there.
      await page.goto(`${s.base}/book/days?schedule=1&reason=1`);
      await loads(page, () => page.locator('table.weeks a').nth(1).click());
      await loads(page, () => page.locator('ul.times button').first().click());
      await page.locator('#f-first_name').fill('Maria');
      await page.locator('#f-last_name').fill('Schmidt');
      await page.locator('#f-email').fill('maria@example.com');
      await loads(page, () => page.getByRole('button', { name: w.toReview }).click());
      const slot = (await page.locator('input[name="slot"]').getAttribute('value'))!;
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
      await loads(page, () => page.getByRole('button', { name: w.book }).click());
      expect(await page.locator('h1').innerText()).toBe(w.times);
      expect(await page.locator('[role="alert"]').count()).toBe(1);
      expect(await page.locator(`ul.times button[value="${slot.slice(11, 16)}"]`).count()).toBe(0);
      await look(page, `${locale}-10-taken`);
      const otherDay = page.getByLabel(w.otherDay, { exact: true });
      const later = (
        await otherDay
          .locator('option')
          .evaluateAll((options: any[]) => options.map((option) => option.value as string))
      ).at(-1)!;
      await otherDay.selectOption(later);
      await loads(page, () => page.getByRole('button', { name: w.showTimes }).click());
      expect(await page.locator('[role="alert"]').count()).toBe(0);
      expect(await page.locator('main h2').first().innerText()).toContain(longDay(later, dateLocale));
      await loads(page, () => page.locator('ul.times button').first().click());
      expect(await page.locator('h1').innerText()).toBe(w.details);
      expect(await page.locator('#f-email').inputValue()).toBe('maria@example.com');
      expect(await page.locator('#f-last_name').inputValue()).toBe('Schmidt');
      expect(written(s.db).bookings).toBe(2); // the customer's first and the desk's: nothing from the taken form
      // The page turned off: it says so, with the practice's phone and e-mail (issue 36, item 15).
      await cliOk(s.db, 'booking-page', 'disable');
      await page.goto(`${s.base}/book/`);
      expect(await page.locator('h1').innerText()).toBe(w.off);
      expect(await page.locator('a[href^="mailto:"]').count()).toBe(1);
      await look(page, `${locale}-11-off`);
      await s.server.stop();
    });
  }

  it('in the practice’s colour and with its logo (issue 41): the style and the image load under the page’s CSP, and pass the checks', async () => {
    const folder = tempDir();
    const logo = join(folder, 'logo.png');
    writeFileSync(logo, pngOf(160, 48, [10, 110, 79]));
    const s = await pageSetup({ page: ['--colour', '#0a6e4f', '--logo', logo] });
    const browser = await launchChromium();
    const page = await phonePage(browser);
    await page.goto(`${s.base}/book/`);
    const image = page.locator('img.logo');
    expect(await image.evaluate((element: any) => element.complete && element.naturalWidth)).toBe(160);
    await loads(page, () => page.locator('table.weeks a').first().click());
    const button = page.locator('ul.times button').first();
    expect(await button.evaluate((element: any) => getComputedStyle(element).backgroundColor)).toBe('rgb(10, 110, 79)');
    await look(page, 'en-16-brand');
    await s.server.stop();
  });

  it('with the keyboard alone: Tab, Space and Enter from the first page to the confirmation', async () => {
    const s = await practice('en');
    const browser = await launchChromium();
    const page = await phonePage(browser);
    await page.goto(`${s.base}/book/`);
    await tabTo(page, /^Check-up/);
    await loads(page, () => page.keyboard.press('Enter'));
    await tabTo(page, /^\d{1,2}/); // the first free day in the grid of weeks
    await loads(page, () => page.keyboard.press('Enter'));
    await tabTo(page, /, \d\d:\d\d$/); // a time: one Enter books it into the form
    await loads(page, () => page.keyboard.press('Enter'));
    await tabTo(page, 'f-first_name');
    await page.keyboard.type('Maria');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Schmidt');
    await page.keyboard.press('Tab');
    await page.keyboard.type('maria@example.com');
    await tabTo(page, 'Continue to the review');
    await loads(page, () => page.keyboard.press('Enter'));
    await tabTo(page, 'Book the appointment');
    await loads(page, () => page.keyboard.press('Enter'));
    expect(await page.locator('h1').innerText()).toBe('Your appointment is booked');
    expect(written(s.db).bookings).toBe(1);
    await s.server.stop();
  });

  it('issue 41: the reason’s description where it is chosen and on the review; the limits on the form, with what was typed (also at 1280 px)', async () => {
    const s = await pageSetup({
      page: ['--per-email', '1'],
      more: async (db) => {
        await cliOk(db, 'reason', 'set', '1', '--description', 'Please bring your referral and a towel.');
        await cliOk(db, 'reason', 'add', '1', 'First consultation', '--duration', '45');
      },
    });
    const browser = await launchChromium();
    const page = await phonePage(browser);
    /** `look`, and axe-core and the readability checks at 1280 px too. */
    const lookWide = async (name: string) => {
      await look(page, name);
      await page.setViewportSize({ width: 1280, height: 800 });
      expect((await checkPage(page)).problems, `${name} at 1280 px`).toEqual([]);
      expect(await axeViolations(page), `${name} at 1280 px: axe-core`).toEqual([]);
      await page.setViewportSize({ width: 320, height: 640 });
    };
    await page.goto(`${s.base}/book/`);
    const checkUp = page.getByRole('link', { name: /^Check-up/ });
    expect(await page.locator(`#${await checkUp.getAttribute('aria-describedby')}`).innerText()).toBe(
      'Please bring your referral and a towel.',
    );
    await lookWide('en-12-choose-description');
    await loads(page, () => checkUp.click());
    await loads(page, () => page.locator('table.weeks a').nth(1).click());
    await loads(page, () => page.locator('ul.times button').first().click());
    await page.locator('#f-first_name').fill('Maria');
    await page.locator('#f-last_name').fill('Schmidt');
    await page.locator('#f-email').fill('maria@example.com');
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    expect(await page.locator('.card').first().innerText()).toContain('Please bring your referral and a towel.');
    await lookWide('en-13-review-description');
    await loads(page, () => page.getByRole('button', { name: 'Book the appointment' }).click());
    expect(await page.locator('h1').innerText()).toBe('Your appointment is booked');
    // The family's next booking under the same address: told on the form, what was typed kept, the phone a link.
    await page.goto(`${s.base}/book/days?schedule=1&reason=1`);
    await loads(page, () => page.locator('table.weeks a').nth(1).click());
    await loads(page, () => page.locator('ul.times button').last().click());
    await page.locator('#f-first_name').fill('Lena');
    await page.locator('#f-last_name').fill('Schmidt');
    await page.locator('#f-email').fill('maria@example.com');
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    expect(await page.locator('h1').innerText()).toBe('Your details');
    expect(await page.locator('[role="alert"]').innerText()).toContain('already has 1 upcoming appointment');
    expect(await page.locator('#f-first_name').inputValue()).toBe('Lena');
    expect(await page.locator('[role="alert"] a').getAttribute('href')).toBe('tel:+49301234567');
    await lookWide('en-14-per-email');
    // Her own address: the review. Then one booking an hour from this address, which the first one used.
    await page.locator('#f-email').fill('lena@example.com');
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    expect(await page.locator('h1').innerText()).toBe('Check and book');
    await cliOk(s.db, 'booking-page', 'enable', '--per-hour', '1');
    await loads(page, () => page.getByRole('button', { name: 'Change my details' }).click());
    await loads(page, () => page.getByRole('button', { name: 'Continue to the review' }).click());
    expect(await page.locator('h1').innerText()).toBe('Your details');
    expect(await page.locator('[role="alert"]').innerText()).toContain(
      'Too many bookings were made from your connection.',
    );
    expect(await page.locator('#f-email').inputValue()).toBe('lena@example.com');
    await lookWide('en-15-per-hour');
    expect(written(s.db).bookings).toBe(1);
    await s.server.stop();
  });

  it('inside a frame of an allowed origin it books (no cookies, no script), each step opening at its heading on a 360 px phone; a frame of another origin is refused', async () => {
    // The practice's site: the README's embed (the frame and its optional script), its example address pointed at
    // this test's server, between a site's header and a long footer as a real page has them.
    const iframe = readmeBlocks('The booking page', 'html').find((block) => block.includes('<iframe'))!;
    expect(iframe).toContain('src="https://booking.praxis.example/book/"');
    const host = (frameUrl: () => string) => {
      const server = createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><title>Praxis</title><meta name="viewport" content="width=device-width, initial-scale=1">` +
              `<body style="margin:0"><header style="height:300px">Praxis Sonne</header>` +
              `${iframe.replace('https://booking.praxis.example/book/', frameUrl())}<footer style="height:1200px">Impressum</footer>`,
          ),
      );
      server.listen(0, '127.0.0.1');
      onCleanup(() => server.close());
      return server;
    };
    let target = '';
    const allowed = host(() => target);
    const other = host(() => target);
    await Promise.all([once(allowed, 'listening'), once(other, 'listening')]);
    const origin = (server: ReturnType<typeof host>) =>
      `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const s = await pageSetup({ page: ['--embed-from', origin(allowed)] });
    target = `${s.base}/book/`;
    const browser = await launchChromium();
    // The practice's site runs its own script (the README's optional lines); the booking page in it runs none.
    const page = await phonePage(browser, { javaScript: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(origin(allowed));
    const frame = page.frames().find((one) => one !== page.mainFrame())!;
    await frame.waitForLoadState('load');
    const screen = page.viewportSize()!;
    // The frame is never higher than the screen (its page scrolls inside), and each step's heading is on the screen
    // once it has loaded (the README's script scrolls the frame into view on each load; the test waits for it).
    const headingOnScreen = async (step: string) => {
      expect(await frame.locator('h1').innerText()).toBe(step);
      expect((await page.locator('iframe').boundingBox())!.height).toBeLessThanOrEqual(screen.height);
      await expect
        .poll(
          async () => {
            const box = (await frame.locator('h1').boundingBox())!;
            return box.y >= 0 && box.y + box.height <= screen.height;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
    };
    await headingOnScreen('Choose a day');
    await loads(frame, () => frame.locator('table.weeks a').first().click());
    await headingOnScreen('Choose a time');
    await loads(frame, () => frame.locator('ul.times button').last().click());
    await headingOnScreen('Your details');
    await frame.locator('#f-first_name').fill('Maria');
    await frame.locator('#f-last_name').fill('Schmidt');
    await loads(frame, () => frame.getByRole('button', { name: 'Continue to the review' }).click());
    await headingOnScreen('Your details'); // the errors, from the top
    await frame.locator('#f-email').fill('maria@example.com');
    await loads(frame, () => frame.getByRole('button', { name: 'Continue to the review' }).click());
    await headingOnScreen('Check and book');
    await loads(frame, () => frame.getByRole('button', { name: 'Book the appointment' }).click());
    await headingOnScreen('Your appointment is booked');
    expect(await page.context().cookies()).toEqual([]);
    // The self-service page is never framed: its link opens a tab of its own, where it shows the booking.
    const manage = frame.locator(`a[href^="${s.base}/manage/"]`);
    expect(await manage.getAttribute('target')).toBe('_blank');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), manage.click()]);
    await opened.waitForLoadState('load');
    expect(await opened.locator('h1').innerText()).toBe('Your appointment');
    expect(written(s.db).bookings).toBe(1);
    // The same page in a frame of an origin not named: Chromium does not show it.
    const refused = await phonePage(browser);
    await refused.goto(origin(other));
    const blocked = refused.frames().find((one) => one !== refused.mainFrame())!;
    await blocked.waitForLoadState('load');
    expect(blocked.url()).not.toBe(target);
    expect(await blocked.locator('h1').count()).toBe(0);
    await s.server.stop();
  });
});
