/**
 * Every language speaks wholly. Each word table has every key of English's in every locale (the
 * types say so too: `satisfies Record<Locale, Translation<…>>`), no word is English's copied over, and every page kind,
 * mail kind, the feed and the calendar event, rendered in each language, hold no sentence of English's tables and no
 * common English word. The names in the fixtures (the practice, the practitioner, the customer) are not English.
 */
import { describe, expect, it } from 'vitest';
import type { Managed, Refusal } from '../../src/app/pages/portal.ts';
import { DEFAULT_LABELS, type FieldDefinition } from '../../src/domain/form.ts';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../src/domain/locales.ts';
import { type FeedEvent, feedIcs, practitionerEventIcs } from '../../src/mail/calendar.ts';
import { WORDS as ALERT_WORDS } from '../../src/mail/calendar-alert.ts';
import { WORDS } from '../../src/mail/translations.ts';
import { carry } from '../../src/portal/book-form.ts';
import {
  type BookView,
  daysPage as bookDaysPage,
  timesPage as bookTimesPage,
  choosePage,
  detailsPage,
  donePage,
  notOfferedPage,
  type Offer,
  refusedPage,
  reviewPage,
} from '../../src/portal/book-pages.ts';
import { BOOK_WORDS, fieldError } from '../../src/portal/book-words.ts';
import { DESK_WORDS } from '../../src/portal/desk-words.ts';
import { failedPage, notFoundPage, tooManyPage } from '../../src/portal/kit.ts';
import { cancelPage, confirmMovePage, daysPage, overviewPage, timesPage } from '../../src/portal/pages.ts';
import { PAGE_WORDS } from '../../src/portal/words.ts';
import { everyMail, STAMP } from '../mail/every-mail.ts';

const TABLES = {
  'mail/translations.ts': WORDS,
  'mail/calendar-alert.ts': ALERT_WORDS,
  'portal/words.ts': PAGE_WORDS,
  'portal/book-words.ts': BOOK_WORDS,
  'portal/desk-words.ts': DESK_WORDS,
  'domain/form.ts': DEFAULT_LABELS,
} as Record<string, Record<Locale, unknown>>;

const OTHERS = LOCALES.filter((locale) => locale !== 'en');

/** Every leaf of a table as [path, value]: texts and phrases (functions). */
function leaves(table: unknown, path = ''): [string, unknown][] {
  if (typeof table === 'object' && table !== null)
    return Object.entries(table).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
  return [[path, table]];
}

/**
 * Words that are rightly the same as English's in a language: product names, `E-mail`, `Status`, `No`, and the
 * placeholders a phrase may hold alone. Keyed `<locale>:<table path>`.
 */
const SAME_AS_ENGLISH = new Set([
  ...OTHERS.flatMap((locale) => [`${locale}:portal/book-words.ts:outlook`]),
  ...OTHERS.flatMap((locale) => [`${locale}:portal/desk-words.ts:auditActors.server`]), // planner, the product
  ...['fr', 'it', 'nl'].flatMap((locale) => [`${locale}:portal/book-words.ts:email`, `${locale}:domain/form.ts:email`]),
  'de:portal/words.ts:name',
  'de:portal/words.ts:status',
  'nl:portal/words.ts:status',
  'it:portal/book-words.ts:google',
  'es:portal/book-words.ts:google',
  'it:portal/book-words.ts:no',
  'es:portal/book-words.ts:no',
  'it:mail/translations.ts:no',
  'es:mail/translations.ts:no',
  'fr:mail/translations.ts:dates', // French writes "Dates" too (issue 40's series mail)
  'fr:portal/desk-words.ts:date',
  'fr:portal/desk-words.ts:absences',
  'it:portal/desk-words.ts:password',
  'it:portal/desk-words.ts:roles.reception', // as the mails' "la reception"
  'nl:portal/desk-words.ts:week',
  'nl:portal/desk-words.ts:sources.api', // website
  'nl:portal/desk-words.ts:auditActors.api', // website (API)
]);

/** A mark that stands for every argument of a phrase, so its own words can be told from what is put in. */
const MARK = '\u0001';
/** One argument that fits every phrase: a text, a number (not 1: the plural), a practice's facts. */
const ANY = Object.assign(Object.create({ [Symbol.toPrimitive]: () => MARK }), {
  practiceName: MARK,
  reasonName: MARK,
  customerName: MARK,
  customerEmail: MARK,
  reference: MARK,
});

