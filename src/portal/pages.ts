/**
 * The self-service pages (the overview, cancel, the days and times of a move, its confirmation), built of the page
 * kit (kit.ts: the style sheet, the layout, the pager, the error pages). Pure: every value comes in as an argument,
 * and every text goes through `escapeHtml`.
 */
import type { FreeSlot } from '../domain/availability.ts';
import { escapeHtml } from '../domain/html.ts';
import { localWhen } from '../mail/translations.ts';
import { formatLocal } from '../domain/dates.ts';
import { NOTE_MAX_LENGTH } from '../domain/checks.ts';
import type { Managed, Refusal } from '../app/pages/portal.ts';
import {
  dayPager,
  dayWords,
  definitions,
  hidden,
  layout,
  timePicker,
  telHref,
  type DayPages,
  type Page,
} from './kit.ts';
import { PAGE_WORDS, type PageWords } from './words.ts';

/** What the page says above the booking: a change just made, or why one was refused. */
export type Notice =
  | { kind: 'done'; what: 'cancelled' | 'cancelled-series' | 'moved' }
  | { kind: 'refused'; why: Refusal | 'forbidden' };

function wordsOf(managed: Managed): PageWords {
  return PAGE_WORDS[managed.settings.locale];
}

/** The booking's local day and time now (`YYYY-MM-DD`, `HH:MM`). */
function bookedLocal(managed: Managed): { day: string; time: string } {
  const local = formatLocal(new Date(managed.booking.startAt * 1000), managed.settings.timeZone);
  return { day: local.slice(0, 10), time: local.slice(11, 16) };
}

function noticeHtml(words: PageWords, notice: Notice | undefined): string {
  if (!notice) return '';
  if (notice.kind === 'done') {
    const text =
      notice.what === 'cancelled'
        ? words.doneCancelled
        : notice.what === 'cancelled-series'
          ? words.doneCancelledSeries
          : words.doneMoved;
    return `<p class="note done" role="status">${escapeHtml(text)}</p>`;
  }
  return `<p class="note error" role="alert">${escapeHtml(words.refused[notice.why])}</p>`;
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
    [words.status, booking.status === 'cancelled' ? words.cancelledStatus : words.booked],
    ...(booking.status === 'cancelled' && booking.cancelReason
      ? [[words.cancelReason, booking.cancelReason] as [string, string]]
      : []),
  ];
  return definitions(rows);
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
 * The dates of the booking's series (issue 40), by start, each with its status; the booking the page is about marked
 * (`aria-current`). Nothing for a booking made alone.
 */
function seriesDates(managed: Managed): string {
  const { series, booking, settings } = managed;
  if (!series) return '';
  const words = wordsOf(managed);
  const items = series.dates
    .map((date) => {
      const local = formatLocal(new Date(date.startAt * 1000), settings.timeZone);
      const text = `${dayWords(local.slice(0, 10), words.dateLocale)}, ${local.slice(11, 16)}: ${date.status === 'cancelled' ? words.cancelledStatus : words.booked}`;
      return date.id === booking.id
        ? `<li aria-current="true"><strong>${escapeHtml(text)}</strong> (${escapeHtml(words.thisDate)})</li>`
        : `<li>${escapeHtml(text)}</li>`;
    })
    .join('');
  return `<section class="card" aria-labelledby="series-dates"><h2 id="series-dates">${escapeHtml(words.seriesTitle(series.dates.length))}</h2><ol class="links">${items}</ol></section>`;
}

function header(managed: Managed, title: string): string {
  return `<h1>${escapeHtml(title)}</h1><p class="practice">${escapeHtml(managed.settings.practiceName)}</p>`;
}

/** How to reach the practice when the page can no longer change the booking: its phone, else a reply to the mail. */
function reachPractice(managed: Managed): string {
  const words = wordsOf(managed);
  const { practiceName, phone } = managed.settings;
  if (!phone) return `<p>${escapeHtml(words.reachByMail(practiceName))}</p>`;
  return `<p>${escapeHtml(words.reachByPhone(practiceName))}</p><a class="button" href="${escapeHtml(telHref(phone))}">${escapeHtml(words.call(phone))}</a>`;
}

