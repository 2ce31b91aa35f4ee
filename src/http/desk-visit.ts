/**
 * The front desk door's plumbing, shared by its pages (desk.ts: login, enrolment, the day, one booking;
 * desk-book.ts: customers, free times, booking, moving, cancelling): the desk's headers and answers, the guard of
 * every route (the desk on, a failure logged and answered), the session of a signed-in page (`withSession`), and the
 * reading of its posted forms (origin and form token).
 */
import type { H3Event } from 'h3';
import { getQuery, getRouterParam } from 'h3';
import { type DeskPerson, deskBooking, deskPerson } from '../app/desk/agenda.ts';
import { openSession } from '../app/desk/login.ts';
import { type ConfiguredSettings, requireConfigured } from '../app/practice/configured.ts';
import { formatLocal } from '../domain/dates.ts';
import { offsetAt, offsetTable } from '../domain/zone.ts';
import { DESK_STYLE_HASH, deskMessagePage, type Signed } from '../portal/desk-pages.ts';
import { deskWords } from '../portal/desk-words.ts';
import { type Page, STYLE_HASH } from '../portal/kit.ts';
import type { Booking } from '../store/bookings.ts';
import { clearedCookie, cookieValue, DESK_COOKIE, isSessionFormToken } from './desk-session.ts';
import type { createDoorGuard } from './door-guard.ts';
import type { DoorOptions } from './door-options.ts';
import { readPageForm } from './form-guard.ts';
import { loggedPath } from './logged-path.ts';
import { PAGE_HEADERS, pageAnswer } from './page-answer.ts';

/** What the desk is given. */
export type DeskDoorOptions = Pick<
  DoorOptions,
  'ctx' | 'nowMs' | 'log' | 'clientAddress' | 'afterBooking' | 'bodyTimeoutMs'
>;

/** Where the desk is served. */
export const BASE = '/desk';
/** Largest form body: a note of 2,000 characters percent-encoded (up to 9 bytes each in UTF-8) and the hidden fields. */
export const FORM_LIMIT = 32 * 1024;

/** The headers of every desk answer: the pages' own, the desk's style sheet allowed beside the kit's. */
export const DESK_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  'content-security-policy': PAGE_HEADERS['content-security-policy']!.replace(
    `style-src ${STYLE_HASH}`,
    `style-src ${STYLE_HASH} ${DESK_STYLE_HASH}`,
  ),
};

export interface DeskDoor extends DeskDoorOptions {
  guard: ReturnType<typeof createDoorGuard>;
}

/** A request with its session: the person, their session's form token, and the settings read once. */
export interface Visit {
  person: DeskPerson;
  settings: ConfiguredSettings;
  signed: Signed;
}

export type Route = (door: DeskDoor, event: H3Event, settings: ConfiguredSettings) => Response | Promise<Response>;
export type SignedRoute = (door: DeskDoor, event: H3Event, visit: Visit) => Response | Promise<Response>;

/** Answers `page` with the desk's headers (and `extra`). */
export function answer(page: Page, extra: Record<string, string> = {}): Response {
  return pageAnswer(page, extra, DESK_HEADERS);
}

/** A 303 to `location` with the desk's headers (and cookies). */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ ...DESK_HEADERS, location });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

export function notFound(settings: ConfiguredSettings): Page {
  const words = deskWords(settings.locale);
  return deskMessagePage(settings, 404, words.notFoundTitle, words.notFound);
}

/**
 * Answers with `route` while the desk is on (else its 404), or with the failure page (the failure logged by path,
 * never a token) when it throws.
 */
export function guarded(door: DeskDoor, route: Route) {
  return async (event: H3Event): Promise<Response> => {
    const started = performance.now();
    const response = await routed(door, route, event);
    // Server-Timing (W3C) of a page, as the other doors' (the benchmark reads it); not of a form sent (a login's
    // answers tell nothing the time of a hash would not, and say no more by a header).
    if (event.req.method === 'GET')
      response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
    return response;
  };
}