/** What a leaf says: a text, or a phrase called with every argument as ANY, as 1 and as '' (each branch). */
function said(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'function') return [];
  const phrase = value as (...args: unknown[]) => string;
  return [ANY, 1, ''].map((arg) => phrase(...Array.from({ length: phrase.length }, () => arg)));
}

/**
 * The English sentences and phrases to look for: each text of English's tables cut at what is put in, kept when it
 * holds two words at least (a single word such as "Duration" is checked key by key instead).
 */
const ENGLISH = [
  ...new Set(
    Object.values(TABLES)
      .flatMap((table) => leaves(table.en))
      .flatMap(([, value]) => said(value))
      .flatMap((text) => text.split(/[\u0001\d]+/))
      .map((part) => part.replace(/^[\s.,:;()[\]"'’-]+|[\s.,:;()[\]"'’-]+$/g, ''))
      .filter((part) => /[A-Za-z]{2,}[^A-Za-z]+[A-Za-z]{2,}/.test(part))
      .filter((part) => !part.startsWith('user <') && part !== 'Google Calendar'), // a command's option, a product
  ),
];

/** Common English words that no page or mail of another language holds (outside names and commands). */
const ENGLISH_WORDS = /\b(the|your|please|you|this|and|with|from|until|appointment|booking)\b/i;

/** The text a reader sees of HTML: tags out, character references decoded. */
function visible(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

/**
 * Finds what of English is left in `text`. Not English: the commands a practice's mail names, and the names of the
 * attached files (appointment.ics, appointment-1.ics …, as calendar apps expect them).
 */
function englishIn(text: string): string[] {
  const found = ENGLISH.filter((sentence) => text.includes(sentence));
  const words = text
    .replace(/planner [a-z-]+( [a-z-]+)*/g, '')
    .replace(/appointment(-\d+)?\.ics/g, '')
    .match(ENGLISH_WORDS);
  return [...found, ...(words ? [`word "${words[0]}"`] : [])];
}

const PRACTICE = {
  practiceName: 'Praxis Sonne',
  address: 'Hauptstraße 1, 10115 Berlin',
  phone: '+49 30 1234567',
  website: 'https://praxis-sonne.example',
  notifyEmail: 'empfang@praxis-sonne.example',
};

/** A booking as the self-service page shows it, in `state`. */
function managed(locale: Locale, state: Managed['state'], mayMove = true): Managed {
  return {
    booking: {
      reference: 'ABCDEFGH23456789',
      scheduleName: 'Dr. Weber',
      reasonName: 'Kontrolle',
      customerName: 'Ada Lovelace',
      startAt: Date.parse('2026-11-24T08:30:00Z') / 1000,
      endAt: Date.parse('2026-11-24T09:00:00Z') / 1000,
      status: state === 'cancelled' ? 'cancelled' : 'booked',
      cancelReason: state === 'cancelled' ? 'Krank' : null,
    },
    settings: {
      ...PRACTICE,
      locale,
      languages: [locale],
      timeZone: 'Europe/Berlin',
      portal: { cancelUntilHours: 24, reschedule: mayMove },
    },
    state,
    deadline: Date.parse('2026-11-23T08:30:00Z') / 1000,
    mayMove,
    movable: true,
    practitioners: [],
  } as unknown as Managed;
}

/** A cancelled date of a series of three: one date past, this one cancelled, one still open (issue 47). */
function ofSeries(locale: Locale): Managed {
  const cancelled = managed(locale, 'cancelled');
  const date = (n: number, state: 'booked' | 'cancelled' | 'past') => ({
    id: n,
    reference: `REF${n}`,
    startAt: cancelled.booking.startAt + (n - 2) * 7 * 86_400,
    endAt: cancelled.booking.endAt + (n - 2) * 7 * 86_400,
    status: state === 'cancelled' ? 'cancelled' : 'booked',
    sequence: 0,
    state,
    open: state === 'booked',
    deadline: cancelled.deadline + (n - 2) * 7 * 86_400,
  });
  const booking = { ...cancelled.booking, id: 2 };
  const dates = [date(1, 'past'), date(2, 'cancelled'), date(3, 'booked')] as NonNullable<Managed['series']>['dates'];
  return { ...cancelled, booking, series: { reference: 'S', intervalDays: 7, dates, laterBooked: 1, linkedId: 1 } };
}

const REFUSALS: (Refusal | 'forbidden')[] = [
  'past-deadline',
  'started',
  'cancelled',
  'changed',
  'taken',
  'no-reschedule',
  'not-movable',
  'bad-reason',
  'bad-input',
  'forbidden',
];

/** Every kind of the self-service page in `locale`, by name. */
function selfServicePages(locale: Locale): [string, string][] {
  const base = 'https://praxis.example/manage/TOKEN';
  const open = managed(locale, 'open');
  const slot = { local: '2026-11-25 10:00:00', startAt: Date.parse('2026-11-25T09:00:00Z') / 1000 };
  const practice = { ...PRACTICE, locale };
  return [
    ['overview', overviewPage({ managed: open, base }).html],
    ['overview, cancel only', overviewPage({ managed: managed(locale, 'open', false), base }).html],
    ['overview, past the deadline', overviewPage({ managed: managed(locale, 'past-deadline'), base }).html],
    ['overview, begun', overviewPage({ managed: managed(locale, 'started'), base }).html],
    [
      'overview, cancelled',
      overviewPage({ managed: managed(locale, 'cancelled'), base, notice: { kind: 'done', what: 'cancelled' } }).html,
    ],
    ['overview, moved', overviewPage({ managed: open, base, notice: { kind: 'done', what: 'moved' } }).html],
    ['overview, a cancelled date of a series', overviewPage({ managed: ofSeries(locale), base }).html],
    ...REFUSALS.map((why): [string, string] => [
      `overview, refused ${why}`,
      overviewPage({ managed: open, base, notice: { kind: 'refused', why }, status: 409 }).html,
    ]),
    ['cancel', cancelPage({ managed: open, base, form: { csrf: 'x' } }).html],
    [
      'days',
      daysPage({
        managed: open,
        base,
        days: ['2026-11-24', '2026-11-25'],
        pages: { earlier: '2026-11-10', later: '2026-12-08' },
      }).html,
    ],
    ['no days', daysPage({ managed: open, base, days: [], pages: {} }).html],
    [
      'times',
      timesPage({ managed: open, base, day: '2026-11-25', slots: [slot, { local: '2026-11-25 18:00:00', startAt: 0 }] })
        .html,
    ],
    ['no times', timesPage({ managed: open, base, day: '2026-11-25', slots: [] }).html],
    ['confirm the move', confirmMovePage({ managed: open, base, slot, form: { csrf: 'x' } }).html],
    ['not found', notFoundPage(practice).html],
    ['too many', tooManyPage(practice, 30).html],
    ['failed', failedPage(practice).html],
  ];
}

const FIELDS: FieldDefinition[] = [
  {
    key: 'first_name',
    formType: 'textbox',
    inputType: 'text',
    label: 'Vorname',
    required: true,
    defaultValue: '',
    options: [],
  },
  {
    key: 'email',
    formType: 'textbox',
    inputType: 'email',
    label: 'E-Mail',
    required: true,
    defaultValue: '',
    options: [],
  },
  {
    key: 'kasse',
    formType: 'select',
    inputType: 'text',
    label: 'Kasse',
    required: false,
    defaultValue: '',
    options: ['AOK'],
  },
  {
    key: 'ok',
    formType: 'checkbox',
    inputType: 'text',
    label: 'Einwilligung',
    required: false,
    defaultValue: '',
    options: [],
  },
  {
    key: 'notiz',
    formType: 'textarea',
    inputType: 'text',
    label: 'Notiz',
    required: false,
    defaultValue: '',
    options: [],
  },
];

/** The problems a booking page's form can show (domain/submission.ts), each as the core writes it. */
const FIELD_ERRORS = [
  'Field is required',
  'Invalid e-mail address',
  'Invalid phone number',
  'Invalid number',
  'Invalid date, expected YYYY-MM-DD',
  'Invalid value',
  'Must be one of the options',
  'Must be a single line',
  'Must not contain control characters',
  'Must not contain text-direction controls',
  'Too long (at most 500 characters)',
];

/** Every kind of the booking page in `locale`, by name. */
function bookingPages(locale: Locale): [string, string][] {
  const words = BOOK_WORDS[locale];
  const view: BookView = {
    practice: { ...PRACTICE, locale },
    privacyUrl: 'https://praxis-sonne.example/datenschutz',
    manyOffers: true,
  };
  const offer: Offer = {
    scheduleId: 1,
    scheduleName: 'Dr. Weber',
    reasonId: 1,
    reasonName: 'Kontrolle',
    description: 'Versichertenkarte',
    minutes: 90,
  };
  const slot = { local: '2026-11-25 10:00:00', startAt: Date.parse('2026-11-25T09:00:00Z') / 1000 };
  const ticket = { key: 'k', issued: '1', sig: 's' };
  const values = { first_name: 'Ada', email: 'ada@example.com', kasse: 'AOK', ok: 'on', notiz: 'Nein' };
  const errors = Object.fromEntries(FIELDS.map((field, at) => [field.key, fieldError(words, FIELD_ERRORS[at]!)]));
  const moreErrors = Object.fromEntries(
    FIELDS.map((field, at) => [field.key, fieldError(words, FIELD_ERRORS[at + FIELDS.length] ?? FIELD_ERRORS[0]!)]),
  );
  const booked = {
    offer,
    local: slot.local,
    reference: 'ABCDEFGH23456789',
    email: 'ada@example.com',
    calendar: { google: 'https://g.example', outlook: 'https://o.example', ics: '/book/ics' },
    manageUrl: 'https://praxis.example/manage/TOKEN',
    replayed: false,
  };
  const refusals = Object.entries(words.refusal).map(([why, text]): [string, string] => [
    `refused ${why}`,
    refusedPage({ view, text: typeof text === 'function' ? text(3) : text, status: 409 }).html,
  ]);
  return [
    ['choose', choosePage({ view, offers: [offer, { ...offer, reasonId: 2, minutes: 60 }] }).html],
    ['nothing to book', choosePage({ view, offers: [] }).html],
    [
      'days',
      bookDaysPage({
        view,
        offer,
        days: ['2026-11-24', '2026-11-25'],
        pages: { earlier: '2026-11-10', later: '2026-12-08' },
      }).html,
    ],
    ['no days', bookDaysPage({ view, offer, days: [], pages: {} }).html],
    ['times', bookTimesPage({ view, offer, day: '2026-11-25', slots: [slot] }).html],
    [
      'times, a time taken',
      bookTimesPage({
        view,
        offer,
        day: '2026-11-25',
        slots: [slot],
        carried: carry(offer, slot.local, ticket),
        otherDays: ['2026-11-25', '2026-11-26'],
        notice: words.refusal.taken,
      }).html,
    ],
    ['no times', bookTimesPage({ view, offer, day: '2026-11-25', slots: [], notice: words.chooseTime }).html],
    ['details', detailsPage({ view, offer, slot, fields: FIELDS, entry: { values: null, errors: {} }, ticket }).html],
    [
      'details, errors',
      detailsPage({ view, offer, slot, fields: FIELDS, entry: { values, errors }, ticket, status: 400 }).html,
    ],
    [
      'details, one error',
      detailsPage({ view, offer, slot, fields: FIELDS, entry: { values, errors: { email: errors.email! } }, ticket })
        .html,
    ],
    [
      'details, more errors',
      detailsPage({ view, offer, slot, fields: FIELDS, entry: { values, errors: moreErrors }, ticket, status: 400 })
        .html,
    ],
    ['review', reviewPage({ view, offer, slot, fields: FIELDS, values, ticket }).html],
    ['done', donePage({ view, booked }).html],
    ['done, again', donePage({ view, booked: { ...booked, manageUrl: undefined, replayed: true } }).html],
    ['done, no e-mail', donePage({ view, booked: { ...booked, email: '', manageUrl: undefined } }).html],
    ...refusals,
    ['off', notOfferedPage({ ...PRACTICE, locale }).html],
    ['off, no phone', notOfferedPage({ ...PRACTICE, phone: '', locale }).html],
  ];
}

/** The feed and the event written into the practitioner's calendar, one booked and one cancelled event. */
function calendars(locale: Locale): [string, string][] {
  const event: FeedEvent = {
    reference: 'ABCDEFGH23456789',
    startAt: STAMP,
    endAt: STAMP + 1800,
    sequence: 0,
    cancelled: false,
    reasonName: 'Kontrolle',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '',
    changedAt: STAMP,
    fields: [
      { label: 'Vorname', value: 'Ada' },
      { label: 'Einwilligung', value: true },
    ],
  };
  return [
    ['feed', feedIcs('Praxis Sonne – Dr. Weber', [event, { ...event, cancelled: true }], locale, PRACTICE.address)],
    ['calendar event', practitionerEventIcs({ ...event, cancelled: true }, locale, PRACTICE.address)],
  ];
}

describe('every language has every word (issue 41, item 15)', () => {
  it('lists six languages, each by its own name', () => {
    expect(LOCALES).toEqual(['en', 'de', 'fr', 'it', 'es', 'nl']);
    expect(Object.keys(LANGUAGE_NAMES)).toEqual([...LOCALES]);
  });

  it.each(Object.keys(TABLES))('%s: every key of English in every language, each phrase with its arguments', (name) => {
    const table = TABLES[name]!;
    expect(Object.keys(table)).toEqual([...LOCALES]);
    const english = new Map(leaves(table.en));
    for (const locale of OTHERS) {
      const mine = leaves(table[locale]);
      expect(mine.map(([path]) => path).sort(), `${locale}`).toEqual([...english.keys()].sort());
      for (const [path, value] of mine) {
        const theirs = english.get(path);
        expect(typeof value, `${locale} ${path}`).toBe(typeof theirs);
        if (typeof value === 'function')
          expect(value.length, `${locale} ${path}`).toBe((theirs as () => string).length);
        if (typeof value === 'string') {
          expect(value.trim(), `${locale} ${path}`).not.toBe('');
          if (!SAME_AS_ENGLISH.has(`${locale}:${name}:${path}`) && path !== 'dateLocale' && path !== 'lang')
            expect(value, `${locale} ${path}: the same as English`).not.toBe(theirs);
        }
      }
    }
  });

  it('each language writes its own dates, and its pages say which language they are in', () => {
    for (const locale of OTHERS) {
      expect(WORDS[locale].dateLocale.startsWith(`${locale}-`)).toBe(true);
      expect(PAGE_WORDS[locale].lang).toBe(locale);
      expect(BOOK_WORDS[locale].lang).toBe(locale);
      expect(DESK_WORDS[locale].lang).toBe(locale);
    }
  });

  it('finds English where it is (the check itself works)', () => {
    expect(ENGLISH.length).toBeGreaterThan(150);
    expect(englishIn(visible(overviewPage({ managed: managed('en', 'open'), base: '/m' }).html))).not.toEqual([]);
    expect(englishIn(everyMail('en')[0]!.text)).not.toEqual([]);
  });

  describe.each(OTHERS)('%s', (locale) => {
    it('no page of the self-service page or the booking page falls back to English', () => {
      for (const [name, html] of [...selfServicePages(locale), ...bookingPages(locale)]) {
        expect(html, name).toContain(`<html lang="${locale}">`);
        expect(englishIn(visible(html)), `${locale} ${name}`).toEqual([]);
      }
    });

    it('no mail falls back to English: subject, text and HTML', () => {
      const mails = everyMail(locale);
      expect(mails.length).toBeGreaterThan(15);
      for (const mail of mails) {
        if (mail.html) expect(mail.html, mail.name).toContain(`<html lang="${locale}">`);
        for (const part of [mail.subject, mail.text, visible(mail.html)])
          expect(englishIn(part), `${locale} ${mail.name}`).toEqual([]);
      }
    });

    it('the feed and the calendar event speak it too', () => {
      for (const [name, ics] of calendars(locale)) {
        const text = ics
          .replace(/\r\n /g, '')
          .replace(/\\([,;\\])/g, '$1')
          .replace(/\\n/g, '\n');
        expect(text, name).toContain(`${WORDS[locale].feedCancelled} Kontrolle`);
        expect(text, name).toContain(`${WORDS[locale].feedReference}: ABCDEFGH23456789`);
        expect(englishIn(text.replace(/^[A-Z-]+(;[^:]*)?:/gm, '')), `${locale} ${name}`).toEqual([]);
      }
    });
  });
});
