/**
 * The desk's pages that book and change: customers (search, one customer), free times, a caller's booking (the
 * form, the review) and a booking's move and cancel. Built of the kit and desk-pages.ts; the practice's form drawn
 * by the booking page's own `fieldsHtml` (book-form.ts), so the desk shows the same fields, labels and errors. No
 * script; pure; every value escaped (`shown` for stored text).
 */

import type { DeskCustomer, DeskCustomerView } from '../app/desk/customers.ts';
import type { FieldDefinition } from '../domain/form.ts';
import { escapeHtml } from '../domain/html.ts';
import { LANGUAGE_NAMES, type Locale } from '../domain/locales.ts';
import type { Booking } from '../store/bookings.ts';
import { type Entry, fieldsHtml } from './book-form.ts';
import { BOOK_WORDS } from './book-words.ts';
import { deskPage, navigation, type Signed, shown, stateOf } from './desk-pages.ts';
import { type DeskWords, deskWords } from './desk-words.ts';
import { dayWords, hidden, notice, type Page, telHref } from './kit.ts';

/** A customer as the search lists them. */
export type CustomerRow = DeskCustomer;

/** Customers: the search, its matches (each with a link to them and to book for them), a new customer. */
export function customersPage(options: { signed: Signed; q: string; matches?: CustomerRow[]; mayBook: boolean }): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const base = signed.base;
  const results =
    options.matches === undefined
      ? ''
      : options.matches.length === 0
        ? `<p>${escapeHtml(words.noMatches)}</p>`
        : `<ul class="card results">${options.matches
            .map((match) => {
              const name = match.names[0] ?? match.email ?? match.latest;
              const phones = match.phones
                .map((phone) => `<a href="${escapeHtml(telHref(phone))}">${shown(phone)}</a>`)
                .join(', ');
              return (
                `<li><a href="${base}/customers/${match.id}">${shown(name)}</a>` +
                `${match.names.length > 1 ? ` <span class="meta">(${shown(match.names.slice(1).join(', '))})</span>` : ''}` +
                `<br><span class="meta">${[phones, match.email ? shown(match.email) : '', escapeHtml(words.bookingsCount(match.bookings))].filter(Boolean).join(' · ')}</span>` +
                (options.mayBook
                  ? `<br><a href="${base}/times?for=${match.latest}">${escapeHtml(words.bookFor(name))}</a>`
                  : '') +
                `</li>`
              );
            })
            .join('')}</ul>`;
  const body =
    navigation(signed, words) +
    `<form class="card" method="get" action="${base}/customers"><div class="field"><label for="f-q">${escapeHtml(words.searchLabel)}</label>` +
    `<input class="text" id="f-q" name="q" type="search" value="${escapeHtml(options.q)}" autocomplete="off" aria-describedby="f-q-hint" required minlength="2" maxlength="200">` +
    `<p class="hint" id="f-q-hint">${escapeHtml(words.searchHint)}</p></div>` +
    `<button class="button" type="submit">${escapeHtml(words.search)}</button></form>` +
    results +
    (options.mayBook ? `<a class="button secondary" href="${base}/times">${escapeHtml(words.newCustomer)}</a>` : '');
  return deskPage(signed.practice, options.mayBook ? words.bookCaller : words.customers, body);
}

/** A list of bookings with their time, practitioner, reason and state, each a link. */
function bookingList(bookings: Booking[], words: DeskWords, base: string, when: (booking: Booking) => string): string {
  if (bookings.length === 0) return `<p>${escapeHtml(words.none)}</p>`;
  return `<ol class="day">${bookings
    .map((booking) => {
      const state = stateOf(booking);
      return (
        `<li class="${state}"><span class="what"><a href="${base}/bookings/${booking.reference}">${escapeHtml(when(booking))}</a> ` +
        `${shown(booking.scheduleName)} · ${shown(booking.reasonName)}</span> <span class="state ${state}">${escapeHtml(words.states[state])}</span></li>`
      );
    })
    .join('')}</ol>`;
}

