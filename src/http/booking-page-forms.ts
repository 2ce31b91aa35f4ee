/**
 * The booking page's forms (booking-page.ts): a fresh form's ticket, and the steps a posted form leads to (the
 * details again, the review, the booking), each reading the form with `readPosted` (readPageForm, every page's one
 * reader, and the ticket), calling the booking page's use case (src/app/pages/page-booking.ts) and answering one
 * page. A limit refuses on the form, with what was typed (`limitAnswer`).
 */
import { randomBytes } from 'node:crypto';
import type { H3Event } from 'h3';
import { PER_HOUR_WINDOW_SECONDS } from '../app/pages/booking-page.ts';
import {
  book,
  bookedBy,
  bookSeries,
  fieldsOf,
  formProblem,
  freeSlot,
  type LimitRefusal,
  limitProblem,
  type Offer,
  type PageForm,
  type PageRefusal,
  type PageSeriesBooking,
  seriesDates,
  slotsOf,
  submissionOf,
  trapProblem,
  weeksOf,
} from '../app/pages/page-booking.ts';
import { confirmation } from '../app/pages/page-confirmation.ts';
import type { FreeSlot } from '../domain/availability.ts';
import { isDay } from '../domain/dates.ts';
import type { FieldDefinition } from '../domain/form.ts';
import { type Entry, type FormTicket, TRAP_NAME, typedFields, typedIn } from '../portal/book-form.ts';
import { detailsPage, donePage, type LimitNotice, reviewPage, timesPage } from '../portal/book-pages.ts';
import { fieldError } from '../portal/book-words.ts';
import type { Page } from '../portal/kit.ts';
import { daysNear, offerOf, type PageVisit, refuse, show } from './booking-page-visit.ts';
import { tooManyRequests } from './errors.ts';
import { formToken, isFormToken, readPageForm } from './form-guard.ts';
import { pageHeaders } from './page-answer.ts';

/** Largest form body: every field at its longest (a textarea of 5,000 characters), percent-encoded. */
const FORM_LIMIT = 65_536;

/** A new form's ticket: a random key, when it was made, and their HMAC under the page secret. */
export function ticketFor(visit: PageVisit): FormTicket {
  const key = randomBytes(16).toString('base64url');
  const issued = String(Math.floor(visit.door.nowMs() / 1000));
  return { key, issued, sig: formToken(visit.settings.portalSecret, ['book', key, issued]) };
}

/**
 * A posted form of the page: its fields, its ticket, and what it carries (the offer, weeks, what was typed, the time).
 */
interface Posted {
  form: URLSearchParams;
  ticket: FormTicket;
  pageForm: PageForm;
  offer: Offer;
  /** The weekly dates of a series (1: a single booking). */
  weeks: number;
  fields: FieldDefinition[];
  values: Record<string, string>;
  /**
   * The slot's local text: the review's "change" sends the slot, the times page after a time was taken day and time.
   */
  local: string;
  day: string;
}

/** The ticket a posted form carries, when the page made it; else undefined. */
function ticketIn(secret: string, form: URLSearchParams): FormTicket | undefined {
  const ticket = { key: form.get('key') ?? '', issued: form.get('issued') ?? '', sig: form.get('sig') ?? '' };
  return /^[A-Za-z0-9_-]{22}$/.test(ticket.key) &&
    /^\d{1,12}$/.test(ticket.issued) &&
    isFormToken(secret, ['book', ticket.key, ticket.issued], ticket.sig)
    ? ticket
    : undefined;
}

/**
 * Reads a posted form of the page (readPageForm, every page's one reader) and its ticket, in the rules' order: from
 * this site, a body read whole, a ticket made here and not stale; a form that booked already gets what it booked
 * (sent twice, or back and again), also if the offer has gone since; then an offer and weekly dates still offered.
 * Else the answer that refuses it.
 */
