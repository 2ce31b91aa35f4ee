/**
 * The self-service page's door: `/manage/<token>[/cancel|/reschedule]`, outside the `/api` gates. HTML only, no
 * script; every answer (also the 404 and 429) carries the same security headers. Forms are POST with a CSRF
 * token bound to the link, the booking and its sequence (so a form sent twice, or from an old tab, changes
 * nothing), and with a same-origin check (form-guard.ts); every answer's headers come from page-answer.ts.
 * Unknown links are throttled per address (door-guard.ts).
 */
import { getQuery, type H3Event } from 'h3';
import {
  customerCancel,
  customerCancelSeries,
  customerMove,
  daysToMoveTo,
  openManaged,
  mayMoveTo,
  slotsToMoveTo,
  type Managed,
  type Outcome,
} from '../app/pages/portal.ts';
import type { AppContext } from '../app/context.ts';
import { formatLocal, isDay, isSlotText } from '../domain/dates.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { manageUrlOf } from '../domain/manage-url.ts';
import { cancelPage, confirmMovePage, daysPage, overviewPage, timesPage, type Notice } from '../portal/pages.ts';
import { failedPage, notFoundPage, pageOfDays, tooManyPage, type Page } from '../portal/kit.ts';
import { tooManyRequests } from './errors.ts';
import { formToken, isFormToken, readPageForm } from './form-guard.ts';
import { PAGE_HEADERS, pageAnswer, seeOther } from './page-answer.ts';
import { createDoorGuard } from './door-guard.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';

/** Largest form body: a reason of NOTE_MAX_LENGTH (500) characters, percent-encoded, and the hidden fields. */
const FORM_LIMIT = 8192;

export interface PortalDoorOptions {
  ctx: AppContext;
  nowMs: () => number;
  /** After a change: the workers send its mails and webhook events now. */
  afterChange: () => void;
  bodyTimeoutMs: number;
  /** Where a failure is reported (one line, never the token). */
  log: (line: string) => void;
  /** The client's address, for the throttle of unknown links (src/http/client-address.ts). */
  clientAddress: (event: H3Event) => string;
}

