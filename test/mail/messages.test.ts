import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/domain/html.ts';
import { feedIcs } from '../../src/mail/calendar.ts';
import type { BookingFacts } from '../../src/mail/facts.ts';
import {
  bookingMessages,
  changeMessages,
  customerChangeNotice,
  MANAGE_MARK,
  type ManageAction,
  manageActionAt,
  reminderMessage,
  type SendView,
  seriesCancellationNotice,
  seriesMessages,
  withManageLink,
} from '../../src/mail/messages.ts';
import { localWhen } from '../../src/mail/translations.ts';

const STAMP = Date.parse('2026-11-21T12:00:00Z') / 1000;

const FACTS: BookingFacts = {
  practiceName: 'Praxis <Sonne> & Co',
  notifyEmail: 'desk@sonne.example',
  locale: 'en',
  timeZone: 'Europe/Berlin',
  address: 'Hauptstraße 1, 10115 Berlin',
  phone: '+49 30 1234567',
  scheduleName: 'Dr. Weber',
  reasonName: 'Check-up',
  reasonDescription: 'Please bring your insurance card.\nNo food 2 h before.',
  practice: {
    locale: 'en',
    reasonName: 'Check-up',
    reasonDescription: 'Please bring your insurance card.\nNo food 2 h before.',
  },
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
    for (const part of [
      'Check-up',
      'Tuesday, 24 November 2026, 09:30 CET',
      '30 minutes',
      'ABCDEFGH23456789',
      'Praxis <Sonne> & Co',
    ]) {
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
    expect(event.attendees.map((attendee) => String(attendee.getFirstValue()).toLowerCase())).toEqual([
      'mailto:ada@example.com',
    ]);
    expect(event.sequence).toBe(0);
    expect(event.component.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-11-21T12:00:00Z');
  });

  it('escapes iCalendar text and folds long lines at 75 octets without splitting a character', () => {
    const [message] = bookingMessages(
      { ...FACTS, reasonName: 'Röntgen; Knie, links\\rechts', practiceName: 'Ä'.repeat(60) },
      STAMP,
    );
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

describe('the manage line (decided when a mail is sent: issue 24, item 3)', () => {
  const [confirmation, notice] = bookingMessages(FACTS, STAMP);
  const link = 'https://book.example/manage/abc"<x>';
  const VIEW: SendView = {
    locale: 'en',
    timeZone: 'Europe/Berlin',
    practiceName: 'Praxis Sonne',
    phone: '+49 30 1234567',
  };
  const portal = { url: 'https://book.example', cancelUntilHours: 24, reschedule: true };
  const booking = { startAt: FACTS.startAt, cancelled: false };
  const deadline = FACTS.startAt - 24 * 3600;

  it('the customer mails that may change the booking hold the mark; the notice and the cancellation do not', () => {
    expect(confirmation!.text).toContain(MANAGE_MARK);
    expect(confirmation!.html).toContain(MANAGE_MARK);
    const [update] = changeMessages(FACTS, STAMP, {
      kind: 'update',
      sequence: 1,
      previousStartAt: FACTS.startAt - 3600,
    });
    expect(update!.text).toContain(MANAGE_MARK);
    expect(notice!.text + notice!.html).not.toContain(MANAGE_MARK);
    const [cancellation] = changeMessages(FACTS, STAMP, { kind: 'cancellation', sequence: 1, reason: null });
    expect(cancellation!.text + cancellation!.html).not.toContain(MANAGE_MARK);
  });

  it("decides from the page's current rules and the booking's start at the time of sending", () => {
    const written = deadline - 3600; // the mail was written (its booking made) an hour before the deadline
    expect(manageActionAt(portal, booking, deadline - 1, written)).toEqual({
      kind: 'link',
      until: deadline,
      move: true,
    });
    expect(manageActionAt(portal, booking, deadline, written)).toEqual({ kind: 'link', until: deadline, move: true }); // the page allows it at the deadline
    expect(manageActionAt(portal, booking, deadline + 1, written)).toEqual({ kind: 'closed', until: deadline });
    expect(manageActionAt({ ...portal, reschedule: false }, booking, deadline - 1, written)).toEqual({
      kind: 'link',
      until: deadline,
      move: false,
    });
    expect(manageActionAt({ ...portal, cancelUntilHours: 0 }, booking, FACTS.startAt, written)).toEqual({
      kind: 'closed',
      until: FACTS.startAt,
    });
    expect(manageActionAt(null, booking, deadline - 1, written)).toEqual({ kind: 'off' });
    expect(manageActionAt(portal, { ...booking, cancelled: true }, deadline - 1, written)).toEqual({ kind: 'none' });
  });

  it('a mail written after the deadline (a booking made or moved inside it) says whom to call, not a date before it (issue 36, item 13)', () => {
    expect(manageActionAt(portal, booking, deadline, deadline)).toEqual({ kind: 'link', until: deadline, move: true }); // written at the deadline's second: still possible
    expect(manageActionAt(portal, booking, deadline + 1, deadline)).toEqual({ kind: 'closed', until: deadline }); // it was possible when written
    expect(manageActionAt(portal, booking, deadline + 1, deadline + 1)).toEqual({ kind: 'call' });
    expect(manageActionAt(portal, booking, FACTS.startAt + 60, deadline + 1)).toEqual({ kind: 'call' });
    expect(manageActionAt(null, booking, deadline + 1, deadline + 1)).toEqual({ kind: 'off' });
    expect(manageActionAt(portal, { ...booking, cancelled: true }, deadline + 1, deadline + 1)).toEqual({
      kind: 'none',
    });
    const call = withManageLink(confirmation!, VIEW, { kind: 'call' }, undefined);
    expect(call.text).toContain('\nTo cancel or change the appointment, please call +49 30 1234567.\n');
    expect(call.text + call.html).not.toMatch(/manage\/|Manage your appointment|You can cancel|were possible|\u0000/);
    expect(withManageLink(confirmation!, { ...VIEW, phone: '' }, { kind: 'call' }, undefined).text).toContain(
      'To cancel or change the appointment, please contact Praxis Sonne directly.\n',
    );
    const de = withManageLink(confirmation!, { ...VIEW, locale: 'de' }, { kind: 'call' }, undefined);
    expect(de.text).toContain('Um den Termin abzusagen oder zu ändern, rufen Sie bitte +49 30 1234567 an.');
    expect(
      withManageLink(confirmation!, { ...VIEW, locale: 'de', phone: '' }, { kind: 'call' }, undefined).text,
    ).toContain('Um den Termin abzusagen oder zu ändern, wenden Sie sich bitte direkt an Praxis Sonne.');
  });

  it('before the deadline: what is possible, until when, and a button to the page (the text part: the URL on its own line)', () => {
    const on = withManageLink(confirmation!, VIEW, { kind: 'link', until: deadline, move: true }, link);
    expect(on.text).toContain(
      `\nYou can cancel or move this appointment online until Monday, 23 November 2026, 09:30 CET.\nManage your appointment: ${link}\n`,
    );
    expect(on.html).toContain('<a href="https://book.example/manage/abc&#34;&#60;x&#62;"');
    expect(on.html).toContain('>Manage your appointment</a>');
    expect(on.html).not.toContain(`>${escapeHtml(link)}<`); // no raw URL as link text (issue 24, item 8)
    const cancelOnly = withManageLink(confirmation!, VIEW, { kind: 'link', until: deadline, move: false }, link);
    expect(cancelOnly.text).toContain(
      'You can cancel this appointment online until Monday, 23 November 2026, 09:30 CET.',
    );
    const de = withManageLink(
      confirmation!,
      { ...VIEW, locale: 'de' },
      { kind: 'link', until: deadline, move: true },
      link,
    );
    expect(de.text).toContain(
      'Sie können diesen Termin bis Montag, 23. November 2026, 09:30 MEZ online absagen oder verlegen.\nTermin verwalten: ',
    );
  });

  it('after the deadline: no link and no promise, the phone number instead', () => {
    const late = withManageLink(confirmation!, VIEW, { kind: 'closed', until: deadline }, undefined);
    expect(late.text).toContain(
      'Changes online were possible until Monday, 23 November 2026, 09:30 CET. To cancel or change the appointment now, please call +49 30 1234567.\n',
    );
    expect(late.text + late.html).not.toMatch(/manage\/|Manage your appointment|You can cancel/);
    expect(late.text + late.html).not.toContain('\u0000');
    const noPhone = withManageLink(
      confirmation!,
      { ...VIEW, phone: '' },
      { kind: 'closed', until: deadline },
      undefined,
    );
    expect(noPhone.text).toContain('please contact Praxis Sonne directly.');
    const de = withManageLink(confirmation!, { ...VIEW, locale: 'de' }, { kind: 'closed', until: deadline }, undefined);
    expect(de.text).toContain(
      'Online-Änderungen waren bis Montag, 23. November 2026, 09:30 MEZ möglich. Um den Termin jetzt abzusagen oder zu ändern, rufen Sie bitte +49 30 1234567 an.',
    );
  });

  it('while the page is off: the phone number, or nothing without one; the notice is left as it is', () => {
    const off = withManageLink(confirmation!, VIEW, { kind: 'off' }, undefined);
    expect(off.text).toContain('To cancel or change the appointment, please call +49 30 1234567.\n');
    const silent = withManageLink(confirmation!, { ...VIEW, phone: '' }, { kind: 'off' }, undefined);
    expect(silent.text).toBe(confirmation!.text.replace(`${MANAGE_MARK}\n`, ''));
    expect(silent.text + silent.html).not.toContain('\u0000');
    expect(withManageLink(notice!, VIEW, { kind: 'link', until: deadline, move: true }, link)).toBe(notice);
  });
});

describe('the link mark cannot be forged (issue 23, finding 3)', () => {
  const link = 'https://book.example/manage/TOKEN';
  const forged = `Ill ${MANAGE_MARK} again`;
  const hostile: BookingFacts = { ...FACTS, customerName: `Ada${MANAGE_MARK}`, practiceName: `Praxis${MANAGE_MARK}` };
  const VIEW: SendView = { locale: 'en', timeZone: 'Europe/Berlin', practiceName: 'Praxis', phone: '' };
  const LINK: ManageAction = { kind: 'link', until: FACTS.startAt - 86_400, move: true };

  it('a cancellation whose reason (and name) hold the mark gets no link and carries no NUL', () => {
    const [cancellation] = changeMessages(hostile, STAMP, { kind: 'cancellation', sequence: 1, reason: forged });
    expect(cancellation!.text + cancellation!.html).not.toContain('\u0000');
    expect(cancellation!.text).toContain('Ill \ufffdmanage-link\ufffd again');
    const sent = withManageLink(cancellation!, VIEW, LINK, link);
    expect(sent.text + sent.html).not.toContain(link);
  });

  it('a confirmation whose values hold the mark gets one link, at its own line', () => {
    const [confirmation] = bookingMessages({ ...hostile, reasonName: `Check-up${MANAGE_MARK}` }, STAMP);
    expect(confirmation!.text.split('\u0000').length).toBe(3); // the one mark: two NULs
    expect(confirmation!.html.split('\u0000').length).toBe(3);
    const sent = withManageLink(confirmation!, VIEW, LINK, link);
    expect(sent.text.split(link).length).toBe(2);
    expect(sent.text).toContain(`Manage your appointment: ${link}\n\nOpen the attached calendar file`);
    expect(sent.html.split(link).length).toBe(2); // the button's href
    expect(sent.text + sent.html).not.toContain('\u0000');
  });

  it('a row an older version wrote, with a forged mark anywhere, gets no link where its kind has none, and no NUL', () => {
    for (const kind of ['cancellation', 'notice'] as const) {
      const old = {
        kind,
        text: `Reason: ${MANAGE_MARK}\nx\n${MANAGE_MARK}\n`,
        html: `<td>${MANAGE_MARK}</td><p>${MANAGE_MARK}</p>`,
      };
      const sent = withManageLink(old, VIEW, LINK, link);
      expect(sent.text + sent.html).not.toContain(link);
      expect(sent.text + sent.html).not.toContain('\u0000');
    }
    // A confirmation of an older version with a forged mark in a row before the real one: the link at the last.
    const old = {
      kind: 'confirmation' as const,
      text: `Reason: ${MANAGE_MARK}\nx\n${MANAGE_MARK}\nPraxis\n`,
      html: `<td>${MANAGE_MARK}</td><p>${MANAGE_MARK}</p>`,
    };
    const sent = withManageLink(old, VIEW, LINK, link);
    expect(sent.text).toBe(
      `Reason: \ufffdmanage-link\ufffd\nx\nYou can cancel or move this appointment online until Monday, 23 November 2026, 09:30 CET.\nManage your appointment: ${link}\n\nPraxis\n`,
    );
    expect(sent.html.startsWith('<td>\ufffdmanage-link\ufffd</td><div')).toBe(true);
    expect(sent.html.split(link).length).toBe(2);
  });
});

describe('what every customer mail shows (issue 24, items 2 and 8)', () => {
  const [confirmation] = bookingMessages(FACTS, STAMP);
  const [update] = changeMessages(FACTS, STAMP, { kind: 'update', sequence: 1, previousStartAt: FACTS.startAt - 3600 });
  const [cancellation] = changeMessages(FACTS, STAMP, { kind: 'cancellation', sequence: 2, reason: 'ill' });
  const reminder = reminderMessage(FACTS, STAMP, 0)!;
  const mails = { confirmation: confirmation!, update: update!, cancellation: cancellation!, reminder };

  it.each(Object.entries(mails))(
    'the %s names the practitioner, where (with the address) and the phone, in text and HTML',
    (_, mail) => {
      expect(mail.text).toMatch(/^With: +Dr\. Weber$/m);
      expect(mail.text).toMatch(/^Where: +Praxis <Sonne> & Co, Hauptstraße 1, 10115 Berlin$/m);
      expect(mail.text).toMatch(/^Phone: +\+49 30 1234567$/m);
      for (const part of [
        'Dr. Weber',
        'Praxis &#60;Sonne&#62; &#38; Co, Hauptstraße 1, 10115 Berlin',
        '+49 30 1234567',
      ])
        expect(mail.html).toContain(part);
      expect(parseEvent(mail.ics).event.location).toBe('Praxis <Sonne> & Co, Hauptstraße 1, 10115 Berlin');
    },
  );

  it("the confirmation, update and reminder say what to bring (the reason's description); the text part has what the HTML has", () => {
    for (const mail of [confirmation!, update!, reminder]) {
      expect(mail.text).toContain('Please note:\nPlease bring your insurance card.\nNo food 2 h before.\n');
      expect(mail.html).toContain('Please bring your insurance card.\nNo food 2 h before.');
    }
    expect(bookingMessages({ ...FACTS, reasonDescription: ' ' }, STAMP)[0]!.text).not.toContain('Please note');
    // The practice's name heads both parts; no table of raw cells, no external resource.
    expect(confirmation!.text.startsWith('Praxis <Sonne> & Co\n\nHello ')).toBe(true);
    expect(confirmation!.html).toContain('<meta name="viewport"');
    expect(bookingMessages({ ...FACTS, customerName: 'Ada' }, STAMP)[0]!.html).not.toMatch(
      /<link|<img|src=|url\(|<script|@import/,
    );
  });

  it('without an address or phone, nothing is left empty', () => {
    const bare = bookingMessages({ ...FACTS, address: '', phone: '' }, STAMP)[0]!;
    expect(bare.text).toMatch(/^Where: +Praxis <Sonne> & Co$/m);
    expect(bare.text).not.toMatch(/Phone/);
    expect(parseEvent(bare.ics).event.location).toBe('Praxis <Sonne> & Co');
  });

  it('speaks German: Bei, Wo, Telefon, Bitte beachten', () => {
    const german = bookingMessages({ ...FACTS, locale: 'de' }, STAMP)[0]!;
    for (const line of [/^Bei: +Dr\. Weber$/m, /^Wo: +Praxis/m, /^Telefon: +\+49/m, /^Bitte beachten:$/m])
      expect(german.text).toMatch(line);
    expect(german.html).toContain('<html lang="de">');
  });
});

describe("the practice's notices (issue 24, item 4)", () => {
  it("a new booking's notice and a customer's change carry Reply-To the customer", () => {
    const [, notice] = bookingMessages(FACTS, STAMP);
    expect(notice!.replyTo).toBe('ada@example.com');
    expect(bookingMessages({ ...FACTS, customerEmail: null }, STAMP)[0]!.replyTo).toBeUndefined();
  });

  it('a move by the customer: the old and the new time, who, the answers; to the notify address', () => {
    const moved = customerChangeNotice(FACTS, {
      kind: 'update',
      sequence: 1,
      previousStartAt: FACTS.startAt - 86_400,
    });
    expect([moved.kind, moved.recipient, moved.replyTo]).toEqual(['notice', 'desk@sonne.example', 'ada@example.com']);
    expect(moved.subject).toBe(
      'Moved by the customer: Check-up, now Tuesday, 24 November 2026, 09:30 CET (<img src=x onerror=alert(1)> Ada)',
    );
    expect(moved.text).toMatch(/^Previously: +Monday, 23 November 2026, 09:30 CET$/m);
    expect(moved.text).toMatch(/^Now: +Tuesday, 24 November 2026, 09:30 CET$/m);
    expect(moved.text).toMatch(/^Consent: +yes$/m);
    expect(moved.text).toContain('Answering this e-mail reaches the customer (ada@example.com).');
    expect(moved.html).not.toContain('<img');
    expect(moved.text + moved.html).not.toContain(MANAGE_MARK);
  });

  it('a cancellation by the customer: the time and the reason given, in German too', () => {
    const cancelled = customerChangeNotice(
      { ...FACTS, locale: 'de' },
      {
        kind: 'cancellation',
        sequence: 1,
        reason: 'krank',
      },
    );
    expect(cancelled.subject).toMatch(/^Vom Kunden abgesagt: Check-up, Dienstag, 24\. November 2026, 09:30 MEZ/);
    expect(cancelled.text).toMatch(/^Grund: +krank$/m);
  });

  it('carry no calendar file: not the customer’s invitation, nor a copy no later change would reach', () => {
    const one = { facts: FACTS, sequence: 1 };
    const notices = [
      bookingMessages(FACTS, STAMP)[1]!,
      bookingMessages({ ...FACTS, customerEmail: null }, STAMP)[0]!,
      seriesMessages([FACTS, { ...FACTS, reference: 'BCDEFGH234567892' }], STAMP).at(-1)!,
      customerChangeNotice(FACTS, { kind: 'update', sequence: 1, previousStartAt: FACTS.startAt - 86_400 }),
      customerChangeNotice(FACTS, { kind: 'cancellation', sequence: 1, reason: null }),
      seriesCancellationNotice([one, one], null),
    ];
    expect(notices.map((notice) => [notice.kind, notice.recipient, notice.ics])).toEqual(
      notices.map(() => ['notice', 'desk@sonne.example', '']),
    );
  });
});

describe('the feed (issue 24, items 10 and 11)', () => {
  const event = {
    reference: 'ABCDEFGH23456789',
    startAt: FACTS.startAt,
    endAt: FACTS.endAt,
    sequence: 1,
    cancelled: true,
    reasonName: 'Check-up',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '',
    changedAt: STAMP,
    fields: [
      { label: 'E-mail', value: 'ada@example.com' },
      { label: 'Insurance', value: 'private' },
      { label: 'Consent', value: true },
    ],
  };

  it("a cancelled event's title says so, in the installation's language; the description carries every form field", () => {
    const en = parseEvent(feedIcs('Praxis – Dr. Weber', [event], 'en', 'Praxis, Hauptstraße 1')).event;
    expect(en.summary).toBe('Cancelled: Check-up – Ada Lovelace');
    expect(en.description).toBe(
      'Reference: ABCDEFGH23456789\nE-mail: ada@example.com\nInsurance: private\nConsent: yes',
    );
    expect(en.location).toBe('Praxis, Hauptstraße 1');
    const de = parseEvent(feedIcs('Praxis – Dr. Weber', [event], 'de')).event;
    expect(de.summary).toBe('Abgesagt: Check-up – Ada Lovelace');
    expect(de.description).toBe(
      'Buchungsnummer: ABCDEFGH23456789\nE-mail: ada@example.com\nInsurance: private\nConsent: ja',
    );
    expect(parseEvent(feedIcs('x', [{ ...event, cancelled: false }], 'en')).event.summary).toBe(
      'Check-up – Ada Lovelace',
    );
  });

  it('a cancelled appointment is free time (TRANSP:TRANSPARENT), for apps that ignore its STATUS; a booked one is busy', () => {
    const transp = (cancelled: boolean) =>
      parseEvent(feedIcs('x', [{ ...event, cancelled }], 'en')).event.component.getFirstPropertyValue('transp');
    expect([transp(true), transp(false)]).toEqual(['TRANSPARENT', 'OPAQUE']);
  });
});

describe('parameter values (RFC 6868)', () => {
  it("a name with quotes, carets and line breaks reaches CN whole: ^', ^^ and ^n, read back by ical.js", () => {
    const name = 'Ilse "Quote" ^2\nZweite Zeile';
    const [confirmation] = bookingMessages({ ...FACTS, customerName: name, practiceName: 'Praxis "Sonne"' }, STAMP);
    const { event } = parseEvent(confirmation!.ics);
    expect(event.component.getFirstProperty('attendee')!.getParameter('cn')).toBe(name);
    expect(event.component.getFirstProperty('organizer')!.getParameter('cn')).toBe('Praxis "Sonne"');
    expect(confirmation!.ics).toContain('CN="Ilse ^\'Quote^\' ^^2^nZweite Zeile"');
  });
});
