/**
 * The self-service page's HTML: server-rendered, no script, one inline style sheet (allowed by its hash in the
 * Content-Security-Policy), phone first (18 px text, 48 px buttons, no horizontal scroll at 320 px, WCAG AA
 * colours). Pure: every value comes in as an argument, and every text goes through `escapeHtml`.
 */
import { createHash } from 'node:crypto';
import type { FreeSlot } from '../domain/availability.ts';
import { escapeHtml } from '../mail/messages.ts';
import { localWhen } from '../mail/translations.ts';
import { formatLocal } from '../domain/dates.ts';
import { NOTE_MAX_LENGTH } from '../domain/checks.ts';
import type { Managed, Refusal } from '../app/portal.ts';
import { PAGE_WORDS, type PageWords } from './words.ts';
import type { Settings } from '../store/settings.ts';

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
ul.choices li{display:flex}ul.choices .button{margin:0;padding:10px 4px;display:flex;flex-direction:column;justify-content:center;align-items:center}
ul.choices .current{border-width:4px;border-color:#1a1a1a}.tag{display:block;font-weight:400;font-size:16px}
ul.choices span.current{display:block;width:100%;min-height:48px;padding:8px 4px;border:2px dashed #3d3d3d;border-radius:8px;background:#fff;text-align:center;font-weight:700}
h2.group{font-size:19px;margin:16px 0 8px}
details.card{padding:12px}summary{cursor:pointer;font-size:16px}details[open] summary{margin-bottom:12px}
.pager{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:0 0 12px}.pager .button{margin:0;padding:10px 4px}.pager .later{grid-column:2}
footer{max-width:36rem;margin:0 auto;padding:0 16px 24px}footer p{margin:0;padding-top:12px;border-top:1px solid #c9ccd1;color:#3d3d3d}
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.field{margin:0 0 16px}.other-day{margin-top:32px}.req{font-weight:400;font-size:16px;color:#454a52}
input.text,select{display:block;width:100%;min-height:48px;font:inherit;padding:8px;border:1px solid #6b7079;border-radius:6px;background:#fff;color:#1a1a1a}
input.text[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border:2px solid #a4261d}.field-error{color:#a4261d;font-weight:700;margin:4px 0 0}
.check{display:flex;gap:10px;align-items:flex-start}.check input{width:24px;height:24px;margin:3px 0 0;flex:none}
fieldset{border:0;padding:0;margin:0 0 16px;min-width:0}legend{font-size:21px;line-height:1.3;font-weight:700;margin:0 0 12px;padding:0}
ul.times{list-style:none;padding:0;margin:0 0 16px;display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:8px}
ul.times label{display:flex;align-items:center;gap:8px;min-height:48px;margin:0;padding:8px 12px;border:2px solid #1f5fbf;border-radius:8px;background:#fff;cursor:pointer}
ul.times input{width:22px;height:22px;margin:0;flex:none}.links{margin:0 0 16px;padding-left:20px}ul.offers{list-style:none;padding:0;margin:0 0 16px}.links li{margin:0 0 8px}`;

/** The Content-Security-Policy source of the style sheet (no other style and no script may run). */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/** A page to answer: its status and HTML. */
export interface Page {
  status: number;
  html: string;
}

/** What the page says above the booking: a change just made, or why one was refused. */
export type Notice = { kind: 'done'; what: 'cancelled' | 'moved' } | { kind: 'refused'; why: Refusal | 'forbidden' };

/** What every page tells of the practice: how to reach it ('' when not given). */
export type Practice = Pick<Settings, 'locale' | 'practiceName' | 'address' | 'phone' | 'website'>;

/** The `tel:` address of a phone number as people write it (`+49 30 123-45` → `tel:+493012345`). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** The practice's name, address and phone (a `tel:` link) below every page; nothing when neither is given. */
function footer(practice: Practice): string {
  if (!practice.address && !practice.phone) return '';
  const words = PAGE_WORDS[practice.locale];
  const lines = [
    ...(practice.practiceName ? [escapeHtml(practice.practiceName)] : []),
    ...(practice.address ? [escapeHtml(practice.address)] : []),
    ...(practice.phone ? [`${escapeHtml(words.phone)}: <a href="${escapeHtml(telHref(practice.phone))}">${escapeHtml(practice.phone)}</a>`] : []),
  ];
  return `<footer><p>${lines.join('<br>')}</p></footer>`;
}

export function layout(practice: Practice, title: string, body: string): string {
  const words = PAGE_WORDS[practice.locale];
  return (
    `<!doctype html><html lang="${words.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)}</title><style>${CSS}</style></head>` +
    `<body><main>${body}</main>${footer(practice)}</body></html>`
  );
}

const dayFormats = new Map<string, Record<'short' | 'medium' | 'long', Intl.DateTimeFormat>>();

/**
 * Returns a local day `YYYY-MM-DD` as words: short `Tue 24 Nov`, medium `Tuesday 24 November`, long `Tuesday, 24
 * November 2026` (each as the locale writes it).
 */
export function dayWords(day: string, dateLocale: string, length: 'short' | 'medium' | 'long' = 'short'): string {
  let formats = dayFormats.get(dateLocale);
  if (!formats) {
    formats = {
      short: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }),
      medium: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }),
      long: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
    };
    dayFormats.set(dateLocale, formats);
  }
  return formats[length].format(new Date(`${day}T12:00:00Z`));
}

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
  if (notice.kind === 'done') return `<p class="note done" role="status">${escapeHtml(notice.what === 'cancelled' ? words.doneCancelled : words.doneMoved)}</p>`;
  return `<p class="note error" role="alert">${escapeHtml(words.refused[notice.why])}</p>`;
}