async function readPosted(visit: PageVisit, event: H3Event): Promise<Posted | Response> {
  const { settings, words, door } = visit;
  const limits = { origin: settings.portal.url, limit: FORM_LIMIT, deadlineMs: door.bodyTimeoutMs };
  const form = await readPageForm(event, limits);
  if ('why' in form) {
    if (form.why === 'cross-site') return refuse(visit, words.refusal.forbidden, 403);
    if (form.why === 'not-a-form') return refuse(visit, words.refusal.unreadable, 415);
    // Too large (413), too slow or cut off: the body was not read to its end, so the connection closes.
    return refuse(visit, words.refusal.unreadable, form.status, { connection: 'close' });
  }
  const ticket = ticketIn(settings.portalSecret, form);
  if (!ticket) return refuse(visit, words.refusal.ticket, 403);
  const pageForm: PageForm = { key: ticket.key, issuedAt: Number(ticket.issued) };
  const stale = formProblem(door.booker, pageForm);
  if (stale) return refusal(visit, stale);
  const booked = bookedBy(door.ctx, pageForm);
  if (booked) return done(visit, booked, true);
  return postedChoice(visit, form, ticket, pageForm);
}

/**
 * What a form with a good ticket carries: an offer and weekly dates still offered (else 409), what was typed, the time.
 */
function postedChoice(
  visit: PageVisit,
  form: URLSearchParams,
  ticket: FormTicket,
  pageForm: PageForm,
): Posted | Response {
  const offer = offerOf(visit, form.get('schedule') ?? '', form.get('reason') ?? '');
  if (!offer) return refuse(visit, visit.words.refusal.gone, 409);
  const weeks = weeksOf(offer, form.get('weeks') ?? undefined);
  if (weeks === undefined) return refuse(visit, visit.words.refusal.gone, 409);
  const fields = fieldsOf(visit.door.ctx, visit.language.shown);
  const local = form.get('slot') ?? `${form.get('day') ?? ''} ${form.get('time') ?? ''}:00`;
  const values = typedIn(fields, form);
  return { form, ticket, pageForm, offer, weeks, fields, values, local, day: local.slice(0, 10) };
}

/**
 * Back to the day's times, keeping what was typed and the ticket (the same form, so still one booking), with the
 * other free days to choose from in a form: asked for ("another time" or "another day"), or the time was taken.
 */
function timesAgain(visit: PageVisit, posted: Posted, notice?: { text: string; status: number }): Response {
  const { offer, day, fields, values, ticket, weeks } = posted;
  const carried = { ...typedFields(fields, values), ...ticket, ...(weeks > 1 ? { weeks: String(weeks) } : {}) };
  const slots = slotsOf(visit.door.ctx, offer, day);
  const otherDays = daysNear(visit, offer, day);
  const noticed = notice ? { notice: notice.text, status: notice.status } : {};
  return show(visit, timesPage({ view: visit.view, offer, day, slots, carried, otherDays, ...noticed }));
}

/** The details form again with what was typed (`entry`), and why (`status`, and a limit that refused it). */
function detailsAgainPage(
  visit: PageVisit,
  posted: Posted,
  slot: FreeSlot,
  again: { entry: Entry; status?: number; limit?: LimitNotice },
): Page {
  const { offer, fields, ticket, weeks } = posted;
  return detailsPage({ view: visit.view, offer, slot, fields, ticket, weeks, ...again });
}

/** POST /book/details: another day (`change=day`), another time, or the details form again with what was typed. */
export async function detailsAgain(visit: PageVisit, event: H3Event): Promise<Response> {
  const posted = await readPosted(visit, event);
  if (posted instanceof Response) return posted;
  const { words } = visit;
  if (posted.form.get('change') === 'day')
    return isDay(posted.day) ? timesAgain(visit, posted) : refuse(visit, words.refusal.gone, 409);
  const slot = freeSlot(visit.door.ctx, posted.offer, posted.local);
  if (!slot) {
    if (!isDay(posted.day)) return refuse(visit, words.refusal.gone, 409);
    const chose = posted.form.get('time') === null && posted.form.get('slot') === null;
    const notice = chose ? { text: words.chooseTime, status: 400 } : { text: words.refusal.taken, status: 409 };
    return timesAgain(visit, posted, notice);
  }
  return show(visit, detailsAgainPage(visit, posted, slot, { entry: { values: posted.values, errors: {} } }));
}

