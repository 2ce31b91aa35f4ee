/**
 * The self-service pages (the overview, cancel, the days and times of a move, its confirmation), built of the page
 * kit (kit.ts: the style sheet, the layout, the pager, the error pages). Pure: every value comes in as an argument,
 * and every text goes through `escapeHtml`.
 */

import type { Managed, Refusal, SeriesDate } from '../app/pages/portal.ts';
import type { FreeSlot } from '../domain/availability.ts';
import { NOTE_MAX_LENGTH } from '../domain/checks.ts';
import { formatLocal } from '../domain/dates.ts';
import { escapeHtml } from '../domain/html.ts';
import { dateUrlOf } from '../domain/manage-url.ts';
import { localWhen } from '../mail/translations.ts';
import {
  brandOf,
  type DayPages,
  dayPager,
  dayWords,
  definitions,
  framedPage,
  hidden,
  type LanguageLinks,
  notice as noteOf,
  type Page,
  telHref,
  timePicker,
} from './kit.ts';
import { PAGE_WORDS, type PageWords } from './words.ts';

/** What the page says above the booking: a change just made, or why one was refused. */
export type Notice =
  | { kind: 'done'; what: 'cancelled' | 'cancelled-series' | 'moved' }
  | { kind: 'refused'; why: Refusal | 'forbidden' };

/**
 * What every self-service page is about: the booking a link opened and its page's path (`base`: `/manage/<token>`,
 * or for another date of the link's series `/manage/<token>/date/<reference>`); `home`, the link's own path (default
 * `base`), under which every date of a series has its page.
 */
export interface ManageView {
  managed: Managed;
  base: string;
  home?: string;
}

/** A page of `view`: its heading, the practice under it, `body`, in the practice's look; the tab says the heading. */
function page(view: ManageView, heading: string, body: string, status = 200): Page {
  const { settings } = view.managed;
  const brand = brandOf(settings.bookingPage);
  return framedPage({ practice: settings, heading, body, status, brand, languages: switcher(view) });
}

/**
 * The language switcher, where the practice offers more than one: each language's link keeps it for the customer
 * (their mails and pages from then on) and shows the booking in it.
 */
function switcher({ managed, base }: ManageView): LanguageLinks | undefined {
  const { languages, locale } = managed.settings;
  if (languages.length < 2) return undefined;
  return { shown: locale, links: languages.map((one) => ({ locale: one, href: `${base}?lang=${one}` })) };
}

function wordsOf(managed: Managed): PageWords {
  return PAGE_WORDS[managed.settings.locale];
}

/** The booking's local day and time now (`YYYY-MM-DD`, `HH:MM`). */
function bookedLocal(managed: Managed): { day: string; time: string } {
  const local = formatLocal(new Date(managed.booking.startAt * 1000), managed.settings.timeZone);
  return { day: local.slice(0, 10), time: local.slice(11, 16) };
}

/** The words of a change just made. */
const DONE = { cancelled: 'doneCancelled', 'cancelled-series': 'doneCancelledSeries', moved: 'doneMoved' } as const;

/** The note of `notice` above the booking ('' for none). */
function noticeHtml(words: PageWords, notice: Notice | undefined): string {
  if (!notice) return '';
  if (notice.kind === 'done') return noteOf(words[DONE[notice.what]], 'done');
  return noteOf(words.refused[notice.why]);
}

/** The booking's facts: what, with whom, when, where, the reference and its status. */
function bookingFacts(managed: Managed): string {
  const words = wordsOf(managed);
  const { booking, settings } = managed;
  const rows: [string, string][] = [
    ...(booking.customerName ? [[words.name, booking.customerName] as [string, string]] : []),
    [words.what, booking.reasonName],
    [words.with, booking.scheduleName],
    [words.when, localWhen(booking.startAt, settings.timeZone, words.dateLocale)],
    ...(settings.address ? [[words.where, settings.address] as [string, string]] : []),
    [words.reference, booking.reference],
    [
      words.status,
      statusWords(words, managed.series?.dates.find((date) => date.id === booking.id)?.state ?? booking.status),
    ],
    ...(booking.status === 'cancelled' && booking.cancelReason
      ? [[words.cancelReason, booking.cancelReason] as [string, string]]
      : []),
  ];
  return definitions(rows);
}