/** One customer: their bookings upcoming and past (those the person sees), their no-shows, book for them. */
export function customerPage(
  options: DeskCustomerView & {
    signed: Signed;
    mayBook: boolean;
    when: (booking: Booking) => string;
  },
): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const contact = [
    ...options.phones.map((phone) => `<a href="${escapeHtml(telHref(phone))}">${shown(phone)}</a>`),
    ...(options.email ? [shown(options.email)] : []),
  ].join(' · ');
  const body =
    navigation(signed, words) +
    `<p>${contact}${contact ? ' · ' : ''}${escapeHtml(words.noShows(options.noShows))}</p>` +
    (options.mayBook
      ? `<a class="button" href="${signed.base}/times?for=${options.latest}">${escapeHtml(words.bookFor(options.name))}</a>`
      : '') +
    `<section class="card" aria-labelledby="h-upcoming"><h2 id="h-upcoming">${escapeHtml(words.upcoming)}</h2>` +
    bookingList(options.upcoming, words, signed.base, options.when) +
    `</section><section class="card" aria-labelledby="h-past"><h2 id="h-past">${escapeHtml(words.past)}</h2>` +
    bookingList(options.past, words, signed.base, options.when) +
    `</section>`;
  return deskPage(signed.practice, words.customerTitle(options.name), body);
}

/** Where a free time leads: a new booking (for a customer, or a new one), or a booking's move. */
export type TimesTarget = { kind: 'book'; for?: string } | { kind: 'move'; reference: string };

/** The free times page's choices and results. */
export interface TimesOptions {
  signed: Signed;
  reasons: { id: number; name: string }[];
  schedules: { id: number; name: string }[];
  reasonId: number;
  /** A schedule's id, or 'any'. */
  schedule: number | 'any';
  from: string;
  /** The days shown, each with its free times (`local` `YYYY-MM-DD HH:MM:SS`, with whom for 'any'). */
  days: { day: string; slots: { local: string }[] }[];
  later?: string;
  target: TimesTarget;
  /** May choose a time outside the free times (reception and admin, for a named practitioner). */
  mayOutside: boolean;
  /** Free times are links to book or move (not for a practitioner). */
  mayBook: boolean;
  notice?: string;
  status?: number;
}

/** The query of the times page and of its next step, for `options` and a slot. */
function nextHref(options: TimesOptions, slot: string): string {
  const { target } = options;
  const query = new URLSearchParams({
    schedule: String(options.schedule),
    reason: String(options.reasonId),
    slot,
    ...(target.kind === 'book' && target.for ? { for: target.for } : {}),
  });
  return target.kind === 'move'
    ? `${options.signed.base}/bookings/${target.reference}/move?${query}`
    : `${options.signed.base}/book?${query}`;
}

