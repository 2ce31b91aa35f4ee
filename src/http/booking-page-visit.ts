/**
 * One request to the booking page (booking-page.ts): whether the page answers at all (set up, on, the path written
 * as its route is), the settings, words, offers and view every step reads, how a page of it is answered (its
 * headers, the frames it allows, the page's own time), and the offers' free days from the days cache.
 */
import { getQuery, type H3Event } from 'h3';
import { type Offer, offersOf, type PageBooker } from '../app/pages/page-booking.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { isLocale, preferredLanguage } from '../domain/languages.ts';
import type { Locale } from '../domain/locales.ts';
import { type BookView, daysPage, notOfferedPage, refusedPage } from '../portal/book-pages.ts';
import { BOOK_WORDS, type BookWords } from '../portal/book-words.ts';
import {
  brandOf,
  carryLanguage,
  failedPage,
  type LanguageLinks,
  notFoundPage,
  type Page,
  pageOfWeeks,
} from '../portal/kit.ts';
import type { Settings } from '../store/settings.ts';
import type { DoorOptions } from './door-options.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';
import { pageAnswer, pageHeaders } from './page-answer.ts';

/** How many free days "another day" offers after a time was taken: a week before the day, and on to a month. */
const OTHER_DAYS = 31;

/** The door of one server process: its options, and the booking page's state (its counts per address). */
export interface BookingDoor extends DoorOptions {
  booker: PageBooker;
}

/** The settings while the page is on and served. */
export type OpenSettings = Settings & {
  portal: NonNullable<Settings['portal']>;
  portalSecret: string;
  bookingPage: NonNullable<Settings['bookingPage']>;
};

/**
 * One request to the page while it is on: its door, the settings read at its start, the page's view, words and offers.
 */
export interface PageVisit {
  door: BookingDoor;
  settings: OpenSettings;
  view: BookView;
  offers: Offer[];
  words: BookWords;
  language: VisitLanguage;
}

/**
 * The language of a request to a customer's page, among the practice's offered ones: `shown`; `asked`, when the
 * customer chose it (`?lang=`, carried from page to page in `chosen`) or their browser's Accept-Language asked
 * for it (undefined: the practice's own, by default).
 */
export interface VisitLanguage {
  shown: Locale;
  asked?: Locale;
  chosen?: Locale;
}

/** Returns the language of a request (`VisitLanguage`) among `offered`, the practice's own first. */
export function visitLanguage(event: H3Event, offered: readonly Locale[]): VisitLanguage {
  const lang = getQuery(event).lang;
  const acceptLanguage = event.req.headers.get('accept-language');
  const chosen = isLocale(lang) && offered.includes(lang) ? lang : undefined;
  const asked = chosen ?? preferredLanguage(acceptLanguage, offered);
  // customerLanguage's rule, with what it found kept: the pick, else the browser's, else the practice's own.
  return {
    shown: asked ?? offered[0]!,
    ...(asked ? { asked } : {}),
    ...(chosen ? { chosen } : {}),
  };
}

/** A route's answer to a request to the page while it is on. */
export type PageRoute = (visit: PageVisit, event: H3Event) => Response | Promise<Response>;

/**
 * Answers with `respond`, or with the failure page (the failure logged, never a token) when it throws; every answer
 * with the page's own time, as every API answer (the benchmark's row 10 reads it).
 */
export function timed(door: BookingDoor, respond: (event: H3Event) => Response | Promise<Response>) {
  return async (event: H3Event): Promise<Response> => {
    const started = performance.now();
    let response: Response;
    try {
      response = await respond(event);
    } catch (error) {
      door.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      response = answer(failedPage(door.ctx.settings()), door.ctx.settings());
    }
    response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
    return response;
  };
}

/** A page of the door, with its headers and the frames it allows. */
export function answer(page: Page, settings: Settings, extra: Record<string, string> = {}): Response {
  return pageAnswer(page, extra, pageHeaders(settings.bookingPage?.embedFrom ?? [], settings.bookingPage?.colour));
}

/**
 * The page's answer before any step: while it is not set up (404), off or not served (how to reach the practice
 * instead), or to a path not written as its route is (404); undefined when the page answers.
 */
export function shutAnswer(settings: Settings, event: H3Event): Response | undefined {
  if (!settings.timeZone || !settings.practiceName || !settings.notifyEmail)
    return answer(notFoundPage(settings), settings); // not set up (init)
  // Off (or not served: no public address): say so, and how to reach the practice; not "link not valid".
  if (!settings.bookingPage || !settings.portal || !settings.portalSecret) {
    const practice = { ...settings, practiceName: settings.practiceName, notifyEmail: settings.notifyEmail };
    return answer(notOfferedPage(practice), settings);
  }
  // The page's home is `/book/` (as it is linked) or `/book`; every other path without a trailing slash or `..`.
  if (event.url.pathname !== '/book/' && !isCanonicalPath(event)) return answer(notFoundPage(settings), settings);
  return undefined;
}

