/**
 * Booking on the public booking page, as one use case: what the page offers, the free times of a choice, the form's
 * fields and their problems, the abuse rules and the booking itself (what its confirmation shows:
 * page-confirmation.ts). The door (src/http/booking-page.ts) reads the form and the ticket it made, calls these and
 * answers; it decides no rule. Each function takes the page's state of one server process (`PageBooker`, for the rules
 * that count or read its clock) or only what it reads.
 *
 * The rules, in the order a form meets them: a form older than FORM_MAX_SECONDS (or from the future) is stale; a
 * form that booked already gets what it booked (sent twice, or back and again); a filled honeypot is refused; a form
 * sent sooner than `formMinSeconds` after it was made is refused; more than `perHour` bookings from one client
 * address in PER_HOUR_WINDOW_SECONDS (counted in this process's memory: a restart forgets them) get the 429 of every
 * door; and an e-mail address that holds `perEmail` future bookings (the same address: `emailKey`), counted under
 * the write lock, books no more. Both limits are checked already when the details are sent (`limitProblem`), so that
 * the door refuses on the form, with what was typed, not after the review. A booking made there is the API's
 * booking (createBooking: the same transaction, engine, mails, reminders and webhooks), made once per form (actOnce,
 * the form's key as its Idempotency-Key) with the source `page` and the actor `customer`.
 */
import type { FreeSlot } from '../../domain/availability.ts';
import { isSlotText } from '../../domain/dates.ts';
import type { FieldDefinition } from '../../domain/form.ts';
import { choicesIn, labelIn } from '../../domain/form.ts';
import { textIn } from '../../domain/languages.ts';
import type { Locale } from '../../domain/locales.ts';
import { occurrenceSlots } from '../../domain/series.ts';
import { checkSubmission } from '../../domain/submission.ts';
import { listFields } from '../../store/fields.ts';
import { keptAnswer } from '../../store/idempotency.ts';
import type { BookingPageSettings } from '../../store/settings.ts';
import { anySlotsOfDay, createAnyBooking, NoPractitionerFree } from '../bookings/any-practitioner.ts';
import { availabilityOf, availableSlots, SlotNotFree } from '../bookings/availability.ts';
import { createBooking } from '../bookings/create-booking.ts';
import { actOnce, fingerprintOf, KEY_LIFETIME_SECONDS } from '../bookings/idempotency.ts';
import { createSeries, planSeries, SeriesNotFree } from '../bookings/series.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { EMAIL_FIELD } from '../practice/fields.ts';
import { FORM_MAX_SECONDS, futureBookingsOf, PER_HOUR_WINDOW_SECONDS, pageOffers } from './booking-page.ts';

/** The schedule id of an "any practitioner" offer: none (ids start at 1). */
export const ANY_SCHEDULE = 0;

/**
 * One thing to book: a reason of a schedule; or, with `anyOf`, a reason offered by two or more of the page's
 * schedules, with whoever of them is free (`scheduleId` 0, its name the page's words for "any").
 */
export interface Offer {
  scheduleId: number;
  /** "Any practitioner": the schedules that may be chosen, in id order. */
  anyOf?: number[];
  scheduleName: string;
  reasonId: number;
  reasonName: string;
  description: string;
  minutes: number;
  /** The most weekly dates the page offers for it as a series (`reason set --series`); 0 or absent: none. */
  seriesMax?: number;
}

/** One date of a series the customer is choosing: its local time, and whether it is free now. */
export interface SeriesDate {
  /** `YYYY-MM-DD HH:MM:SS`, the first date's time of day. */
  local: string;
  free: boolean;
}

/**
 * What a form that asks to book a series comes to: as a single booking, or dates that are not free (nothing written).
 */
export type PageSeriesBooking = PageBooking | { booked: false; why: 'series-taken'; dates: SeriesDate[] };

/** The page's Idempotency-Keys are apart from the API's: an integrator's key can never replay a page's booking. */
const KEY_PREFIX = 'page:';

/** The form as the page made it: its key (the booking's Idempotency-Key) and when it was made (Unix seconds). */
export interface PageForm {
  key: string;
  issuedAt: number;
}

/** Why the page books nothing: each is one page, and nothing is written. */
export type PageRefusal =
  | { why: 'stale' } // the form is older than FORM_MAX_SECONDS: a fresh one is offered
  | { why: 'trap' } // the honeypot was filled in
  | { why: 'early' } // sent sooner than the shortest time a person takes
  | { why: 'per-hour'; limit: number; retryAfterSeconds: number } // too many bookings from this address in an hour
  | { why: 'per-email'; held: number; limit: number } // the address holds its share (limit) of future bookings
  | { why: 'taken' }; // the time was taken meanwhile (the one answer to it: SlotNotFree)

