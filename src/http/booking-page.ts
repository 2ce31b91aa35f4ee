/**
 * The public booking page's door (issue 27): `/book/…`, outside the `/api` gates, HTML only, no script and no
 * cookie, so it works with JavaScript off and in a third-party frame. Steps: `/book/` (what), `/book/days`,
 * `/book/times` (GET), `/book/details` (GET fresh; POST with what was typed), `/book/review` and `/book/confirm`
 * (POST), and `/book/event/<reference>.ics?k=…` (the confirmation's calendar file).
 *
 * A form carries a ticket the page made: a random key, the time it was made, and an HMAC of both under the page
 * secret (form-guard.ts). The key is the booking's Idempotency-Key, so a form sent twice books once. Abuse is held
 * off before anything is written: a form from another site, a ticket not made here, a form sent sooner than 3 s or
 * later than 2 h after it was made, a filled honeypot, more than `perHour` bookings from one address in an hour
 * (the address as the self-service page counts it: trusted proxies only), or an e-mail address that holds
 * `perEmail` future bookings. Each refusal is one page, and changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { getQuery, type H3Event } from 'h3';
import { SlotNotFree, availableSlots } from '../app/availability.ts';
import { findReason } from '../store/reasons.ts';
import { futureBookingsOf, FORM_MAX_SECONDS, FORM_MIN_SECONDS, pageOffers } from '../app/booking-page.ts';
import { bookingFacts } from '../app/booking-facts.ts';
import type { AppContext } from '../app/context.ts';
import { unixSeconds } from '../app/context.ts';
import { requireConfigured } from '../app/configured.ts';
import type { DaysCache } from '../app/days-cache.ts';
import { EMAIL_FIELD } from '../app/fields.ts';
import { fingerprintOf } from '../app/idempotency.ts';
import { bookOnce, KEY_LIFETIME_SECONDS } from '../app/idempotency.ts';
import { formatLocal, isDay, isSlotText } from '../domain/dates.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { checkSubmission } from '../domain/submission.ts';
import type { FieldDefinition } from '../domain/form.ts';
import { bookingIcs } from '../mail/calendar.ts';
import { manageActionAt } from '../mail/messages.ts';
import { findBooking } from '../store/bookings.ts';
import { listFields } from '../store/fields.ts';
import { keptAnswer } from '../store/idempotency.ts';
import { createManageToken } from '../store/manage-links.ts';
import type { BookingPageSettings, Settings } from '../store/settings.ts';
import { BOOK_WORDS } from '../portal/book-words.ts';
import {
  carry,
  choosePage,
  daysPage,
  detailsPage,
  donePage,
  fieldName,
  notOfferedPage,
  refusedPage,
  reviewPage,
  timesPage,
  TRAP_NAME,
  typedFields,
  type BookView,
  type Entry,
  type FormTicket,
  type Offer,
} from '../portal/book-pages.ts';
import { failedPage, notFoundPage, pageOfDays, type Page } from '../portal/pages.ts';
import { readBodyText } from './body.ts';
import { formToken, isCrossSite, isFormToken } from './form-guard.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';
import { pageAnswer, pageHeaders } from './page-answer.ts';
import { tooManyRequests } from './errors.ts';

/** Largest form body: every field at its longest (a textarea of 5,000 characters), percent-encoded. */
const FORM_LIMIT = 65_536;
/** The page's Idempotency-Keys are apart from the API's: an integrator's key can never replay a page's booking. */
const KEY_PREFIX = 'page:';
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

type Answer = Response | Promise<Response>;

