/**
 * The front desk's pages (the door is src/http/desk.ts): login, enrolment, the day and one booking. Built of the kit
 * (kit.ts) with the desk's own second style sheet (wide columns, the day's list, print); no script. Every value from
 * a customer or a person passes `shown` (controls written visibly, as the CLI writes them, then escaped). Pure: every
 * value comes in as an argument.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../domain/html.ts';
import { visible } from '../domain/visible.ts';
import type { Booking } from '../store/bookings.ts';
import { type DeskWords, deskWords } from './desk-words.ts';
import { dayWords, definitions, framedPage, hidden, notice, type Page, type Practice, telHref } from './kit.ts';

/** The desk's second style sheet: wide pages, columns per practitioner from 56rem, the day's rows, print. */
const DESK_CSS = `main{max-width:84rem}footer{max-width:84rem}
nav.desk{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:0 0 16px;padding:8px 0;border-bottom:1px solid #c9ccd1}
nav.desk a{font-weight:700}a[href^="tel:"]{white-space:nowrap}nav.desk form{margin:0 0 0 auto}nav.desk .who{color:#3d3d3d}
.link-button{background:none;border:0;padding:8px 0;font:inherit;color:#1a56b0;text-decoration:underline;cursor:pointer;min-height:44px}
.columns{display:grid;gap:16px;grid-template-columns:1fr}@media (min-width:56rem){.columns{grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}}
ol.day{list-style:none;padding:0;margin:0}ol.day li{border-top:1px solid #c9ccd1;padding:8px 0}ol.day li:first-child{border-top:0}
.time{font-weight:700;font-variant-numeric:tabular-nums}.gap{color:#1e6b34}.gap .time{font-weight:400}
.state{display:inline-block;font-size:16px;padding:0 6px;border-radius:4px;border:1px solid #6b7079}
.state.arrived{border-color:#1e6b34;color:#1e6b34}.state.no_show{border-color:#a4261d;color:#a4261d}
.cancelled .what{text-decoration:line-through;color:#54585f}.no_show .what{text-decoration:line-through;text-decoration-color:#a4261d}
.meta{font-size:16px;color:#454a52}.daynav{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:0 0 16px}
.daynav .button{width:auto;margin:0}.daynav form{display:flex;flex-wrap:wrap;gap:8px;align-items:end}.daynav input{max-width:100%}.daynav input{min-height:48px;font:inherit}
.asof{font-size:16px;color:#3d3d3d;margin:0 0 12px}.codes{font:20px/1.6 ui-monospace,monospace;columns:2}
.qr{display:block;width:100%;max-width:270px;height:auto;margin:0 0 12px}.mono{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
.actions{display:flex;flex-wrap:wrap;gap:8px}.actions form{flex:1 1 10rem}.actions .button{margin:0}
.pre{white-space:pre-line;overflow-wrap:anywhere}.scroll{overflow-x:auto}
table.audit{border-collapse:collapse;width:100%;font-size:16px}table.audit th,table.audit td{text-align:left;padding:4px 8px;border-bottom:1px solid #c9ccd1;vertical-align:top}
p.week{font-size:16px;margin:-8px 0 8px}
@media print{nav.desk,.daynav,.actions,footer,form{display:none}body{background:#fff;font-size:12pt}.card{border:0;padding:0}
.columns{display:block}.columns>section{break-inside:avoid;margin:0 0 12pt}main{max-width:none;padding:0}}`;

/** The desk's style sheet's Content-Security-Policy source, beside the kit's. */
export const DESK_STYLE_HASH = `'sha256-${createHash('sha256').update(DESK_CSS).digest('base64')}'`;

/** Stored text as the desk shows it: controls written visibly (as the CLI does), then escaped. */
export function shown(text: string): string {
  return escapeHtml(visible(text));
}

/** A page of the desk: the kit's frame with the desk's sheet. */
export function deskPage(
  practice: Practice & { practiceName: string },
  heading: string,
  body: string,
  status = 200,
): Page {
  return framedPage({ practice, heading, body, status, sheet: DESK_CSS });
}

/** What every page after login shows at its top: the links, who is logged in, and logout (a POST with the token). */
export interface Signed {
  practice: Practice & { practiceName: string };
  person: { name: string; role: 'admin' | 'reception' | 'practitioner' };
  /** The session's form token. */
  csrf: string;
  base: string;
}

