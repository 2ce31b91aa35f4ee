/**
 * The public booking page's door: `/book/` and its steps (routes in door-routes.ts), outside the `/api` gates, HTML
 * only, no script and no cookie, so it works with JavaScript off and in a third-party frame. Steps: `/book/` (what),
 * `/book/days`, `/book/times` (GET), for a reason offered as a series `/book/weeks` (GET: once, or how many weeks, and
 * each date's freedom), `/book/details` (GET fresh; POST with what was typed), `/book/review` and `/book/confirm`
 * (POST: booking-page-forms.ts), `/book/event/<reference>.ics?k=…` (the confirmation's calendar file) and
 * `/book/logo`.
 *
 * A door only: each route opens the page (`openPage` in booking-page-visit.ts: on, set up, the path canonical), reads
 * its input (the query, or the posted form), calls the booking page's use case (src/app/pages/page-booking.ts: what
 * is offered, the rules, the booking; page-confirmation.ts: what its confirmation shows) and answers with one of its
 * pages. A form carries a ticket the page made: a random key, the time it was made, and an HMAC of both under the
 * page secret (form-guard.ts). The key is the booking's Idempotency-Key, so a form sent twice books once. Every
 * refusal is one page, and changes nothing.
 */
import { getQuery, type H3Event } from 'h3';
import { bookingLogo, FORM_MIN_SECONDS } from '../app/pages/booking-page.ts';
import { createPageBooker, fieldsOf, seriesDates, slotsOf, weeksOf } from '../app/pages/page-booking.ts';
import { eventFile } from '../app/pages/page-confirmation.ts';
import { isDay } from '../domain/dates.ts';
import { choosePage, detailsPage, timesPage, weeksPage } from '../portal/book-pages.ts';
import { notFoundPage } from '../portal/kit.ts';
import { confirm, detailsAgain, review, ticketFor } from './booking-page-forms.ts';
import {
  answer,
  type BookingDoor,
  daysOf,
  gone,
  offerOf,
  openPage,
  type PageRoute,
  type PageVisit,
  show,
  shutAnswer,
  timed,
} from './booking-page-visit.ts';
import type { DoorOptions } from './door-options.ts';
import { isFormToken } from './form-guard.ts';
import { pageHeaders } from './page-answer.ts';

/** Returns the booking page's handlers, by route (door-routes.ts gives their paths). */
export function createBookingPageDoor(options: DoorOptions) {
  const formMinSeconds = options.formMinSeconds ?? FORM_MIN_SECONDS;
  const door: BookingDoor = {
    ...options,
    booker: createPageBooker(options.ctx, { nowMs: options.nowMs, formMinSeconds }),
  };
  const route = (answer: PageRoute) => timed(door, (event) => openPage(door, event, answer));
  return {
    home: route(home),
    days: route(days),
    times: route(times),
    weeks: route(weeks),
    details: route(details),
    detailsAgain: route(detailsAgain),
    review: route(review),
    confirm: route(confirm),
    calendarFile: route(calendarFile),
    logo: timed(door, (event) => shutAnswer(door.ctx.settings(), event) ?? logoAnswer(door, event)),
    unknownPath: route(unknownPath),
  };
}

/** GET /book: what to book; with one thing only, its days at once. */
function home(visit: PageVisit): Response {
  const { view, offers } = visit;
  return show(visit, offers.length === 1 ? daysOf(visit, offers[0]!, undefined) : choosePage({ view, offers }));
}

/** GET /book/days?schedule&reason[&from]: the page of the offer's free days that holds `from`. */
function days(visit: PageVisit, event: H3Event): Response {
  const query = getQuery(event);
  const offer = offerOf(visit, query.schedule, query.reason);
  if (!offer) return gone(visit);
  return show(
    visit,
    daysOf(visit, offer, typeof query.from === 'string' && isDay(query.from) ? query.from : undefined),
  );
}

/** The day a link chose: its offer, the day and its free times; or the answer to a link that leads nowhere. */
function chosenDay(visit: PageVisit, query: Record<string, unknown>) {
  const offer = offerOf(visit, query.schedule, query.reason);
  const day = typeof query.day === 'string' && isDay(query.day) ? query.day : undefined;
  if (!offer || !day) return gone(visit);
  return { offer, day, slots: slotsOf(visit.door.ctx, offer, day) };
}

