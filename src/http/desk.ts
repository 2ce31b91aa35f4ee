/**
 * The front desk's door: `/desk/` (routes in door-routes.ts), outside the `/api` gates, while the desk is on. HTML
 * only, no script; every answer carries the pages' security headers with the desk's style sheet (page-answer.ts).
 *
 * - Logging in (app/desk/login.ts): the address and password, then the app's code or a recovery code; a short-lived
 *   cookie carries the login between the two steps, and the session begins with a new identifier in its own cookie
 *   (desk-session.ts). Failed logins are throttled per client address with the door's own guard (door-guard.ts),
 *   never the API's or the pages'.
 * - Enrolment (app/desk/enrol.ts): `/desk/enrol/<token>`, the password, the second factor, ten recovery codes.
 * - Every other page needs a session (`withSession`, desk-visit.ts); without one, the login. Every POST carries the
 *   session's form token and comes from the desk's own origin (`readDeskForm`). A booking a person may not see
 *   answers 404, as one that does not exist (app/desk/agenda.ts).
 */
import { getQuery, getRouterParam, type H3Event } from 'h3';
import { renderSVG } from 'uqr';
import { bookingHistory } from '../app/bookings/booking-history.ts';
import { readAudit } from '../app/customers/audit.ts';
import { addAbsence, deskAbsences } from '../app/desk/absences.ts';
import { type AgendaColumn, agenda, dayPlus, visibleSchedules } from '../app/desk/agenda.ts';
import { mayChange, practiceFields } from '../app/desk/book.ts';
import { choosePassword, confirmCode, enrolmentState } from '../app/desk/enrol.ts';
import { CODE_WITHIN_SECONDS, checkCode, checkPassword, endSession, openSession } from '../app/desk/login.ts';
import { markAttendance, noteBooking } from '../app/desk/marks.ts';
import type { ConfiguredSettings } from '../app/practice/configured.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { formatLocal, isDay, localDay } from '../domain/dates.ts';
import { submittedFields } from '../domain/submission.ts';
import { localToUnix } from '../domain/zone.ts';
import { AppError } from '../errors.ts';
import {
  bookingPage,
  codePage,
  dayPage,
  deskMessagePage,
  enrolCodePage,
  enrolDonePage,
  enrolPasswordPage,
  loginPage,
} from '../portal/desk-pages.ts';
import { absencesPage, auditPage, weekPage } from '../portal/desk-views.ts';
import { deskWords } from '../portal/desk-words.ts';
import type { Booking } from '../store/bookings.ts';
import * as book from './desk-book.ts';
import { clearedCookie, cookieValue, DESK_COOKIE, DESK_PENDING_COOKIE, sessionCookie } from './desk-session.ts';
import {
  answer,
  BASE,
  clockOf,
  DESK_HEADERS,
  type DeskDoor,
  type DeskDoorOptions,
  guarded,
  notFound,
  type Route,
  readDeskForm,
  readForm,
  refreshOf,
  routeBooking,
  type SignedRoute,
  seeOther,
  type Visit,
  withSession,
} from './desk-visit.ts';
import { createDoorGuard } from './door-guard.ts';
import { tooManyRequests } from './errors.ts';

/** What a booking's page says was just done (`?done=`, after a change: Post/Redirect/Get). */
const DONE = ['arrived', 'no_show', 'undone', 'noted', 'booked', 'series', 'moved', 'cancelled', 'resent'] as const;
type Done = (typeof DONE)[number];

export type { DeskDoorOptions };