/** What the review and the booking both found good: the time, the submission, what was typed, the client's address. */
interface Checked {
  slot: FreeSlot;
  submission: Record<string, unknown>;
  entry: Entry;
  client: string;
}

/**
 * What the review and the booking both check, in the rules' order: the time still free (else the day's times
 * again), the honeypot, each field (the form again with every problem), and the limits, already when the details
 * are sent (the form again, what was typed kept). Else the answer that refuses it.
 */
function checkedDetails(visit: PageVisit, posted: Posted, event: H3Event): Checked | Response {
  const { words, door } = visit;
  const slot = freeSlot(door.ctx, posted.offer, posted.local);
  if (!slot) {
    if (!isDay(posted.day)) return refuse(visit, words.refusal.gone, 409);
    return timesAgain(visit, posted, { text: words.refusal.taken, status: 409 });
  }
  const trapped = trapProblem(posted.form.get(TRAP_NAME) ?? '');
  if (trapped) return refusal(visit, trapped);
  const { submission, errors } = submissionOf(posted.fields, posted.values);
  const shownErrors = Object.fromEntries(Object.entries(errors).map(([key, error]) => [key, fieldError(words, error)]));
  const entry: Entry = { values: posted.values, errors: shownErrors };
  if (Object.keys(errors).length > 0) return show(visit, detailsAgainPage(visit, posted, slot, { entry, status: 400 }));
  const client = door.clientAddress(event);
  const limited = limitProblem(door.booker, visit.settings.bookingPage, submission, client);
  if (limited)
    return limitAnswer(visit, limited, (limit, status) =>
      detailsAgainPage(visit, posted, slot, { entry, status, limit }),
    );
  return { slot, submission, entry, client };
}

/** POST /book/review: everything as it will be booked; a series, each date and whether it is free. */
export async function review(visit: PageVisit, event: H3Event): Promise<Response> {
  const posted = await readPosted(visit, event);
  if (posted instanceof Response) return posted;
  const checked = checkedDetails(visit, posted, event);
  if (checked instanceof Response) return checked;
  const { offer, fields, values, ticket, weeks } = posted;
  const shown = { view: visit.view, offer, slot: checked.slot, fields, values, ticket };
  if (weeks < 2) return show(visit, reviewPage(shown));
  return show(
    visit,
    reviewPage({ ...shown, series: { dates: seriesDates(visit.door.ctx, offer, checked.slot, weeks) } }),
  );
}

/** POST /book/confirm: books the time (a series: all its dates or none), then the confirmation. */
export async function confirm(visit: PageVisit, event: H3Event): Promise<Response> {
  const posted = await readPosted(visit, event);
  if (posted instanceof Response) return posted;
  const checked = checkedDetails(visit, posted, event);
  if (checked instanceof Response) return checked;
  const { booker } = visit.door;
  const { slot, submission, client } = checked;
  const order = {
    page: visit.settings.bookingPage,
    form: posted.pageForm,
    offer: posted.offer,
    slot,
    submission,
    client,
    locale: visit.language.asked,
  };
  const outcome = posted.weeks > 1 ? bookSeries(booker, order, posted.weeks) : book(booker, order);
  return bookedAnswer(visit, posted, checked, outcome);
}