/** A limit that refuses what was typed: told on the form, with what was typed. */
export type LimitRefusal = Extract<PageRefusal, { why: 'per-hour' | 'per-email' }>;

/** What a form that asks to book comes to. */
export type PageBooking = { booked: true; reference: string; replayed: boolean } | ({ booked: false } & PageRefusal);

/**
 * The booking page of one server process: the context, the clock the rules read, the shortest time a form takes,
 * and the one thing it keeps, the times (ms) of the bookings made from each client address in the last
 * PER_HOUR_WINDOW_SECONDS.
 */
export interface PageBooker {
  ctx: AppContext;
  nowMs: () => number;
  formMinSeconds: number;
  recent: Map<string, number[]>;
}

/**
 * Makes the booking page's state for one process: `formMinSeconds` from the environment (app/operations/runtime.ts).
 */
export function createPageBooker(
  ctx: AppContext,
  options: { nowMs: () => number; formMinSeconds: number },
): PageBooker {
  return { ctx, nowMs: options.nowMs, formMinSeconds: options.formMinSeconds, recent: new Map() };
}

/** What a form asks to book: `slot` of `offer` for what was typed (`submission`), from the address `client`. */
export interface PageOrder {
  page: BookingPageSettings;
  form: PageForm;
  offer: Offer;
  slot: FreeSlot;
  submission: Record<string, unknown>;
  client: string;
  /** The customer's language, when they chose one or their browser asked for an offered one (else the practice's). */
  locale?: Locale;
}

/**
 * What the page offers: each bookable reason of its schedules, in order, named in `locale` (the practice's own text
 * where none is given for it); "any practitioner" first where shared.
 */
export function offersOf(ctx: AppContext, page: BookingPageSettings, locale: Locale): Offer[] {
  const single = pageOffers(ctx, page).flatMap(({ schedule, reasons }) =>
    reasons.map((reason) => ({
      scheduleId: schedule.id,
      scheduleName: schedule.name,
      reasonId: reason.id,
      reasonName: textIn(reason.name, reason.names, locale),
      description: textIn(reason.description, reason.descriptions, locale),
      minutes: reason.durationMinutes,
      seriesMax: reason.seriesMax,
    })),
  );
  return [...anyPractitionerOffers(single), ...single];
}

/**
 * The "any practitioner" offers of `single`: one per reason two or more of the page's schedules offer, for one date
 * only (a course, a series, is booked with one practitioner, as `bookings add any` refuses --repeat).
 */
function anyPractitionerOffers(single: readonly Offer[]): Offer[] {
  const shared = new Map<number, Offer & { anyOf: number[] }>();
  for (const offer of single) {
    const any = shared.get(offer.reasonId) ?? {
      ...offer,
      scheduleId: ANY_SCHEDULE,
      scheduleName: '',
      seriesMax: 0,
      anyOf: [],
    };
    any.anyOf.push(offer.scheduleId);
    shared.set(offer.reasonId, any);
  }
  return [...shared.values()].filter((offer) => offer.anyOf.length > 1);
}

/** The free times of `offer` on `day` (for "any practitioner", those of any of its schedules). */
export function slotsOf(ctx: AppContext, offer: Offer, day: string): FreeSlot[] {
  return offer.anyOf
    ? anySlotsOfDay(ctx, offer.reasonId, day, offer.anyOf)
    : availableSlots(ctx, offer.scheduleId, offer.reasonId, day);
}

/** The free time of `offer` at `local` (`YYYY-MM-DD HH:MM:SS`), if it is one. */
export function freeSlot(ctx: AppContext, offer: Offer, local: string): FreeSlot | undefined {
  if (!isSlotText(local)) return undefined;
  return slotsOf(ctx, offer, local.slice(0, 10)).find((slot) => slot.local === local);
}

/** The booking form's fields, labelled in `locale` (`labelIn`: the practice's own label where none is given). */
export function fieldsOf(ctx: AppContext, locale: Locale): FieldDefinition[] {
  const own = ctx.settings().locale;
  return listFields(ctx.store).map((field) => {
    const choiceTexts = choicesIn(field, locale);
    return { ...field, label: labelIn(field, locale, own), ...(choiceTexts ? { choiceTexts } : {}) };
  });
}

/** The submission as POST /bookings takes it (a checkbox: a boolean), and each field's problem (the API's rules). */
export function submissionOf(
  fields: readonly FieldDefinition[],
  values: Record<string, string>,
): { submission: Record<string, unknown>; errors: Record<string, string> } {
  const submission: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.formType === 'checkbox') submission[field.key] = values[field.key] === 'on';
    else if ((values[field.key] ?? '') !== '') submission[field.key] = values[field.key];
  }
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const one = checkSubmission(
      [field],
      Object.hasOwn(submission, field.key) ? { [field.key]: submission[field.key] } : {},
    );
    if (!one.ok) errors[field.key] = one.error;
  }
  return { submission, errors };
}