/**
 * After a cancellation, the way back to the practice: a new booking on the booking page while it is on (issue 41,
 * item 7), its website and phone, as far as they are given; the first of them is the main button.
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

/** The booking and what its customer may do now. */
export function overviewPage(managed: Managed, base: string, notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const deadline = localWhen(managed.deadline, managed.settings.timeZone, words.dateLocale);
  let state: string;
  let actions = '';
  if (managed.state === 'open') {
    state = managed.mayMove ? words.until(deadline) : words.untilCancelOnly(deadline);
    if (managed.mayMove)
      actions += `<a class="button" href="${escapeHtml(base)}/reschedule">${escapeHtml(words.change)}</a>`;
    const later = managed.series?.laterBooked ?? 0;
    // A date of a series with later dates booked: cancel this one, or it and the later ones (issue 40).
    actions += later
      ? `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancelThisDate)}</a>` +
        `<a class="button secondary" href="${escapeHtml(base)}/cancel?scope=later">${escapeHtml(words.cancelWithLater(later))}</a>`
      : `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancel)}</a>`;
  } else if (managed.state === 'past-deadline') {
    state = words.pastDeadline(deadline);
    actions = reachPractice(managed);
  } else {
    state = managed.state === 'started' ? words.started : words.cancelled;
    if (managed.state === 'cancelled') actions = wayBack(managed);
  }
  const body = `${header(managed, words.title)}${noticeHtml(words, notice)}${bookingCard(managed)}<p>${escapeHtml(state)}</p>${actions}${seriesDates(managed)}`;
  return { status, html: layout(managed.settings, words.title, body) };
}

/**
 * The confirmation step of a cancellation: an optional reason, then one button. For a date of a series with later
 * dates booked (issue 40), first the choice of this date only or it and the later ones (`later`: that one chosen).
 */
export function cancelPage(
  managed: Managed,
  base: string,
  form: Record<string, string>,
  notice?: Notice,
  status = 200,
  later = false,
): Page {
  const words = wordsOf(managed);
  const laterBooked = managed.series?.laterBooked ?? 0;
  const radio = (value: string, text: string, checked: boolean) =>
    `<div class="field check"><input type="radio" id="scope-${value}" name="scope" value="${value}"${checked ? ' checked' : ''}>` +
    `<label for="scope-${value}">${escapeHtml(text)}</label></div>`;
  const scope = laterBooked
    ? `<fieldset><legend>${escapeHtml(words.cancelWhich)}</legend>${radio('one', words.cancelOnlyThis, !later)}${radio('later', words.cancelThisAndLater(laterBooked), later)}</fieldset>`
    : '';
  const body =
    `${header(managed, words.cancelTitle)}${noticeHtml(words, notice)}${bookingCard(managed)}${seriesDates(managed)}` +
    `<form method="post" action="${escapeHtml(base)}/cancel">${hidden(form)}${scope}` +
    `<label for="reason">${escapeHtml(words.reasonLabel)}</label>` +
    `<textarea id="reason" name="reason" maxlength="${NOTE_MAX_LENGTH}" rows="3"></textarea>` +
    `<p class="hint">${escapeHtml(words.reasonHint)}</p>` +
    `<button class="button danger" type="submit">${escapeHtml(words.confirmCancel)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(base)}">${escapeHtml(words.keep)}</a>`;
  return { status, html: layout(managed.settings, words.cancelTitle, body) };
}

