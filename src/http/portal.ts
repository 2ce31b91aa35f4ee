/**
 * The self-service page's door: `/manage/<token>`, its cancel and its move (routes in door-routes.ts), outside the
 * `/api` gates. HTML only, no script; every answer (also the 404 and 429) carries the same security headers
 * (page-answer.ts). Forms are POST with a CSRF token bound to the link, the booking and its sequence (so a form sent
 * twice, or from an old tab, changes nothing), and with a same-origin check (form-guard.ts). Unknown links are
 * throttled per address (door-guard.ts). Each route opens its link's booking (`openLink`), or under
 * `/manage/<token>/date/<reference>` another date of the same series (each date's page and steps are the same
 * routes under that path, and its form tokens are bound to that date), reads its input (the query, or the posted form
 * through `readChangeForm`), calls one use case of app/pages/portal.ts, and answers one page.
 */
import { getQuery, getRouterParam, type H3Event } from 'h3';
import {
  chooseLanguage,
  customerCancel,
  customerCancelSeries,
  customerMove,
  daysToMoveTo,
  type Managed,
  mayMoveTo,
  type Outcome,
  openManaged,
  slotsToMoveTo,
} from '../app/pages/portal.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { formatLocal, isDay, isSlotText } from '../domain/dates.ts';
import { isLocale } from '../domain/languages.ts';
import { dateUrlOf, manageUrlOf } from '../domain/manage-url.ts';
import { failedPage, notFoundPage, type Page, pageOfDays, tooManyPage } from '../portal/kit.ts';
import {
  cancelPage,
  confirmMovePage,
  daysPage,
  type ManageView,
  type Notice,
  overviewPage,
  timesPage,
} from '../portal/pages.ts';
import { createDoorGuard } from './door-guard.ts';
import type { PortalDoorOptions } from './door-options.ts';
import { tooManyRequests } from './errors.ts';
import { formToken, isFormToken, readPageForm } from './form-guard.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';
import { PAGE_HEADERS, pageAnswer, seeOther } from './page-answer.ts';

/** Largest form body: a reason of NOTE_MAX_LENGTH (500) characters, percent-encoded, and the hidden fields. */
const FORM_LIMIT = 8192;

/** The door of one server process: its options, and the throttle of unknown links. */
interface PortalDoor extends PortalDoorOptions {
  guard: ReturnType<typeof createDoorGuard>;
}

/**
 * One request to a link: the booking it opened, the page's path (`base`), the link's own path (`home`), the link's
 * token, and the reference of the series' date the path names (`date/<reference>`; none for the link's own booking).
 */
interface LinkVisit extends ManageView {
  token: string;
  home: string;
  reference?: string;
  /** The reader's Accept-Language: the page's language where the booking keeps none. */
  acceptLanguage: string | null;
}

/** A route's answer to a link that opened its booking. */
type LinkRoute = (door: PortalDoor, visit: LinkVisit, event: H3Event) => Response | Promise<Response>;

/** The changes a form makes; a form token is bound to one of them. */
type Change = 'cancel' | 'reschedule';

/** Returns the self-service page's handlers, by route (door-routes.ts gives their paths). */
export function createPortalDoor(options: PortalDoorOptions) {
  const door: PortalDoor = { ...options, guard: createDoorGuard('unknown-link', options.nowMs) };
  const route = (answer: LinkRoute) => guarded(door, (event) => openLink(door, event, answer));
  return {
    overview: route(overview),
    cancelStep: route(cancelStep),
    cancel: route(cancel),
    moveStep: route(moveStep),
    move: route(move),
    /** Any other path or method under `/manage`: the page's 404. */
    unknownPath: guarded(door, () => pageAnswer(notFoundPage(door.ctx.settings()))),
  };
}

/** Answers with `answer`, or with the failure page (the failure logged, never the token) when it throws. */
function guarded(door: PortalDoor, answer: (event: H3Event) => Response | Promise<Response>) {
  return async (event: H3Event): Promise<Response> => {
    try {
      return await answer(event);
    } catch (error) {
      door.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      return pageAnswer(failedPage(door.ctx.settings()));
    }
  };
}