/** Returns the desk's handlers, by route (door-routes.ts gives their paths). */
export function createDeskDoor(options: DeskDoorOptions) {
  const door: DeskDoor = { ...options, guard: createDoorGuard('failed-login', options.nowMs) };
  const open = (route: Route) => guarded(door, route);
  const signed = (route: SignedRoute) => guarded(door, (d, event, settings) => withSession(d, event, settings, route));
  return {
    home: signed(home),
    day: signed(dayRoute),
    booking: signed(bookingRoute),
    attendance: signed(attendance),
    note: signed(note),
    logout: signed(logout),
    customers: signed(book.customers),
    customer: signed(book.customer),
    times: signed(book.times),
    bookStep: signed(book.bookStep),
    bookPost: signed(book.bookPost),
    moveStep: signed(book.moveStep),
    move: signed(book.move),
    cancelStep: signed(book.cancelStep),
    cancel: signed(book.cancel),
    resend: signed(book.resend),
    week: signed(week),
    absences: signed(absences),
    addAbsence: signed(addAbsenceRoute),
    audit: signed(audit),
    loginForm: open(loginForm),
    login: open(login),
    codeForm: open(codeForm),
    code: open(code),
    enrolStep: open(enrolStep),
    enrolPassword: open(enrolPassword),
    enrolCode: open(enrolCode),
    /** Any other path or method under `/desk`: the desk's 404. */
    unknownPath: open((_door, _event, settings) => answer(notFound(settings))),
  };
}

// --- Login -------------------------------------------------------------------------------------------------------