/** The desk's links, who is logged in, and logout. */
export function navigation(signed: Signed, words: DeskWords): string {
  return (
    `<nav class="desk" aria-label="${escapeHtml(words.navigation)}">` +
    `<a href="${signed.base}/">${escapeHtml(words.today)}</a>` +
    `<a href="${signed.base}/customers">${escapeHtml(signed.person.role === 'practitioner' ? words.customers : words.bookCaller)}</a>` +
    `<a href="${signed.base}/times">${escapeHtml(words.freeTimes)}</a>` +
    `<a href="${signed.base}/absences">${escapeHtml(words.absences)}</a>` +
    (signed.person.role === 'admin' ? `<a href="${signed.base}/audit">${escapeHtml(words.audit)}</a>` : '') +
    `<span class="who">${shown(words.signedIn(signed.person.name, words.roles[signed.person.role]))}</span>` +
    `<form method="post" action="${signed.base}/logout">${hidden({ csrf: signed.csrf })}` +
    `<button class="link-button" type="submit">${escapeHtml(words.logout)}</button></form></nav>`
  );
}

/** A text input of a form with its label (and hint), of `type` and `autocomplete`. */
function input(options: {
  name: string;
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  hint?: string;
  error?: string;
  extra?: string;
}): string {
  const id = `f-${options.name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    `<div class="field"><label for="${id}">${escapeHtml(options.label)}</label>` +
    `<input class="text" id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}"` +
    (options.value === undefined ? '' : ` value="${escapeHtml(options.value)}"`) +
    (described ? ` aria-describedby="${described}"` : '') +
    (options.error ? ' aria-invalid="true"' : '') +
    ` required${options.extra ?? ''}>` +
    (options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : '') +
    (options.error ? `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>` : '') +
    `</div>`
  );
}

/** The login's first step: the address and the password. */
export function loginPage(options: {
  practice: Practice & { practiceName: string };
  base: string;
  email?: string;
  failed?: 'failed' | 'expired';
  status?: number;
}): Page {
  const words = deskWords(options.practice.locale);
  const failed = options.failed === 'expired' ? words.codeExpired : options.failed ? words.loginFailed : '';
  const body =
    (failed ? notice(failed) : '') +
    `<form class="card" method="post" action="${options.base}/login">` +
    input({ name: 'email', label: words.email, type: 'email', autocomplete: 'username', value: options.email }) +
    input({ name: 'password', label: words.password, type: 'password', autocomplete: 'current-password' }) +
    `<button class="button" type="submit">${escapeHtml(words.next)}</button></form>`;
  return deskPage(options.practice, `${words.desk}: ${words.loginTitle}`, body, options.status);
}

/** The login's second step: the app's code, or a recovery code. */
export function codePage(options: {
  practice: Practice & { practiceName: string };
  base: string;
  failed?: boolean;
  status?: number;
}): Page {
  const words = deskWords(options.practice.locale);
  const body =
    (options.failed ? notice(words.loginFailed) : '') +
    `<form class="card" method="post" action="${options.base}/login/code">` +
    input({
      name: 'code',
      label: words.code,
      type: 'text',
      autocomplete: 'one-time-code',
      hint: words.codeHint,
      extra: ' inputmode="text" autocapitalize="off" spellcheck="false" maxlength="32"',
    }) +
    `<button class="button" type="submit">${escapeHtml(words.logIn)}</button></form>`;
  return deskPage(options.practice, `${words.desk}: ${words.codeTitle}`, body, options.status);
}

/** Enrolment, step 1: the password (the address shown as a read-only user name, for password managers). */
export function enrolPasswordPage(options: {
  practice: Practice & { practiceName: string };
  action: string;
  email: string;
  name: string;
  problem?: 'short' | 'long' | 'email' | 'practice';
  status?: number;
}): Page {
  const words = deskWords(options.practice.locale);
  const body =
    `<p>${shown(words.enrolWelcome(options.name))}</p>` +
    `<form class="card" method="post" action="${escapeHtml(options.action)}">` +
    input({
      name: 'email',
      label: words.email,
      type: 'email',
      autocomplete: 'username',
      value: options.email,
      extra: ' readonly',
    }) +
    input({
      name: 'password',
      label: words.newPassword,
      type: 'password',
      autocomplete: 'new-password',
      hint: words.passwordHint,
      error: options.problem ? words.passwordProblems[options.problem] : undefined,
      extra: ' minlength="12" maxlength="256"',
    }) +
    `<button class="button" type="submit">${escapeHtml(words.next)}</button></form>`;
  return deskPage(options.practice, `${words.desk}: ${words.enrolTitle}`, body, options.status);
}