/** Returns the handler of every request whose path is `/manage` or under `/manage/`. */
export function createPortalDoor(options: PortalDoorOptions): (event: H3Event) => Promise<Response> {
  const { ctx, nowMs } = options;
  const guard = createDoorGuard('unknown-link', nowMs);

  /** What the form token of `action` binds: the link `token`, the booking and the `sequence` the form shows. */
  const bound = (managed: Managed, action: string, token: string, sequence: number) => [
    action,
    managed.booking.id,
    sequence,
    token,
  ];
  const formOf = (managed: Managed, action: string, token: string) => ({
    sequence: String(managed.booking.sequence),
    csrf: formToken(managed.settings.portalSecret ?? '', bound(managed, action, token, managed.booking.sequence)),
  });

  /** The sequence the posted form was made for, when its form token is right for it; else undefined. */
  const checkedSequence = (
    managed: Managed,
    action: string,
    token: string,
    form: URLSearchParams,
  ): number | undefined => {
    const sequence = parsePlainInt(form.get('sequence') ?? '');
    if (sequence === undefined) return undefined;
    return isFormToken(
      managed.settings.portalSecret ?? '',
      bound(managed, action, token, sequence),
      form.get('csrf') ?? '',
    )
      ? sequence
      : undefined;
  };

  /** The practitioner a posted move is for: the form's `schedule` (another one offering the reason), else the booking's. */
  const scheduleOf = (managed: Managed, form: URLSearchParams): number =>
    parsePlainInt(form.get('schedule') ?? '') ?? managed.booking.scheduleId;

  const show = (
    managed: Managed,
    base: string,
    token: string,
    action: string,
    event: H3Event,
    notice?: Notice,
    status?: number,
  ): Page => {
    if (action === 'cancel' && managed.state === 'open')
      return cancelPage({
        managed,
        base,
        form: formOf(managed, 'cancel', token),
        notice,
        status,
        later: getQuery(event).scope === 'later',
      });
    if (action === 'reschedule' && managed.mayMove) {
      const query = getQuery(event);
      // Another practitioner who offers the reason too (issue 40), kept from step to step; else the booking's own.
      const asked = typeof query.with === 'string' ? parsePlainInt(query.with) : undefined;
      const chosen = asked !== undefined && mayMoveTo(managed, asked) ? asked : managed.booking.scheduleId;
      const bookedAt = formatLocal(new Date(managed.booking.startAt * 1000), managed.settings.timeZone); // YYYY-MM-DD HH:MM
      const day = typeof query.day === 'string' && isDay(query.day) ? query.day : undefined;
      if (day) {
        const slots = slotsToMoveTo(ctx, managed, day, chosen);
        if (typeof query.time !== 'string' || !isSlotText(`${day} ${query.time}:00`))
          return timesPage({ managed, base, day, slots, notice, status, chosen });
        // The confirmation step of a time picked; one no longer free (taken meanwhile) gets the day's times again,
        // as the move itself would (409); the booking's own time (the back button after a move), the times as they are.
        const slot = slots.find((one) => one.local.slice(11, 16) === query.time);
        if (slot) return confirmMovePage({ managed, base, slot, form: formOf(managed, 'reschedule', token), chosen });
        if (`${day} ${query.time}` === bookedAt && chosen === managed.booking.scheduleId)
          return timesPage({ managed, base, day, slots });
        return timesPage({ managed, base, day, slots, notice: { kind: 'refused', why: 'taken' }, status: 409, chosen });
      }
      // Pages of free days, counted from the first; first the page with the booking's own day.
      const days = daysToMoveTo(ctx, managed, chosen);
      const from = typeof query.from === 'string' && isDay(query.from) ? query.from : bookedAt.slice(0, 10);
      const shown = pageOfDays(days, from);
      return daysPage({ managed, base, days: shown.days, pages: shown.pages, chosen });
    }
    // Nothing to do there (any more): the booking as it stands, and why.
    const why =
      managed.state !== 'open'
        ? managed.state
        : action !== 'reschedule'
          ? undefined
          : managed.movable
            ? 'no-reschedule'
            : 'not-movable';
    return overviewPage({
      managed,
      base,
      notice: notice ?? (action && why ? { kind: 'refused', why } : undefined),
      status,
    });
  };

  const post = async (
    managed: Managed,
    base: string,
    token: string,
    action: string,
    event: H3Event,
  ): Promise<Response> => {
    const form = await readPageForm(event, managed.settings.portal.url, FORM_LIMIT, options.bodyTimeoutMs);
    if ('why' in form) {
      if (form.why === 'cross-site')
        return pageAnswer(overviewPage({ managed, base, notice: { kind: 'refused', why: 'forbidden' }, status: 403 }));
      return pageAnswer(overviewPage({ managed, base, notice: { kind: 'refused', why: 'bad-input' }, status: 400 }), {
        connection: 'close',
      });
    }
    const sequence = checkedSequence(managed, action, token, form);
    if (sequence === undefined)
      return pageAnswer(overviewPage({ managed, base, notice: { kind: 'refused', why: 'forbidden' }, status: 403 }));
    // A date of a series: this one only (as any booking), or with the later ones (`scope=later`, issue 40).
    const later = action === 'cancel' && form.get('scope') === 'later';
    const outcome: Outcome =
      action !== 'cancel'
        ? customerMove(ctx, managed, sequence, form.get('slot') ?? '', scheduleOf(managed, form))
        : later
          ? customerCancelSeries(ctx, managed, sequence, form.get('reason') ?? '')
          : customerCancel(ctx, managed, sequence, form.get('reason') ?? '');
    if (outcome.ok) {
      options.afterChange();
      return seeOther(`${base}?done=${action === 'cancel' ? (later ? 'cancelled-series' : 'cancelled') : 'moved'}`);
    }
    // Refused: the page as it stands now (re-read: the refusal may be because it changed), with the reason.
    const now = openManaged(ctx, token) ?? managed;
    const notice: Notice = { kind: 'refused', why: outcome.refusal };
    const status = outcome.refusal === 'bad-input' || outcome.refusal === 'bad-reason' ? 400 : 409;
    if (outcome.refusal === 'taken' && now.mayMove) {
      const day = (form.get('slot') ?? '').slice(0, 10);
      const chosen = scheduleOf(now, form);
      const to = mayMoveTo(now, chosen) ? chosen : now.booking.scheduleId;
      return pageAnswer(
        timesPage({ managed: now, base, day, slots: slotsToMoveTo(ctx, now, day, to), notice, status, chosen: to }),
      );
    }
    if (outcome.refusal === 'bad-reason' && now.state === 'open')
      return pageAnswer(cancelPage({ managed: now, base, form: formOf(now, 'cancel', token), notice, status, later }));
    return pageAnswer(overviewPage({ managed: now, base, notice, status }));
  };

  const door = (event: H3Event): Promise<Response> | Response => {
    const settings = ctx.settings();
    const notFound = () => pageAnswer(notFoundPage(settings));
    const segments = event.url.pathname.split('/'); // ['', 'manage', token, action?]
    const token = segments[2] ?? '';
    const action = segments[3] ?? '';
    const method = event.req.method;
    const known = segments.length <= 4 && (action === '' || action === 'cancel' || action === 'reschedule');
    if (!settings.portal || token === '' || !known || !isCanonicalPath(event)) return notFound();
    if (method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && action !== '')) return notFound();

    // Every link is looked up; an address that sent 20 unknown ones this minute gets 429 for its further unknown
    // ones (src/http/door-guard.ts says why a real link from there still opens).
    const managed = openManaged(ctx, token);
    if (!managed) {
      const throttled = guard.unknown(options.clientAddress(event));
      if (!throttled) return notFound();
      const page = tooManyPage(settings, throttled.resetSeconds);
      return tooManyRequests(throttled, { content: page.html, headers: { ...PAGE_HEADERS, 'x-planner-page': 'page' } });
    }
    const base = manageUrlOf('', token);
    if (method === 'POST') return post(managed, base, token, action, event);
    const done = getQuery(event).done;
    // The notice of a change just made (Post/Redirect/Get), only where the booking shows that change.
    const shows =
      done === 'cancelled' || done === 'cancelled-series'
        ? managed.booking.status === 'cancelled'
        : done === 'moved' && managed.booking.sequence > 0;
    const notice: Notice | undefined =
      action === '' && shows ? { kind: 'done', what: done as 'cancelled' | 'cancelled-series' | 'moved' } : undefined;
    return pageAnswer(show(managed, base, token, action, event, notice));
  };

  return async (event: H3Event) => {
    try {
      return await door(event);
    } catch (error) {
      options.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      return pageAnswer(failedPage(ctx.settings()));
    }
  };
}