/**
 * Opens the link of the route's token and answers it with `route`: while the page is on, on the canonical path only.
 * Every link is looked up; an address that sent 20 unknown ones this minute gets 429 for its further unknown ones
 * (src/http/door-guard.ts says why a real link from there still opens).
 */
function openLink(door: PortalDoor, event: H3Event, route: LinkRoute): Response | Promise<Response> {
  const settings = door.ctx.settings();
  if (!settings.portal || !isCanonicalPath(event)) return pageAnswer(notFoundPage(settings));
  const token = getRouterParam(event, 'token') ?? '';
  const reference = getRouterParam(event, 'reference');
  const acceptLanguage = event.req.headers.get('accept-language');
  const managed = openManaged(door.ctx, token, reference, acceptLanguage);
  const home = manageUrlOf('', token);
  if (managed) {
    const base = reference === undefined ? home : dateUrlOf(home, managed.booking.reference);
    // A language picked on the page (its switcher's links): kept for the customer, then the page again without it.
    const lang = getQuery(event).lang;
    if (event.req.method === 'GET' && isLocale(lang) && chooseLanguage(door.ctx, managed, lang)) return seeOther(base);
    return route(door, { managed, token, reference, base, home, acceptLanguage }, event);
  }
  const throttled = door.guard.unknown(door.clientAddress(event));
  if (!throttled) return pageAnswer(notFoundPage(settings));
  const page = tooManyPage(settings, throttled.resetSeconds);
  return tooManyRequests(throttled, { content: page.html, headers: { ...PAGE_HEADERS, 'x-planner-page': 'page' } });
}

/** GET /manage/:token: the booking, with the notice of a change just made (`done`, Post/Redirect/Get). */
function overview(_door: PortalDoor, visit: LinkVisit, event: H3Event): Response {
  return pageAnswer(overviewPage({ ...visit, notice: doneNotice(visit.managed, getQuery(event).done) }));
}

/** The notice of a change just made (`done`), only where the booking shows that change. */
function doneNotice(managed: Managed, done: unknown): Notice | undefined {
  const shows =
    done === 'cancelled' || done === 'cancelled-series'
      ? managed.booking.status === 'cancelled'
      : done === 'moved' && managed.booking.sequence > 0;
  return shows ? { kind: 'done', what: done as 'cancelled' | 'cancelled-series' | 'moved' } : undefined;
}

/** The booking, and why it cannot be changed so (any more). */
function refusedOverview(visit: ManageView, why: Notice & { kind: 'refused' }, status?: number): Page {
  return overviewPage({ ...visit, notice: why, status });
}

/** What the form token of `change` binds: the link, the booking and the `sequence` the form shows. */
function bound(visit: LinkVisit, change: Change, sequence: number): (string | number)[] {
  return [change, visit.managed.booking.id, sequence, visit.token];
}

/** The hidden fields of a form of `change`: the booking's sequence, and the form token bound to it. */
function formOf(visit: LinkVisit, change: Change): Record<string, string> {
  const { managed } = visit;
  return {
    sequence: String(managed.booking.sequence),
    csrf: formToken(managed.settings.portalSecret ?? '', bound(visit, change, managed.booking.sequence)),
  };
}

/**
 * GET /manage/:token/cancel: while the booking is open, its cancel form (`scope=later`: with its later dates chosen);
 * else the booking, and why not.
 */
function cancelStep(_door: PortalDoor, visit: LinkVisit, event: H3Event): Response {
  const { managed } = visit;
  if (managed.state !== 'open') return pageAnswer(refusedOverview(visit, { kind: 'refused', why: managed.state }));
  const later = getQuery(event).scope === 'later';
  return pageAnswer(cancelPage({ ...visit, form: formOf(visit, 'cancel'), later }));
}