/** The first step of a move: one page of the days with a free time, the booking's own day marked. */
export function daysPage(
  managed: Managed,
  base: string,
  days: string[],
  pages: DayPages,
  chosen = managed.booking.scheduleId,
): Page {
  const words = wordsOf(managed);
  const own = chosen === managed.booking.scheduleId;
  const booked = own ? bookedLocal(managed).day : undefined;
  const also = withQuery(managed, chosen);
  const dayLink = (day: string) => {
    const current = day === booked;
    return (
      `<li><a class="button secondary${current ? ' current' : ''}" href="${escapeHtml(base)}/reschedule?day=${day}${also}"${current ? ' aria-current="date"' : ''}>` +
      `${escapeHtml(dayWords(day, words.dateLocale))}${current ? `<span class="tag">${escapeHtml(words.yourAppointment)}</span>` : ''}</a></li>`
    );
  };
  const list = days.length
    ? `<ul class="choices">${days.map(dayLink).join('')}</ul>`
    : `<p>${escapeHtml(words.noDays)}</p>`;
  const pager = dayPager(
    words.moreDaysLabel,
    pages.earlier && [`${base}/reschedule?from=${pages.earlier}${also}`, words.earlierDays],
    pages.later && [`${base}/reschedule?from=${pages.later}${also}`, words.moreDays],
  );
  const body = `${header(managed, words.change)}${bookingLine(managed)}<h2>${escapeHtml(words.moveTitle)}</h2>${practitionerPicker(managed, base, chosen)}${list}${pager}<a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status: 200, html: layout(managed.settings, words.change, body) };
}

/** The query that keeps another practitioner chosen from step to step of a move (none for the booking's own). */
function withQuery(managed: Managed, chosen: number): string {
  return chosen === managed.booking.scheduleId ? '' : `&with=${chosen}`;
}

/**
 * Where the booking's reason is shared (issue 40): the practitioners who offer it, the chosen one marked, each a link
 * to their free days; none where only the booking's own practitioner offers it.
 */
function practitionerPicker(managed: Managed, base: string, chosen: number): string {
  if (managed.practitioners.length < 2) return '';
  const words = wordsOf(managed);
  const item = ({ id, name }: { id: number; name: string }) =>
    id === chosen
      ? `<li><span class="current" aria-current="true">${escapeHtml(name)}</span></li>`
      : `<li><a class="button secondary" href="${escapeHtml(`${base}/reschedule${id === managed.booking.scheduleId ? '' : `?with=${id}`}`)}">${escapeHtml(name)}</a></li>`;
  return `<nav aria-label="${escapeHtml(words.with)}"><p>${escapeHtml(words.with)}:</p><ul class="choices">${managed.practitioners.map(item).join('')}</ul></nav>`;
}

/**
 * The second step of a move: the free times of one day by part of the day, each a link to the confirmation step;
 * on the booking's own day its time is shown among them, marked, without a link.
 */
export function timesPage(
  managed: Managed,
  base: string,
  day: string,
  slots: FreeSlot[],
  notice?: Notice,
  status = 200,
  chosen = managed.booking.scheduleId,
): Page {
  const words = wordsOf(managed);
  const title = words.moveTimes(dayWords(day, words.dateLocale, 'long'));
  const booked = bookedLocal(managed);
  const also = withQuery(managed, chosen);
  const times = slots.map((slot) => ({ time: slot.local.slice(11, 16), current: false }));
  if (booked.day === day && slots.length && also === '') times.push({ time: booked.time, current: true });
  times.sort((a, b) => a.time.localeCompare(b.time));
  const item = ({ time, current }: { time: string; current: boolean }) =>
    current
      ? `<li><span class="current" aria-current="time">${escapeHtml(time)}<span class="tag">${escapeHtml(words.yourAppointment)}</span></span></li>`
      : `<li><a class="button" href="${escapeHtml(`${base}/reschedule?day=${day}&time=${time}${also}`)}">${escapeHtml(time)}</a></li>`;
  const groups = timePicker(words.parts, times, item);
  const list = slots.length
    ? `<p class="hint">${escapeHtml(words.moveHint)}</p>${groups}`
    : `<p>${escapeHtml(words.noTimes)}</p>`;
  const body =
    `${header(managed, title)}${noticeHtml(words, notice)}${bookingLine(managed)}${list}` +
    `<a class="button secondary" href="${escapeHtml(`${base}/reschedule?from=${day}${also}`)}">${escapeHtml(words.otherDay)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status, html: layout(managed.settings, title, body) };
}

/** The last step of a move: the old and the new time, and one POST form that makes the move. */
export function confirmMovePage(
  managed: Managed,
  base: string,
  slot: FreeSlot,
  form: Record<string, string>,
  chosen = managed.booking.scheduleId,
): Page {
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
    `${header(managed, title)}<div class="card">${definitions(rows)}</div>` +
    `<form method="post" action="${escapeHtml(base)}/reschedule">${hidden({ ...form, slot: slot.local, ...(also ? { schedule: String(chosen) } : {}) })}` +
    `<p class="hint">${escapeHtml(words.confirmMoveHint)}</p>` +
    (managed.series ? `<p class="hint">${escapeHtml(words.seriesMoveHint)}</p>` : '') +
    `<button class="button" type="submit">${escapeHtml(words.confirmMove)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(`${base}/reschedule?day=${day}${also}`)}">${escapeHtml(words.otherTime)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status: 200, html: layout(settings, title, body) };
}
