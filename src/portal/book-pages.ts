/**
 * The booking page's HTML: server-rendered, no script, the pages' kit (kit.ts: the one style sheet, the layout, the
 * pager, the time picker) and the form's fields (book-form.ts). Every step is a plain link or form, so it works with
 * JavaScript off and in a frame without cookies: what was chosen travels in the query string (GET) or in hidden
 * fields (POST). Pure: every value comes in as an argument, and every text goes through `escapeHtml`. Dates and
 * times are written out for screen readers ("Wednesday, 2 December 2026, 10:00"), durations as words ("45 minutes").
 * Every page builder takes one options object: the page's view, what the step shows.
 */
import type { Offer, SeriesDate } from '../app/pages/page-booking.ts';
import type { FreeSlot } from '../domain/availability.ts';
import type { FieldDefinition } from '../domain/form.ts';
import { escapeHtml } from '../domain/html.ts';
import { WORDS } from '../mail/translations.ts';
import { carry, type Entry, type FormTicket, fieldsHtml, typedFields, typedRows } from './book-form.ts';
import { BOOK_WORDS, type BookWords, durationWords } from './book-words.ts';
import {
  type Brand,
  type DayPages,
  dayPager,
  dayWords,
  definitions,
  framedPage,
  hidden,
  type LanguageLinks,
  layout,
  notice,
  type Page,
  type Practice,
  telHref,
  timePicker,
  weekGrid,
} from './kit.ts';
import { PAGE_WORDS } from './words.ts';

/** What every page of the booking page needs: the practice as pages show it, and its words. */
export interface BookView {
  practice: Practice & { practiceName: string };
  privacyUrl: string | null;
  /** Whether there is more than one thing to book (then the pages offer to choose another). */
  manyOffers: boolean;
  /** The practice's colour and logo (`booking-page enable --colour --logo`), if set. */
  brand?: Brand;
  /** The switcher's links, where the practice offers more than one language. */
  languages?: LanguageLinks;
}

export type { Offer } from '../app/pages/page-booking.ts';

/** What a step of the page is about: the view, and the offer chosen. */
interface OfferStep {
  view: BookView;
  offer: Offer;
}

/** What a step after the time is about: also the time chosen. */
interface SlotStep extends OfferStep {
  slot: FreeSlot;
}

/**
 * Links that lead away from the page open in a tab of their own: inside a practice's frame, the self-service page
 * (never framed), Google's and Microsoft's calendars and the privacy notice would refuse to show.
 */
const OUTSIDE = ' target="_blank" rel="noopener"';

function wordsOf(view: BookView): BookWords {
  return BOOK_WORDS[view.practice.locale];
}

/** `Wednesday, 2 December 2026, 10:00` (as the locale writes it) of a slot's local text. */
export function slotWords(words: BookWords, local: string): string {
  return `${dayWords(local.slice(0, 10), words.dateLocale, 'long')}, ${local.slice(11, 16)}`;
}

const query = (parts: Record<string, string | number>) =>
  Object.entries(parts)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');

/** A page of the booking page: the tab names the step and the practice ("Choose a time · Praxis Sonne"). */
function page(view: BookView, title: string, body: string, status = 200): Page {
  const { practice, brand, languages } = view;
  const tab = `${title} · ${practice.practiceName}`;
  return framedPage({ practice, heading: title, body, status, tab, brand, languages });
}

/**
 * The chosen appointment in a card: what, with whom, how long and (once chosen) when; with `note`, the reason's
 * description under the mails' own label ("Please note": what to bring), where it is chosen and on the review.
 */
function offerCard(view: BookView, offer: Offer, local?: string, note = false): string {
  const words = wordsOf(view);
  const rows: [string, string][] = [
    [words.what, offer.reasonName],
    [words.withLabel, offer.scheduleName],
    [words.duration, durationWords(words, offer.minutes)],
    ...(local ? [[words.when, slotWords(words, local)] as [string, string]] : []),
    ...(note && offer.description.trim()
      ? [[WORDS[view.practice.locale].note, offer.description.trim()] as [string, string]]
      : []),
  ];
  return `<div class="card">${definitions(rows)}</div>`;
}

/** The way back to the first step, where there is more than one thing to book. */
function otherWhat(view: BookView): string {
  return view.manyOffers ? `<p><a href="/book/">${escapeHtml(wordsOf(view).otherWhat)}</a></p>` : '';
}