/** GET /desk/login: the address and password (a signed-in person goes to today). */
function loginForm(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Response {
  const id = cookieValue(event.req.headers.get('cookie'), DESK_COOKIE);
  if (id !== undefined && openSession(door.ctx, id)) return seeOther(`${BASE}/`);
  const expired = getQuery(event).expired === '1';
  return answer(loginPage({ practice: settings, base: BASE, failed: expired ? 'expired' : undefined }));
}

/** The 429 of an address that failed too many logins this minute. */
function throttled(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Response | undefined {
  const refused = door.guard.refusal(door.clientAddress(event));
  if (!refused) return undefined;
  const words = deskWords(settings.locale);
  const page = deskMessagePage(settings, 429, words.tooManyTitle, words.tooMany(refused.resetSeconds));
  return tooManyRequests(refused, { content: page.html, headers: { ...DESK_HEADERS, 'x-planner-page': 'page' } });
}

/** POST /desk/login: the password checked (one answer for every failure); on, to the code with a pending cookie. */
async function login(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Promise<Response> {
  const refused = throttled(door, event, settings);
  if (refused) return refused;
  const form = await readForm(door, event, settings);
  if (form instanceof Response) return form;
  const email = (form.get('email') ?? '').slice(0, 320);
  const pending = await checkPassword(door.ctx, email, (form.get('password') ?? '').slice(0, 1024));
  if (pending === undefined) {
    door.guard.fail(door.clientAddress(event));
    return answer(loginPage({ practice: settings, base: BASE, email, failed: 'failed', status: 401 }));
  }
  return seeOther(`${BASE}/login/code`, [sessionCookie(DESK_PENDING_COOKIE, pending, CODE_WITHIN_SECONDS)]);
}

/** GET /desk/login/code: the code's form, while a login awaits it. */
function codeForm(_door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Response {
  if (cookieValue(event.req.headers.get('cookie'), DESK_PENDING_COOKIE) === undefined)
    return seeOther(`${BASE}/login?expired=1`);
  return answer(codePage({ practice: settings, base: BASE }));
}

/**
 * POST /desk/login/code: the app's code or a recovery code; the session begins with a new identifier (the pending
 * one is used up either way). A failure goes back to the first step.
 */
async function code(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Promise<Response> {
  const refused = throttled(door, event, settings);
  if (refused) return refused;
  const pending = cookieValue(event.req.headers.get('cookie'), DESK_PENDING_COOKIE);
  const form = await readForm(door, event, settings);
  if (form instanceof Response) return form;
  if (pending === undefined) return seeOther(`${BASE}/login?expired=1`);
  const session = checkCode(door.ctx, pending, (form.get('code') ?? '').slice(0, 64));
  const clearPending = clearedCookie(DESK_PENDING_COOKIE);
  if (!session) {
    door.guard.fail(door.clientAddress(event));
    const page = loginPage({ practice: settings, base: BASE, failed: 'failed', status: 401 });
    return answer(page, { 'set-cookie': clearPending });
  }
  return seeOther(`${BASE}/`, [clearPending, sessionCookie(DESK_COOKIE, session.session)]);
}

/** POST /desk/logout: the session ends and its cookie goes. */
async function logout(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  const id = cookieValue(event.req.headers.get('cookie'), DESK_COOKIE);
  if (id !== undefined) endSession(door.ctx, id);
  return seeOther(`${BASE}/login`, [clearedCookie(DESK_COOKIE)]);
}

// --- Enrolment ---------------------------------------------------------------------------------------------------

const enrolPath = (token: string) => `${BASE}/enrol/${token}`;

/** The page of an enrolment that is past its link. */
function gone(settings: ConfiguredSettings): Response {
  const words = deskWords(settings.locale);
  return answer(deskMessagePage(settings, 404, words.goneTitle, words.gone));
}

/** The second factor's step of an enrolment (`wrong`: a code that was not the app's). */
function factorStep(
  settings: ConfiguredSettings,
  token: string,
  state: { uri: string; secret: string },
  wrong = false,
): Response {
  const qrSvg = renderSVG(state.uri, { border: 2, pixelSize: 6 });
  const page = enrolCodePage({
    practice: settings,
    action: `${enrolPath(token)}/code`,
    uri: state.uri,
    secret: state.secret,
    qrSvg,
    wrong,
    status: wrong ? 400 : 200,
  });
  return answer(page);
}

/** GET /desk/enrol/:token: where the enrolment stands (its password, or its second factor), or gone. */
function enrolStep(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Response {
  const token = getRouterParam(event, 'token') ?? '';
  const state = enrolmentState(door.ctx, token);
  if (state.step === 'gone') return gone(settings);
  if (state.step === 'code') return factorStep(settings, token, state);
  return answer(enrolPasswordPage({ practice: settings, action: `${enrolPath(token)}/password`, ...state }));
}

/** POST /desk/enrol/:token/password: the password by the rule, then the second factor. */
async function enrolPassword(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Promise<Response> {
  const token = getRouterParam(event, 'token') ?? '';
  const form = await readForm(door, event, settings);
  if (form instanceof Response) return form;
  const before = enrolmentState(door.ctx, token);
  if (before.step === 'gone') return gone(settings);
  const state = await choosePassword(door.ctx, token, (form.get('password') ?? '').slice(0, 1024));
  if (state.step === 'gone') return gone(settings);
  if ('problem' in state)
    return answer(
      enrolPasswordPage({
        practice: settings,
        action: `${enrolPath(token)}/password`,
        email: before.email,
        name: before.name,
        problem: state.problem,
        status: 400,
      }),
    );
  return seeOther(enrolPath(token));
}

/** POST /desk/enrol/:token/code: one code of the app confirms the second factor; the recovery codes, once. */
async function enrolCode(door: DeskDoor, event: H3Event, settings: ConfiguredSettings): Promise<Response> {
  const token = getRouterParam(event, 'token') ?? '';
  const form = await readForm(door, event, settings);
  if (form instanceof Response) return form;
  const result = confirmCode(door.ctx, token, (form.get('code') ?? '').slice(0, 64));
  if (result.step === 'gone') return gone(settings);
  if (result.step === 'wrong') {
    const state = enrolmentState(door.ctx, token);
    return state.step === 'code' ? factorStep(settings, token, state, true) : gone(settings);
  }
  return answer(enrolDonePage({ practice: settings, base: BASE, codes: result.recoveryCodes }));
}

// --- The day and one booking -------------------------------------------------------------------------------------

/** GET /desk/ (or /desk): today. */
function home(door: DeskDoor, event: H3Event, visit: Visit): Response {
  if (event.url.pathname === BASE) return seeOther(`${BASE}/`);
  return dayAnswer(door, visit, localDay(new Date(door.nowMs()), visit.settings.timeZone), `${BASE}/`);
}

/** GET /desk/day/:date, and /desk/day?date= (the date form). */
function dayRoute(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const param = getRouterParam(event, 'date');
  if (param === undefined) {
    const asked = getQuery(event).date;
    return typeof asked === 'string' && isDay(asked)
      ? seeOther(`${BASE}/day/${asked}`)
      : answer(notFound(visit.settings));
  }
  if (!isDay(param)) return answer(notFound(visit.settings));
  return dayAnswer(door, visit, param);
}

/** The day page of `day`: every schedule the person sees; refreshed each minute (a viewing page, no input lost). */
function dayAnswer(door: DeskDoor, visit: Visit, day: string, path = `${BASE}/day/${day}`): Response {
  const zone = visit.settings.timeZone;
  const columns: AgendaColumn[] = agenda(door.ctx, visibleSchedules(door.ctx, visit.person), day, 1);
  const page = dayPage({
    signed: visit.signed,
    day,
    previous: dayPlus(day, -1),
    next: dayPlus(day, 1),
    asOf: clockOf(zone)(Math.floor(door.nowMs() / 1000)),
    columns: columns.map((column) => ({
      name: column.schedule.name,
      scheduleId: column.schedule.id,
      ...column.days[0]!,
    })),
    clock: clockOf(zone, { from: localToUnix(day, 0, zone), to: localToUnix(day, 1440, zone) }),
  });
  return answer(page, refreshOf(path)); // today's page stays today's after midnight
}

/** The page of one booking, with a notice of what was just done (`done`) or an error. */
function bookingAnswer(
  door: DeskDoor,
  visit: Visit,
  booking: Booking,
  extra: { done?: Done; error?: string; status?: number } = {},
): Response {
  const zone = visit.settings.timeZone;
  const history = bookingHistory(door.ctx, booking, zone);
  const fields = practiceFields(door.ctx);
  const submitted = submittedFields(fields, booking.submission).map((row) => ({
    label: row.label,
    value: typeof row.value === 'boolean' ? (row.value ? '✓' : '–') : row.value,
  }));
  const now = Math.floor(door.nowMs() / 1000);
  const start = formatLocal(new Date(booking.startAt * 1000), zone);
  const page = bookingPage({
    signed: visit.signed,
    booking,
    when: `${start}–${clockOf(zone)(booking.endAt)}`,
    day: start.slice(0, 10),
    submitted,
    history: history.entries.map((entry) => ({
      localAt: entry.localAt,
      kind: entry.kind,
      by: entry.by,
      staff: entry.staff,
      previousLocalStart: entry.previousLocalStart,
    })),
    mayMarkArrived: start.slice(0, 10) <= localDay(new Date(door.nowMs()), zone),
    mayMarkNoShow: booking.startAt <= now,
    mayChange: mayChange(visit.person),
    ...extra,
  });
  return answer(page);
}

/** GET /desk/bookings/:reference: one booking (404 when the person may not see it, as when it does not exist). */
function bookingRoute(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const booking = routeBooking(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const done = getQuery(event).done;
  const shown = typeof done === 'string' && (DONE as readonly string[]).includes(done) ? (done as Done) : undefined;
  return bookingAnswer(door, visit, booking, { done: shown });
}

/** Runs a desk change of the route's booking from its posted form; then back to the booking (303) with `done`. */
async function changeBooking(
  door: DeskDoor,
  event: H3Event,
  visit: Visit,
  change: (form: URLSearchParams, reference: string) => string | undefined,
): Promise<Response> {
  const booking = routeBooking(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  try {
    const done = change(form, booking.reference);
    if (done === undefined) return answer(notFound(visit.settings));
    return seeOther(`${BASE}/bookings/${booking.reference}?done=${done}`);
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'storage') throw error;
    const now = routeBooking(door, event, visit) ?? booking;
    return bookingAnswer(door, visit, now, { error: error.message, status: error.code === 'invalid' ? 400 : 409 });
  }
}

/** POST /desk/bookings/:reference/attendance: arrived, no-show, or the mark undone (`mark=none`). */
function attendance(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  return changeBooking(door, event, visit, (form, reference) => {
    const mark = form.get('mark');
    if (mark !== 'arrived' && mark !== 'no_show' && mark !== 'none') return undefined;
    markAttendance(door.ctx, visit.person, reference, mark === 'none' ? null : mark);
    return mark === 'none' ? 'undone' : mark;
  });
}

/** POST /desk/bookings/:reference/note: the staff's private note. */
function note(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  return changeBooking(door, event, visit, (form, reference) => {
    noteBooking(door.ctx, visit.person, reference, form.get('note') ?? '');
    return 'noted';
  });
}

// --- The week, absences, the audit log ---------------------------------------------------------------------------

/** The Monday of `day`'s week. */
function mondayOf(day: string): string {
  const weekday = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
  return dayPlus(day, -weekday);
}

/** GET /desk/week/:schedule/:date: one practitioner's week (Monday to Sunday) around the date. */
function week(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const id = parsePlainInt(getRouterParam(event, 'schedule') ?? '');
  const date = getRouterParam(event, 'date') ?? '';
  const schedule = visibleSchedules(door.ctx, visit.person).find((one) => one.id === id);
  if (!schedule || !isDay(date)) return answer(notFound(visit.settings));
  const monday = mondayOf(date);
  const [column] = agenda(door.ctx, [schedule], monday, 7);
  return answer(
    weekPage({
      signed: visit.signed,
      name: schedule.name,
      scheduleId: schedule.id,
      monday,
      previous: dayPlus(monday, -7),
      next: dayPlus(monday, 7),
      days: column!.days,
      clock: clockOf(visit.settings.timeZone, {
        from: localToUnix(monday, 0, visit.settings.timeZone),
        to: localToUnix(dayPlus(monday, 7), 0, visit.settings.timeZone),
      }),
    }),
    refreshOf(`${BASE}/week/${schedule.id}/${date}`),
  );
}

/** The absences page, with what was just done or what was wrong. */
function absencesAnswer(door: DeskDoor, visit: Visit, extra: { done?: boolean; error?: string; status?: number } = {}) {
  const { schedules, stranded } = deskAbsences(door.ctx, visit.person);
  const zone = visit.settings.timeZone;
  return answer(
    absencesPage({
      signed: visit.signed,
      schedules,
      stranded,
      when: (unix) => formatLocal(new Date(unix * 1000), zone),
      today: localDay(new Date(door.nowMs()), zone),
      ...extra,
    }),
  );
}

/** GET /desk/absences: the absences from today on, and the bookings they strand. */
function absences(door: DeskDoor, event: H3Event, visit: Visit): Response {
  return absencesAnswer(door, visit, { done: getQuery(event).done === 'added' });
}

/** POST /desk/absences: an absence added (a practitioner: their own), as `planner closure add`. */
async function addAbsenceRoute(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  const scheduleId = parsePlainInt(form.get('schedule') ?? '');
  if (scheduleId === undefined) return answer(notFound(visit.settings));
  try {
    addAbsence(door.ctx, visit.person, {
      scheduleId,
      fromDay: form.get('from') ?? '',
      toDay: form.get('to') ?? '',
      note: form.get('note') ?? '',
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid')
      return absencesAnswer(door, visit, { error: error.message, status: 400 });
    if (error instanceof AppError && error.code === 'not_found') return answer(notFound(visit.settings));
    throw error;
  }
  door.afterBooking();
  return seeOther(`${BASE}/absences?done=added`);
}

/** GET /desk/audit (admin): the last 30 days of the audit log, newest first, in local time. */
function audit(door: DeskDoor, _event: H3Event, visit: Visit): Response {
  if (visit.person.role !== 'admin') return answer(notFound(visit.settings));
  const { entries, timeZone } = readAudit(door.ctx);
  const rows = entries
    .slice(-500)
    .reverse()
    .map((entry) => ({
      at: formatLocal(new Date(entry.at), timeZone, true),
      actor: entry.actor,
      ...(entry.staffName ? { staff: `${entry.staffName} (${entry.staffRole})` } : {}),
      action: entry.action,
      reference: entry.reference,
      detail: entry.detail,
    }));
  return answer(auditPage({ signed: visit.signed, rows, zone: timeZone }));
}