/** Free times for a reason, a practitioner or any, from a day on; each a link to the next step. */
export function timesPage(options: TimesOptions): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const base = signed.base;
  const carry =
    options.target.kind === 'move'
      ? hidden({ move: options.target.reference })
      : options.target.for
        ? hidden({ for: options.target.for })
        : '';
  const select = (name: string, label: string, choices: [string, string][], chosen: string) =>
    `<div class="field"><label for="f-${name}">${escapeHtml(label)}</label><select id="f-${name}" name="${name}">` +
    choices
      .map(
        ([value, text]) =>
          `<option value="${escapeHtml(value)}"${value === chosen ? ' selected' : ''}>${shown(text)}</option>`,
      )
      .join('') +
    `</select></div>`;
  const schedules: [string, string][] = [
    ...(options.target.kind === 'book' ? [['any', words.anyPractitioner] as [string, string]] : []),
    ...options.schedules.map((one): [string, string] => [String(one.id), one.name]),
  ];
  const form =
    `<form class="card" method="get" action="${base}/times">${carry}` +
    select(
      'reason',
      words.reasonChoice,
      options.reasons.map((one) => [String(one.id), one.name]),
      String(options.reasonId),
    ) +
    select('schedule', words.practitioner, schedules, String(options.schedule)) +
    `<div class="field"><label for="f-from">${escapeHtml(words.fromDay)}</label><input class="text" id="f-from" name="from" type="date" value="${options.from}" required></div>` +
    `<button class="button" type="submit">${escapeHtml(words.showTimes)}</button></form>`;
  const days = options.days.filter((day) => day.slots.length > 0);
  const results = days.length
    ? days
        .map(
          (day) =>
            `<h2 class="group">${escapeHtml(dayWords(day.day, words.dateLocale, 'long'))}</h2><ul class="choices times">` +
            day.slots
              .map((slot) =>
                options.mayBook
                  ? `<li><a class="button secondary" href="${escapeHtml(nextHref(options, slot.local))}">${slot.local.slice(11, 16)}</a></li>`
                  : `<li><span class="current">${slot.local.slice(11, 16)}</span></li>`,
              )
              .join('') +
            `</ul>`,
        )
        .join('')
    : `<p>${escapeHtml(words.noTimes)}</p>`;
  const later = options.later
    ? `<a class="button secondary" href="${escapeHtml(
        `${base}/times?${new URLSearchParams({
          reason: String(options.reasonId),
          schedule: String(options.schedule),
          from: options.later,
          ...(options.target.kind === 'move' ? { move: options.target.reference } : {}),
          ...(options.target.kind === 'book' && options.target.for ? { for: options.target.for } : {}),
        })}`,
      )}">${escapeHtml(words.laterDays)}</a>`
    : '';
  const outside =
    options.mayOutside && options.schedule !== 'any'
      ? `<form class="card" method="get" action="${options.target.kind === 'move' ? `${base}/bookings/${options.target.reference}/move` : `${base}/book`}">` +
        hidden({
          schedule: String(options.schedule),
          reason: String(options.reasonId),
          ...(options.target.kind === 'book' && options.target.for ? { for: options.target.for } : {}),
        }) +
        `<h2>${escapeHtml(words.otherTime)}</h2><p class="hint">${escapeHtml(words.otherTimeHint)}</p>` +
        `<div class="field"><label for="f-day">${escapeHtml(words.date)}</label><input class="text" id="f-day" name="day" type="date" value="${options.from}" required></div>` +
        `<div class="field"><label for="f-time">${escapeHtml(words.time)}</label><input class="text" id="f-time" name="time" type="time" step="300" required></div>` +
        `<button class="button secondary" type="submit">${escapeHtml(words.use)}</button></form>`
      : '';
  const body =
    navigation(signed, words) + (options.notice ? notice(options.notice) : '') + form + results + later + outside;
  return deskPage(signed.practice, words.freeTimes, body, options.status);
}

/** What the booking form and its review carry from step to step. */
export interface BookCarry {
  schedule: string;
  reason: string;
  slot: string;
  for?: string;
}

/** The warning of a time outside the rules, or the refusal of one that cannot be booked, with its next free times. */
export interface TimeNote {
  warn?: keyof DeskWords['warnings'];
  refused?: keyof DeskWords['refusals'];
  next?: { text: string; href: string }[];
}

function timeNote(words: DeskWords, note: TimeNote | undefined): string {
  if (!note) return '';
  if (note.refused) {
    const next = note.next?.length
      ? `<p>${escapeHtml(words.nextFree)}</p><ul class="links">${note.next.map((one) => `<li><a href="${escapeHtml(one.href)}">${escapeHtml(one.text)}</a></li>`).join('')}</ul>`
      : '';
    return `<div class="note error" role="alert"><p>${escapeHtml(words.refusals[note.refused])}</p>${next}</div>`;
  }
  return note.warn
    ? `<div class="note error" role="alert"><p><strong>${escapeHtml(words.warnTitle)}:</strong> ${escapeHtml(words.warnings[note.warn])}</p></div>`
    : '';
}