/** Answers with `route` while the desk is on, else its 404; a failure logged (by path) and answered 500. */
async function routed(door: DeskDoor, route: Route, event: H3Event): Promise<Response> {
  try {
    const settings = door.ctx.settings();
    if (!settings.practiceName) return pageAnswer({ status: 404, html: 'Not Found' });
    if (!settings.desk) return answer(notFound(settings as ConfiguredSettings));
    return await route(door, event, settings as ConfiguredSettings);
  } catch (error) {
    door.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
    const settings = requireConfigured(door.ctx);
    const words = deskWords(settings.locale);
    return answer(deskMessagePage(settings, 500, words.failedTitle, words.failed));
  }
}

/** The desk's origin (forms must come from it). */
function originOf(settings: ConfiguredSettings): string {
  return new URL(settings.desk!.url).origin;
}

/**
 * Opens the request's session and answers with `route`; without a session (none, ended, its person removed), the
 * login (a GET) or a 403 (a POST: nothing done), the stale cookie cleared.
 */
export function withSession(door: DeskDoor, event: H3Event, settings: ConfiguredSettings, route: SignedRoute) {
  const id = cookieValue(event.req.headers.get('cookie'), DESK_COOKIE);
  // A page's own refresh (`?auto=1`, the day's and the week's) is no one at the desk: the idle end still comes.
  const auto = event.req.method === 'GET' && getQuery(event).auto === '1';
  const session = id === undefined ? undefined : openSession(door.ctx, id, { seen: !auto });
  const person = session && deskPerson(door.ctx, session.staffId);
  if (!session || !person) {
    const cleared = id === undefined ? [] : [clearedCookie(DESK_COOKIE)];
    if (event.req.method === 'POST') {
      const refused = forbidden(settings);
      for (const cookie of cleared) refused.headers.append('set-cookie', cookie);
      return refused;
    }
    return seeOther(`${BASE}/login`, cleared);
  }
  const signed: Signed = { practice: settings, person, csrf: session.formToken, base: BASE };
  return route(door, event, { person, settings, signed });
}

/**
 * Reads a posted form of a signed-in page: from the desk's own origin, a form, and with the session's form token.
 * Returns its fields, or the 403/400 answer (nothing done).
 */
export async function readDeskForm(door: DeskDoor, event: H3Event, visit: Visit): Promise<URLSearchParams | Response> {
  const form = await readForm(door, event, visit.settings);
  if (form instanceof Response) return form;
  if (!isSessionFormToken(visit.signed.csrf, form.get('csrf'))) return forbidden(visit.settings);
  return form;
}

export function forbidden(settings: ConfiguredSettings): Response {
  const words = deskWords(settings.locale);
  return answer(deskMessagePage(settings, 403, words.forbidden, words.forbidden));
}

/** Reads a posted form from the desk's own origin; else the 403 (another site) or 400 (not a form, too large). */
export async function readForm(
  door: DeskDoor,
  event: H3Event,
  settings: ConfiguredSettings,
): Promise<URLSearchParams | Response> {
  const form = await readPageForm(event, {
    origin: originOf(settings),
    limit: FORM_LIMIT,
    deadlineMs: door.bodyTimeoutMs,
  });
  if (!('why' in form)) return form;
  if (form.why === 'cross-site') return forbidden(settings);
  const words = deskWords(settings.locale);
  return answer(deskMessagePage(settings, 400, words.forbidden, words.forbidden), { connection: 'close' });
}

/** `HH:MM` of an instant in the practice's zone. */
export function clockOf(zone: string, around?: { from: number; to: number }) {
  if (!around) return (unix: number) => formatLocal(new Date(unix * 1000), zone).slice(11, 16);
  // A page of a day or a week writes hundreds of times: the zone's offsets read once for its span (their changes
  // included), then plain arithmetic; Intl's formatting of each would be most of the day page's time.
  const table = offsetTable(zone, around.from - 86_400, around.to + 86_400);
  return (unix: number) => {
    const minutes = Math.floor((unix + offsetAt(table, unix)) / 60);
    const minute = ((minutes % 1440) + 1440) % 1440;
    return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  };
}
/** The booking of the route's reference that the person may see, or undefined (then 404). */
export function routeBooking(door: DeskDoor, event: H3Event, visit: Visit): Booking | undefined {
  return deskBooking(door.ctx, visit.person, getRouterParam(event, 'reference') ?? '');
}

/** The `Refresh` header of a page that refreshes itself each minute while looked at: marked as no one's request. */
export function refreshOf(path: string): Record<string, string> {
  return { refresh: `60; url=${path}?auto=1` };
}