/** Enrolment, step 2: the second factor as a QR code (SVG drawn on the server), its key and URI; one code to confirm. */
export function enrolCodePage(options: {
  practice: Practice & { practiceName: string };
  action: string;
  uri: string;
  secret: string;
  qrSvg: string;
  wrong?: boolean;
  status?: number;
}): Page {
  const words = deskWords(options.practice.locale);
  const qr = options.qrSvg.replace('<svg ', `<svg class="qr" role="img" aria-label="${escapeHtml(words.qrLabel)}" `);
  const body =
    `<div class="card"><p>${escapeHtml(words.factorHint)}</p>${qr}` +
    definitions([
      [words.key, options.secret],
      [words.uri, options.uri],
    ]).replace(/<dd>/g, '<dd class="mono">') +
    `</div><form class="card" method="post" action="${escapeHtml(options.action)}">` +
    input({
      name: 'code',
      label: words.code,
      type: 'text',
      autocomplete: 'one-time-code',
      error: options.wrong ? words.codeWrong : undefined,
      extra: ' inputmode="numeric" pattern="[0-9 ]*" maxlength="8"',
    }) +
    `<button class="button" type="submit">${escapeHtml(words.confirm)}</button></form>`;
  return deskPage(options.practice, `${words.desk}: ${words.factorTitle}`, body, options.status);
}

/** Enrolment done: the ten recovery codes, shown once. */
export function enrolDonePage(options: {
  practice: Practice & { practiceName: string };
  base: string;
  codes: string[];
}): Page {
  const words = deskWords(options.practice.locale);
  const body =
    notice(words.doneHint, 'done') +
    `<ol class="card codes">${options.codes.map((code) => `<li>${escapeHtml(code)}</li>`).join('')}</ol>` +
    `<a class="button" href="${options.base}/login">${escapeHtml(words.toLogin)}</a>`;
  return deskPage(options.practice, `${words.desk}: ${words.doneTitle}`, body);
}

/** A page of one sentence (a link gone, not found, a failure, too many logins). */
export function deskMessagePage(
  practice: Practice & { practiceName: string },
  status: number,
  title: string,
  text: string,
): Page {
  return deskPage(practice, title, `<p>${escapeHtml(text)}</p>`, status);
}

/** `HH:MM` of an instant in the practice's zone. */
export type Clock = (unix: number) => string;

/** The state of a booking as the desk names it: cancelled, else its attendance, else booked. */
export function stateOf(booking: Booking): 'booked' | 'arrived' | 'no_show' | 'cancelled' {
  return booking.status === 'cancelled' ? 'cancelled' : (booking.attendance ?? 'booked');
}

/** One appointment of the day: time, customer (a `tel:` link), reason, source, state; a link to it. */
function appointmentRow(booking: Booking, words: DeskWords, clock: Clock, base: string): string {
  const state = stateOf(booking);
  const name = booking.customerName || booking.customerEmail || booking.reference;
  const phone = booking.customerPhone
    ? ` · <a href="${escapeHtml(telHref(booking.customerPhone))}">${shown(booking.customerPhone)}</a>`
    : '';
  return (
    `<li class="${state}"><span class="what"><span class="time">${clock(booking.startAt)}–${clock(booking.endAt)}</span> ` +
    `<a href="${base}/bookings/${booking.reference}">${shown(name)}</a></span>${phone}` +
    `<br><span class="meta">${shown(booking.reasonName)} · ${escapeHtml(words.sources[booking.source])}</span> ` +
    `<span class="state ${state}">${escapeHtml(words.states[state])}</span></li>`
  );
}