/**
 * The practitioner a move is for: `asked` (another one offering the reason, kept from step to step), else the
 * booking's.
 */
function chosenPractitioner(managed: Managed, asked: unknown): number {
  const id = typeof asked === 'string' ? parsePlainInt(asked) : undefined;
  return id !== undefined && mayMoveTo(managed, id) ? id : managed.booking.scheduleId;
}

/** The booking's local time as the steps of a move write it: `YYYY-MM-DD HH:MM`. */
function bookedAt(managed: Managed): string {
  return formatLocal(new Date(managed.booking.startAt * 1000), managed.settings.timeZone);
}

/**
 * GET /manage/:token/reschedule: while the booking may move, its steps (`day` and `time` chosen so far, `with`
 * another practitioner); else the booking, and why not.
 */
function moveStep(door: PortalDoor, visit: LinkVisit, event: H3Event): Response {
  const { managed } = visit;
  if (!managed.mayMove) {
    const why = managed.state !== 'open' ? managed.state : managed.movable ? 'no-reschedule' : 'not-movable';
    return pageAnswer(refusedOverview(visit, { kind: 'refused', why }));
  }
  const query = getQuery(event);
  const chosen = chosenPractitioner(managed, query.with);
  const day = typeof query.day === 'string' && isDay(query.day) ? query.day : undefined;
  if (day) return pageAnswer(moveTimes(door, visit, { day, time: query.time, chosen }));
  // Pages of free days, counted from the first; first the page with the booking's own day.
  const from = typeof query.from === 'string' && isDay(query.from) ? query.from : bookedAt(managed).slice(0, 10);
  const shown = pageOfDays(daysToMoveTo(door.ctx, managed, chosen), from);
  return pageAnswer(daysPage({ ...visit, days: shown.days, pages: shown.pages, chosen }));
}

/**
 * The times of `day` to move to; with a `time` chosen, its confirmation step. A time no longer free (taken
 * meanwhile) gets the day's times again, as the move itself would (409); the booking's own time (the back button
 * after a move), the times as they are.
 */
function moveTimes(door: PortalDoor, visit: LinkVisit, chosen: { day: string; time: unknown; chosen: number }): Page {
  const { managed } = visit;
  const { day, time } = chosen;
  const slots = slotsToMoveTo(door.ctx, managed, day, chosen.chosen);
  if (typeof time !== 'string' || !isSlotText(`${day} ${time}:00`))
    return timesPage({ ...visit, day, slots, chosen: chosen.chosen });
  const slot = slots.find((one) => one.local.slice(11, 16) === time);
  if (slot) return confirmMovePage({ ...visit, slot, form: formOf(visit, 'reschedule'), chosen: chosen.chosen });
  if (`${day} ${time}` === bookedAt(managed) && chosen.chosen === managed.booking.scheduleId)
    return timesPage({ ...visit, day, slots });
  const taken: Notice = { kind: 'refused', why: 'taken' };
  return timesPage({ ...visit, day, slots, notice: taken, status: 409, chosen: chosen.chosen });
}

/**
 * Reads the posted form of `change` (readPageForm, every page's one reader) and checks its form token: the fields
 * and the sequence the form was made for, or the answer that refuses it (the booking, and why).
 */
async function readChangeForm(
  door: PortalDoor,
  visit: LinkVisit,
  event: H3Event,
  change: Change,
): Promise<{ fields: URLSearchParams; sequence: number } | Response> {
  const origin = visit.managed.settings.portal.url;
  const form = await readPageForm(event, { origin, limit: FORM_LIMIT, deadlineMs: door.bodyTimeoutMs });
  if ('why' in form) {
    if (form.why === 'cross-site')
      return pageAnswer(refusedOverview(visit, { kind: 'refused', why: 'forbidden' }, 403));
    // Not a form, too large, too slow or cut off: the body may not have been read to its end, so the connection closes.
    const unread = refusedOverview(visit, { kind: 'refused', why: 'bad-input' }, 400);
    return pageAnswer(unread, { connection: 'close' });
  }
  const sequence = parsePlainInt(form.get('sequence') ?? '');
  const secret = visit.managed.settings.portalSecret ?? '';
  if (sequence === undefined || !isFormToken(secret, bound(visit, change, sequence), form.get('csrf') ?? ''))
    return pageAnswer(refusedOverview(visit, { kind: 'refused', why: 'forbidden' }, 403));
  return { fields: form, sequence };
}