/** GET /book/times?schedule&reason&day: the day's free times. */
function times(visit: PageVisit, event: H3Event): Response {
  const chosen = chosenDay(visit, getQuery(event));
  if (chosen instanceof Response) return chosen;
  return show(visit, timesPage({ view: visit.view, ...chosen }));
}

/**
 * The time a link chose (`time`, one of the day's free times) and the weekly dates asked for (`weeks`, 1: once); or
 * the answer: no time (choose one, 400), one no longer free (the day's times again, 409), weeks not offered (404).
 */
function chosenTime(visit: PageVisit, query: Record<string, unknown>) {
  const chosen = chosenDay(visit, query);
  if (chosen instanceof Response) return chosen;
  const { view, words } = visit;
  const time = typeof query.time === 'string' ? query.time : '';
  if (time === '') return show(visit, timesPage({ view, ...chosen, notice: words.chooseTime, status: 400 }));
  const slot = chosen.slots.find((one) => one.local === `${chosen.day} ${time}:00`);
  if (!slot) return show(visit, timesPage({ view, ...chosen, notice: words.refusal.gone, status: 409 }));
  const weeks = weeksOf(chosen.offer, query.weeks);
  if (weeks === undefined) return gone(visit);
  return { offer: chosen.offer, slot, weeks };
}

/** GET /book/weeks: a time chosen of a reason offered as a series: once, or how many weeks, and each date's freedom. */
function weeks(visit: PageVisit, event: H3Event): Response {
  const chosen = chosenTime(visit, getQuery(event));
  if (chosen instanceof Response) return chosen;
  const { offer, slot, weeks } = chosen;
  if ((offer.seriesMax ?? 0) < 2) return gone(visit);
  const dates = weeks < 2 ? {} : { chosen: seriesDates(visit.door.ctx, offer, slot, weeks) };
  return show(visit, weeksPage({ view: visit.view, offer, slot, ...dates }));
}

/** GET /book/details: a fresh form for the time (and the weekly dates) chosen. */
function details(visit: PageVisit, event: H3Event): Response {
  const chosen = chosenTime(visit, getQuery(event));
  if (chosen instanceof Response) return chosen;
  const fields = fieldsOf(visit.door.ctx, visit.language.shown);
  const fresh = { fields, entry: { values: null, errors: {} }, ticket: ticketFor(visit) };
  return show(visit, detailsPage({ view: visit.view, ...chosen, ...fresh }));
}

/** GET /book/event/<reference>.ics?k=<HMAC of the reference>[&m=<token>]: the confirmation's calendar file. */
function calendarFile(visit: PageVisit, event: H3Event): Response {
  // The route of the files takes `/book/event` itself too, which leads to none: as any other path.
  if (!event.url.pathname.startsWith('/book/event/')) return gone(visit);
  const { settings } = visit;
  const match = /^\/book\/event\/([23456789A-Z]{16})\.ics$/.exec(event.url.pathname);
  const { k: key, m: token } = getQuery(event);
  // The self-service token, when there is one, is signed with the reference: no other link can be put in the file.
  const signed = match && (token === undefined || typeof token === 'string');
  const parts = (reference: string) => (token === undefined ? ['ics', reference] : ['ics', reference, token as string]);
  const text =
    signed && typeof key === 'string' && isFormToken(settings.portalSecret, parts(match[1]!), key)
      ? eventFile(visit.door.ctx, match[1]!, token as string | undefined)
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

/**
 * GET /book/logo?v=<version>: the practice's logo. Its address changes with it, so the current one is kept by
 * browsers for a year; an old version answers the current logo, not to be kept.
 */
function logoAnswer(door: BookingDoor, event: H3Event): Response {
  const logo = bookingLogo(door.ctx);
  if (!logo) return answer(notFoundPage(door.ctx.settings()), door.ctx.settings());
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

/** Any other path or method under `/book`: a link that leads nowhere (GET, HEAD), else the page's 404. */
function unknownPath(visit: PageVisit, event: H3Event): Response {
  const method = event.req.method;
  if (method === 'GET' || method === 'HEAD') return gone(visit);
  return answer(notFoundPage(visit.settings), visit.settings);
}