export function definitions(rows: [string, string][]): string {
  return `<dl>${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
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
    ...(booking.status === 'cancelled' && booking.cancelReason ? [[words.cancelReason, booking.cancelReason] as [string, string]] : []),
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

function header(managed: Managed, title: string): string {
  return `<h1>${escapeHtml(title)}</h1><p class="practice">${escapeHtml(managed.settings.practiceName)}</p>`;
}

export function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** How to reach the practice when the page can no longer change the booking: its phone, else a reply to the mail. */
function reachPractice(managed: Managed): string {
  const words = wordsOf(managed);
  const { practiceName, phone } = managed.settings;
  if (!phone) return `<p>${escapeHtml(words.reachByMail(practiceName))}</p>`;
  return `<p>${escapeHtml(words.reachByPhone(practiceName))}</p><a class="button" href="${escapeHtml(telHref(phone))}">${escapeHtml(words.call(phone))}</a>`;
}

/** After a cancellation, the way back to the practice: its website and phone, as far as they are given. */
function wayBack(managed: Managed): string {
  const words = wordsOf(managed);
  const { practiceName, phone, website } = managed.settings;
  if (!website && !phone) return '';
  return (
    `<p>${escapeHtml(words.newAppointment)}</p>` +
    (website ? `<a class="button" href="${escapeHtml(website)}">${escapeHtml(words.website(practiceName))}</a>` : '') +
    (phone ? `<a class="button secondary" href="${escapeHtml(telHref(phone))}">${escapeHtml(words.call(phone))}</a>` : '')
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
    if (managed.mayMove) actions += `<a class="button" href="${escapeHtml(base)}/reschedule">${escapeHtml(words.change)}</a>`;
    actions += `<a class="button secondary" href="${escapeHtml(base)}/cancel">${escapeHtml(words.cancel)}</a>`;
  } else if (managed.state === 'past-deadline') {
    state = words.pastDeadline(deadline);
    actions = reachPractice(managed);
  } else {
    state = managed.state === 'started' ? words.started : words.cancelled;
    if (managed.state === 'cancelled') actions = wayBack(managed);
  }
  const body = `${header(managed, words.title)}${noticeHtml(words, notice)}${bookingCard(managed)}<p>${escapeHtml(state)}</p>${actions}`;
  return { status, html: layout(managed.settings, words.title, body) };
}

/** The confirmation step of a cancellation: an optional reason, then one button. */
export function cancelPage(managed: Managed, base: string, form: Record<string, string>, notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const body =
    `${header(managed, words.cancelTitle)}${noticeHtml(words, notice)}${bookingCard(managed)}` +
    `<form method="post" action="${escapeHtml(base)}/cancel">${hidden(form)}` +
    `<label for="reason">${escapeHtml(words.reasonLabel)}</label>` +
    `<textarea id="reason" name="reason" maxlength="${NOTE_MAX_LENGTH}" rows="3"></textarea>` +
    `<p class="hint">${escapeHtml(words.reasonHint)}</p>` +
    `<button class="button danger" type="submit">${escapeHtml(words.confirmCancel)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(base)}">${escapeHtml(words.keep)}</a>`;
  return { status, html: layout(managed.settings, words.cancelTitle, body) };
}

