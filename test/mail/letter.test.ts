/**
 * A mail reads as a letter. The greeting stands on its own, then a blank line, then the first
 * sentence, which starts with a capital in English (German letters go on in lower case after the comma, DIN 5008,
 * unless the word is a noun or the polite Sie/Ihr); no paragraph of any mail starts with a lower-case word.
 */
import { describe, expect, it } from 'vitest';
import { everyMail } from './every-mail.ts';

/** The paragraphs of a text part between the practice's name on top and the rows (or the end). */
function intro(text: string): string[] {
  const [, ...rest] = text.split('\n\n');
  return rest
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph && !/^[^\n:]+: /.test(paragraph) && !paragraph.startsWith('-- '));
}

describe('every mail reads as a letter (issue 41, item 14)', () => {
  it('English: "Hello Ada Lovelace," on its own, then a sentence that starts with a capital', () => {
    const first = Object.fromEntries(
      everyMail('en')
        .filter((mail) => mail.customer && !mail.name.startsWith('exported'))
        .map((mail) => [mail.name, mail.text.split('\n').slice(2, 5).join('\n')]),
    );
    expect(first).toMatchObject({
      confirmation: 'Hello Ada Lovelace,\n\nYour appointment is booked.',
      cancellation: 'Hello Ada Lovelace,\n\nYour appointment has been cancelled.',
      update: 'Hello Ada Lovelace,\n\nYour appointment has been moved to a new time.',
      reminder: 'Hello Ada Lovelace,\n\nThis is a reminder of your appointment.',
    });
    const confirmation = everyMail('en').find((mail) => mail.name === 'confirmation')!;
    expect(confirmation.html).toMatch(/>Hello Ada Lovelace,<\/p><p [^>]*>Your appointment is booked\.<\/p>/);
    expect(confirmation.text).toContain(
      'Open the attached calendar file (appointment.ics) to add the appointment to your calendar.',
    );
    const update = everyMail('en').find((mail) => mail.name === 'update')!;
    expect(update.subject).toBe(
      'Changed: your appointment at Praxis Sonne is now on Tuesday, 24 November 2026, 09:30 CET',
    );
  });

  it('German: "Guten Tag Ada Lovelace," on its own, then the sentence', () => {
    const mails = everyMail('de');
    const text = (name: string) => mails.find((mail) => mail.name === name)!.text;
    expect(text('confirmation')).toContain('Guten Tag Ada Lovelace,\n\nIhr Termin ist gebucht.\n');
    expect(text('update')).toContain(
      'Guten Tag Ada Lovelace,\n\nIhr Termin wurde auf einen neuen Zeitpunkt verlegt.\n',
    );
    expect(text('reminder')).toContain('Guten Tag Ada Lovelace,\n\nwir erinnern Sie an Ihren Termin.\n');
    expect(text('cancellation')).toContain('entfernen Sie den Termin aus Ihrem Kalender.');
  });

  it.each(['en', 'de'] as const)(
    '%s: no paragraph of any mail starts in lower case (but German after the greeting)',
    (locale) => {
      for (const mail of everyMail(locale)) {
        const paragraphs = mail.html ? intro(mail.text) : [mail.text.trim()]; // the test message: one line, no layout
        expect(paragraphs.length, mail.name).toBeGreaterThan(0);
        paragraphs.forEach((paragraph, at) => {
          const afterGreeting = mail.customer && at === 1;
          if (locale === 'de' && afterGreeting) return;
          expect(paragraph, `${mail.name}: ${paragraph}`).toMatch(/^[\p{Lu}\d[(]/u);
        });
        expect(mail.text, mail.name).not.toMatch(/\(s\)|\(en\)/); // "change(s)": say one or many
      }
    },
  );
});