/** The answer to what a form that asked to book came to: the confirmation, or why nothing was booked. */
function bookedAnswer(visit: PageVisit, posted: Posted, checked: Checked, outcome: PageSeriesBooking): Response {
  const { words } = visit;
  if (outcome.booked) {
    if (!outcome.replayed) visit.door.afterBooking();
    return done(visit, outcome.reference, outcome.replayed);
  }
  // A date taken meanwhile: each date and whether it is free, nothing booked, the way back (409).
  if (outcome.why === 'series-taken') {
    const { offer, fields, values, ticket } = posted;
    const series = { dates: outcome.dates, notice: words.seriesTaken };
    return show(visit, reviewPage({ view: visit.view, offer, slot: checked.slot, fields, values, ticket, series }));
  }
  if (outcome.why === 'taken') return timesAgain(visit, posted, { text: words.refusal.taken, status: 409 });
  const again = (limit: LimitNotice, status: number) =>
    detailsAgainPage(visit, posted, checked.slot, { entry: checked.entry, status, limit });
  if (outcome.why === 'per-hour' || outcome.why === 'per-email') return limitAnswer(visit, outcome, again);
  return refusal(visit, outcome);
}

/**
 * The answer to a limit: `form`, the details form with what was typed and why, and what the customer can do; for
 * too many bookings from the address, the 429 of every door (tooManyRequests: Retry-After and the rate-limit fields)
 * over the page's hour; for an e-mail address that holds its share, 409 and the advice to book another person under
 * their own address.
 */
function limitAnswer(
  visit: PageVisit,
  limited: LimitRefusal,
  form: (limit: LimitNotice, status: number) => Page,
): Response {
  const { words, settings } = visit;
  if (limited.why === 'per-email')
    return show(visit, form({ text: words.refusal.perEmail(limited.held, limited.limit), otherPerson: true }, 409));
  const minutes = Math.ceil(limited.retryAfterSeconds / 60);
  const page = form({ text: words.refusal.perHour(minutes), otherPerson: false }, 429);
  const policy = {
    name: 'bookings-per-hour',
    limit: limited.limit,
    resetSeconds: limited.retryAfterSeconds,
    windowSeconds: PER_HOUR_WINDOW_SECONDS,
  };
  const headers = {
    ...pageHeaders(settings.bookingPage.embedFrom, settings.bookingPage.colour),
    'x-planner-page': 'page',
  };
  return tooManyRequests(policy, { content: page.html, headers });
}

/** The page of a rule that refused the form as a whole. */
function refusal(visit: PageVisit, refused: Exclude<PageRefusal, { why: 'taken' } | LimitRefusal>): Response {
  const { words } = visit;
  switch (refused.why) {
    case 'stale':
      return refuse(visit, words.refusal.stale, 400);
    case 'trap':
      return refuse(visit, words.refusal.trap, 400);
    case 'early':
      return refuse(visit, words.refusal.early, 400);
  }
}

/**
 * The link of the calendar file of the booking `reference`, signed under the page secret; with the confirmation's
 * self-service token (`token`), signed with it, so that the file carries the same link. A query is never logged
 * (app.ts), and the page's links already hold the token.
 */
function icsLink(secret: string, reference: string, token: string | undefined): string {
  return token
    ? `/book/event/${reference}.ics?m=${token}&k=${formToken(secret, ['ics', reference, token])}`
    : `/book/event/${reference}.ics?k=${formToken(secret, ['ics', reference])}`;
}

/** The confirmation of the booking `reference`: its facts, calendar links and a self-service link. */
function done(visit: PageVisit, reference: string, replayed: boolean): Response {
  const secret = visit.settings.portalSecret;
  const shown = confirmation(visit.door.ctx, visit.settings, reference, replayed);
  // A series: each date booked has its own file, its own booking's invitation (one UID each, as in the mails).
  const series = shown.series?.map(({ local, status, reference: one }) => ({
    local,
    status,
    ...(status === 'booked' ? { ics: icsLink(secret, one, shown.manageToken) } : {}),
  }));
  const booked = {
    offer: shown.offer,
    local: shown.local,
    reference,
    email: shown.email,
    calendar: { ...shown.calendar, ics: icsLink(secret, reference, shown.manageToken) },
    ...(shown.manageUrl ? { manageUrl: shown.manageUrl } : {}),
    ...(series ? { series } : {}),
    ...(shown.atLimit ? { atLimit: shown.atLimit } : {}),
    replayed,
  };
  return show(visit, donePage({ view: visit.view, booked }));
}