/** The caller's booking: what and when, the practice's form (the e-mail optional), the confirmation, a series. */
export function bookDetailsPage(options: {
  signed: Signed;
  carry: BookCarry;
  what: string;
  fields: FieldDefinition[];
  entry: Entry;
  confirmation: boolean;
  /** The customer's language, where the practice offers several: those offered, and the one chosen. */
  language?: { offered: Locale[]; chosen: Locale };
  /** The series' choice (a named practitioner within the rules), with the weeks chosen. */
  series?: { max: number; weeks: number };
  note?: TimeNote;
  error?: string;
  status?: number;
}): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const bookWords = BOOK_WORDS[signed.practice.locale];
  const series = options.series
    ? `<div class="field"><label for="f-weeks">${escapeHtml(words.weeks)}</label><select id="f-weeks" name="weeks">` +
      Array.from({ length: options.series.max }, (_, index) => index + 1)
        .map(
          (count) =>
            `<option value="${count}"${count === options.series!.weeks ? ' selected' : ''}>${escapeHtml(count === 1 ? words.weeksOne : words.weeksMany(count))}</option>`,
        )
        .join('') +
      `</select></div>`
    : '';
  const body =
    navigation(signed, words) +
    (options.error ? notice(options.error) : '') +
    timeNote(words, options.note) +
    `<p class="card">${escapeHtml(options.what)}</p>` +
    `<form class="card" method="post" action="${signed.base}/book">` +
    hidden({ csrf: signed.csrf, step: 'review', ...carryFields(options.carry) }) +
    fieldsHtml(bookWords, options.fields, options.entry) +
    `<p class="hint">${escapeHtml(words.noEmailHint)}</p>` +
    tick('confirm', words.sendConfirmation, { checked: options.confirmation }) +
    languageChoice(words, options.language) +
    series +
    `<button class="button" type="submit">${escapeHtml(words.review)}</button></form>`;
  return deskPage(signed.practice, words.detailsTitle, body, options.status);
}

/** The choice of the customer's language, each by its own name (none while the practice offers one). */
function languageChoice(words: DeskWords, language: { offered: Locale[]; chosen: Locale } | undefined): string {
  if (!language || language.offered.length < 2) return '';
  const option = (locale: Locale) =>
    `<option value="${locale}" lang="${locale}"${locale === language.chosen ? ' selected' : ''}>${escapeHtml(LANGUAGE_NAMES[locale])}</option>`;
  return (
    `<div class="field"><label for="f-language">${escapeHtml(words.customerLanguage)}</label>` +
    `<select id="f-language" name="language">${language.offered.map(option).join('')}</select></div>`
  );
}

/** A checkbox `name` of the desk's forms (`on` when ticked) with its label. */
function tick(name: string, label: string, state: { checked?: boolean; required?: boolean } = {}): string {
  return (
    `<div class="field"><div class="check"><input type="checkbox" id="f-${name}" name="${name}" value="on"` +
    `${state.checked ? ' checked' : ''}${state.required ? ' required' : ''}>` +
    `<label for="f-${name}">${escapeHtml(label)}</label></div></div>`
  );
}

/** The tick a time outside the rules needs before it is booked (the form refuses it unticked, and so does the door). */
function outsideTick(words: DeskWords): string {
  return tick('outside', words.outsideOk, { required: true });
}

/** The carried choice as hidden fields. */
function carryFields(carry: BookCarry): Record<string, string> {
  return { schedule: carry.schedule, reason: carry.reason, slot: carry.slot, ...(carry.for ? { for: carry.for } : {}) };
}

/** The review: what will be booked, the warning of a time outside the rules (with the tick it needs), book. */
export function bookReviewPage(options: {
  signed: Signed;
  carry: BookCarry;
  what: string;
  rows: [string, string][];
  typed: Record<string, string>;
  confirmation: boolean;
  /** The customer's language, where the form asked for it. */
  language?: Locale;
  weeks: number;
  note?: TimeNote;
  error?: string;
  status?: number;
}): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const keep = {
    csrf: signed.csrf,
    ...carryFields(options.carry),
    ...options.typed,
    ...(options.confirmation ? { confirm: 'on' } : {}),
    ...(options.language ? { language: options.language } : {}),
    weeks: String(options.weeks),
  };
  const outside = options.note?.warn ? outsideTick(words) : '';
  const rows = [
    ...options.rows,
    [
      words.sendConfirmation,
      options.confirmation ? BOOK_WORDS[signed.practice.locale].yes : BOOK_WORDS[signed.practice.locale].no,
    ] as [string, string],
    ...(options.language ? [[words.customerLanguage, LANGUAGE_NAMES[options.language]] as [string, string]] : []),
    ...(options.weeks > 1 ? [[words.weeks, words.weeksMany(options.weeks)] as [string, string]] : []),
  ];
  const body =
    navigation(signed, words) +
    (options.error ? notice(options.error) : '') +
    timeNote(words, options.note) +
    `<section class="card"><p>${escapeHtml(options.what)}</p><dl>${rows.map(([label, value]) => `<dt>${shown(label)}</dt><dd>${shown(value)}</dd>`).join('')}</dl></section>` +
    `<form class="card" method="post" action="${signed.base}/book">${hidden({ ...keep, step: 'confirm' })}${outside}` +
    `<button class="button" type="submit">${escapeHtml(words.book)}</button></form>` +
    `<form method="post" action="${signed.base}/book">${hidden({ ...keep, step: 'edit' })}` +
    `<button class="button secondary" type="submit">${escapeHtml(words.change)}</button></form>`;
  return deskPage(signed.practice, words.reviewTitle, body, options.status);
}

