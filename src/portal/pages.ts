/**
 * The self-service page's HTML: server-rendered, no script, one inline style sheet (allowed by its hash in the
 * Content-Security-Policy), phone first (18 px text, 48 px buttons, no horizontal scroll at 320 px, WCAG AA
 * colours). Pure: every value comes in as an argument, and every text goes through `escapeHtml`.
 */
import { createHash } from 'node:crypto';
import type { FreeSlot } from '../domain/availability.ts';
import { escapeHtml } from '../mail/messages.ts';
import { localWhen } from '../mail/translations.ts';
import type { Managed, Refusal } from '../app/portal.ts';
import { PAGE_WORDS, type PageWords } from './words.ts';
import type { Locale } from '../store/settings.ts';

/** The one style sheet. Colours: text #1a1a1a on white (17:1), links #1a56b0 (7:1), buttons white on #1f5fbf (6:1). */
const CSS = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:36rem;margin:0 auto;padding:16px}
h1{font-size:26px;line-height:1.25;margin:8px 0 4px}h2{font-size:21px;line-height:1.3;margin:0 0 12px}
.practice{margin:0 0 16px;color:#3d3d3d}
.card{background:#fff;border:1px solid #c9ccd1;border-radius:8px;padding:16px;margin:0 0 16px}
dl{margin:0}dt{font-weight:700;color:#3d3d3d;margin-top:10px}dt:first-child{margin-top:0}dd{margin:0;overflow-wrap:anywhere}
.note{background:#e8f0fb;border-left:4px solid #1f5fbf;padding:12px 16px;margin:0 0 16px}
.done{background:#e7f4ea;border-left-color:#1e6b34}.error{background:#fdecea;border-left-color:#a4261d}
.button{display:block;width:100%;min-height:48px;padding:11px 16px;margin:0 0 12px;border:2px solid #1f5fbf;border-radius:8px;background:#1f5fbf;color:#fff;font:inherit;font-weight:700;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer}
.button.secondary{background:#fff;color:#1a56b0}.button.danger{background:#a4261d;border-color:#a4261d}
a{color:#1a56b0}
label{display:block;font-weight:700;margin:0 0 4px}
textarea{display:block;width:100%;min-height:96px;font:inherit;padding:8px;border:1px solid #6b7079;border-radius:6px;background:#fff;color:#1a1a1a}
.hint{font-size:16px;color:#454a52;margin:4px 0 16px}
ul.choices{list-style:none;padding:0;margin:0 0 16px;display:grid;grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));gap:8px}
ul.choices li{display:flex}ul.choices .button{margin:0;padding:10px 4px}`;

/** The Content-Security-Policy source of the style sheet (no other style and no script may run). */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/** A page to answer: its status and HTML. */
export interface Page {
  status: number;
  html: string;
}

/** What the page says above the booking: a change just made, or why one was refused. */
export type Notice = { kind: 'done'; what: 'cancelled' | 'moved' } | { kind: 'refused'; why: Refusal | 'forbidden' };

function layout(words: PageWords, title: string, body: string): string {
  return (
    `<!doctype html><html lang="${words.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)}</title><style>${CSS}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

const dayFormats = new Map<string, { short: Intl.DateTimeFormat; long: Intl.DateTimeFormat }>();

/** Returns a local day `YYYY-MM-DD` as words (`Tue 24 Nov`, or long: `Tuesday, 24 November 2026`). */
function dayWords(day: string, dateLocale: string, long = false): string {
  let formats = dayFormats.get(dateLocale);
  if (!formats) {
    formats = {
      short: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }),
      long: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
    };
    dayFormats.set(dateLocale, formats);
  }
  return (long ? formats.long : formats.short).format(new Date(`${day}T12:00:00Z`));
}

function wordsOf(managed: Managed): PageWords {
  return PAGE_WORDS[managed.settings.locale];
}

function noticeHtml(words: PageWords, notice: Notice | undefined): string {
  if (!notice) return '';
  if (notice.kind === 'done') return `<p class="note done" role="status">${escapeHtml(notice.what === 'cancelled' ? words.doneCancelled : words.doneMoved)}</p>`;
  return `<p class="note error" role="alert">${escapeHtml(words.refused[notice.why])}</p>`;
}

/** The booking's facts, as every page shows them. */
function bookingCard(managed: Managed): string {
  const words = wordsOf(managed);
  const { booking, settings } = managed;
  const rows: [string, string][] = [
    ...(booking.customerName ? [[words.name, booking.customerName] as [string, string]] : []),
    [words.what, booking.reasonName],
    [words.with, booking.scheduleName],
    [words.when, localWhen(booking.startAt, settings.timeZone, words.dateLocale)],
    [words.reference, booking.reference],
    [words.status, booking.status === 'cancelled' ? words.cancelledStatus : words.booked],
    ...(booking.status === 'cancelled' && booking.cancelReason ? [[words.cancelReason, booking.cancelReason] as [string, string]] : []),
  ];
  return `<div class="card"><dl>${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl></div>`;
}

function header(managed: Managed, title: string): string {
  return `<h1>${escapeHtml(title)}</h1><p class="practice">${escapeHtml(managed.settings.practiceName)}</p>`;
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** The booking and what its customer may do now. */
export function overviewPage(managed: Managed, base: string, notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const deadline = localWhen(managed.deadline, managed.settings.timeZone, words.dateLocale);
  let state: string;
  let actions = '';
  if (managed.state === 'open') {
    state = managed.mayMove ? words.until(deadline) : words.untilCancelOnly(deadline);
    if (managed.mayMove) actions += `<a class="button" href="${escapeHtml(base)}/reschedule">${escapeHtml(words.change)}</a>`;
    actions += `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancel)}</a>`;
  } else if (managed.state === 'past-deadline') {
    state = words.pastDeadline(deadline, managed.settings.practiceName);
  } else {
    state = managed.state === 'started' ? words.started : words.cancelled;
  }
  const body = `${header(managed, words.title)}${noticeHtml(words, notice)}${bookingCard(managed)}<p>${escapeHtml(state)}</p>${actions}`;
  return { status, html: layout(words, words.title, body) };
}

/** The confirmation step of a cancellation: an optional reason, then one button. */
export function cancelPage(managed: Managed, base: string, form: Record<string, string>, notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const body =
    `${header(managed, words.cancelTitle)}${noticeHtml(words, notice)}${bookingCard(managed)}` +
    `<form method="post" action="${escapeHtml(base)}/cancel">${hidden(form)}` +
    `<label for="reason">${escapeHtml(words.reasonLabel)}</label>` +
    `<textarea id="reason" name="reason" maxlength="500" rows="3"></textarea>` +
    `<p class="hint">${escapeHtml(words.reasonHint)}</p>` +
    `<button class="button danger" type="submit">${escapeHtml(words.confirmCancel)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(base)}">${escapeHtml(words.keep)}</a>`;
  return { status, html: layout(words, words.cancelTitle, body) };
}

/** The first step of a move: the days with a free time (`more`: the first day of the next page, if any). */
export function daysPage(managed: Managed, base: string, days: string[], more: string | undefined): Page {
  const words = wordsOf(managed);
  const list = days.length
    ? `<ul class="choices">${days
        .map((day) => `<li><a class="button secondary" href="${escapeHtml(base)}/reschedule?day=${day}">${escapeHtml(dayWords(day, words.dateLocale))}</a></li>`)
        .join('')}</ul>`
    : `<p>${escapeHtml(words.noDays)}</p>`;
  const next = more ? `<a class="button secondary" href="${escapeHtml(base)}/reschedule?from=${more}">${escapeHtml(words.moreDays)}</a>` : '';
  const body = `${header(managed, words.change)}${bookingCard(managed)}<h2>${escapeHtml(words.moveTitle)}</h2>${list}${next}<a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status: 200, html: layout(words, words.change, body) };
}

/** The second step of a move: the free times of one day, each a button of one POST form. */
export function timesPage(managed: Managed, base: string, day: string, slots: FreeSlot[], form: Record<string, string>, notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const title = words.moveTimes(dayWords(day, words.dateLocale, true));
  const list = slots.length
    ? `<form method="post" action="${escapeHtml(base)}/reschedule">${hidden(form)}<p class="hint">${escapeHtml(words.moveHint)}</p><ul class="choices">${slots
        .map((slot) => `<li><button class="button" type="submit" name="slot" value="${escapeHtml(slot.local)}">${escapeHtml(slot.local.slice(11, 16))}</button></li>`)
        .join('')}</ul></form>`
    : `<p>${escapeHtml(words.noTimes)}</p>`;
  const body =
    `${header(managed, title)}${noticeHtml(words, notice)}${bookingCard(managed)}${list}` +
    `<a class="button secondary" href="${escapeHtml(base)}/reschedule">${escapeHtml(words.otherDay)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status, html: layout(words, title, body) };
}

/** The one page for every link that opens nothing (malformed, unknown, expired, page off, unknown path). */
export function notFoundPage(locale: Locale): Page {
  const words = PAGE_WORDS[locale];
  return { status: 404, html: layout(words, words.notFoundTitle, `<h1>${escapeHtml(words.notFoundTitle)}</h1><p>${escapeHtml(words.notFound)}</p>`) };
}

/** The page of an address throttled for opening too many unknown links. */
export function tooManyPage(locale: Locale, seconds: number): Page {
  const words = PAGE_WORDS[locale];
  return { status: 429, html: layout(words, words.tooManyTitle, `<h1>${escapeHtml(words.tooManyTitle)}</h1><p>${escapeHtml(words.tooMany(seconds))}</p>`) };
}

/** The page of a failure on the server's side (the database could not be written): nothing was changed. */
export function failedPage(locale: Locale): Page {
  const words = PAGE_WORDS[locale];
  return { status: 500, html: layout(words, words.failedTitle, `<h1>${escapeHtml(words.failedTitle)}</h1><p>${escapeHtml(words.failed)}</p>`) };
}
