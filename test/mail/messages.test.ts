import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { bookingMessages, changeMessages, escapeHtml, MANAGE_MARK, withManageLink, type BookingFacts } from '../../src/mail/messages.ts';
import { localWhen } from '../../src/mail/translations.ts';

const STAMP = Date.parse('2026-11-21T12:00:00Z') / 1000;

const FACTS: BookingFacts = {
  practiceName: 'Praxis <Sonne> & Co',
  notifyEmail: 'desk@sonne.example',
  locale: 'en',
  timeZone: 'Europe/Berlin',
  scheduleName: 'Dr. Weber',
  reasonName: 'Check-up',
  reference: 'ABCDEFGH23456789',
  startAt: Date.parse('2026-11-24T08:30:00Z') / 1000,
  endAt: Date.parse('2026-11-24T09:00:00Z') / 1000,
  source: 'api',
  customerEmail: 'ada@example.com',
  customerName: '<img src=x onerror=alert(1)> Ada',
  fields: [
    { label: 'First name', value: '<img src=x onerror=alert(1)> Ada' },
    { label: 'E-mail', value: 'ada@example.com' },
    { label: 'Consent', value: true },
  ],
};

/** Returns the VEVENT of an .ics text, parsed by ical.js. */
function parseEvent(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  return { calendar, event };
}