/** An offer's button to its days, with the reason's description (what to bring) under it, read with it. */
function offerItem(words: BookWords, offer: Offer): string {
  const about = `about-${offer.scheduleId}-${offer.reasonId}`;
  const description = offer.description.trim();
  return (
    `<li><a class="button secondary" href="/book/days?${escapeHtml(query({ schedule: offer.scheduleId, reason: offer.reasonId }))}"` +
    `${description ? ` aria-describedby="${about}"` : ''}>` +
    `${escapeHtml(offer.reasonName)}<span class="tag">${escapeHtml(durationWords(words, offer.minutes))}</span></a>` +
    `${description ? `<p class="hint" id="${about}">${escapeHtml(description)}</p>` : ''}</li>`
  );
}

/** Step 1: what to book, by schedule (skipped by the door when there is only one thing). */
export function choosePage({ view, offers }: { view: BookView; offers: Offer[] }): Page {
  const words = wordsOf(view);
  if (offers.length === 0) return page(view, words.title, `<p>${escapeHtml(words.nothing)}</p>`);
  const schedules = [...new Set(offers.map((offer) => offer.scheduleId))];
  const body = schedules
    .map((id) => {
      const mine = offers.filter((offer) => offer.scheduleId === id);
      // "Any practitioner (first free time)" is a heading of its own, not "With …".
      const heading = mine[0]!.anyOf ? words.anyPractitioner : words.with(mine[0]!.scheduleName);
      return `<h2>${escapeHtml(heading)}</h2><ul class="offers">${mine.map((offer) => offerItem(words, offer)).join('')}</ul>`;
    })
    .join('');
  return page(view, words.title, `<p>${escapeHtml(words.chooseWhat)}</p>${body}`);
}

const monthFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The months `days` (in order) fall in, as the locale writes a range: `December 2026`, `November – December 2026`.
 */
function monthsOf(days: readonly string[], dateLocale: string): string {
  let format = monthFormats.get(dateLocale);
  if (!format) {
    format = new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', month: 'long', year: 'numeric' });
    monthFormats.set(dateLocale, format);
  }
  return format.formatRange(new Date(`${days[0]}T12:00:00Z`), new Date(`${days.at(-1)}T12:00:00Z`));
}

/**
 * Step 2: one page of the days with a free time (`pages`: the first days of the pages before and after), as weeks,
 * Monday first, the first free day of all marked (a grid reads faster than a list of 14 buttons); each free day a
 * link to its times.
 */
export function daysPage({ view, offer, days, pages }: OfferStep & { days: string[]; pages: DayPages }): Page {
  const words = wordsOf(view);
  const base = { schedule: offer.scheduleId, reason: offer.reasonId };
  const list = days.length
    ? `<p class="legend">${escapeHtml(pages.earlier ? words.daysLegend : `${words.daysLegend} ${words.firstFreeLegend}`)}</p>` +
      weekGrid(days, {
        dateLocale: words.dateLocale,
        caption: monthsOf(days, words.dateLocale),
        href: (day) => `/book/times?${query({ ...base, day })}`,
        ...(pages.earlier ? {} : { first: days[0] }),
        firstWords: words.firstFree,
      })
    : `<p>${escapeHtml(words.noDays)}</p>`;
  const pageAt = (from: string | undefined, text: string) =>
    from ? { href: `/book/days?${query({ ...base, from })}`, text } : undefined;
  const pager = dayPager({
    label: words.moreDaysLabel,
    earlier: pageAt(pages.earlier, words.earlierDays),
    later: pageAt(pages.later, words.laterDays),
  });
  return page(view, words.daysTitle, `${offerCard(view, offer, undefined, true)}${list}${pager}${otherWhat(view)}`);
}

/** What the times step shows besides the day's times (see `timesPage`). */
export interface TimesOptions extends OfferStep {
  day: string;
  slots: FreeSlot[];
  /** What was typed and the form's ticket, carried on by POST (after a time was taken, or "another time"). */
  carried?: Record<string, string>;
  /** The free days to choose another from, with what was typed carried. */
  otherDays?: readonly string[];
  notice?: string;
  status?: number;
}

/**
 * The way to another day: a form of its own (by POST, so that nothing typed is lost) that chooses among `otherDays`
 * while something was typed, else a link to the days.
 */