/** Days offered per page, on the self-service page's move and the booking page alike. */
export const DAYS_PER_PAGE = 14;

/**
 * The page of `days` (in order) that holds the first day on or after `from` (the last page when none is; the first
 * page without `from`): its days, and the first day of the page before and after. Pages are counted from the first day.
 */
export function pageOfDays(days: readonly string[], from?: string): { days: string[]; pages: DayPages } {
  const at = from === undefined ? 0 : days.findIndex((one) => one >= from);
  const start = at < 0 ? Math.max(0, days.length - 1) : at;
  const first = start - (start % DAYS_PER_PAGE);
  return {
    days: days.slice(first, first + DAYS_PER_PAGE),
    pages: {
      ...(first > 0 ? { earlier: days[first - DAYS_PER_PAGE]! } : {}),
      ...(first + DAYS_PER_PAGE < days.length ? { later: days[first + DAYS_PER_PAGE]! } : {}),
    },
  };
}

/** Where a page of days leads: the first day of the page before and of the page after, if any. */
export interface DayPages {
  earlier?: string;
  later?: string;
}

/** The first step of a move: one page of the days with a free time, the booking's own day marked. */
export function daysPage(managed: Managed, base: string, days: string[], pages: DayPages): Page {
  const words = wordsOf(managed);
  const booked = bookedLocal(managed).day;
  const dayLink = (day: string) => {
    const current = day === booked;
    return (
      `<li><a class="button secondary${current ? ' current' : ''}" href="${escapeHtml(base)}/reschedule?day=${day}"${current ? ' aria-current="date"' : ''}>` +
      `${escapeHtml(dayWords(day, words.dateLocale))}${current ? `<span class="tag">${escapeHtml(words.yourAppointment)}</span>` : ''}</a></li>`
    );
  };
  const list = days.length ? `<ul class="choices">${days.map(dayLink).join('')}</ul>` : `<p>${escapeHtml(words.noDays)}</p>`;
  const pager = dayPager(words.moreDaysLabel, pages.earlier && [`${base}/reschedule?from=${pages.earlier}`, words.earlierDays], pages.later && [`${base}/reschedule?from=${pages.later}`, words.moreDays]);
  const body = `${header(managed, words.change)}${bookingLine(managed)}<h2>${escapeHtml(words.moveTitle)}</h2>${list}${pager}<a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status: 200, html: layout(managed.settings, words.change, body) };
}

/** The links to the page of days before and after (`[href, text]` each, when there is one), as a `nav`; '' for none. */
export function dayPager(label: string, earlier: [string, string] | undefined | '', later: [string, string] | undefined | ''): string {
  if (!earlier && !later) return '';
  return (
    `<nav class="pager" aria-label="${escapeHtml(label)}">` +
    (earlier ? `<a class="button secondary" href="${escapeHtml(earlier[0])}">${escapeHtml(earlier[1])}</a>` : '') +
    (later ? `<a class="button secondary later" href="${escapeHtml(later[0])}">${escapeHtml(later[1])}</a>` : '') +
    `</nav>`
  );
}

/** The part of the day a local time `HH:MM` belongs to: morning before 12:00, evening from 17:00. */
export function partOfDay(time: string): 'morning' | 'afternoon' | 'evening' {
  const hour = Number(time.slice(0, 2));
  return hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';
}

/**
 * The second step of a move: the free times of one day by part of the day, each a link to the confirmation step;
 * on the booking's own day its time is shown among them, marked, without a link.
 */
export function timesPage(managed: Managed, base: string, day: string, slots: FreeSlot[], notice?: Notice, status = 200): Page {
  const words = wordsOf(managed);
  const title = words.moveTimes(dayWords(day, words.dateLocale, 'long'));
  const booked = bookedLocal(managed);
  const times = slots.map((slot) => ({ time: slot.local.slice(11, 16), current: false }));
  if (booked.day === day && slots.length) times.push({ time: booked.time, current: true });
  times.sort((a, b) => a.time.localeCompare(b.time));
  const item = ({ time, current }: { time: string; current: boolean }) =>
    current
      ? `<li><span class="current" aria-current="time">${escapeHtml(time)}<span class="tag">${escapeHtml(words.yourAppointment)}</span></span></li>`
      : `<li><a class="button" href="${escapeHtml(`${base}/reschedule?day=${day}&time=${time}`)}">${escapeHtml(time)}</a></li>`;
  const groups = (['morning', 'afternoon', 'evening'] as const)
    .map((part) => ({ part, items: times.filter((one) => partOfDay(one.time) === part) }))
    .filter((group) => group.items.length)
    .map((group) => `<h2 class="group">${escapeHtml(words.parts[group.part])}</h2><ul class="choices">${group.items.map(item).join('')}</ul>`)
    .join('');
  const list = slots.length ? `<p class="hint">${escapeHtml(words.moveHint)}</p>${groups}` : `<p>${escapeHtml(words.noTimes)}</p>`;
  const body =
    `${header(managed, title)}${noticeHtml(words, notice)}${bookingLine(managed)}${list}` +
    `<a class="button secondary" href="${escapeHtml(base)}/reschedule?from=${day}">${escapeHtml(words.otherDay)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status, html: layout(managed.settings, title, body) };
}

