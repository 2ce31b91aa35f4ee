/**
 * Issue 47: the self-service page in the practice's look (the booking page's colour and logo), its CSP naming the
 * colour's style sheet, and typeset in its language (French no-break spaces; a time kept with its zone). In-process,
 * with a fixed clock; the page in Chromium is test/browser/look.test.ts.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enableBookingPage } from '../../src/app/pages/booking-page.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import type { Locale } from '../../src/domain/locales.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import { pngOf } from '../booking-page/flow.ts';
import { tempDb, tempDir } from '../helpers.ts';

/** The page's text as a reader sees it: tags out, character references decoded, every space kept as it is. */
function visibleText(html: string): string {
  return html
    .replace(/<style>.*?<\/style>/gs, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** An installation in `locale` with one booking on Tuesday 2026-06-02 10:00 Berlin and the page on; its link. */
async function installation(locale: Locale, look?: { colour: string; logo: Buffer }) {
  const store = openStore(tempDb());
  const now = new Date('2026-06-01T06:00:00Z');
  const ctx = createContext(store, () => now);
  initInstallation(ctx, {
    practiceName: 'Cabinet Soleil',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'a@b.example',
    locale,
  });
  const schedule = addSchedule(ctx, {
    name: 'Dr Martin',
    daysAhead: 14,
    noticeMinutes: 0,
    stepMinutes: 30,
    capacity: 1,
  });
  const reason = addReason(ctx, schedule, { name: 'Bilan', durationMinutes: 30 });
  setHours(ctx, schedule, 'mon-fri', '09:00-12:00');
  const submission = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const booked = createBooking(
    ctx,
    { scheduleId: schedule, reasonId: reason, slot: '2026-06-02 10:00:00', submission },
    'api',
  );
  enablePortal(ctx, { url: 'https://rdv.soleil.example', cancelUntilHours: 24 });
  if (look) {
    const file = join(tempDir(), 'logo.png');
    writeFileSync(file, look.logo);
    enableBookingPage(ctx, { colour: look.colour, logo: file });
  }
  const token = createManageToken(store, booked.bookingId, now.toISOString());
  const app = createHttpApp({ runtime: await startRuntime(store, { now: () => now }), log: () => {} });
  const get = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, headers: response.headers, html: await response.text() };
  };
  return { get, link: `/manage/${token}` };
}

describe('the self-service page in the practice’s look (issue 47)', () => {
  it('shows the booking page’s logo and colour; its CSP names the colour’s style sheet; the logo is served', async () => {
    const logo = pngOf(120, 40, [10, 110, 79]);
    const { get, link } = await installation('en', { colour: '#0a6e4f', logo });
    const page = await get(link);
    expect(page.status).toBe(200);
    const version = createHash('sha256').update(logo).digest('hex').slice(0, 16);
    expect(page.html).toContain(`<main><img class="logo" src="/book/logo?v=${version}" alt="">`);
    const styles = [...page.html.matchAll(/<style>(.*?)<\/style>/gs)].map((match) => match[1]!);
    expect(styles).toHaveLength(2);
    expect(styles[1]).toContain('.button{background:#0a6e4f;border-color:#0a6e4f}');
    const policy = page.headers.get('content-security-policy')!;
    for (const css of styles) expect(policy).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(policy).toContain("img-src 'self'");
    // Every step of the page: the cancel step too.
    const cancel = await get(`${link}/cancel`);
    expect(cancel.html).toContain(`src="/book/logo?v=${version}"`);
    expect(cancel.html).toContain('.button{background:#0a6e4f');
    const served = await get(`/book/logo?v=${version}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('without the booking page’s look: planner’s own, one style sheet, no image', async () => {
    const { get, link } = await installation('en');
    const page = await get(link);
    expect([...page.html.matchAll(/<style>/g)]).toHaveLength(1);
    expect(page.html).not.toContain('<img');
    expect(page.headers.get('content-security-policy')).toMatch(/style-src '[^']+'; /);
  });

  it('French: a no-break space before the colon and the question mark; the zone on its time’s line; links and times untouched', async () => {
    const { get, link } = await installation('fr');
    const page = await get(link);
    const text = visibleText(page.html);
    expect(page.html).toContain('<html lang="fr">');
    // The date as the page writes it: the zone bound to the time by U+00A0.
    expect(page.html).toContain('mardi 2 juin 2026, 10:00\u00a0UTC+2');
    expect(text).not.toMatch(/ [:;!?](\s|$)/); // no mark after a plain space
    expect(text).not.toMatch(/[^\s<>][:;!?](\s|$)/); // nor glued to its word: each after a no-break space
    // Each step: the cancel step asks a question, the move's steps show the booking in one line after a colon.
    const cancelHtml = (await get(`${link}/cancel`)).html;
    expect(cancelHtml).toContain('<title>Annuler ce rendez-vous\u202f?</title>'); // the tab too
    const cancel = visibleText(cancelHtml);
    expect(cancel).toContain('Annuler ce rendez-vous\u202f?');
    const move = visibleText((await get(`${link}/reschedule`)).html);
    expect(move).toContain('Réservé\u00a0: mar. 2 juin, 10:00');
    for (const shown of [text, cancel, move]) {
      expect(shown).not.toMatch(/ [:;!?](\s|$)/); // no mark after a plain space
      expect(shown).not.toMatch(/[^\s][:;!?](\s|$)/); // nor glued to its word
    }
  });
});
