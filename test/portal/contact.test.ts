/**
 * Issue 24, item 2, on a real server: every page of the self-service page says where the practice is and gives its
 * phone as a `tel:` link (`planner practice set --address --phone --website`); the page that is too late to change
 * says how to reach the practice; after a cancel, the page offers the way back (the website, the phone). Nothing is
 * shown for what is not given.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import {
  bookWithLink,
  confirmUrl,
  formFields,
  offeredSlots,
  page,
  postForm,
  type Setup,
  setup,
  slotsOf,
  textOf,
} from './page.ts';

/** An address with markup and quotes: the page shows it as text. */
const ADDRESS = 'Hauptstraße 1, Hof <b>2</b> & "Garten", 10115 Berlin';
const ADDRESS_HTML = 'Hauptstraße 1, Hof &#60;b&#62;2&#60;/b&#62; &#38; &#34;Garten&#34;, 10115 Berlin';
const PHONE_LINK = '<a href="tel:+49301234567">+49 30 1234567</a>';

describe('where to go and whom to call (real server)', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });

  it('every page shows the address and the phone as a tel: link; the booking shows where', async () => {
    await cliOk(
      s.db,
      'practice',
      'set',
      '--address',
      ADDRESS,
      '--phone',
      '+49 30 1234567',
      '--website',
      'https://praxis-sonne.example',
    );
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[1]!))[0]!);
    const times = await page(`${link}/reschedule?day=${s.days[2]}`);
    const pages = {
      overview: await page(link),
      cancel: await page(`${link}/cancel`),
      days: await page(`${link}/reschedule`),
      times,
      confirm: await page(confirmUrl(link, offeredSlots(times.html)[0]!)),
      notFound: await page(`${s.server.url}/manage/${'x'.repeat(43)}`),
    };
    for (const [name, shown] of Object.entries(pages)) {
      const footer = /<footer>(.*)<\/footer>/s.exec(shown.html)?.[1];
      expect([name, footer]).toEqual([name, `<p>Test Practice<br>${ADDRESS_HTML}<br>Phone: ${PHONE_LINK}</p>`]);
    }
    expect(pages.notFound.status).toBe(404);
    expect(pages.overview.html).toContain(`<dt>Where</dt><dd>${ADDRESS_HTML}</dd>`);
    expect(pages.overview.html).not.toContain('<b>2</b>');
    // The website is the way back after a cancel, not a link on every page.
    expect(pages.overview.html).not.toContain('praxis-sonne.example');
  });

  it('too late to change here: says to call the practice, with its number; without a phone, to reply to the confirmation', async () => {
    await cliOk(s.db, 'practice', 'set', '--phone', '+49 30 1234567');
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '0');
    const { link } = await bookWithLink(s, (await slotsOf(s, s.days[3]!))[0]!);
    const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
    await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '8760');
    try {
      const late = await page(link);
      expect(textOf(late.html)).toContain('Changes here were possible until');
      expect(textOf(late.html)).toContain('To change or cancel the appointment now, please call Test Practice.');
      expect(late.html).toContain('<a class="button" href="tel:+49301234567">Call +49 30 1234567</a>');
      // A form sent after the deadline: refused (409), and the same way to reach the practice.
      const refused = await postForm(`${link}/cancel`, form);
      expect(refused.status).toBe(409);
      expect(textOf(refused.html)).toContain('It is too late to change this appointment here');
      expect(refused.html).toContain('href="tel:+49301234567">Call +49 30 1234567</a>');

      await cliOk(s.db, 'practice', 'set', '--phone', '');
      const noPhone = await page(link);
      expect(textOf(noPhone.html)).toContain(
        'To change or cancel the appointment now, please reply to your confirmation e-mail from Test Practice.',
      );
      expect(noPhone.html).not.toContain('tel:');
    } finally {
      await cliOk(s.db, 'portal', 'enable', '--url', s.server.url, '--cancel-until', '0');
    }
  });

  it('after a cancel: the way back, the website and the phone as far as given; nothing when neither is', async () => {
    await cliOk(
      s.db,
      'practice',
      'set',
      '--phone',
      '+49 30 1234567',
      '--website',
      'https://praxis-sonne.example/termine?a=1&b=2',
    );
    const cancelled = async () => {
      const { link } = await bookWithLink(s, (await slotsOf(s, s.days[4]!))[0]!);
      const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
      expect((await postForm(`${link}/cancel`, form)).status).toBe(303);
      return page(`${link}?done=cancelled`);
    };
    const both = await cancelled();
    expect(textOf(both.html)).toContain('Your appointment is cancelled');
    expect(both.html).toContain(
      '<p>For a new appointment:</p><a class="button" href="https://praxis-sonne.example/termine?a=1&#38;b=2">Website of Test Practice</a>' +
        '<a class="button secondary" href="tel:+49301234567">Call +49 30 1234567</a>',
    );
    await cliOk(s.db, 'practice', 'set', '--phone', '');
    const websiteOnly = await cancelled();
    expect(websiteOnly.html).toContain('>Website of Test Practice</a>');
    expect(websiteOnly.html).not.toContain('tel:');
    await cliOk(s.db, 'practice', 'set', '--website', '', '--address', '');
    const neither = await cancelled();
    expect(textOf(neither.html)).toContain('Your appointment is cancelled');
    expect(neither.html).not.toContain('For a new appointment');
    expect(neither.html).not.toContain('<footer>');
    expect(neither.html).not.toContain('<dt>Where</dt>');
  });
});