/** The last step of a move: the old and the new time, and one POST form that makes the move. */
export function confirmMovePage(managed: Managed, base: string, slot: FreeSlot, form: Record<string, string>): Page {
  const words = wordsOf(managed);
  const { settings, booking } = managed;
  const day = slot.local.slice(0, 10);
  const title = words.moveTo(`${dayWords(day, words.dateLocale, 'medium')}, ${slot.local.slice(11, 16)}`);
  const rows: [string, string][] = [
    [words.from, localWhen(booking.startAt, settings.timeZone, words.dateLocale)],
    [words.to, localWhen(slot.startAt, settings.timeZone, words.dateLocale)],
    [words.what, booking.reasonName],
    [words.with, booking.scheduleName],
  ];
  const body =
    `${header(managed, title)}<div class="card">${definitions(rows)}</div>` +
    `<form method="post" action="${escapeHtml(base)}/reschedule">${hidden({ ...form, slot: slot.local })}` +
    `<p class="hint">${escapeHtml(words.confirmMoveHint)}</p>` +
    `<button class="button" type="submit">${escapeHtml(words.confirmMove)}</button></form>` +
    `<a class="button secondary" href="${escapeHtml(base)}/reschedule?day=${day}">${escapeHtml(words.otherTime)}</a><a href="${escapeHtml(base)}">${escapeHtml(words.back)}</a>`;
  return { status: 200, html: layout(settings, title, body) };
}

/** The one page for every link that opens nothing (malformed, unknown, expired, page off, unknown path). */
export function notFoundPage(practice: Practice): Page {
  const words = PAGE_WORDS[practice.locale];
  return { status: 404, html: layout(practice, words.notFoundTitle, `<h1>${escapeHtml(words.notFoundTitle)}</h1><p>${escapeHtml(words.notFound)}</p>`) };
}

/** The page of an address throttled for opening too many unknown links. */
export function tooManyPage(practice: Practice, seconds: number): Page {
  const words = PAGE_WORDS[practice.locale];
  return { status: 429, html: layout(practice, words.tooManyTitle, `<h1>${escapeHtml(words.tooManyTitle)}</h1><p>${escapeHtml(words.tooMany(seconds))}</p>`) };
}

/** The page of a failure on the server's side (the database could not be written): nothing was changed. */
export function failedPage(practice: Practice): Page {
  const words = PAGE_WORDS[practice.locale];
  return { status: 500, html: layout(practice, words.failedTitle, `<h1>${escapeHtml(words.failedTitle)}</h1><p>${escapeHtml(words.failed)}</p>`) };
}