/** A booking's or a series date's status in words: a date of a series that is over is past, not booked. */
function statusWords(words: PageWords, state: SeriesDate['state']): string {
  return state === 'cancelled' ? words.cancelledStatus : state === 'past' ? words.pastStatus : words.booked;
}

/** The booking's card as the overview and the cancel step show it. */
function bookingCard(managed: Managed): string {
  return `<div class="card">${bookingFacts(managed)}</div>`;
}

/**
 * The booking's card on the steps of a move: one line (`Booked: Tue 2 Jun, 10:00`, 16 px: one line at 320 px in en
 * and de) that opens to the whole card, so that the choices show on a phone's first screen. A `<details>`: it opens
 * without script.
 */
function bookingLine(managed: Managed): string {
  const words = wordsOf(managed);
  const { day, time } = bookedLocal(managed);
  return `<details class="card"><summary>${escapeHtml(`${words.booked}: ${dayWords(day, words.dateLocale)}, ${time}`)}</summary>${bookingFacts(managed)}</details>`;
}

/**
 * The dates of the booking's series (a course booked as one), by start, each with its status and, while it can still
 * be changed, its own deadline and (but for the page's own date, whose buttons are above) its own "move" and "cancel"
 * (the steps of that date's page); every other date a link to its page. The booking the page is about is marked (`aria-current`). Nothing for a booking made alone.
 */
function seriesDates({ managed, base, home = base }: ManageView): string {
  const { series, booking, settings } = managed;
  if (!series) return '';
  const words = wordsOf(managed);
  const short = (unix: number) => {
    const local = formatLocal(new Date(unix * 1000), settings.timeZone);
    return `${dayWords(local.slice(0, 10), words.dateLocale)}, ${local.slice(11, 16)}`;
  };
  const items = series.dates
    .map((date) => {
      const when = short(date.startAt);
      const path = date.id === series.linkedId ? home : dateUrlOf(home, date.reference);
      const current = date.id === booking.id;
      const title = current
        ? `<strong>${escapeHtml(when)}</strong> (${escapeHtml(words.thisDate)})`
        : `<a href="${escapeHtml(path)}">${escapeHtml(when)}</a>`;
      const state = `${escapeHtml(statusWords(words, date.state))}${date.open ? `. ${escapeHtml(words.dateUntil(short(date.deadline)))}` : ''}`;
      // The page's own date has its buttons above the list; every other open date its own here.
      const offered = date.open && !current;
      // A series' dates share their reason: where it can no longer be moved to (removed, or no longer offered by the
      // practitioner), no date offers a move.
      const move =
        offered && managed.settings.portal.reschedule && managed.movable
          ? `<a class="button secondary" href="${escapeHtml(path)}/reschedule" aria-label="${escapeHtml(`${words.moveDate}: ${when}`)}">${escapeHtml(words.moveDate)}</a>`
          : '';
      const cancel = offered
        ? `<a class="button secondary" href="${escapeHtml(path)}/cancel" aria-label="${escapeHtml(`${words.cancelDate}: ${when}`)}">${escapeHtml(words.cancelDate)}</a>`
        : '';
      const actions = move || cancel ? `<div class="pair">${move}${cancel}</div>` : '';
      return `<li${current ? ' aria-current="true"' : ''}><p>${title}<br>${state}</p>${actions}</li>`;
    })
    .join('');
  return `<section class="card" aria-labelledby="series-dates"><h2 id="series-dates">${escapeHtml(words.seriesTitle(series.dates.length))}</h2><ol class="dates">${items}</ol></section>`;
}

/** Whether another date of the booking's series can still be changed (the page of a cancelled date says so). */
function othersOpen(managed: Managed): boolean {
  return managed.series?.dates.some((date) => date.open && date.id !== managed.booking.id) ?? false;
}