function anotherDay({ view, offer, day, carried, otherDays = [] }: TimesOptions): string {
  const words = wordsOf(view);
  if (!carried || otherDays.length === 0)
    return `<p><a href="/book/days?${escapeHtml(query({ schedule: offer.scheduleId, reason: offer.reasonId, from: day }))}">${escapeHtml(words.otherDay)}</a></p>`;
  const chosen = { schedule: String(offer.scheduleId), reason: String(offer.reasonId) };
  // The day itself, or (its last time taken) the next free day, is what the list shows first.
  const selected = otherDays.find((one) => one >= day) ?? otherDays.at(-1);
  const options = otherDays
    .map(
      (one) =>
        `<option value="${one}"${one === selected ? ' selected' : ''}>${escapeHtml(dayWords(one, words.dateLocale, 'long'))}</option>`,
    )
    .join('');
  return (
    `<form method="post" action="/book/details" class="other-day">${hidden({ ...chosen, ...carried, change: 'day' })}<div class="field">` +
    `<label for="other-day">${escapeHtml(words.otherDayLabel)}</label><select id="other-day" name="day">${options}` +
    `</select></div><button class="button secondary" type="submit">${escapeHtml(words.showTimes)}</button></form>`
  );
}

/**
 * The day's times as buttons of one form, one tap each (the self-service page's picker, kit.ts), which sends the
 * day, the time and (by POST) what was typed; for a reason offered as a series, a time chosen fresh leads to the
 * choice of once or every week.
 */
function timesForm({ view, offer, day, slots, carried }: TimesOptions): string {
  const words = wordsOf(view);
  const longDay = dayWords(day, words.dateLocale, 'long');
  const item = ({ time }: { time: string }) =>
    `<li><button class="button" type="submit" name="time" value="${time}">` +
    `<span aria-hidden="true">${time}</span><span class="sr">${escapeHtml(`${longDay}, ${time}`)}</span></button></li>`;
  const action = !carried && (offer.seriesMax ?? 0) >= 2 ? '/book/weeks' : '/book/details';
  const base = { schedule: String(offer.scheduleId), reason: String(offer.reasonId), day };
  const times = slots.map((slot) => ({ time: slot.local.slice(11, 16) }));
  return (
    `<form method="${carried ? 'post' : 'get'}" action="${action}">${hidden({ ...base, ...(carried ?? {}) })}` +
    `<h2>${escapeHtml(words.timesLegend(longDay))}</h2>` +
    timePicker({ parts: PAGE_WORDS[view.practice.locale].parts, times, item, level: 'h3' }) +
    `</form>`
  );
}

/**
 * Step 3: the free times of a day, under a heading that names the day. Fresh, the form goes by GET to the details;
 * once something was typed (`carried`: after a time was taken, or "another time" from the form) by POST, so that
 * nothing typed is lost, and another day is chosen from `otherDays` in a form of its own.
 */
export function timesPage(options: TimesOptions): Page {
  const { view, offer, slots } = options;
  const words = wordsOf(view);
  const note = options.notice ? notice(options.notice) : '';
  if (slots.length === 0) {
    const body = `${note}${offerCard(view, offer)}<p>${escapeHtml(words.noTimes)}</p>${anotherDay(options)}`;
    return page(view, words.timesTitle, body, options.status);
  }
  const body = `${note}${offerCard(view, offer)}${timesForm(options)}${anotherDay(options)}${otherWhat(view)}`;
  return page(view, words.timesTitle, body, options.status);
}

/** The consent line, linking the practice's privacy notice (only when one is set). */
function consent(view: BookView): string {
  if (!view.privacyUrl) return '';
  const words = wordsOf(view);
  return `<p class="hint">${escapeHtml(words.consent)} <a href="${escapeHtml(view.privacyUrl)}"${OUTSIDE}>${escapeHtml(words.privacy)}</a></p>`;
}

/** A limit that refused what was typed: why, and whether to suggest booking another person under their own address. */
export interface LimitNotice {
  text: string;
  otherPerson: boolean;
}

/**
 * Why a limit refused what was typed, above the form that keeps it, and what the customer can do: for another
 * person, their own e-mail address (`otherPerson`); the practice's phone, as a link that calls it.
 */