/** What the day shows: per practitioner its appointments and free gaps. */
export interface DayColumn {
  name: string;
  scheduleId: number;
  closed: boolean;
  items: ({ kind: 'booking'; booking: Booking } | { kind: 'free'; startAt: number; endAt: number })[];
}

/** The day: one column per practitioner (one list on a phone), the day's links, "as of". */
export function dayPage(options: {
  signed: Signed;
  day: string;
  previous: string;
  next: string;
  asOf: string;
  columns: DayColumn[];
  clock: Clock;
}): Page {
  const { signed, clock } = options;
  const words = deskWords(signed.practice.locale);
  const title = dayWords(options.day, words.dateLocale, 'long');
  const columns = options.columns
    .map((column, index) => {
      const rows = column.items
        .map((item) =>
          item.kind === 'booking'
            ? appointmentRow(item.booking, words, clock, signed.base)
            : `<li class="gap"><span class="time">${escapeHtml(words.free(clock(item.startAt), clock(item.endAt)))}</span></li>`,
        )
        .join('');
      const empty = column.closed ? words.closed : words.nothing;
      return (
        `<section class="card" aria-labelledby="c${index}"><h2 id="c${index}">${shown(column.name)}</h2>` +
        `<p class="week"><a href="${signed.base}/week/${column.scheduleId}/${options.day}">${escapeHtml(words.week)}</a></p>` +
        (column.closed ? `<p>${escapeHtml(words.closed)}</p>` : '') +
        (rows ? `<ol class="day">${rows}</ol>` : column.closed ? '' : `<p>${escapeHtml(empty)}</p>`) +
        `</section>`
      );
    })
    .join('');
  const body =
    navigation(signed, words) +
    `<div class="daynav"><a class="button secondary" href="${signed.base}/day/${options.previous}">${escapeHtml(words.previousDay)}</a>` +
    `<a class="button secondary" href="${signed.base}/day/${options.next}">${escapeHtml(words.nextDay)}</a>` +
    `<form method="get" action="${signed.base}/day"><div><label for="f-date">${escapeHtml(words.date)}</label>` +
    `<input id="f-date" name="date" type="date" value="${options.day}" required></div>` +
    `<button class="button secondary" type="submit">${escapeHtml(words.goToDay)}</button></form></div>` +
    `<p class="asof">${escapeHtml(words.asOf(options.asOf))}</p>` +
    `<div class="columns">${columns}</div>`;
  return deskPage(signed.practice, title, body);
}

/** One entry of a booking's history as the desk shows it. */
export interface HistoryShown {
  localAt: string;
  kind: keyof DeskWords['historyKinds'];
  by: 'admin' | 'customer' | 'api' | 'staff' | null;
  staff?: { name: string; role: string };
  previousLocalStart: string | null;
}