/** How to reach the practice when the page can no longer change the booking: its phone, else a reply to the mail. */
function reachPractice(managed: Managed): string {
  const words = wordsOf(managed);
  const { practiceName, phone } = managed.settings;
  if (!phone) return `<p>${escapeHtml(words.reachByMail(practiceName))}</p>`;
  return `<p>${escapeHtml(words.reachByPhone(practiceName))}</p><a class="button" href="${escapeHtml(telHref(phone))}">${escapeHtml(words.call(phone))}</a>`;
}

/**
 * After a cancellation, the way back to the practice (a cancelled customer should not be left at a dead end): a new
 * booking on the booking page while it is on, its website and phone, as far as they are given; the first of them is
 * the main button.
 */
function wayBack(managed: Managed): string {
  const words = wordsOf(managed);
  const { practiceName, phone, website, bookingPage } = managed.settings;
  if (!website && !phone && !bookingPage) return '';
  return (
    `<p>${escapeHtml(words.newAppointment)}</p>` +
    (bookingPage ? `<a class="button" href="/book/">${escapeHtml(words.bookNew)}</a>` : '') +
    (website
      ? `<a class="button${bookingPage ? ' secondary' : ''}" href="${escapeHtml(website)}">${escapeHtml(words.website(practiceName))}</a>`
      : '') +
    (phone
      ? `<a class="button secondary" href="${escapeHtml(telHref(phone))}">${escapeHtml(words.call(phone))}</a>`
      : '')
  );
}

/** What the customer may do now, in words, and its buttons: change or cancel, call, or book anew. */
function stateAndActions({ managed, base }: ManageView): { state: string; actions: string } {
  const words = wordsOf(managed);
  const deadline = localWhen(managed.deadline, managed.settings.timeZone, words.dateLocale);
  if (managed.state === 'past-deadline')
    return { state: words.pastDeadline(deadline), actions: reachPractice(managed) };
  if (managed.state !== 'open') {
    const state = managed.state === 'started' ? words.started : words.cancelled;
    // A date of a series: the others stay booked, and each is changed from the list below.
    if (othersOpen(managed)) return { state: `${state} ${words.othersStayBooked}`, actions: '' };
    return { state, actions: managed.state === 'cancelled' ? wayBack(managed) : '' };
  }
  const change = managed.mayMove
    ? `<a class="button" href="${escapeHtml(base)}/reschedule">${escapeHtml(words.change)}</a>`
    : '';
  const later = managed.series?.laterBooked ?? 0;
  // A date of a series with later dates booked: cancel this one, or it and the later ones at one go.
  const cancel = later
    ? `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancelThisDate)}</a>` +
      `<a class="button secondary" href="${escapeHtml(base)}/cancel?scope=later">${escapeHtml(words.cancelWithLater(later))}</a>`
    : `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancel)}</a>`;
  return { state: managed.mayMove ? words.until(deadline) : words.untilCancelOnly(deadline), actions: change + cancel };
}

/** The booking and what its customer may do now; `notice`: a change just made, or why one was refused. */
export function overviewPage(options: ManageView & { notice?: Notice; status?: number }): Page {
  const { managed, notice, status } = options;
  const words = wordsOf(managed);
  const { state, actions } = stateAndActions(options);
  const body = `${noticeHtml(words, notice)}${bookingCard(managed)}<p>${escapeHtml(state)}</p>${actions}${seriesDates(options)}`;
  return page(options, words.title, body, status);
}

/**
 * The choice, for a date of a series with `laterBooked` later dates booked, of this one only or it and the later ones.
 */
function scopeChoice(words: PageWords, laterBooked: number, later: boolean): string {
  if (!laterBooked) return '';
  const radio = (value: string, text: string, checked: boolean) =>
    `<div class="field check"><input type="radio" id="scope-${value}" name="scope" value="${value}"${checked ? ' checked' : ''}>` +
    `<label for="scope-${value}">${escapeHtml(text)}</label></div>`;
  return `<fieldset><legend>${escapeHtml(words.cancelWhich)}</legend>${radio('one', words.cancelOnlyThis, !later)}${radio('later', words.cancelThisAndLater(laterBooked), later)}</fieldset>`;
}

