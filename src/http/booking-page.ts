/**
 * The public booking page's door (issue 27): `/book/…`, outside the `/api` gates, HTML only, no script and no
 * cookie, so it works with JavaScript off and in a third-party frame. Steps: `/book/` (what), `/book/days`,
 * `/book/times` (GET), for a reason offered as a series `/book/weeks` (GET: once, or how many weeks, and each date's
 * freedom; issue 40), `/book/details` (GET fresh; POST with what was typed), `/book/review` and `/book/confirm`
 * (POST), and `/book/event/<reference>.ics?k=…` (the confirmation's calendar file).
 *
 * A door only (issue 37): it reads the path and the form, checks the form's ticket, calls the booking page's use case
 * (src/app/pages/page-booking.ts: what is offered, the rules, the booking, the confirmation) and answers with its pages. A
 * form carries a ticket the page made: a random key, the time it was made, and an HMAC of both under the page secret
 * (form-guard.ts). The key is the booking's Idempotency-Key, so a form sent twice books once. Every refusal is one
 * page, and changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { getQuery, type H3Event } from 'h3';
import type { AppContext } from '../app/context.ts';
import type { DaysCache } from '../app/bookings/days-cache.ts';
import { bookingLogo, FORM_MIN_SECONDS, PER_HOUR_WINDOW_SECONDS } from '../app/pages/booking-page.ts';
import {
  book,
  bookedBy,
  bookSeries,
  createPageBooker,
  fieldsOf,
  formProblem,
  freeSlot,
  limitProblem,
  offersOf,
  seriesDates,
  slotsOf,
  submissionOf,
  trapProblem,
  weeksOf,
  type LimitRefusal,
  type Offer,
  type PageBooker,
  type PageForm,
  type PageRefusal,
} from '../app/pages/page-booking.ts';
import { confirmation, eventFile } from '../app/pages/page-confirmation.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { isDay } from '../domain/dates.ts';
import type { FieldDefinition } from '../domain/form.ts';
import type { Settings } from '../store/settings.ts';
import { BOOK_WORDS, fieldError } from '../portal/book-words.ts';
import {
  choosePage,
  daysPage,
  detailsPage,
  donePage,
  notOfferedPage,
  refusedPage,
  reviewPage,
  timesPage,
  weeksPage,
  type BookView,
} from '../portal/book-pages.ts';
import { fieldName, TRAP_NAME, typedFields, type Entry, type FormTicket } from '../portal/book-form.ts';
import { failedPage, notFoundPage, pageOfWeeks, type Page } from '../portal/kit.ts';
import { tooManyRequests } from './errors.ts';
import { formToken, isFormToken, readPageForm } from './form-guard.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';
import { pageAnswer, pageHeaders } from './page-answer.ts';

/** Largest form body: every field at its longest (a textarea of 5,000 characters), percent-encoded. */
const FORM_LIMIT = 65_536;
/** How many free days "another day" offers after a time was taken: a week before the day, and on to a month. */
const OTHER_DAYS = 31;

export interface BookingPageDoorOptions {
  ctx: AppContext;
  nowMs: () => number;
  /** After a booking: the workers send its mails and webhook events now. */
  afterBooking: () => void;
  bodyTimeoutMs: number;
  log: (line: string) => void;
  /** The client's address, for the bookings per hour (src/http/client-address.ts). */
  clientAddress: (event: H3Event) => string;
  /** The cache of free days GET /api/days answers from (the same days). */
  daysCache: DaysCache;
  /** The shortest time between a form made and sent (default FORM_MIN_SECONDS; tests of the flow pass 0). */
  formMinSeconds?: number;
}

/** What every answer of one request needs: the door's options and use case, the settings read at its start, the page's view and words. */
interface Request {
  options: BookingPageDoorOptions;
  booker: PageBooker;
  settings: Settings & {
    portal: NonNullable<Settings['portal']>;
    portalSecret: string;
    bookingPage: NonNullable<Settings['bookingPage']>;
  };
  view: BookView;
  offers: Offer[];
  words: (typeof BOOK_WORDS)[keyof typeof BOOK_WORDS];
}

/** Returns the handler of every request whose path is `/book` or under `/book/`. */
export function createBookingPageDoor(options: BookingPageDoorOptions): (event: H3Event) => Promise<Response> {
  const booker = createPageBooker(options.ctx, {
    nowMs: options.nowMs,
    formMinSeconds: options.formMinSeconds ?? FORM_MIN_SECONDS,
  });
  return async (event: H3Event) => {
    const started = performance.now();
    let response: Response;
    try {
      response = await route(options, booker, event);
    } catch (error) {
      options.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      response = answer(failedPage(options.ctx.settings()), options.ctx.settings());
    }
    // As every API answer: the page's own time (the benchmark's row 10 reads it).
    response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
    return response;
  };
}