describe('booking messages', () => {
  const [confirmation, notice] = bookingMessages(FACTS, STAMP);

  it('sends a confirmation to the customer and a notice to the practice', () => {
    expect(confirmation!.kind).toBe('confirmation');
    expect(confirmation!.recipient).toBe('ada@example.com');
    expect(confirmation!.subject).toBe('Your appointment at Praxis <Sonne> & Co: Tuesday, 24 November 2026, 09:30 CET');
    expect(notice!.kind).toBe('notice');
    expect(notice!.recipient).toBe('desk@sonne.example');
    expect(notice!.subject).toMatch(/^New booking: Check-up, Tuesday, 24 November 2026, 09:30 CET/);
  });

  it('the confirmation names practice, reason, local time with zone, duration and reference', () => {
    for (const part of ['Check-up', 'Tuesday, 24 November 2026, 09:30 CET', '30 minutes', 'ABCDEFGH23456789', 'Praxis <Sonne> & Co']) {
      expect(confirmation!.text).toContain(part);
    }
    expect(confirmation!.html).toContain('Praxis &#60;Sonne&#62; &#38; Co');
  });

  it('the notice lists what the customer entered, escaped in HTML', () => {
    expect(notice!.text).toContain('<img src=x onerror=alert(1)> Ada');
    expect(notice!.text).toMatch(/Consent: +yes/);
    expect(notice!.html).not.toContain('<img');
    expect(notice!.html).toContain('&#60;img src=x onerror=alert(1)&#62; Ada');
    expect(confirmation!.html).not.toContain('<img');
  });

  it('attaches a VEVENT whose UID is the reference and whose times are the booking’s UTC instants', () => {
    const { calendar, event } = parseEvent(confirmation!.ics);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.uid).toBe('ABCDEFGH23456789@planner');
    expect(event.startDate.toUnixTime()).toBe(FACTS.startAt);
    expect(event.endDate.toUnixTime()).toBe(FACTS.endAt);
    expect(event.startDate.zone.tzid).toBe('UTC');
    expect(event.summary).toBe('Check-up – Praxis <Sonne> & Co');
    expect(event.organizer.toLowerCase()).toBe('mailto:desk@sonne.example'); // URI schemes are case-insensitive
    expect(event.attendees.map((attendee) => String(attendee.getFirstValue()).toLowerCase())).toEqual(['mailto:ada@example.com']);
    expect(event.sequence).toBe(0);
    expect(event.component.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-11-21T12:00:00Z');
  });

  it('escapes iCalendar text and folds long lines at 75 octets without splitting a character', () => {
    const [message] = bookingMessages({ ...FACTS, reasonName: 'Röntgen; Knie, links\\rechts', practiceName: 'Ä'.repeat(60) }, STAMP);
    for (const line of message!.ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const { event } = parseEvent(message!.ics);
    expect(event.summary).toBe(`Röntgen; Knie, links\\rechts – ${'Ä'.repeat(60)}`);
    expect(message!.ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('speaks German for locale de', () => {
    const [german] = bookingMessages({ ...FACTS, locale: 'de' }, STAMP);
    expect(german!.subject).toBe('Ihr Termin bei Praxis <Sonne> & Co: Dienstag, 24. November 2026, 09:30 MEZ');
    expect(german!.text).toContain('Ihr Termin ist gebucht.');
    expect(german!.text).toContain('30 Minuten');
  });

  it('without a customer e-mail only the practice is told', () => {
    const messages = bookingMessages({ ...FACTS, customerEmail: null }, STAMP);
    expect(messages.map((message) => message.kind)).toEqual(['notice']);
    expect(parseEvent(messages[0]!.ics).event.attendees).toEqual([]);
  });

  it('keeps line breaks out of subjects', () => {
    const [, noticeOf] = bookingMessages({ ...FACTS, customerName: 'Ada\r\nBcc: victim@example.com' }, STAMP);
    expect(noticeOf!.subject).not.toMatch(/[\r\n]/);
  });

  it('shows local time in the practice zone, also in the southern hemisphere', () => {
    expect(localWhen(FACTS.startAt, 'Australia/Sydney', 'en-GB')).toBe('Tuesday, 24 November 2026, 19:30 GMT+11');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});

describe('the link to the self-service page (filled in when a mail is sent)', () => {
  const [confirmation, notice] = bookingMessages(FACTS, STAMP);
  const link = 'https://book.example/manage/abc"<x>';

  it('the customer mails that may change the booking hold the mark; the notice and the cancellation do not', () => {
    expect(confirmation!.text).toContain(MANAGE_MARK);
    expect(confirmation!.html).toContain(`<p>${MANAGE_MARK}</p>`);
    const [update] = changeMessages(FACTS, STAMP, { kind: 'update', sequence: 1, previousStartAt: FACTS.startAt - 3600 });
    expect(update!.text).toContain(MANAGE_MARK);
    expect(notice!.text + notice!.html).not.toContain(MANAGE_MARK);
    const [cancellation] = changeMessages(FACTS, STAMP, { kind: 'cancellation', sequence: 1, reason: null });
    expect(cancellation!.text + cancellation!.html).not.toContain(MANAGE_MARK);
  });

  it('puts the link in its own lines (escaped in HTML), or takes the line out while the page is off', () => {
    const on = withManageLink(confirmation!, 'en', link);
    expect(on.text).toContain(`\nTo cancel or change your appointment, open this page:\n${link}\n`);
    expect(on.html).toContain('<a href="https://book.example/manage/abc&#34;&#60;x&#62;">');
    expect(withManageLink(confirmation!, 'de', link).text).toContain('Termin absagen oder verlegen');
    const off = withManageLink(confirmation!, 'en', undefined);
    expect(off.text + off.html).not.toContain(MANAGE_MARK);
    expect(off.text).toBe(confirmation!.text.replace(`${MANAGE_MARK}\n`, ''));
    expect(off.text).not.toContain('\u0000');
    expect(withManageLink(notice!, 'en', link)).toBe(notice);
  });
});

describe('the link mark cannot be forged (issue 23, finding 3)', () => {
  const link = 'https://book.example/manage/TOKEN';
  const forged = `Ill ${MANAGE_MARK} again`;
  const hostile: BookingFacts = { ...FACTS, customerName: `Ada${MANAGE_MARK}`, practiceName: `Praxis${MANAGE_MARK}` };

  it('a cancellation whose reason (and name) hold the mark gets no link and carries no NUL', () => {
    const [cancellation] = changeMessages(hostile, STAMP, { kind: 'cancellation', sequence: 1, reason: forged });
    expect(cancellation!.text + cancellation!.html).not.toContain('\u0000');
    expect(cancellation!.text).toContain('Ill \ufffdmanage-link\ufffd again');
    const sent = withManageLink(cancellation!, 'en', link);
    expect(sent.text + sent.html).not.toContain(link);
  });

  it('a confirmation whose values hold the mark gets one link, at its own line', () => {
    const [confirmation] = bookingMessages({ ...hostile, reasonName: `Check-up${MANAGE_MARK}` }, STAMP);
    expect(confirmation!.text.split('\u0000').length).toBe(3); // the one mark: two NULs
    const sent = withManageLink(confirmation!, 'en', link);
    expect(sent.text.split(link).length).toBe(2);
    expect(sent.text).toContain(`open this page:\n${link}\nPraxis\ufffdmanage-link\ufffd\n`);
    expect(sent.html.split(link).length).toBe(3); // href and text of one <a>
    expect(sent.text + sent.html).not.toContain('\u0000');
  });

  it('a row an older version wrote, with a forged mark anywhere, gets no link where its kind has none, and no NUL', () => {
    for (const kind of ['cancellation', 'notice'] as const) {
      const old = { kind, text: `Reason: ${MANAGE_MARK}\nx\n${MANAGE_MARK}\n`, html: `<td>${MANAGE_MARK}</td><p>${MANAGE_MARK}</p>` };
      const sent = withManageLink(old, 'en', link);
      expect(sent.text + sent.html).not.toContain(link);
      expect(sent.text + sent.html).not.toContain('\u0000');
    }
    // A confirmation of an older version with a forged mark in a row before the real one: the link at the last.
    const old = { kind: 'confirmation' as const, text: `Reason: ${MANAGE_MARK}\nx\n${MANAGE_MARK}\nPraxis\n`, html: '' };
    expect(withManageLink(old, 'en', link).text).toBe(`Reason: \ufffdmanage-link\ufffd\nx\nTo cancel or change your appointment, open this page:\n${link}\nPraxis\n`);
  });
});