/** How old `form` is, in seconds (negative: made in the future, by another clock). */
function ageOf(booker: PageBooker, form: PageForm): number {
  return Math.floor(booker.nowMs() / 1000) - form.issuedAt;
}

/** Whether a form may go on at all: not stale (older than FORM_MAX_SECONDS, or more than a minute ahead). */
export function formProblem(booker: PageBooker, form: PageForm): { why: 'stale' } | undefined {
  const age = ageOf(booker, form);
  return age > FORM_MAX_SECONDS || age < -60 ? { why: 'stale' } : undefined;
}

/** Whether the honeypot (a field people do not see, `value` what came in it) gives the form away as a script's. */
export function trapProblem(value: string): { why: 'trap' } | undefined {
  return value !== '' ? { why: 'trap' } : undefined;
}

/** When a kept answer still counts: the Idempotency-Key's lifetime, back from now. */
function keptSince(ctx: AppContext): number {
  return unixSeconds(ctx.now()) - KEY_LIFETIME_SECONDS;
}

/** The reference this form booked already (sent twice, back and again), if it did. */
export function bookedBy(ctx: AppContext, form: PageForm): string | undefined {
  const kept = keptAnswer(ctx.store, KEY_PREFIX + form.key, keptSince(ctx));
  return kept ? (JSON.parse(kept.body) as { reference: string }).reference : undefined;
}

/** The times (ms) of the bookings made from `client` within the window of the per-hour limit. */
function lastHour(booker: PageBooker, client: string): number[] {
  const since = booker.nowMs() - PER_HOUR_WINDOW_SECONDS * 1000;
  return (booker.recent.get(client) ?? []).filter((at) => at > since);
}

/** The refusal of one booking more from an address that made `mine` in the window, when they are `page.perHour`. */
function perHourRefusal(
  booker: PageBooker,
  page: BookingPageSettings,
  mine: readonly number[],
): LimitRefusal | undefined {
  if (mine.length < page.perHour) return undefined;
  const endsAt = mine[0]! + PER_HOUR_WINDOW_SECONDS * 1000;
  return {
    why: 'per-hour',
    limit: page.perHour,
    retryAfterSeconds: Math.max(1, Math.ceil((endsAt - booker.nowMs()) / 1000)),
  };
}

/** The e-mail address typed in `submission`, or '' when none was. */
export function emailOf(submission: Record<string, unknown>): string {
  return typeof submission[EMAIL_FIELD] === 'string' ? (submission[EMAIL_FIELD] as string) : '';
}

/**
 * Whether a limit refuses `submission` from `client`, checked as soon as the details are sent (before the review):
 * the bookings from the address in the last hour, and the future bookings the e-mail address holds (`book` checks it
 * again under the write lock).
 */
export function limitProblem(
  booker: PageBooker,
  page: BookingPageSettings,
  submission: Record<string, unknown>,
  client: string,
): LimitRefusal | undefined {
  const hour = perHourRefusal(booker, page, lastHour(booker, client));
  if (hour) return hour;
  const email = emailOf(submission);
  const held = email ? futureBookingsOf(booker.ctx, email) : 0;
  return held >= page.perEmail ? { why: 'per-email', held, limit: page.perEmail } : undefined;
}

/**
 * Counts a booking just made from `client` (`mine`: its others in the window); past 10,000 addresses, drops the idle.
 */
function countBooking(booker: PageBooker, client: string, mine: number[]): void {
  const windowStart = booker.nowMs() - PER_HOUR_WINDOW_SECONDS * 1000;
  mine.push(booker.nowMs());
  booker.recent.set(client, mine);
  if (booker.recent.size > 10_000)
    for (const [key, times] of booker.recent) if (times.every((at) => at <= windowStart)) booker.recent.delete(key);
}

/**
 * How a booking on the page is written: its fingerprint, `make` (books, returns the reference), the core's refusals.
 */
interface PageWrite<R> {
  fingerprint: string;
  make: () => string;
  /** What a refusal of the core becomes (undefined: not a refusal, thrown on). */
  refused: (error: unknown) => R | undefined;
}

/**
 * Books on the page once per form (its key as an Idempotency-Key): the form's age and the address's hourly limit,
 * then under the write lock the address's future bookings and `write.make` once for the form's key.
 */