/** Returns the handler of every request whose path is `/book` or under `/book/`. */
export function createBookingPageDoor(options: BookingPageDoorOptions): (event: H3Event) => Promise<Response> {
  const { ctx, nowMs } = options;
  const minSeconds = options.formMinSeconds ?? FORM_MIN_SECONDS;
  /** The times (ms) of the bookings made from each address in the last hour. */
  const recent = new Map<string, number[]>();

  const answer = (page: Page, settings: Settings, extra: Record<string, string> = {}): Response =>
    pageAnswer(page, extra, pageHeaders(settings.bookingPage?.embedFrom ?? []));

  const viewOf = (settings: Settings, page: BookingPageSettings, offers: Offer[]): BookView => ({
    practice: { ...settings, practiceName: settings.practiceName ?? '' },
    privacyUrl: page.privacyUrl,
    manyOffers: offers.length > 1,
  });

  const offersOf = (page: BookingPageSettings): Offer[] =>
    pageOffers(ctx, page).flatMap(({ schedule, reasons }) =>
      reasons.map((reason) => ({
        scheduleId: schedule.id,
        scheduleName: schedule.name,
        reasonId: reason.id,
        reasonName: reason.name,
        description: reason.description,
        minutes: reason.durationMinutes,
      })),
    );

  const ticketFor = (secret: string): FormTicket => {
    const key = randomBytes(16).toString('base64url');
    const issued = String(Math.floor(nowMs() / 1000));
    return { key, issued, sig: formToken(secret, ['book', key, issued]) };
  };
  const ticketIn = (secret: string, form: URLSearchParams): FormTicket | undefined => {
    const ticket = { key: form.get('key') ?? '', issued: form.get('issued') ?? '', sig: form.get('sig') ?? '' };
    return /^[A-Za-z0-9_-]{22}$/.test(ticket.key) && /^\d{1,12}$/.test(ticket.issued) && isFormToken(secret, ['book', ticket.key, ticket.issued], ticket.sig) ? ticket : undefined;
  };

  /** What was typed, by field key, from a posted form (a checkbox: 'on' or absent). */
  const typedIn = (fields: FieldDefinition[], form: URLSearchParams): Record<string, string> =>
    Object.fromEntries(fields.flatMap((field) => (form.has(fieldName(field.key)) ? [[field.key, form.get(fieldName(field.key))!]] : [])));

  /** The submission as POST /bookings takes it (a checkbox: a boolean), and each field's problem (the API's rules). */
  const submissionOf = (fields: FieldDefinition[], values: Record<string, string>) => {
    const submission: Record<string, unknown> = {};
    for (const field of fields) {
      if (field.formType === 'checkbox') submission[field.key] = values[field.key] === 'on';
      else if ((values[field.key] ?? '') !== '') submission[field.key] = values[field.key];
    }
    const errors: Record<string, string> = {};
    for (const field of fields) {
      const one = checkSubmission([field], Object.hasOwn(submission, field.key) ? { [field.key]: submission[field.key] } : {});
      if (!one.ok) errors[field.key] = one.error;
    }
    return { submission, errors };
  };

  const door = async (event: H3Event): Promise<Response> => {
    const settings = ctx.settings();
    const page = settings.bookingPage;
    const notFound = () => answer(notFoundPage(settings), settings);
    if (!settings.timeZone || !settings.practiceName || !settings.notifyEmail) return notFound(); // not set up (init)
    // Off (or not served: no public address): say so, and how to reach the practice; not "link not valid".
    if (!page || !settings.portal || !settings.portalSecret) {
      return answer(notOfferedPage({ ...settings, practiceName: settings.practiceName, notifyEmail: settings.notifyEmail }), settings);
    }
    // The page's home is `/book/` (as it is linked) or `/book`; every other path without a trailing slash or `..`.
    if (event.url.pathname !== '/book/' && !isCanonicalPath(event)) return notFound();
    const secret = settings.portalSecret;
    const path = event.url.pathname.replace(/\/$/, '') || '/book';
    const method = event.req.method;
    const offers = offersOf(page);
    const view = viewOf(settings, page, offers);
    const words = BOOK_WORDS[settings.locale];
    const show = (shown: Page, extra?: Record<string, string>) => answer(shown, settings, extra);
    const refuse = (text: string, status: number, extra?: Record<string, string>) => show(refusedPage(view, text, status), extra);
    const offerOf = (schedule: unknown, reason: unknown): Offer | undefined => {
      const s = typeof schedule === 'string' ? parsePlainInt(schedule) : undefined;
      const r = typeof reason === 'string' ? parsePlainInt(reason) : undefined;
      return offers.find((offer) => offer.scheduleId === s && offer.reasonId === r);
    };
    const slotsOf = (offer: Offer, day: string) => availableSlots(ctx, offer.scheduleId, offer.reasonId, day);
    const freeSlot = (offer: Offer, local: string) => (isSlotText(local) ? slotsOf(offer, local.slice(0, 10)).find((slot) => slot.local === local) : undefined);
    const fields = () => listFields(ctx.store);

    if (method === 'GET' || method === 'HEAD') {
      const query = getQuery(event);
      if (path === '/book') {
        if (offers.length === 1) return show(daysOf(view, offers[0]!, undefined));
        return show(choosePage(view, offers));
      }
      if (path.startsWith('/book/event/')) return calendarFile(event, settings);
      const gone = () => refuse(words.notFound, 404);
      const offer = offerOf(query.schedule, query.reason);
      if (!offer) return gone();
      if (path === '/book/days') return show(daysOf(view, offer, typeof query.from === 'string' && isDay(query.from) ? query.from : undefined));
      const day = typeof query.day === 'string' && isDay(query.day) ? query.day : undefined;
      if (!day) return gone();
      if (path === '/book/times') return show(timesPage(view, offer, day, slotsOf(offer, day)));
      if (path === '/book/details') {
        const time = typeof query.time === 'string' ? query.time : '';
        const slots = slotsOf(offer, day);
        if (time === '') return show(timesPage(view, offer, day, slots, { notice: words.chooseTime, status: 400 }));
        const slot = slots.find((one) => one.local === `${day} ${time}:00`);
        if (!slot) return show(timesPage(view, offer, day, slots, { notice: words.refusal.gone, status: 409 }));
        return show(detailsPage(view, offer, slot, fields(), { values: null, errors: {} }, ticketFor(secret)));
      }
      return gone();
    }
    if (method !== 'POST' || !['/book/details', '/book/review', '/book/confirm'].includes(path)) return notFound();

    // Every form: from this site, a body we can read, a ticket made here and not too old, and a time still offered.
    if (isCrossSite(event.req.headers, settings.portal.url)) return refuse(words.refusal.forbidden, 403);
    const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return refuse(words.refusal.unreadable, 415);
    const text = await readBodyText(event, FORM_LIMIT, options.bodyTimeoutMs);
    // Too large (413), too slow or cut off: the body was not read to its end, so the connection closes.
    if (typeof text !== 'string') return refuse(words.refusal.unreadable, text.status, { connection: 'close' });
    const form = new URLSearchParams(text);
    const ticket = ticketIn(secret, form);
    if (!ticket) return refuse(words.refusal.ticket, 403);
    const age = Math.floor(nowMs() / 1000) - Number(ticket.issued);
    if (age > FORM_MAX_SECONDS || age < -60) return refuse(words.refusal.stale, 400);
    // This form has booked (sent twice, or back and again): what it booked, also if the offer has gone since.
    const kept = keptAnswer(ctx.store, KEY_PREFIX + ticket.key, unixSeconds(ctx.now()) - KEY_LIFETIME_SECONDS);
    if (kept) return done(view, settings, kept.body, true);
    const offer = offerOf(form.get('schedule') ?? '', form.get('reason') ?? '');
    if (!offer) return refuse(words.refusal.gone, 409);
    const formFields = fields();
    const values = typedIn(formFields, form);
    // The times page after a time was taken sends day and time; the review's "change" sends the slot.
    const local = form.get('slot') ?? `${form.get('day') ?? ''} ${form.get('time') ?? ''}:00`;
    const day = local.slice(0, 10);
    // Back to a day's times, keeping what was typed and the ticket (the same form, so still one booking), with the
    // other free days to choose from in a form: asked for ("another time" or "another day"), or the time was taken.
    const timesAgain = (notice?: string, status?: number) =>
      show(timesPage(view, offer, day, slotsOf(offer, day), { carried: { ...typedFields(formFields, values), ...ticket }, otherDays: daysNear(offer, day), ...(notice ? { notice, status } : {}) }));
    if (path === '/book/details' && form.get('change') === 'day') return isDay(day) ? timesAgain() : refuse(words.refusal.gone, 409);
    const slot = freeSlot(offer, local);
    if (!slot) {
      if (!isDay(day)) return refuse(words.refusal.gone, 409);
      const chose = path === '/book/details' && form.get('time') === null && form.get('slot') === null;
      return chose ? timesAgain(words.chooseTime, 400) : timesAgain(words.refusal.taken, 409);
    }
    if (path === '/book/details') return show(detailsPage(view, offer, slot, formFields, { values, errors: {} }, ticket));
    if ((form.get(TRAP_NAME) ?? '') !== '') return refuse(words.refusal.trap, 400);
    const { submission, errors } = submissionOf(formFields, values);
    const entry: Entry = { values, errors: Object.fromEntries(Object.entries(errors).map(([key, error]) => [key, words.errors[error] ?? error])) };
    if (Object.keys(errors).length > 0) return show(detailsPage(view, offer, slot, formFields, entry, ticket, 400));
    if (path === '/book/review') return show(reviewPage(view, offer, slot, formFields, values, ticket));

    // The booking. Refused before anything is written: too fast, too many from this address or for this e-mail.
    if (age < minSeconds) return refuse(words.refusal.early, 400);
    const address = options.clientAddress(event);
    const hourAgo = nowMs() - 3_600_000;
    const mine = (recent.get(address) ?? []).filter((at) => at > hourAgo);
    if (mine.length >= page.perHour) {
      // The 429 of every door (tooManyRequests: Retry-After and the rate-limit fields), over the page's hour.
      const seconds = Math.max(1, Math.ceil((mine[0]! + 3_600_000 - nowMs()) / 1000));
      const refused = refusedPage(view, words.refusal.perHour(Math.ceil(seconds / 60)), 429);
      const policy = { name: 'bookings-per-hour', limit: page.perHour, resetSeconds: seconds, windowSeconds: 3600 };
      return tooManyRequests(policy, { content: refused.html, headers: { ...pageHeaders(page.embedFrom), 'x-planner-page': 'page' } });
    }
    const email = typeof submission[EMAIL_FIELD] === 'string' ? (submission[EMAIL_FIELD] as string) : '';
    const order = { scheduleId: offer.scheduleId, reasonId: offer.reasonId, slot: slot.local, submission };
    const fingerprint = fingerprintOf(JSON.stringify(order));
    let outcome: { body: string; replayed: boolean } | { refusedFor: number };
    try {
      outcome = ctx.store.tx(() => {
        // Under the write lock: another tab of the same customer may have booked meanwhile.
        const held = email ? futureBookingsOf(ctx, email) : 0;
        if (held >= page.perEmail && !keptAnswer(ctx.store, KEY_PREFIX + ticket.key, unixSeconds(ctx.now()) - KEY_LIFETIME_SECONDS)) return { refusedFor: held };
        return bookOnce(ctx, order, KEY_PREFIX + ticket.key, fingerprint, (created) => JSON.stringify({ reference: created.reference }), 'customer');
      });
    } catch (error) {
      if (error instanceof SlotNotFree) return timesAgain(words.refusal.taken, 409);
      throw error;
    }
    if ('refusedFor' in outcome) return refuse(words.refusal.perEmail(outcome.refusedFor), 409);
    if (!outcome.replayed) {
      mine.push(nowMs());
      recent.set(address, mine);
      if (recent.size > 10_000) for (const [key, times] of recent) if (times.every((at) => at <= hourAgo)) recent.delete(key);
      options.afterBooking();
    }
    return done(view, settings, outcome.body, outcome.replayed);
  };

  /** The days step of `offer`: the page of free days that holds `from` (else the first), from the days cache. */
  function daysOf(view: BookView, offer: Offer, from: string | undefined): Page {
    const shown = pageOfDays(options.daysCache.days(ctx, offer.scheduleId, offer.reasonId), from);
    return daysPage(view, offer, shown.days, shown.pages);
  }

  /** Up to a month of `offer`'s free days around `day`, from the days cache: the choice of another day. */
  function daysNear(offer: Offer, day: string): string[] {
    const days = options.daysCache.days(ctx, offer.scheduleId, offer.reasonId);
    const at = days.findIndex((one) => one >= day);
    const start = Math.max(0, Math.min((at < 0 ? days.length : at) - 7, days.length - OTHER_DAYS));
    return days.slice(start, start + OTHER_DAYS);
  }

  /** The confirmation of the booking whose kept answer is `body`: its facts, calendar links and a self-service link. */
  function done(view: BookView, settings: Settings, body: string, replayed: boolean): Response {
    const { reference } = JSON.parse(body) as { reference: string };
    const booking = findBooking(ctx.store, reference)!;
    const now = unixSeconds(ctx.now());
    // Written now: a booking made inside the deadline gets no link (the confirmation shows the phone instead).
    const action = manageActionAt(settings.portal, { startAt: booking.startAt, cancelled: booking.status === 'cancelled' }, now, now);
    // The link is made for this answer, as the mail makes its own: the token exists in clear only here. Once: a form
    // sent again is pointed to the mail (no new link per resend).
    const manageUrl = action.kind === 'link' && !replayed ? `${settings.portal!.url}/manage/${createManageToken(ctx.store, booking.id, ctx.now().toISOString())}` : undefined;
    const utc = (at: number) => new Date(at * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const title = `${booking.reasonName} · ${settings.practiceName ?? ''}`;
    const google = `https://calendar.google.com/calendar/render?${new URLSearchParams({ action: 'TEMPLATE', text: title, dates: `${utc(booking.startAt)}/${utc(booking.endAt)}`, details: booking.reference, location: settings.address })}`;
    const outlook = `https://outlook.live.com/calendar/0/action/compose?${new URLSearchParams({ subject: title, startdt: new Date(booking.startAt * 1000).toISOString(), enddt: new Date(booking.endAt * 1000).toISOString(), body: booking.reference, location: settings.address })}`;
    const ics = `/book/event/${booking.reference}.ics?k=${formToken(settings.portalSecret!, ['ics', booking.reference])}`;
    // From the booking itself: its reason or schedule may have been removed since (`--force` keeps the bookings).
    const offer: Offer = {
      scheduleId: booking.scheduleId,
      scheduleName: booking.scheduleName,
      reasonId: booking.reasonId,
      reasonName: booking.reasonName,
      description: '',
      minutes: Math.round((booking.endAt - booking.startAt) / 60),
    };
    const local = `${formatLocal(new Date(booking.startAt * 1000), settings.timeZone!)}:00`; // a slot's local text
    const email = typeof booking.submission[EMAIL_FIELD] === 'string' ? (booking.submission[EMAIL_FIELD] as string) : '';
    return answer(donePage(view, { offer, local, reference: booking.reference, email, calendar: { google, outlook, ics }, ...(manageUrl ? { manageUrl } : {}), replayed }), settings);
  }

  /** `/book/event/<reference>.ics?k=<HMAC of the reference>`: the confirmation's calendar file. */
  function calendarFile(event: H3Event, settings: Settings): Response {
    const match = /^\/book\/event\/([23456789A-Z]{16})\.ics$/.exec(event.url.pathname);
    const key = getQuery(event).k;
    const booking = match && typeof key === 'string' && isFormToken(settings.portalSecret!, ['ics', match[1]!], key) ? findBooking(ctx.store, match[1]!) : undefined;
    if (!booking) return answer(notFoundPage(settings), settings);
    const facts = bookingFacts(requireConfigured(ctx), booking, findReason(ctx.store, booking.reasonId)?.description ?? '', listFields(ctx.store));
    const text = bookingIcs(facts, unixSeconds(ctx.now()), booking.sequence, booking.status === 'cancelled' ? 'CANCEL' : 'REQUEST');
    return new Response(text, {
      status: 200,
      headers: {
        ...pageHeaders(settings.bookingPage?.embedFrom ?? []),
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': 'attachment; filename="appointment.ics"',
      },
    });
  }

  return async (event: H3Event) => {
    const started = performance.now();
    let response: Response;
    try {
      response = await door(event);
    } catch (error) {
      options.log(`planner: ${event.req.method} ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      response = answer(failedPage(ctx.settings()), ctx.settings());
    }
    // As every API answer: the page's own time (the benchmark's row 10 reads it).
    response.headers.set('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}`);
    return response;
  };
}