/** Opens the page for a request (its settings, words, offers and view) and answers it with `route`. */
export function openPage(door: BookingDoor, event: H3Event, route: PageRoute): Response | Promise<Response> {
  const read = door.ctx.settings();
  const shut = shutAnswer(read, event);
  if (shut) return shut;
  const settings = read as OpenSettings;
  const page = settings.bookingPage;
  const language = visitLanguage(event, settings.languages);
  const words = BOOK_WORDS[language.shown];
  // "Any practitioner" is named in the page's words.
  const offers = offersOf(door.ctx, page, language.shown).map((offer) =>
    offer.anyOf ? { ...offer, scheduleName: words.anyPractitioner } : offer,
  );
  const view: BookView = {
    practice: { ...settings, locale: language.shown, practiceName: settings.practiceName! },
    privacyUrl: page.privacyUrl,
    manyOffers: offers.length > 1,
    brand: brandOf(page),
    languages: switcherOf(settings.languages, language.shown, event),
  };
  return route({ door, settings, view, offers, words, language }, event);
}

/**
 * Returns the language switcher of a request (none while one language is offered): each offered language's link to
 * this page in it (`?lang=`), a GET page's own query kept; a POST's answer links to the page's start.
 */
export function switcherOf(offered: readonly Locale[], shown: Locale, event: H3Event): LanguageLinks | undefined {
  if (offered.length < 2) return undefined;
  const get = event.req.method === 'GET';
  const path = get ? event.url.pathname : '/book/';
  const query = new URLSearchParams(get ? event.url.search : '');
  return {
    shown,
    links: offered.map((locale) => {
      query.set('lang', locale);
      return { locale, href: `${path}?${query.toString()}` };
    }),
  };
}

/**
 * Answers `shown`, a page of the visit's page; a language the customer chose goes with every link and form of it
 * (`carryLanguage`), so the next step speaks it too.
 */
export function show(visit: PageVisit, shown: Page, extra?: Record<string, string>): Response {
  const { chosen } = visit.language;
  const page = chosen ? { ...shown, html: carryLanguage(shown.html, chosen) } : shown;
  return answer(page, visit.settings, extra);
}

/** The page of a refusal: `text`, and `status`. */
export function refuse(visit: PageVisit, text: string, status: number, extra?: Record<string, string>): Response {
  return show(visit, refusedPage({ view: visit.view, text, status }), extra);
}

/** The answer to a link that leads nowhere (an offer, a day or a time no longer there): 404. */
export function gone(visit: PageVisit): Response {
  return refuse(visit, visit.words.notFound, 404);
}

/** The offer a query or form names by its schedule and reason, if the page offers it. */
export function offerOf(visit: PageVisit, schedule: unknown, reason: unknown): Offer | undefined {
  const s = typeof schedule === 'string' ? parsePlainInt(schedule) : undefined;
  const r = typeof reason === 'string' ? parsePlainInt(reason) : undefined;
  return visit.offers.find((offer) => offer.scheduleId === s && offer.reasonId === r);
}

/** The free days of `offer`, from the days cache: for "any practitioner", the days any of its schedules has free. */
export function freeDaysOf(visit: PageVisit, offer: Offer): string[] {
  const { daysCache, ctx } = visit.door;
  if (!offer.anyOf) return daysCache.days(ctx, offer.scheduleId, offer.reasonId);
  const all = new Set(offer.anyOf.flatMap((scheduleId) => daysCache.days(ctx, scheduleId, offer.reasonId)));
  return [...all].sort();
}

/** The days step of `offer`: the page of free days that holds `from` (else the first), from the days cache. */
export function daysOf(visit: PageVisit, offer: Offer, from: string | undefined): Page {
  const shown = pageOfWeeks(freeDaysOf(visit, offer), from);
  return daysPage({ view: visit.view, offer, days: shown.days, pages: shown.pages });
}

/** Up to a month of `offer`'s free days around `day`, from the days cache: the choice of another day. */
export function daysNear(visit: PageVisit, offer: Offer, day: string): string[] {
  const days = freeDaysOf(visit, offer);
  const at = days.findIndex((one) => one >= day);
  const start = Math.max(0, Math.min((at < 0 ? days.length : at) - 7, days.length - OTHER_DAYS));
  return days.slice(start, start + OTHER_DAYS);
}