/** A booking's move: from, to, the warning of a time outside the rules, whether to tell the customer. */
export function moveConfirmPage(options: {
  signed: Signed;
  booking: Booking;
  from: string;
  to: string;
  slot: string;
  schedule: string;
  note?: TimeNote;
  hasEmail: boolean;
  status?: number;
  error?: string;
}): Page {
  const { signed, booking } = options;
  const words = deskWords(signed.practice.locale);
  const base = `${signed.base}/bookings/${booking.reference}`;
  const outside = options.note?.warn ? outsideTick(words) : '';
  const form = options.note?.refused
    ? ''
    : `<form class="card" method="post" action="${base}/move">` +
      hidden({
        csrf: signed.csrf,
        slot: options.slot,
        schedule: options.schedule,
        sequence: String(booking.sequence),
      }) +
      outside +
      (options.hasEmail ? tick('notify', words.tellCustomer, { checked: true }) : '') +
      `<button class="button" type="submit">${escapeHtml(words.confirmMove)}</button></form>`;
  const body =
    navigation(signed, words) +
    (options.error ? notice(options.error) : '') +
    timeNote(words, options.note) +
    `<section class="card"><dl><dt>${escapeHtml(words.customer)}</dt><dd>${shown(booking.customerName || booking.reference)}</dd>` +
    `<dt>${escapeHtml(words.when)}</dt><dd>${escapeHtml(options.from)}</dd><dt>${escapeHtml(words.moveTo)}</dt><dd>${escapeHtml(options.to)}</dd></dl></section>` +
    form +
    `<a class="button secondary" href="${signed.base}/times?move=${booking.reference}&amp;reason=${booking.reasonId}&amp;schedule=${booking.scheduleId}">${escapeHtml(words.chooseTime)}</a>`;
  return deskPage(signed.practice, words.moveTitle, body, options.status);
}

/** A booking's cancel: a reason, whether to tell the customer, and its later dates for a series. */
export function cancelPage(options: {
  signed: Signed;
  booking: Booking;
  when: string;
  error?: string;
  status?: number;
}): Page {
  const { signed, booking } = options;
  const words = deskWords(signed.practice.locale);
  const base = `${signed.base}/bookings/${booking.reference}`;
  const body =
    navigation(signed, words) +
    (options.error ? notice(options.error) : '') +
    `<section class="card"><dl><dt>${escapeHtml(words.customer)}</dt><dd>${shown(booking.customerName || booking.reference)}</dd>` +
    `<dt>${escapeHtml(words.when)}</dt><dd>${escapeHtml(options.when)}</dd></dl></section>` +
    `<form class="card" method="post" action="${base}/cancel">` +
    hidden({ csrf: signed.csrf, sequence: String(booking.sequence) }) +
    `<label for="f-reason">${escapeHtml(words.cancelReason)}</label><textarea id="f-reason" name="reason" maxlength="500"></textarea>` +
    (booking.customerEmail ? tick('notify', words.tellCustomer, { checked: true }) : '') +
    (booking.seriesId !== null ? tick('later', words.cancelLater) : '') +
    `<button class="button danger" type="submit">${escapeHtml(words.confirmCancel)}</button></form>` +
    `<a class="button secondary" href="${base}">${escapeHtml(words.back)}</a>`;
  return deskPage(signed.practice, words.cancelTitle, body, options.status);
}