/**
 * The confirmation step of a cancellation: an optional reason, then one button (`form`: the form's hidden fields).
 * For a date of a series with later dates booked, first the choice of this date only or it and the later ones
 * (`later`: that one chosen).
 */
export function cancelPage(
  options: ManageView & { form: Record<string, string>; notice?: Notice; status?: number; later?: boolean },
): Page {
  const { managed, base, form, notice, status, later = false } = options;
  const words = wordsOf(managed);
  const scope = scopeChoice(words, managed.series?.laterBooked ?? 0, later);
  const body =
    `${noticeHtml(words, notice)}${bookingCard(managed)}${seriesDates(options)}` +
    `<form method="post" action="${escapeHtml(base)}/cancel">${hidden(form)}${scope}` +
    `<label for="reason">${escapeHtml(words.reasonLabel)}</label>` +
    `<textarea id="reason" name="reason" maxlength="${NOTE_MAX_LENGTH}" rows="3"></textarea>` +
    `<p class="hint">${escapeHtml(words.reasonHint)}</p>` +
    `<button class="button danger" type="submit">${escapeHtml(words.confirmCancel)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(base)}">${escapeHtml(words.keep)}</a>`;
  return page(options, words.cancelTitle, body, status);
}

/** The days to move to, each a link to its times; the booking's own day marked (`booked`, when it is among them). */
function dayLinks(
  { managed, base }: ManageView,
  days: readonly string[],
  booked: string | undefined,
  also: string,
): string {
  const words = wordsOf(managed);
  if (!days.length) return `<p>${escapeHtml(words.noDays)}</p>`;
  const dayLink = (day: string) => {
    const current = day === booked;
    return (
      `<li><a class="button secondary${current ? ' current' : ''}" href="${escapeHtml(base)}/reschedule?day=${day}${also}"${current ? ' aria-current="date"' : ''}>` +
      `${escapeHtml(dayWords(day, words.dateLocale))}${current ? `<span class="tag">${escapeHtml(words.yourAppointment)}</span>` : ''}</a></li>`
    );
  };
  return `<ul class="choices">${days.map(dayLink).join('')}</ul>`;
}

/**
 * The first step of a move: one page of the days with a free time (`pages`: the first days of the pages before and
 * after), the booking's own day marked; `chosen`, the practitioner whose days they are (default the booking's).
 */