function limitNotice(view: BookView, limit: LimitNotice): string {
  const words = wordsOf(view);
  const { phone } = view.practice;
  return (
    `<div class="note error" role="alert"><p>${escapeHtml(limit.text)}</p>` +
    (limit.otherPerson ? `<p>${escapeHtml(words.refusal.otherPerson)}</p>` : '') +
    (phone
      ? `<p>${escapeHtml(words.refusal.callPractice)} <a href="${escapeHtml(telHref(phone))}">${escapeHtml(phone)}</a></p>`
      : '') +
    `</div>`
  );
}

/** The summary of the form's problems above it, each a link to its field; '' when there are none. */
function problemSummary(words: BookWords, fields: readonly FieldDefinition[], entry: Entry): string {
  const problems = fields.filter((field) => entry.errors[field.key]);
  if (!problems.length) return '';
  const items = problems
    .map(
      (field) =>
        `<li><a href="#f-${field.key}">${escapeHtml(field.label)}: ${escapeHtml(entry.errors[field.key]!)}</a></li>`,
    )
    .join('');
  return `<div class="note error" role="alert"><p>${escapeHtml(words.fix(problems.length))}</p><ul class="links">${items}</ul></div>`;
}

/** What the details step shows (see `detailsPage`). */
export interface DetailsOptions extends SlotStep {
  fields: FieldDefinition[];
  entry: Entry;
  ticket: FormTicket;
  status?: number;
  limit?: LimitNotice;
  /** The weekly dates of a series (1: a single booking). */
  weeks?: number;
}

/**
 * Step 4: the installation's form fields, with what was typed and the errors next to their fields; `limit`: a limit
 * refused it (the form again, what was typed kept, and what the customer can do).
 */
export function detailsPage(options: DetailsOptions): Page {
  const { view, offer, slot, fields, entry, ticket, status = 200, limit, weeks = 1 } = options;
  const words = wordsOf(view);
  const body =
    `${limit ? limitNotice(view, limit) : ''}${problemSummary(words, fields, entry)}${offerCard(view, offer, slot.local)}${weeks > 1 ? `<p>${escapeHtml(words.datesTitle(weeks))}</p>` : ''}` +
    `<form method="post" action="/book/review" novalidate>${hidden({ ...carry(offer, slot.local, ticket), ...weeksField(weeks) })}` +
    `${fieldsHtml(words, fields, entry)}${consent(view)}` +
    `<button class="button" type="submit">${escapeHtml(words.toReview)}</button>` +
    // Another time, keeping what was typed: the same form (after the default button, which Enter presses).
    `<button class="button secondary" type="submit" formaction="/book/details" name="change" value="day">${escapeHtml(words.otherTime)}</button></form>`;
  return page(view, words.detailsTitle, body, status);
}

/** What the review shows (see `reviewPage`). */
export interface ReviewOptions extends SlotStep {
  fields: FieldDefinition[];
  values: Record<string, string>;
  ticket: FormTicket;
  /** A series: each date and whether it is still free; `notice`, why the booking found one not free. */
  series?: { dates: SeriesDate[]; notice?: string };
}

/** Step 5: everything as it will be booked, and one button that books; a second one goes back to the form. */
export function reviewPage(options: ReviewOptions): Page {
  const { view, offer, slot, fields, values, ticket, series } = options;
  const words = wordsOf(view);
  if (series && series.dates.length > 1) return seriesReviewPage({ ...options, series });
  const shown = typedRows(words, fields, values);
  const body =
    `${offerCard(view, offer, slot.local, true)}${shown.length ? `<div class="card">${definitions(shown)}</div>` : ''}` +
    `<form method="post" action="/book/confirm">${hidden({ ...carry(offer, slot.local, ticket), ...typedFields(fields, values) })}` +
    `<p class="hint">${escapeHtml(words.reviewHint)}</p>` +
    `<button class="button" type="submit">${escapeHtml(words.book)}</button>` +
    `<button class="button secondary" type="submit" formaction="/book/details">${escapeHtml(words.changeDetails)}</button></form>`;
  return page(view, words.reviewTitle, body);
}