/** A page of the door, with its headers and the frames it allows. */
function answer(page: Page, settings: Settings, extra: Record<string, string> = {}): Response {
  return pageAnswer(page, extra, pageHeaders(settings.bookingPage?.embedFrom ?? [], settings.bookingPage?.colour));
}
function show(request: Request, shown: Page, extra?: Record<string, string>): Response {
  return answer(shown, request.settings, extra);
}
/** The page of a refusal: `text`, and `status`. */
function refuse(request: Request, text: string, status: number, extra?: Record<string, string>): Response {
  return show(request, refusedPage({ view: request.view, text, status }), extra);
}

/** A new form's ticket: a random key, when it was made, and their HMAC under the page secret. */
function ticketFor(request: Request): FormTicket {
  const key = randomBytes(16).toString('base64url');
  const issued = String(Math.floor(request.options.nowMs() / 1000));
  return { key, issued, sig: formToken(request.settings.portalSecret, ['book', key, issued]) };
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

/** What was typed, by field key, from a posted form (a checkbox: 'on' or absent). */
function typedIn(fields: FieldDefinition[], form: URLSearchParams): Record<string, string> {
  return Object.fromEntries(
    fields.flatMap((field) => (form.has(fieldName(field.key)) ? [[field.key, form.get(fieldName(field.key))!]] : [])),
  );
}

/** The offer a query or form names by its schedule and reason, if the page offers it. */
function offerOf(request: Request, schedule: unknown, reason: unknown): Offer | undefined {
  const s = typeof schedule === 'string' ? parsePlainInt(schedule) : undefined;
  const r = typeof reason === 'string' ? parsePlainInt(reason) : undefined;
  return request.offers.find((offer) => offer.scheduleId === s && offer.reasonId === r);
}

/** The steps a link leads to: what, days, times, a fresh form, the calendar file. */
function get(request: Request, event: H3Event, path: string): Response {
  const { view, offers, words, options } = request;
  const query = getQuery(event);
  if (path === '/book')
    return show(request, offers.length === 1 ? daysOf(request, offers[0]!, undefined) : choosePage({ view, offers }));
  if (path.startsWith('/book/event/')) return calendarFile(request, event);
  const gone = () => refuse(request, words.notFound, 404);
  const offer = offerOf(request, query.schedule, query.reason);
  if (!offer) return gone();
  if (path === '/book/days')
    return show(
      request,
      daysOf(request, offer, typeof query.from === 'string' && isDay(query.from) ? query.from : undefined),
    );
  const day = typeof query.day === 'string' && isDay(query.day) ? query.day : undefined;
  if (!day) return gone();
  const slots = slotsOf(options.ctx, offer, day);
  if (path === '/book/times') return show(request, timesPage({ view, offer, day, slots }));
  if (path !== '/book/details' && path !== '/book/weeks') return gone();
  const time = typeof query.time === 'string' ? query.time : '';
  if (time === '') return show(request, timesPage({ view, offer, day, slots, notice: words.chooseTime, status: 400 }));
  const slot = slots.find((one) => one.local === `${day} ${time}:00`);
  if (!slot) return show(request, timesPage({ view, offer, day, slots, notice: words.refusal.gone, status: 409 }));
  // A series (issue 40): how many weeks, and each date's freedom, before the details; the details then carry them.
  const weeks = weeksOf(offer, query.weeks);
  if (weeks === undefined) return gone();
  if (path === '/book/weeks') {
    if ((offer.seriesMax ?? 0) < 2) return gone();
    return show(
      request,
      weeksPage({ view, offer, slot, ...(weeks < 2 ? {} : { chosen: seriesDates(options.ctx, offer, slot, weeks) }) }),
    );
  }
  return show(
    request,
    detailsPage({
      view,
      offer,
      slot,
      fields: fieldsOf(options.ctx),
      entry: { values: null, errors: {} },
      ticket: ticketFor(request),
      weeks,
    }),
  );
}

/** The steps a form leads to: the details again, the review, the booking. */
async function post(request: Request, event: H3Event, path: string): Promise<Response> {
  const { settings, view, words, booker, options } = request;
  // Every form: from this site, a body we can read, a ticket made here and not too old, and a time still offered.
  const form = await readPageForm(event, {
    origin: settings.portal.url,
    limit: FORM_LIMIT,
    deadlineMs: options.bodyTimeoutMs,
  });
  if ('why' in form) {
    if (form.why === 'cross-site') return refuse(request, words.refusal.forbidden, 403);
    if (form.why === 'not-a-form') return refuse(request, words.refusal.unreadable, 415);
    // Too large (413), too slow or cut off: the body was not read to its end, so the connection closes.
    return refuse(request, words.refusal.unreadable, form.status, { connection: 'close' });
  }
  const ticket = ticketIn(settings.portalSecret, form);
  if (!ticket) return refuse(request, words.refusal.ticket, 403);
  const pageForm: PageForm = { key: ticket.key, issuedAt: Number(ticket.issued) };
  const stale = formProblem(booker, pageForm);
  if (stale) return refusal(request, stale);
  // This form has booked (sent twice, or back and again): what it booked, also if the offer has gone since.
  const booked = bookedBy(options.ctx, pageForm);
  if (booked) return done(request, booked, true);
  const offer = offerOf(request, form.get('schedule') ?? '', form.get('reason') ?? '');
  if (!offer) return refuse(request, words.refusal.gone, 409);
  // A series (issue 40): the number of weekly dates the form carries (1: a single booking).
  const weeks = weeksOf(offer, form.get('weeks') ?? undefined);
  if (weeks === undefined) return refuse(request, words.refusal.gone, 409);
  const fields = fieldsOf(options.ctx);
  const values = typedIn(fields, form);
  // The times page after a time was taken sends day and time; the review's "change" sends the slot.
  const local = form.get('slot') ?? `${form.get('day') ?? ''} ${form.get('time') ?? ''}:00`;
  const day = local.slice(0, 10);
  // Back to a day's times, keeping what was typed and the ticket (the same form, so still one booking), with the
  // other free days to choose from in a form: asked for ("another time" or "another day"), or the time was taken.
  const timesAgain = (notice?: string, status?: number) =>
    show(
      request,
      timesPage({
        view,
        offer,
        day,
        slots: slotsOf(options.ctx, offer, day),
        carried: { ...typedFields(fields, values), ...ticket, ...(weeks > 1 ? { weeks: String(weeks) } : {}) },
        otherDays: daysNear(request, offer, day),
        ...(notice ? { notice, status } : {}),
      }),
    );
  if (path === '/book/details' && form.get('change') === 'day')
    return isDay(day) ? timesAgain() : refuse(request, words.refusal.gone, 409);
  const slot = freeSlot(options.ctx, offer, local);
  if (!slot) {
    if (!isDay(day)) return refuse(request, words.refusal.gone, 409);
    const chose = path === '/book/details' && form.get('time') === null && form.get('slot') === null;
    return chose ? timesAgain(words.chooseTime, 400) : timesAgain(words.refusal.taken, 409);
  }
  if (path === '/book/details')
    return show(request, detailsPage({ view, offer, slot, fields, entry: { values, errors: {} }, ticket, weeks }));
  const trapped = trapProblem(form.get(TRAP_NAME) ?? '');
  if (trapped) return refusal(request, trapped);
  const { submission, errors } = submissionOf(fields, values);
  const entry: Entry = {
    values,
    errors: Object.fromEntries(Object.entries(errors).map(([key, error]) => [key, fieldError(words, error)])),
  };
  if (Object.keys(errors).length > 0)
    return show(request, detailsPage({ view, offer, slot, fields, entry, ticket, status: 400, weeks }));
  // The limits, as soon as the details are sent (and again when booking): the form again, what was typed kept.
  const client = options.clientAddress(event);
  const overLimit = (limited: LimitRefusal) =>
    limitAnswer(request, limited, (text, status, otherPerson) =>
      detailsPage({ view, offer, slot, fields, entry, ticket, status, limit: { text, otherPerson }, weeks }),
    );
  const limited = limitProblem(booker, settings.bookingPage, submission, client);
  if (limited) return overLimit(limited);
  if (path === '/book/review' && weeks > 1) {
    const dates = seriesDates(options.ctx, offer, slot, weeks);
    return show(request, reviewPage({ view, offer, slot, fields, values, ticket, series: { dates } }));
  }
  if (path === '/book/review') return show(request, reviewPage({ view, offer, slot, fields, values, ticket }));
  if (weeks > 1) {
    const order = { page: settings.bookingPage, form: pageForm, offer, slot, submission, client };
    const series = bookSeries(booker, order, weeks);
    if (series.booked) {
      if (!series.replayed) options.afterBooking();
      return done(request, series.reference, series.replayed);
    }
    // A date taken meanwhile: each date and whether it is free, nothing booked, the way back (409).
    if (series.why === 'series-taken')
      return show(
        request,
        reviewPage({
          view,
          offer,
          slot,
          fields,
          values,
          ticket,
          series: { dates: series.dates, notice: words.seriesTaken },
        }),
      );
    if (series.why === 'taken') return timesAgain(words.refusal.taken, 409);
    if (series.why === 'per-hour' || series.why === 'per-email') return overLimit(series);
    return refusal(request, series);
  }
  const outcome = book(booker, { page: settings.bookingPage, form: pageForm, offer, slot, submission, client });
  if (outcome.booked) {
    if (!outcome.replayed) options.afterBooking();
    return done(request, outcome.reference, outcome.replayed);
  }
  if (outcome.why === 'taken') return timesAgain(words.refusal.taken, 409);
  if (outcome.why === 'per-hour' || outcome.why === 'per-email') return overLimit(outcome);
  return refusal(request, outcome);
}

/**
 * The answer to a limit (issue 41, item 1): `form`, the details form with what was typed and why, and what the
 * customer can do; for too many bookings from the address, the 429 of every door (tooManyRequests: Retry-After and
 * the rate-limit fields) over the page's hour; for an e-mail address that holds its share, 409 and the advice to
 * book another person under their own address.
 */
function limitAnswer(
  request: Request,
  limited: LimitRefusal,
  form: (text: string, status: number, otherPerson: boolean) => Page,
): Response {
  const { words } = request;
  if (limited.why === 'per-email') return show(request, form(words.refusal.perEmail(limited.held), 409, true));
  const page = form(words.refusal.perHour(Math.ceil(limited.retryAfterSeconds / 60)), 429, false);
  const policy = {
    name: 'bookings-per-hour',
    limit: limited.limit,
    resetSeconds: limited.retryAfterSeconds,
    windowSeconds: PER_HOUR_WINDOW_SECONDS,
  };
  return tooManyRequests(policy, {
    content: page.html,
    headers: {
      ...pageHeaders(request.settings.bookingPage.embedFrom, request.settings.bookingPage.colour),
      'x-planner-page': 'page',
    },
  });
}

/** The page of a rule that refused the form as a whole. */
function refusal(request: Request, refused: Exclude<PageRefusal, { why: 'taken' } | LimitRefusal>): Response {
  const { words } = request;
  switch (refused.why) {
    case 'stale':
      return refuse(request, words.refusal.stale, 400);
    case 'trap':
      return refuse(request, words.refusal.trap, 400);
    case 'early':
      return refuse(request, words.refusal.early, 400);
  }
}

/** Answers one request of the door: the page off or not set up, else the step its path and method name. */
async function route(options: BookingPageDoorOptions, booker: PageBooker, event: H3Event): Promise<Response> {
  const settings = options.ctx.settings();
  const page = settings.bookingPage;
  const notFound = () => answer(notFoundPage(settings), settings);
  if (!settings.timeZone || !settings.practiceName || !settings.notifyEmail) return notFound(); // not set up (init)
  // Off (or not served: no public address): say so, and how to reach the practice; not "link not valid".
  if (!page || !settings.portal || !settings.portalSecret) {
    return answer(
      notOfferedPage({ ...settings, practiceName: settings.practiceName, notifyEmail: settings.notifyEmail }),
      settings,
    );
  }
  // The page's home is `/book/` (as it is linked) or `/book`; every other path without a trailing slash or `..`.
  if (event.url.pathname !== '/book/' && !isCanonicalPath(event)) return notFound();
  const path = event.url.pathname.replace(/\/$/, '') || '/book';
  if (path === '/book/logo' && (event.req.method === 'GET' || event.req.method === 'HEAD'))
    return logoAnswer(options, event);
  const words = BOOK_WORDS[settings.locale];
  // "Any practitioner" (issue 40) is named in the page's words.
  const offers = offersOf(options.ctx, page).map((offer) =>
    offer.anyOf ? { ...offer, scheduleName: words.anyPractitioner } : offer,
  );
  const view: BookView = {
    practice: { ...settings, practiceName: settings.practiceName },
    privacyUrl: page.privacyUrl,
    manyOffers: offers.length > 1,
    brand: { colour: page.colour, logoSrc: page.logo ? `/book/logo?v=${page.logo}` : null },
  };
  const request: Request = {
    options,
    booker,
    settings: settings as Request['settings'],
    view,
    offers,
    words,
  };
  const method = event.req.method;
  if (method === 'GET' || method === 'HEAD') return get(request, event, path);
  if (method !== 'POST' || !['/book/details', '/book/review', '/book/confirm'].includes(path)) return notFound();
  return post(request, event, path);
}

/**
 * `/book/logo?v=<version>`: the practice's logo (issue 41). Its address changes with it, so the current one is kept
 * by browsers for a year; an old version answers the current logo, not to be kept.
 */
function logoAnswer(options: BookingPageDoorOptions, event: H3Event): Response {
  const logo = bookingLogo(options.ctx);
  if (!logo) return answer(notFoundPage(options.ctx.settings()), options.ctx.settings());
  const current = getQuery(event).v === logo.version;
  return new Response(event.req.method === 'HEAD' ? null : logo.bytes, {
    status: 200,
    headers: {
      'content-type': logo.type,
      'content-length': String(logo.bytes.length),
      'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
      'cross-origin-resource-policy': 'same-origin',
    },
  });
}

/** The free days of `offer`, from the days cache: for "any practitioner", the days any of its schedules has free. */
function freeDaysOf(request: Request, offer: Offer): string[] {
  const { daysCache, ctx } = request.options;
  if (!offer.anyOf) return daysCache.days(ctx, offer.scheduleId, offer.reasonId);
  const all = new Set(offer.anyOf.flatMap((scheduleId) => daysCache.days(ctx, scheduleId, offer.reasonId)));
  return [...all].sort();
}

/** The days step of `offer`: the page of free days that holds `from` (else the first), from the days cache. */
function daysOf(request: Request, offer: Offer, from: string | undefined): Page {
  const shown = pageOfWeeks(freeDaysOf(request, offer), from);
  return daysPage({ view: request.view, offer, days: shown.days, pages: shown.pages });
}

/** Up to a month of `offer`'s free days around `day`, from the days cache: the choice of another day. */
function daysNear(request: Request, offer: Offer, day: string): string[] {
  const days = freeDaysOf(request, offer);
  const at = days.findIndex((one) => one >= day);
  const start = Math.max(0, Math.min((at < 0 ? days.length : at) - 7, days.length - OTHER_DAYS));
  return days.slice(start, start + OTHER_DAYS);
}

/** The confirmation of the booking `reference`: its facts, calendar links and a self-service link. */
function done(request: Request, reference: string, replayed: boolean): Response {
  const { settings } = request;
  const shown = confirmation(request.options.ctx, settings, reference, replayed);
  // The calendar file's link; with the confirmation's self-service token, signed with it, so that the file carries
  // the same link (issue 41, item 8). A query is never logged (app.ts), and the page's links already hold the token.
  const token = shown.manageToken;
  const icsOf = (one: string) =>
    token
      ? `/book/event/${one}.ics?m=${token}&k=${formToken(settings.portalSecret, ['ics', one, token])}`
      : `/book/event/${one}.ics?k=${formToken(settings.portalSecret, ['ics', one])}`;
  const ics = icsOf(reference);
  // A series: each date booked has its own file, its own booking's invitation (one UID each, as in the mails).
  const series = shown.series?.map(({ local, status, reference: one }) => ({
    local,
    status,
    ...(status === 'booked' ? { ics: icsOf(one) } : {}),
  }));
  return show(
    request,
    donePage({
      view: request.view,
      booked: {
        offer: shown.offer,
        local: shown.local,
        reference,
        email: shown.email,
        calendar: { ...shown.calendar, ics },
        ...(shown.manageUrl ? { manageUrl: shown.manageUrl } : {}),
        ...(series ? { series } : {}),
        replayed,
      },
    }),
  );
}

/** `/book/event/<reference>.ics?k=<HMAC of the reference>`: the confirmation's calendar file. */
function calendarFile(request: Request, event: H3Event): Response {
  const { settings } = request;
  const match = /^\/book\/event\/([23456789A-Z]{16})\.ics$/.exec(event.url.pathname);
  const { k: key, m: token } = getQuery(event);
  // The self-service token, when there is one, is signed with the reference: no other link can be put in the file.
  const signed = match && (token === undefined || typeof token === 'string');
  const text =
    signed &&
    typeof key === 'string' &&
    isFormToken(settings.portalSecret, token === undefined ? ['ics', match[1]!] : ['ics', match[1]!, token], key)
      ? eventFile(request.options.ctx, match[1]!, token)
      : undefined;
  if (text === undefined) return answer(notFoundPage(settings), settings);
  return new Response(text, {
    status: 200,
    headers: {
      ...pageHeaders(settings.bookingPage?.embedFrom ?? [], settings.bookingPage?.colour),
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'attachment; filename="appointment.ics"',
    },
  });
}