export function daysPage(options: ManageView & { days: string[]; pages: DayPages; chosen?: number }): Page {
  const { managed, base, days, pages, chosen = managed.booking.scheduleId } = options;
  const words = wordsOf(managed);
  const booked = chosen === managed.booking.scheduleId ? bookedLocal(managed).day : undefined;
  const also = withQuery(managed, chosen);
  const pageAt = (from: string | undefined, text: string) =>
    from ? { href: `${base}/reschedule?from=${from}${also}`, text } : undefined;
  const pager = dayPager({
    label: words.moreDaysLabel,
    earlier: pageAt(pages.earlier, words.earlierDays),
    later: pageAt(pages.later, words.moreDays),
  });
  const body = `${bookingLine(managed)}<h2>${escapeHtml(words.moveTitle)}</h2>${practitionerPicker(options, chosen)}${dayLinks(options, days, booked, also)}${pager}<a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return page(options, words.change, body);
}

/** The query that keeps another practitioner chosen from step to step of a move (none for the booking's own). */
function withQuery(managed: Managed, chosen: number): string {
  return chosen === managed.booking.scheduleId ? '' : `&with=${chosen}`;
}

/**
 * Where the booking's reason is shared by several practitioners: those who offer it, the chosen one marked, each a
 * link to their free days; none where only the booking's own practitioner offers it.
 */
function practitionerPicker({ managed, base }: ManageView, chosen: number): string {
  if (managed.practitioners.length < 2) return '';
  const words = wordsOf(managed);
  const item = ({ id, name }: { id: number; name: string }) =>
    id === chosen
      ? `<li><span class="current" aria-current="true">${escapeHtml(name)}</span></li>`
      : `<li><a class="button secondary" href="${escapeHtml(`${base}/reschedule${id === managed.booking.scheduleId ? '' : `?with=${id}`}`)}">${escapeHtml(name)}</a></li>`;
  return `<nav aria-label="${escapeHtml(words.with)}"><p>${escapeHtml(words.with)}:</p><ul class="choices">${managed.practitioners.map(item).join('')}</ul></nav>`;
}

/** The times of `day` to move to, each a link to its confirmation step; the booking's own time marked, without one. */
function timeLinks({ managed, base }: ManageView, day: string, slots: readonly FreeSlot[], also: string): string {
  const words = wordsOf(managed);
  if (!slots.length) return `<p>${escapeHtml(words.noTimes)}</p>`;
  const booked = bookedLocal(managed);
  const times = slots.map((slot) => ({ time: slot.local.slice(11, 16), current: false }));
  if (booked.day === day && also === '') times.push({ time: booked.time, current: true });
  times.sort((a, b) => a.time.localeCompare(b.time));
  const item = ({ time, current }: { time: string; current: boolean }) =>
    current
      ? `<li><span class="current" aria-current="time">${escapeHtml(time)}<span class="tag">${escapeHtml(words.yourAppointment)}</span></span></li>`
      : `<li><a class="button" href="${escapeHtml(`${base}/reschedule?day=${day}&time=${time}${also}`)}">${escapeHtml(time)}</a></li>`;
  return `<p class="hint">${escapeHtml(words.moveHint)}</p>${timePicker({ parts: words.parts, times, item })}`;
}

/**
 * The second step of a move: the free times of `day` by part of the day, each a link to the confirmation step; on
 * the booking's own day its time is shown among them, marked, without a link.
 */
export function timesPage(
  options: ManageView & { day: string; slots: FreeSlot[]; notice?: Notice; status?: number; chosen?: number },
): Page {
  const { managed, base, day, slots, notice, status, chosen = managed.booking.scheduleId } = options;
  const words = wordsOf(managed);
  const title = words.moveTimes(dayWords(day, words.dateLocale, 'long'));
  const also = withQuery(managed, chosen);
  const body =
    `${noticeHtml(words, notice)}${bookingLine(managed)}${timeLinks(options, day, slots, also)}` +
    `<a class="button secondary" href="${escapeHtml(`${base}/reschedule?from=${day}${also}`)}">${escapeHtml(words.otherDay)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return page(options, title, body, status);
}

/**
 * The last step of a move: the old and the new time, and one POST form that makes the move (`form`: its hidden
 * fields; `chosen`: the practitioner moved to, default the booking's).
 */
export function confirmMovePage(
  options: ManageView & { slot: FreeSlot; form: Record<string, string>; chosen?: number },
): Page {
  const { managed, base, slot, form, chosen = managed.booking.scheduleId } = options;
  const words = wordsOf(managed);
  const { settings, booking } = managed;
  const also = withQuery(managed, chosen);
  const practitioner = managed.practitioners.find((one) => one.id === chosen)?.name ?? booking.scheduleName;
  const day = slot.local.slice(0, 10);
  const title = words.moveTo(`${dayWords(day, words.dateLocale, 'medium')}, ${slot.local.slice(11, 16)}`);
  const rows: [string, string][] = [
    [words.from, localWhen(booking.startAt, settings.timeZone, words.dateLocale)],
    [words.to, localWhen(slot.startAt, settings.timeZone, words.dateLocale)],
    [words.what, booking.reasonName],
    [words.with, practitioner],
  ];
  const body =
    `<div class="card">${definitions(rows)}</div>` +
    `<form method="post" action="${escapeHtml(base)}/reschedule">${hidden({ ...form, slot: slot.local, ...(also ? { schedule: String(chosen) } : {}) })}` +
    `<p class="hint">${escapeHtml(words.confirmMoveHint)}</p>` +
    (managed.series ? `<p class="hint">${escapeHtml(words.seriesMoveHint)}</p>` : '') +
    `<button class="button" type="submit">${escapeHtml(words.confirmMove)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(`${base}/reschedule?day=${day}${also}`)}">${escapeHtml(words.otherTime)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return page(options, title, body);
}