/** The booked appointment as the confirmation shows it. */
export interface BookedView {
  offer: Offer;
  local: string;
  reference: string;
  email: string;
  calendar: { google: string; outlook: string; ics: string };
  /** The self-service link (made for this page), when the practice's rules allow a change now. */
  manageUrl?: string;
  replayed: boolean;
  /** A series: every date, by start, its status and, booked, its own calendar file's link. */
  series?: { local: string; status: 'booked' | 'cancelled'; ics?: string }[];
  /** The address now holds the page's share of future bookings: how many, and the share (no "book another"). */
  atLimit?: { held: number; limit: number };
}

/** The way to book again: a link, or, for an address at the page's limit, why it cannot (the page would refuse it). */
function bookAgain(words: BookWords, booked: BookedView): string {
  if (booked.atLimit)
    return `<p class="hint">${escapeHtml(words.refusal.perEmailReached(booked.atLimit.held, booked.atLimit.limit))}</p>`;
  return `<p><a href="/book/">${escapeHtml(words.bookAnother)}</a></p>`;
}

/** The practice's phone as a line that calls it ('' without one). */
function phoneLine(words: BookWords, practice: Practice): string {
  if (!practice.phone) return '';
  return `<p>${escapeHtml(words.phone)}: <a href="${escapeHtml(telHref(practice.phone))}">${escapeHtml(practice.phone)}</a></p>`;
}

/** Step 6: the booking, where and how to reach the practice, add-to-calendar links, and the self-service link. */
export function donePage({ view, booked }: { view: BookView; booked: BookedView }): Page {
  const words = wordsOf(view);
  if (booked.series && booked.series.length > 1) return seriesDonePage(view, booked, booked.series);
  const { practice } = view;
  const rows: [string, string][] = [
    [words.what, booked.offer.reasonName],
    [words.withLabel, booked.offer.scheduleName],
    [words.when, slotWords(words, booked.local)],
    [words.duration, durationWords(words, booked.offer.minutes)],
    ...(practice.address ? [[words.where, practice.address] as [string, string]] : []),
    [words.reference, booked.reference],
  ];
  const calendar =
    `<h2>${escapeHtml(words.addToCalendar)}</h2><ul class="links">` +
    `<li><a href="${escapeHtml(booked.calendar.google)}"${OUTSIDE}>${escapeHtml(words.google)}</a></li>` +
    `<li><a href="${escapeHtml(booked.calendar.outlook)}"${OUTSIDE}>${escapeHtml(words.outlook)}</a></li>` +
    `<li><a href="${escapeHtml(booked.calendar.ics)}" download="appointment.ics">${escapeHtml(words.icsFile)}</a></li></ul>`;
  const body =
    `${doneNotice(words, booked)}` +
    `<div class="card">${definitions(rows)}${phoneLine(words, practice)}</div>${calendar}${manageBlock(words, booked)}${bookAgain(words, booked)}`;
  return page(view, words.doneTitle, body);
}

/**
 * The answer of every path under `/book/` while the page is off: online booking is not offered, and how to reach the
 * practice instead, its phone (when given) and its e-mail address (the one its mails come from and its calendar
 * files name as organiser). A 404: there is nothing here.
 */
export function notOfferedPage(practice: Practice & { practiceName: string; notifyEmail: string }): Page {
  const words = BOOK_WORDS[practice.locale];
  const ways = [
    ...(practice.phone
      ? [
          `${escapeHtml(words.phone)}: <a href="${escapeHtml(telHref(practice.phone))}">${escapeHtml(practice.phone)}</a>`,
        ]
      : []),
    `${escapeHtml(words.email)}: <a href="${escapeHtml(`mailto:${practice.notifyEmail}`)}">${escapeHtml(practice.notifyEmail)}</a>`,
  ];
  const body =
    `<h1>${escapeHtml(words.offTitle)}</h1><p>${escapeHtml(words.off(practice.practiceName))} ${escapeHtml(words.offContact(practice.phone !== ''))}</p>` +
    `<ul class="links">${ways.map((way) => `<li>${way}</li>`).join('')}</ul>`;
  return { status: 404, html: layout({ practice, title: words.offTitle, body }) };
}

/**
 * A refusal of the whole form (too old, too fast, trap, from another site, too many): one clear page, nothing written.
 */
export function refusedPage({ view, text, status }: { view: BookView; text: string; status: number }): Page {
  const words = wordsOf(view);
  return page(
    view,
    words.title,
    `${notice(text)}<a class="button" href="/book/">${escapeHtml(words.startAgain)}</a>`,
    status,
  );
}

