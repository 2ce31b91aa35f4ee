/**
 * After a cancel, a new booking (issue 41, item 7): while the booking page is on, the self-service page and the
 * customer's cancellation mail offer "Book a new appointment", a link to the booking page; while it is off, neither
 * does. Against a real server, a real SMTP server, in en and de.
 */
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import { bookWithLink, formFields, page, postForm, type Setup, setup, slotsOf, textOf } from './page.ts';

/** Cancels the booking of `link` on the page; returns the page after it and the customer's cancellation mail. */
async function cancelOnPage(s: Setup, link: string, reference: string): Promise<{ html: string; mail: ParsedMail }> {
  const form = formFields((await page(`${link}/cancel`)).html, '/cancel')!;
  expect((await postForm(`${link}/cancel`, form)).status).toBe(303);
  const after = await page(`${link}?done=cancelled`);
  const mine = (mail: ParsedMail) => /^(Cancelled|Abgesagt)/.test(mail.subject ?? '') && mail.text?.includes(reference);
  for (let count = s.smtp.messages.length + 1; !s.smtp.messages.some(mine); count++) await s.smtp.received(count);
  return { html: after.html, mail: s.smtp.messages.find(mine)! };
}

describe('after a cancel: book a new appointment', () => {
  it.each([
    ['en', 'Book a new appointment', 'You can book a new appointment online.'],
    ['de', 'Neuen Termin buchen', 'Einen neuen Termin können Sie online buchen.'],
  ] as const)(
    '%s: the page and the mail link the booking page while it is on, and only then',
    async (locale, button, sentence) => {
      const s = await setup(['--cancel-until', '0'], locale);
      await cliOk(s.db, 'practice', 'set', '--phone', '+49 30 1234567');
      const slots = await slotsOf(s, s.days[1]!);
      const off = await bookWithLink(s, slots[0]!);
      const on = await bookWithLink(s, slots[1]!);

      // Off: the way back is the phone only, and the mail offers nothing.
      const before = await cancelOnPage(s, off.link, off.booked.booking_details_id);
      expect(before.html).not.toContain('href="/book/"');
      expect(textOf(before.html)).not.toContain(button);
      expect(before.mail.text).not.toContain(button);
      expect(before.mail.html).not.toContain('/book/');

      // On: the main button of the way back, before the phone; the mail's button and its text part's address.
      await cliOk(s.db, 'booking-page', 'enable');
      const after = await cancelOnPage(s, on.link, on.booked.booking_details_id);
      expect(after.html).toContain(`<a class="button" href="/book/">${button}</a>`);
      expect(after.html.indexOf('href="/book/"')).toBeLessThan(after.html.indexOf('href="tel:'));
      expect((await page(`${s.server.url}/book/`)).status).toBe(200);
      expect(after.mail.text).toContain(`${sentence}\n${button}: ${s.server.url}/book/\n`);
      expect(after.mail.html).toContain(`href="${s.server.url}/book/"`);
      expect(after.mail.html).toContain(`>${button}</a>`);
      await s.server.stop();
    },
  );
});