/** One booking: what was submitted, its history, attendance, and the staff's note. */
export function bookingPage(options: {
  signed: Signed;
  booking: Booking;
  when: string;
  day: string;
  submitted: { label: string; value: string }[];
  history: HistoryShown[];
  done?: keyof DeskWords['done'];
  error?: string;
  status?: number;
  mayMarkArrived: boolean;
  mayMarkNoShow: boolean;
  /** Reception and admin: move, cancel, the confirmation again. */
  mayChange: boolean;
}): Page {
  const { signed, booking } = options;
  const words = deskWords(signed.practice.locale);
  const state = stateOf(booking);
  const base = `${signed.base}/bookings/${booking.reference}`;
  const phone = booking.customerPhone
    ? `<dt>${escapeHtml(words.phone)}</dt><dd><a href="${escapeHtml(telHref(booking.customerPhone))}">${shown(booking.customerPhone)}</a></dd>`
    : '';
  const facts =
    `<dl><dt>${escapeHtml(words.when)}</dt><dd>${escapeHtml(options.when)}</dd>` +
    `<dt>${escapeHtml(words.with)}</dt><dd>${shown(booking.scheduleName)}</dd>` +
    `<dt>${escapeHtml(words.reason)}</dt><dd>${shown(booking.reasonName)}</dd>` +
    `<dt>${escapeHtml(words.customer)}</dt><dd>${shown(booking.customerName || '–')}</dd>${phone}` +
    `<dt>${escapeHtml(words.state)}</dt><dd><span class="state ${state}">${escapeHtml(words.states[state])}</span></dd>` +
    `<dt>${escapeHtml(words.source)}</dt><dd>${escapeHtml(words.sources[booking.source])}</dd>` +
    `<dt>${escapeHtml(words.reference)}</dt><dd class="mono">${escapeHtml(booking.reference)}</dd></dl>`;
  const form = (action: string, label: string, kind = 'secondary', fields: Record<string, string> = {}) =>
    `<form method="post" action="${base}/${action}">${hidden({ csrf: signed.csrf, ...fields })}` +
    `<button class="button ${kind}" type="submit">${escapeHtml(label)}</button></form>`;
  const marks =
    booking.status === 'booked'
      ? `<section class="card" aria-labelledby="h-attendance"><h2 id="h-attendance">${escapeHtml(words.attendance)}</h2><div class="actions">` +
        (booking.attendance !== 'arrived' && options.mayMarkArrived
          ? form('attendance', words.arrived, '', { mark: 'arrived' })
          : '') +
        (booking.attendance !== 'no_show' && options.mayMarkNoShow
          ? form('attendance', words.noShow, 'danger', { mark: 'no_show' })
          : '') +
        (booking.attendance ? form('attendance', words.undo, 'secondary', { mark: 'none' }) : '') +
        `</div></section>`
      : '';
  const changes =
    options.mayChange && booking.status === 'booked'
      ? `<section class="card" aria-labelledby="h-change"><h2 id="h-change">${escapeHtml(words.actionsTitle)}</h2><div class="actions">` +
        `<a class="button secondary" href="${signed.base}/times?move=${booking.reference}&amp;reason=${booking.reasonId}&amp;schedule=${booking.scheduleId}">${escapeHtml(words.moveTitle)}</a>` +
        `<a class="button secondary" href="${base}/cancel">${escapeHtml(words.cancelTitle)}</a>` +
        (booking.customerEmail ? form('resend', words.resend) : '') +
        `</div></section>`
      : '';
  const submitted = options.submitted.length
    ? `<section class="card" aria-labelledby="h-submitted"><h2 id="h-submitted">${escapeHtml(words.submitted)}</h2><dl>` +
      options.submitted.map((row) => `<dt>${shown(row.label)}</dt><dd>${shown(row.value)}</dd>`).join('') +
      `</dl></section>`
    : '';
  const note =
    `<form class="card" method="post" action="${base}/note">${hidden({ csrf: signed.csrf })}` +
    `<label for="f-note">${escapeHtml(words.note)}</label>` +
    `<textarea id="f-note" name="note" maxlength="2000" aria-describedby="f-note-hint">${escapeHtml(booking.staffNote)}</textarea>` +
    `<p class="hint" id="f-note-hint">${escapeHtml(words.noteHint)}</p>` +
    `<button class="button secondary" type="submit">${escapeHtml(words.saveNote)}</button></form>`;
  const history =
    `<section class="card" aria-labelledby="h-history"><h2 id="h-history">${escapeHtml(words.history)}</h2><ol>` +
    options.history
      .map((entry) => {
        const who = entry.staff
          ? `${entry.staff.name} (${words.roles[entry.staff.role as keyof DeskWords['roles']] ?? entry.staff.role})`
          : words.actors[entry.by === null || entry.by === 'staff' ? 'unknown' : entry.by];
        const from = entry.previousLocalStart ? ` ${words.movedFrom(entry.previousLocalStart)}` : '';
        return `<li>${escapeHtml(entry.localAt)}: ${escapeHtml(words.historyKinds[entry.kind])}${escapeHtml(from)} · ${shown(who)}</li>`;
      })
      .join('') +
    `</ol></section>`;
  const body =
    navigation(signed, words) +
    (options.done ? notice(words.done[options.done], 'done') : '') +
    (options.error ? notice(options.error) : '') +
    `<section class="card">${facts}</section>${marks}${changes}${submitted}${note}${history}` +
    `<a class="button secondary" href="${signed.base}/day/${options.day}">${escapeHtml(words.back)}</a>`;
  return deskPage(
    signed.practice,
    `${words.bookingTitle}: ${visible(booking.customerName || booking.reference)}`,
    body,
    options.status,
  );
}