/** The series' hidden field: the number of weekly dates, on every form after it was chosen. */
function weeksField(weeks: number): Record<string, string> {
  return weeks > 1 ? { weeks: String(weeks) } : {};
}

/** `Tue 2 Jun, 10:00` of a slot's local text: one date of a series' list. */
function shortSlot(words: BookWords, local: string): string {
  return `${dayWords(local.slice(0, 10), words.dateLocale)}, ${local.slice(11, 16)}`;
}

/** The dates of a series as a list, each with whether it is free (a date not free in bold). */
function seriesList(words: BookWords, dates: readonly SeriesDate[]): string {
  const items = dates
    .map((date) =>
      date.free
        ? `<li>${escapeHtml(`${shortSlot(words, date.local)}: ${words.dateFree}`)}</li>`
        : `<li><strong>${escapeHtml(`${shortSlot(words, date.local)}: ${words.dateNotFree}`)}</strong></li>`,
    )
    .join('');
  return `<ol class="links">${items}</ol>`;
}

/** The choice of how many weeks (GET, no script), `weeks` chosen (or 2), up to the offer's `seriesMax`. */
function weeksForm(words: BookWords, base: Record<string, string | number>, max: number, weeks: number): string {
  const options = Array.from({ length: max - 1 }, (_, index) => index + 2)
    .map(
      (n) =>
        `<option value="${n}"${n === (weeks || 2) ? ' selected' : ''}>${escapeHtml(words.weeksOption(n))}</option>`,
    )
    .join('');
  return (
    `<form method="get" action="/book/weeks">${hidden(Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])))}` +
    `<div class="field"><label for="weeks">${escapeHtml(words.weeksLabel)}</label><select id="weeks" name="weeks">${options}</select></div>` +
    `<button class="button secondary" type="submit">${escapeHtml(words.showDates)}</button></form>`
  );
}

/** The dates chosen, each with whether it is free; when every one is, the way on to the details with them. */
function chosenDates(words: BookWords, base: Record<string, string | number>, chosen: SeriesDate[]): string {
  const weeks = chosen.length;
  const notFree = chosen.filter((date) => !date.free).length;
  return (
    `<h2>${escapeHtml(words.datesTitle(weeks))}</h2>${seriesList(words, chosen)}` +
    (notFree
      ? notice(words.someNotFree(notFree, weeks))
      : `<p>${escapeHtml(words.allFree)}</p><a class="button" href="/book/details?${escapeHtml(query({ ...base, weeks }))}">${escapeHtml(words.continueDates(weeks))}</a>`)
  );
}

/**
 * A time chosen of a reason offered as a series: book this date only, or choose how many weeks (GET, no script) and
 * see each date and whether it is free (`chosen`); when every one is, go on to the details with them.
 */
export function weeksPage({ view, offer, slot, chosen }: SlotStep & { chosen?: SeriesDate[] }): Page {
  const words = wordsOf(view);
  const max = offer.seriesMax ?? 0;
  const day = slot.local.slice(0, 10);
  const base = { schedule: offer.scheduleId, reason: offer.reasonId, day, time: slot.local.slice(11, 16) };
  const weeks = chosen?.length ?? 0;
  const once = `<a class="button${weeks ? ' secondary' : ''}" href="/book/details?${escapeHtml(query(base))}">${escapeHtml(words.onlyOnce)}</a>`;
  const form = weeksForm(words, base, max, weeks);
  const back = `<p><a href="/book/times?${escapeHtml(query({ schedule: offer.scheduleId, reason: offer.reasonId, day }))}">${escapeHtml(words.otherTime)}</a></p>`;
  const body = chosen
    ? `${offerCard(view, offer, slot.local)}${chosenDates(words, base, chosen)}${form}${once}${back}`
    : `${offerCard(view, offer, slot.local)}<p>${escapeHtml(words.weeksIntro(max))}</p>${once}${form}${back}`;
  return page(view, words.weeksTitle, body);
}

/**
 * Step 5 of a series: every date and whether it is still free, the details, and one button that books them all; when
 * a date is not free (`notice`: the booking found so), no button but the way to another time or fewer weeks.
 */
