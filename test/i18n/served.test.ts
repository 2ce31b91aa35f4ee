/**
 * On a real server: `planner init --locale fr` makes a French installation (the form's labels
 * too), and its mails, self-service page, booking page and feed speak French; `practice set --locale` then switches
 * a running server to Italian, Spanish and Dutch.
 */
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../src/domain/locales.ts';
import { typeset } from '../../src/domain/typography.ts';
import { WORDS } from '../../src/mail/translations.ts';
import { BOOK_WORDS } from '../../src/portal/book-words.ts';
import { PAGE_WORDS } from '../../src/portal/words.ts';
import { cliJson, cliOk } from '../helpers.ts';
import { book, linkIn, page, type Setup, setup, slotsOf } from '../portal/page.ts';

/** Books the next free time and returns the customer's confirmation once it has arrived, and its reference. */
async function bookAndMail(s: Setup, day: string): Promise<{ mail: ParsedMail; reference: string }> {
  const [slot] = await slotsOf(s, day);
  const booked = await book(s, slot!, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  const reference = booked.booking_details_id;
  const mine = (mail: ParsedMail) => mail.to !== undefined && mail.text?.includes(reference) && !mail.replyTo;
  for (let count = s.smtp.messages.length + 1; !s.smtp.messages.some(mine); count++) await s.smtp.received(count);
  return { mail: s.smtp.messages.find(mine)!, reference };
}

// The server, SMTP server and receiver stop with the test file (test/helpers.ts).
describe('a practice in French, Italian, Spanish or Dutch (issue 41, item 15)', () => {
  it('init --locale fr: French labels, mails, pages and feed; practice set --locale switches the running server', async () => {
    const s = await setup(['--cancel-until', '0'], 'fr');
    await cliOk(s.db, 'booking-page', 'enable');
    expect((await cliJson(s.db, 'field', 'list')).map((field: { label: string }) => field.label)).toEqual([
      'Prénom',
      'Nom',
      'E-mail',
      'Téléphone',
    ]);
    const feed = (await cliOk(s.db, 'feed', 'url', '1', '--url', s.server.url)).split('\n')[0]!;
    const locales: Locale[] = ['fr', 'it', 'es', 'nl'];
    for (const [at, locale] of locales.entries()) {
      if (locale !== 'fr') {
        expect(await cliOk(s.db, 'practice', 'set', '--locale', locale)).toContain(`now speak ${locale},`);
      }
      const { mail, reference } = await bookAndMail(s, s.days[at]!);
      // As sent: typeset in its language (French: a no-break space before the colon).
      const subject = typeset(
        locale,
        WORDS[locale].confirmationSubject({ practiceName: 'Test Practice' } as never, '…'),
      );
      expect(mail.subject?.startsWith(subject.slice(0, -1)), mail.subject).toBe(true);
      expect(mail.text).toContain(`${WORDS[locale].greeting('Ada Lovelace')}\n\n${WORDS[locale].booked}\n`);
      expect(mail.html).toContain(`<html lang="${locale}">`);
      const manage = await page(linkIn(mail)!);
      expect(manage.status).toBe(200);
      expect(manage.html).toContain(`<html lang="${locale}">`);
      expect(manage.html).toContain(PAGE_WORDS[locale].title);
      const booking = await page(`${s.server.url}/book/`);
      expect(booking.html).toContain(`<html lang="${locale}">`);
      expect(booking.html).toContain(BOOK_WORDS[locale].daysTitle);
      const calendar = await (await fetch(feed)).text();
      expect(calendar.replace(/\r\n /g, '')).toContain(`${WORDS[locale].feedReference}: ${reference}`);
    }
  });
});