/** After a change: the workers send its mails now, and the browser goes to the overview that says so (303). */
function changed(door: PortalDoor, visit: LinkVisit, done: 'cancelled' | 'cancelled-series' | 'moved'): Response {
  door.afterBooking();
  return seeOther(`${visit.base}?done=${done}`);
}

/** The visit's booking as it stands now (re-read after a refusal: it may be refused because it changed). */
function reopened(door: PortalDoor, visit: LinkVisit): LinkVisit {
  const again = openManaged(door.ctx, visit.token, visit.reference, visit.acceptLanguage);
  return { ...visit, managed: again ?? visit.managed };
}

/** The notice and the status of a refused change. */
function refusalOf(outcome: Outcome & { ok: false }): { notice: Notice; status: number } {
  const bad = outcome.refusal === 'bad-input' || outcome.refusal === 'bad-reason';
  return { notice: { kind: 'refused', why: outcome.refusal }, status: bad ? 400 : 409 };
}

/**
 * POST /manage/:token/cancel: cancels the booking; a date of a series this one only (as any booking), or with the
 * later ones (`scope=later`). Refused: a reason not accepted gets the form again, else the booking and why.
 */
async function cancel(door: PortalDoor, visit: LinkVisit, event: H3Event): Promise<Response> {
  const form = await readChangeForm(door, visit, event, 'cancel');
  if (form instanceof Response) return form;
  const later = form.fields.get('scope') === 'later';
  const reason = form.fields.get('reason') ?? '';
  const outcome = later
    ? customerCancelSeries(door.ctx, visit.managed, form.sequence, reason)
    : customerCancel(door.ctx, visit.managed, form.sequence, reason);
  if (outcome.ok) return changed(door, visit, later ? 'cancelled-series' : 'cancelled');
  const now = reopened(door, visit);
  const refused = refusalOf(outcome);
  if (outcome.refusal === 'bad-reason' && now.managed.state === 'open')
    return pageAnswer(cancelPage({ ...now, form: formOf(now, 'cancel'), ...refused, later }));
  return pageAnswer(overviewPage({ ...now, ...refused }));
}

/**
 * POST /manage/:token/reschedule: moves the booking to the form's `slot`, with the form's `schedule` (another
 * practitioner offering the reason) or its own. Refused because the time was taken: the day's times again.
 */
async function move(door: PortalDoor, visit: LinkVisit, event: H3Event): Promise<Response> {
  const form = await readChangeForm(door, visit, event, 'reschedule');
  if (form instanceof Response) return form;
  const slot = form.fields.get('slot') ?? '';
  const schedule = form.fields.get('schedule') ?? '';
  const to = parsePlainInt(schedule) ?? visit.managed.booking.scheduleId;
  const outcome = customerMove(door.ctx, visit.managed, form.sequence, slot, to);
  if (outcome.ok) return changed(door, visit, 'moved');
  const now = reopened(door, visit);
  const refused = refusalOf(outcome);
  if (outcome.refusal !== 'taken' || !now.managed.mayMove) return pageAnswer(overviewPage({ ...now, ...refused }));
  const day = slot.slice(0, 10);
  const chosen = parsePlainInt(schedule) ?? now.managed.booking.scheduleId;
  const practitioner = mayMoveTo(now.managed, chosen) ? chosen : now.managed.booking.scheduleId;
  const slots = slotsToMoveTo(door.ctx, now.managed, day, practitioner);
  return pageAnswer(timesPage({ ...now, day, slots, ...refused, chosen: practitioner }));
}