function seriesReviewPage(options: ReviewOptions & { series: NonNullable<ReviewOptions['series']> }): Page {
  const { view, offer, slot, fields, values, ticket, series } = options;
  const words = wordsOf(view);
  const weeks = series.dates.length;
  const notFree = series.dates.filter((date) => !date.free).length;
  const shown = typedRows(words, fields, values);
  const carried = { ...carry(offer, slot.local, ticket), ...weeksField(weeks), ...typedFields(fields, values) };
  const buttons = notFree
    ? `<button class="button" type="submit" formaction="/book/details" name="change" value="day">${escapeHtml(words.otherTime)}</button>` +
      `<button class="button secondary" type="submit" formaction="/book/details">${escapeHtml(words.changeDetails)}</button>`
    : `<p class="hint">${escapeHtml(words.reviewHint)}</p>` +
      `<button class="button" type="submit">${escapeHtml(words.bookSeries(weeks))}</button>` +
      `<button class="button secondary" type="submit" formaction="/book/details">${escapeHtml(words.changeDetails)}</button>`;
  const body =
    `${series.notice ? notice(series.notice) : notFree ? notice(words.someNotFree(notFree, weeks)) : ''}` +
    `${offerCard(view, offer, slot.local, true)}<h2>${escapeHtml(words.datesTitle(weeks))}</h2>${seriesList(words, series.dates)}` +
    `${shown.length ? `<div class="card">${definitions(shown)}</div>` : ''}` +
    `<form method="post" action="/book/confirm">${hidden(carried)}${buttons}</form>`;
  return page(view, words.reviewTitle, body, notFree ? 409 : 200);
}

/** The confirmation's notice: booked (the mail on its way), or booked before (the form sent again). */
function doneNotice(words: BookWords, booked: BookedView): string {
  return notice(
    booked.replayed
      ? words.alreadyBooked
      : booked.email
        ? words.mailOnItsWay(booked.email)
        : words.mailOnItsWayNoAddress,
    'done',
  );
}

/** The confirmation's way to the self-service page: its link, or (the form sent again) where the link is. */
function manageBlock(words: BookWords, booked: BookedView): string {
  if (booked.manageUrl)
    return `<a class="button secondary" href="${escapeHtml(booked.manageUrl)}"${OUTSIDE}>${escapeHtml(words.manage)}</a><p class="hint">${escapeHtml(words.manageHint)}</p>`;
  return booked.replayed ? `<p>${escapeHtml(words.manageInMail)}</p>` : '';
}

/**
 * One calendar file per date of a series, each its own booking's invitation, as the confirmation mail attaches them
 * (one UID per file, so that a later change of one date updates or removes it in place); Google's and Outlook's
 * links would add one event each, which no later change reaches.
 */
function seriesFiles(words: BookWords, series: NonNullable<BookedView['series']>): string {
  const files = series
    .map((date, n) =>
      date.ics
        ? `<li><a href="${escapeHtml(date.ics)}" download="appointment-${n + 1}.ics">${escapeHtml(words.icsFileOf(slotWords(words, date.local)))}</a></li>`
        : '',
    )
    .join('');
  return files ? `<h2>${escapeHtml(words.addToCalendar)}</h2><ul class="links">${files}</ul>` : '';
}

/** Step 6 of a series: every date booked, each date's calendar file, the self-service link. */
function seriesDonePage(view: BookView, booked: BookedView, series: NonNullable<BookedView['series']>): Page {
  const words = wordsOf(view);
  const pageWords = PAGE_WORDS[view.practice.locale];
  const { practice } = view;
  const rows: [string, string][] = [
    [words.what, booked.offer.reasonName],
    [words.withLabel, booked.offer.scheduleName],
    [words.duration, durationWords(words, booked.offer.minutes)],
    ...(practice.address ? [[words.where, practice.address] as [string, string]] : []),
  ];
  const dates = series
    .map(
      (date) =>
        `<li>${escapeHtml(`${slotWords(words, date.local)}${date.status === 'cancelled' ? `: ${pageWords.cancelledStatus}` : ''}`)}</li>`,
    )
    .join('');
  const body =
    `${doneNotice(words, booked)}` +
    `<div class="card">${definitions(rows)}${phoneLine(words, practice)}</div>` +
    `<h2>${escapeHtml(words.datesTitle(series.length))}</h2><ol class="links">${dates}</ol>` +
    `${seriesFiles(words, series)}${manageBlock(words, booked)}${bookAgain(words, booked)}`;
  return page(view, words.doneSeriesTitle, body);
}