function bookOnce<R extends PageSeriesBooking>(
  booker: PageBooker,
  order: PageOrder,
  write: PageWrite<R>,
): PageBooking | R {
  if (ageOf(booker, order.form) < booker.formMinSeconds) return { booked: false, why: 'early' };
  const mine = lastHour(booker, order.client);
  const hour = perHourRefusal(booker, order.page, mine);
  if (hour) return { booked: false, ...hour };
  let outcome: { body: string; replayed: boolean } | { held: number };
  try {
    outcome = writeOnce(booker, order, write);
  } catch (error) {
    const answer = write.refused(error);
    if (answer) return answer;
    throw error;
  }
  if ('held' in outcome) return { booked: false, why: 'per-email', held: outcome.held, limit: order.page.perEmail };
  if (!outcome.replayed) countBooking(booker, order.client, mine);
  const { reference } = JSON.parse(outcome.body) as { reference: string };
  return { booked: true, reference, replayed: outcome.replayed };
}

/**
 * Under the write lock: the e-mail address's share of future bookings (another tab may have booked), then the booking.
 */
function writeOnce<R>(
  booker: PageBooker,
  order: PageOrder,
  write: PageWrite<R>,
): { body: string; replayed: boolean } | { held: number } {
  const { ctx } = booker;
  const key = KEY_PREFIX + order.form.key;
  const email = emailOf(order.submission);
  return ctx.store.tx(() => {
    const held = email ? futureBookingsOf(ctx, email) : 0;
    if (held >= order.page.perEmail && !keptAnswer(ctx.store, key, keptSince(ctx))) return { held };
    return actOnce(ctx, key, write.fingerprint, () => JSON.stringify({ reference: write.make() }));
  });
}

/**
 * Books `order.slot` of `order.offer` for what was typed, unless a rule refuses it (checked before anything is
 * written; the per-e-mail rule under the write lock). `order.client`: the client's address, as every door counts it.
 */
export function book(booker: PageBooker, order: PageOrder): PageBooking {
  const { ctx } = booker;
  const { offer } = order;
  const made = {
    scheduleId: offer.scheduleId,
    reasonId: offer.reasonId,
    slot: order.slot.local,
    submission: order.submission,
  };
  const among = offer.anyOf;
  return bookOnce(booker, order, {
    fingerprint: fingerprintOf(JSON.stringify(made)),
    make: () =>
      (among
        ? createAnyBooking(ctx, { ...made, among }, 'page', 'customer', { locale: order.locale })
        : createBooking(ctx, made, 'page', 'customer', { locale: order.locale })
      ).reference,
    refused: (error) =>
      error instanceof SlotNotFree || error instanceof NoPractitionerFree ? { booked: false, why: 'taken' } : undefined,
  });
}

/**
 * How many weekly dates the customer asked for (`text`, the form's `weeks`), when `offer` allows that many: 1 (a
 * single booking, also when nothing was sent) to its `seriesMax`; undefined for anything else.
 */
export function weeksOf(offer: Offer, text: unknown): number | undefined {
  if (text === undefined || text === '') return 1;
  const weeks = typeof text === 'string' && /^\d{1,2}$/.test(text) ? Number(text) : 0;
  return weeks >= 1 && weeks <= Math.max(1, offer.seriesMax ?? 0) ? weeks : undefined;
}

/** The `weeks` weekly dates from `slot` (the first), each with whether it is free now (the engine, one read). */
export function seriesDates(ctx: AppContext, offer: Offer, slot: FreeSlot, weeks: number): SeriesDate[] {
  const slots = occurrenceSlots(slot.local, 7, weeks);
  const { input } = availabilityOf(ctx, offer.scheduleId, offer.reasonId);
  const { notFree } = planSeries(ctx, input, offer.scheduleId, slots);
  const taken = new Set(notFree.map((date) => date.slot));
  return slots.map((local) => ({ local, free: !taken.has(local) }));
}

/**
 * Books `weeks` weekly dates from `order.slot` as one series (createSeries: all of them or none), with the rules of
 * `book` (a series counts as one booking for the limits); when a date is no longer free, each date and whether it is.
 */
export function bookSeries(booker: PageBooker, order: PageOrder, weeks: number): PageSeriesBooking {
  const { offer, slot } = order;
  const made = {
    scheduleId: offer.scheduleId,
    reasonId: offer.reasonId,
    slot: slot.local,
    submission: order.submission,
  };
  return bookOnce(booker, order, {
    fingerprint: fingerprintOf(JSON.stringify({ ...made, weeks })),
    // The answer kept for the form: the first date's reference (its confirmation shows every date).
    make: () =>
      createSeries(booker.ctx, { ...made, intervalDays: 7, count: weeks, skipTaken: false }, 'page', 'customer', {
        locale: order.locale,
      }).bookings[0]!.reference,
    refused: (error) => {
      if (!(error instanceof SeriesNotFree)) return undefined;
      const taken = new Set(error.dates.map((date) => date.slot));
      const dates = occurrenceSlots(slot.local, 7, weeks).map((local) => ({ local, free: !taken.has(local) }));
      return { booked: false, why: 'series-taken', dates };
    },
  });
}
