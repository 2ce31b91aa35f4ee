/**
 * Every kind of mail planner writes, in one locale, from one booking: the customer's confirmation, move,
 * cancellation and reminder (with each manage line), a series' confirmation and cancellation of several dates, the
 * practice's notices of a booking, of a series and of the customer's changes, the calendar alerts (read and write,
 * failing and recovered), the test message and an exported mail. For the tests that read them as a customer (or the
 * practice) would, and the practice's mail about planner's events edited in a calendar app.
 */
import { calendarAlert, calendarEditsAlert } from '../../src/mail/calendar-alert.ts';
import type { BookingFacts } from '../../src/mail/facts.ts';
import {
  bookingMessages,
  changeMessages,
  customerChangeNotice,
  keptMessage,
  type ManageAction,
  reminderMessage,
  seriesCancellationMessages,
  seriesMessages,
  withManageLink,
} from '../../src/mail/messages.ts';
import { WORDS } from '../../src/mail/translations.ts';
import type { OutgoingMessage } from '../../src/store/outbox.ts';
import type { Locale } from '../../src/store/settings.ts';

export const STAMP = Date.parse('2026-11-21T12:00:00Z') / 1000;

/** One booking's facts in `locale` (the names are the practice's and the customer's own, never translated). */
export function factsIn(locale: Locale): BookingFacts {
  return {
    practiceName: 'Praxis Sonne',
    notifyEmail: 'desk@sonne.example',
    locale,
    timeZone: 'Europe/Berlin',
    address: 'Hauptstraße 1, 10115 Berlin',
    phone: '+49 30 1234567',
    scheduleName: 'Dr. Weber',
    reasonName: 'Check-up',
    reasonDescription: 'Versichertenkarte',
    practice: { locale, reasonName: 'Check-up', reasonDescription: 'Versichertenkarte' },
    reference: 'ABCDEFGH23456789',
    startAt: Date.parse('2026-11-24T08:30:00Z') / 1000,
    endAt: Date.parse('2026-11-24T09:00:00Z') / 1000,
    source: 'api',
    customerEmail: 'ada@example.com',
    customerName: 'Ada Lovelace',
    fields: [
      { label: 'Vorname', value: 'Ada' },
      { label: 'Einwilligung', value: true },
    ],
  };
}

export interface NamedMail {
  name: string;
  subject: string;
  text: string;
  html: string;
  /** A mail to the customer (it greets them). */
  customer: boolean;
}

/** Every mail kind in `locale`, each manage line filled in as the sender would (link, closed, call, off). */
export function everyMail(locale: Locale): NamedMail[] {
  const facts = factsIn(locale);
  const view = { locale, timeZone: facts.timeZone, practiceName: facts.practiceName, phone: facts.phone };
  const sent = (action: ManageAction) => (message: OutgoingMessage | undefined) =>
    withManageLink(message!, view, action, 'https://praxis.example/manage/TOKEN');
  const link = sent({ kind: 'link', until: STAMP + 86_400, move: true });
  const [confirmation, notice] = bookingMessages(facts, STAMP);
  const [cancellation] = changeMessages(facts, STAMP, { kind: 'cancellation', sequence: 1, reason: 'Krank' });
  const [update] = changeMessages(facts, STAMP, { kind: 'update', sequence: 1, previousStartAt: STAMP + 3600 });
  const reminder = reminderMessage(facts, STAMP, 0)!;
  const week = (n: number) => ({
    ...facts,
    reference: `ABCDEFGH2345678${n}`,
    startAt: facts.startAt + n * 7 * 86_400,
    endAt: facts.endAt + n * 7 * 86_400,
  });
  const [seriesConfirmation, seriesNotice] = seriesMessages([week(2), week(3), week(4)], STAMP);
  // As the sender writes a series' manage line (seriesActionAt): the rule for each date, one date past its deadline.
  const ofSeries = sent({ kind: 'series', hours: 24, move: true, closed: [week(2).startAt] });
  const [dateCancellation] = changeMessages(week(3), STAMP, {
    kind: 'cancellation',
    sequence: 1,
    reason: null,
    stillBooked: [week(2).startAt, week(4).startAt],
  });
  const [seriesCancellation] = seriesCancellationMessages(
    [week(3), week(4)].map((one) => ({ facts: one, sequence: 1 })),
    STAMP,
    { reason: null },
  );
  const settings = {
    practiceName: facts.practiceName,
    timeZone: facts.timeZone,
    locale,
    notifyEmail: 'desk@x.example',
  };
  const alert = (recovered: boolean, writing?: { waiting: number }) =>
    calendarAlert({
      settings,
      calendarId: 2,
      label: 'Privat',
      scheduleName: 'Dr. Weber',
      failingSince: STAMP,
      error: 'HTTP 401',
      recovered,
      ...(writing ? { writing } : {}),
    });
  const words = WORDS[locale];
  const mails: [string, { subject: string; text: string; html: string }, boolean][] = [
    ['confirmation', link(confirmation), true],
    ['confirmation, page off', sent({ kind: 'off' })(confirmation), true],
    ['confirmation, move off', sent({ kind: 'link', until: STAMP + 86_400, move: false })(confirmation), true],
    ['cancellation', link(cancellation), true],
    ['update', link(update), true],
    ['reminder', link(reminder), true],
    ['reminder, too late', sent({ kind: 'closed', until: STAMP })(reminder), true],
    ['reminder, call', sent({ kind: 'call' })(reminder), true],
    ['reminder, no phone', withManageLink(reminder, { ...view, phone: '' }, { kind: 'call' }, undefined), true],
    ['exported confirmation', keptMessage(confirmation!, locale), true],
    ['series confirmation', ofSeries(seriesConfirmation), true],
    ['a date of a series cancelled', ofSeries(dateCancellation), true],
    ['series cancellation', link(seriesCancellation), true],
    ['series notice', seriesNotice!, false],
    ['notice', notice!, false],
    ['notice, by the admin', bookingMessages({ ...facts, source: 'admin', customerEmail: null }, STAMP)[0]!, false],
    ['customer cancelled', customerChangeNotice(facts, { kind: 'cancellation', sequence: 1, reason: null }), false],
    ['customer moved', customerChangeNotice(facts, { kind: 'update', sequence: 1, previousStartAt: STAMP }), false],
    ['calendar failing', alert(false), false],
    ['calendar recovered', alert(true), false],
    ['calendar write failing', alert(false, { waiting: 1 }), false],
    ['calendar writes failing', alert(false, { waiting: 3 }), false],
    ['calendar write recovered', alert(true, { waiting: 0 }), false],
    [
      'calendar edited in an app',
      calendarEditsAlert({
        settings,
        calendarId: 2,
        label: 'Privat',
        scheduleName: 'Dr. Weber',
        edits: [
          {
            reference: 'ABCDEFGH23456789',
            kind: 'moved',
            booked: '2026-11-24 09:30–10:00',
            shown: '2026-11-24 11:00–11:30',
          },
          { reference: 'ABCDEFGH2345678A', kind: 'removed', booked: '2026-11-25 09:30–10:00', shown: null },
        ],
      }),
      false,
    ],
    [
      'test message',
      {
        subject: words.testSubject('Praxis Sonne'),
        text: words.testText('Praxis Sonne', 'smtp://mail.example'),
        html: '',
      },
      false,
    ],
  ];
  return mails.map(([name, mail, customer]) => ({
    name,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    customer,
  }));
}
