/**
 * Booking on the public booking page (issue 27), as one use case (issue 37): what the page offers, the free times of
 * a choice, the form's fields and their problems, the abuse rules, the booking itself, and what the confirmation and
 * its calendar file show. The door (src/http/booking-page.ts) reads the form and the ticket it made, calls these and
 * answers; it decides no rule.
 *
 * The rules, in the order a form meets them: a form older than FORM_MAX_SECONDS (or from the future) is stale; a
 * form that booked already gets what it booked (sent twice, or back and again); a filled honeypot is refused; a form
 * sent sooner than `formMinSeconds` after it was made is refused; more than `perHour` bookings from one client
 * address in an hour (counted in this process's memory: a restart forgets them) get the 429 of every door; and an
 * e-mail address that holds `perEmail` future bookings (the same address: `emailKey`), counted under the write lock,
 * books no more. Both limits are checked already when the details are sent (`limitProblem`, issue 41, item 1), so
 * that the door refuses on the form, with what was typed, before the review. A booking made there is the API's
 * booking (createBooking: the same transaction, engine, mails, reminders and webhooks), made once per form (actOnce,
 * the form's key as its Idempotency-Key) with the source `page` and the actor `customer`.
 */
import type { FreeSlot } from '../../domain/availability.ts';
import { formatLocal, isSlotText } from '../../domain/dates.ts';
import { manageUrlOf } from '../../domain/manage-url.ts';
import type { FieldDefinition } from '../../domain/form.ts';
import { checkSubmission } from '../../domain/submission.ts';
import type { BookingFacts } from '../../mail/facts.ts';
import { bookingIcs, eventDetails, eventLocation } from '../../mail/calendar.ts';
import { manageActionAt } from '../../mail/messages.ts';
import { findBooking, type Booking } from '../../store/bookings.ts';
import { listFields } from '../../store/fields.ts';
import { keptAnswer } from '../../store/idempotency.ts';
import { createManageToken } from '../../store/manage-links.ts';
import { findReason } from '../../store/reasons.ts';
import type { BookingPageSettings, Settings } from '../../store/settings.ts';
import { availableSlots, SlotNotFree } from '../bookings/availability.ts';
import { bookingFacts } from '../bookings/booking-facts.ts';
import { FORM_MAX_SECONDS, futureBookingsOf, pageOffers } from './booking-page.ts';
import { requireConfigured } from '../practice/configured.ts';
import { unixSeconds, type AppContext } from '../context.ts';
import { EMAIL_FIELD } from '../practice/fields.ts';
import { actOnce, fingerprintOf, KEY_LIFETIME_SECONDS } from '../bookings/idempotency.ts';
import { createBooking } from '../bookings/create-booking.ts';
import { anySlotsOfDay, createAnyBooking, NoPractitionerFree } from '../bookings/any-practitioner.ts';
import { availabilityOf } from '../bookings/availability.ts';
import { createSeries, planSeries, seriesOfBooking, SeriesNotFree } from '../bookings/series.ts';
import { occurrenceSlots } from '../../domain/series.ts';

/** The schedule id of an "any practitioner" offer: none (ids start at 1). */
export const ANY_SCHEDULE = 0;

/**
 * One thing to book: a reason of a schedule; or, with `anyOf`, a reason offered by two or more of the page's
 * schedules, with whoever of them is free (issue 40: `scheduleId` 0, its name the page's words for "any").
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
  /** The most weekly dates the page offers for it as a series (`reason set --series`, issue 40); 0 or absent: none. */
  seriesMax?: number;
}

/** One date of a series the customer is choosing (issue 40): its local time, and whether it is free now. */
export interface SeriesDate {
  /** `YYYY-MM-DD HH:MM:SS`, the first date's time of day. */
  local: string;
  free: boolean;
}

/** What a form that asks to book a series comes to: as a single booking, or dates that are not free (nothing written). */
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
  | { why: 'per-email'; held: number } // the address holds its share of future bookings
  | { why: 'taken' }; // the time was taken meanwhile (the one answer to it: SlotNotFree)

/** A limit that refuses what was typed: told on the form, with what was typed (issue 41, item 1). */
export type LimitRefusal = Extract<PageRefusal, { why: 'per-hour' | 'per-email' }>;

/** What a form that asks to book comes to. */
export type PageBooking = { booked: true; reference: string; replayed: boolean } | ({ booked: false } & PageRefusal);

/** What the confirmation shows of a booking. */
export interface PageConfirmation {
  booking: Booking;
  /** The slot's local text (`YYYY-MM-DD HH:MM:SS`). */
  local: string;
  offer: Offer;
  email: string;
  /** A self-service link made for this answer only (the page is on, the deadline ahead, the form not sent again). */
  manageUrl?: string;
  /**
   * When the booking is the first date of a series (issue 40): every date of it, by start, its status and its
   * reference (each date's calendar file is its own booking's, `eventFile`).
   */
  series?: { local: string; status: Booking['status']; reference: string }[];
  /** Its token, for the calendar file's link (`eventFile`), which then carries the self-service link too. */
  manageToken?: string;
  /** Google's and Outlook's "add to calendar" links. */
  calendar: { google: string; outlook: string };
}

/** The booking page of one server process: its rules, and the bookings per address it counts in memory. */
export interface PageBooker {
  /** What the page offers: each bookable reason of its schedules, in order. */
  offers(page: BookingPageSettings): Offer[];
  /** The free times of `offer` on `day`. */
  slotsOf(offer: Offer, day: string): FreeSlot[];
  /** The free time of `offer` at `local` (`YYYY-MM-DD HH:MM:SS`), if it is one. */
  freeSlot(offer: Offer, local: string): FreeSlot | undefined;
  /** The booking form's fields. */
  fields(): FieldDefinition[];
  /** The submission as POST /bookings takes it (a checkbox: a boolean), and each field's problem (the API's rules). */
  submissionOf(
    fields: FieldDefinition[],
    values: Record<string, string>,
  ): { submission: Record<string, unknown>; errors: Record<string, string> };
  /** Whether a form may go on at all: not stale. */
  formProblem(form: PageForm): { why: 'stale' } | undefined;
  /** Whether the honeypot (a field people do not see, `value` what came in it) gives the form away as a script's. */
  trapProblem(value: string): { why: 'trap' } | undefined;
  /** The reference this form booked already (sent twice, back and again), if it did. */
  bookedBy(form: PageForm): string | undefined;
  /**
   * Whether a limit refuses `submission` from `client`, checked as soon as the details are sent (issue 41, item 1:
   * they refused only after the review): the bookings from the address in the last hour, and the future bookings
   * the e-mail address holds (`book` checks it again under the write lock).
   */
  limitProblem(
    page: BookingPageSettings,
    submission: Record<string, unknown>,
    client: string,
  ): LimitRefusal | undefined;
  /**
   * Books `slot` of `offer` for what was typed, unless a rule refuses it (checked before anything is written; the
   * per-e-mail rule under the write lock). `client`: the client's address, as every door counts it.
   */
  book(
    page: BookingPageSettings,
    form: PageForm,
    offer: Offer,
    slot: FreeSlot,
    submission: Record<string, unknown>,
    client: string,
  ): PageBooking;
  /**
   * How many weekly dates the customer asked for (`text`, the form's `weeks`), when `offer` allows that many: 1 (a
   * single booking, also when nothing was sent) to its `seriesMax`; undefined for anything else.
   */
  weeksOf(offer: Offer, text: unknown): number | undefined;
  /** The `weeks` weekly dates from `slot` (the first), each with whether it is free now (the engine, one read). */
  seriesDates(offer: Offer, slot: FreeSlot, weeks: number): SeriesDate[];
  /**
   * Books `weeks` weekly dates from `slot` as one series (createSeries: all of them or none), with the rules of `book`
   * (a series counts as one booking for the limits); when a date is no longer free, each date and whether it is.
   */
  bookSeries(
    page: BookingPageSettings,
    form: PageForm,
    offer: Offer,
    slot: FreeSlot,
    weeks: number,
    submission: Record<string, unknown>,
    client: string,
  ): PageSeriesBooking;
  /** What the confirmation of `reference` shows; `replayed`: the form was sent again (no new self-service link). */
  confirmation(settings: Settings, reference: string, replayed: boolean): PageConfirmation;
  /**
   * The calendar file of the booking `reference`: its own REQUEST or, cancelled, CANCEL (the same as its mails', a
   * date of a series too), or undefined when there is none; with `manageToken` (its confirmation's, the door having
   * checked that the confirmation made it), the self-service link.
   */
  eventFile(reference: string, manageToken?: string): string | undefined;
}

/** `YYYYMMDDTHHMMSSZ` of Unix seconds, as Google's link takes it. */
const compactUtc = (at: number) =>
  new Date(at * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Makes the booking page's use case for one process: `formMinSeconds` from the environment (app/operations/runtime.ts). */
export function createPageBooker(
  ctx: AppContext,
  options: { nowMs: () => number; formMinSeconds: number },
): PageBooker {
  const { nowMs } = options;
  /** The times (ms) of the bookings made from each address in the last hour. */
  const recent = new Map<string, number[]>();
  const keyOf = (form: PageForm) => KEY_PREFIX + form.key;
  const since = () => unixSeconds(ctx.now()) - KEY_LIFETIME_SECONDS;
  const age = (form: PageForm) => Math.floor(nowMs() / 1000) - form.issuedAt;
  /** The times (ms) of the bookings made from `client` in the last hour. */
  const lastHour = (client: string) => (recent.get(client) ?? []).filter((at) => at > nowMs() - 3_600_000);
  /** The refusal of one booking more from `client`, when it has made `page.perHour` in the last hour. */
  const perHour = (page: BookingPageSettings, mine: number[]): LimitRefusal | undefined =>
    mine.length >= page.perHour
      ? {
          why: 'per-hour',
          limit: page.perHour,
          retryAfterSeconds: Math.max(1, Math.ceil((mine[0]! + 3_600_000 - nowMs()) / 1000)),
        }
      : undefined;
  const emailOf = (submission: Record<string, unknown>) =>
    typeof submission[EMAIL_FIELD] === 'string' ? (submission[EMAIL_FIELD] as string) : '';

  /** What the mails of `booking` are written from, as it stands (its reason's description: '' once removed). */
  const factsOf = (booking: Booking): BookingFacts =>
    bookingFacts(
      requireConfigured(ctx),
      booking,
      findReason(ctx.store, booking.reasonId)?.description ?? '',
      listFields(ctx.store),
    );

  /**
   * Books on the page once per form (its key as an Idempotency-Key): the form's age and the address's hourly limit,
   * then under the write lock the address's future bookings and `make` (which books and returns the reference) once
   * for the form's key; a refusal of the core becomes what `refused` makes of it.
   */
  const bookOnPage = <R extends PageSeriesBooking>(
    page: BookingPageSettings,
    form: PageForm,
    submission: Record<string, unknown>,
    client: string,
    fingerprint: string,
    make: () => string,
    refused: (error: unknown) => R | undefined,
  ): PageBooking | R => {
    if (age(form) < options.formMinSeconds) return { booked: false, why: 'early' };
    const hourAgo = nowMs() - 3_600_000;
    const mine = lastHour(client);
    const hour = perHour(page, mine);
    if (hour) return { booked: false, ...hour };
    const email = emailOf(submission);
    let outcome: { body: string; replayed: boolean } | { held: number };
    try {
      outcome = ctx.store.tx(() => {
        // Under the write lock: another tab of the same customer may have booked meanwhile.
        const held = email ? futureBookingsOf(ctx, email) : 0;
        if (held >= page.perEmail && !keptAnswer(ctx.store, keyOf(form), since())) return { held };
        return actOnce(ctx, keyOf(form), fingerprint, () => JSON.stringify({ reference: make() }));
      });
    } catch (error) {
      const answer = refused(error);
      if (answer) return answer;
      throw error;
    }
    if ('held' in outcome) return { booked: false, why: 'per-email', held: outcome.held };
    if (!outcome.replayed) {
      mine.push(nowMs());
      recent.set(client, mine);
      if (recent.size > 10_000)
        for (const [key, times] of recent) if (times.every((at) => at <= hourAgo)) recent.delete(key);
    }
    return {
      booked: true,
      reference: (JSON.parse(outcome.body) as { reference: string }).reference,
      replayed: outcome.replayed,
    };
  };

  const booker: PageBooker = {
    offers(page) {
      const offered = pageOffers(ctx, page);
      const single = offered.flatMap(({ schedule, reasons }) =>
        reasons.map((reason) => ({
          scheduleId: schedule.id,
          scheduleName: schedule.name,
          reasonId: reason.id,
          reasonName: reason.name,
          description: reason.description,
          minutes: reason.durationMinutes,
          seriesMax: reason.seriesMax,
        })),
      );
      // A reason two or more of the page's schedules offer: also "any practitioner", first (issue 40); one date
      // only: a course (a series) is booked with one practitioner, as `bookings add any` refuses --repeat.
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
      return [...[...shared.values()].filter((offer) => offer.anyOf.length > 1), ...single];
    },
    slotsOf: (offer, day) =>
      offer.anyOf
        ? anySlotsOfDay(ctx, offer.reasonId, day, offer.anyOf)
        : availableSlots(ctx, offer.scheduleId, offer.reasonId, day),
    freeSlot: (offer, local) =>
      isSlotText(local) ? booker.slotsOf(offer, local.slice(0, 10)).find((slot) => slot.local === local) : undefined,
    fields: () => listFields(ctx.store),
    submissionOf(fields, values) {
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
    },
    formProblem: (form) => (age(form) > FORM_MAX_SECONDS || age(form) < -60 ? { why: 'stale' } : undefined),
    trapProblem: (value) => (value !== '' ? { why: 'trap' } : undefined),
    bookedBy(form) {
      const kept = keptAnswer(ctx.store, keyOf(form), since());
      return kept ? (JSON.parse(kept.body) as { reference: string }).reference : undefined;
    },
    limitProblem(page, submission, client) {
      const hour = perHour(page, lastHour(client));
      if (hour) return hour;
      const email = emailOf(submission);
      const held = email ? futureBookingsOf(ctx, email) : 0;
      return held >= page.perEmail ? { why: 'per-email', held } : undefined;
    },
    book(page, form, offer, slot, submission, client) {
      const order = { scheduleId: offer.scheduleId, reasonId: offer.reasonId, slot: slot.local, submission };
      const among = offer.anyOf;
      return bookOnPage(
        page,
        form,
        submission,
        client,
        fingerprintOf(JSON.stringify(order)),
        () =>
          (among
            ? createAnyBooking(ctx, { ...order, among }, 'page', 'customer')
            : createBooking(ctx, order, 'page', 'customer')
          ).reference,
        (error) =>
          error instanceof SlotNotFree || error instanceof NoPractitionerFree
            ? { booked: false, why: 'taken' }
            : undefined,
      );
    },
    weeksOf(offer, text) {
      if (text === undefined || text === '') return 1;
      const weeks = typeof text === 'string' && /^\d{1,2}$/.test(text) ? Number(text) : 0;
      return weeks >= 1 && weeks <= Math.max(1, offer.seriesMax ?? 0) ? weeks : undefined;
    },
    seriesDates(offer, slot, weeks) {
      const slots = occurrenceSlots(slot.local, 7, weeks);
      const { input } = availabilityOf(ctx, offer.scheduleId, offer.reasonId);
      const { notFree } = planSeries(ctx, input, offer.scheduleId, slots);
      const taken = new Set(notFree.map((date) => date.slot));
      return slots.map((local) => ({ local, free: !taken.has(local) }));
    },
    bookSeries(page, form, offer, slot, weeks, submission, client) {
      const order = { scheduleId: offer.scheduleId, reasonId: offer.reasonId, slot: slot.local, submission };
      return bookOnPage(
        page,
        form,
        submission,
        client,
        fingerprintOf(JSON.stringify({ ...order, weeks })),
        // The answer kept for the form: the first date's reference (its confirmation shows every date).
        () =>
          createSeries(ctx, { ...order, intervalDays: 7, count: weeks, skipTaken: false }, 'page', 'customer')
            .bookings[0]!.reference,
        (error) => {
          if (!(error instanceof SeriesNotFree)) return undefined;
          const taken = new Set(error.dates.map((date) => date.slot));
          return {
            booked: false,
            why: 'series-taken',
            dates: occurrenceSlots(slot.local, 7, weeks).map((local) => ({ local, free: !taken.has(local) })),
          };
        },
      );
    },
    confirmation(settings, reference, replayed) {
      const booking = findBooking(ctx.store, reference)!;
      const now = unixSeconds(ctx.now());
      // Written now: a booking made inside the deadline gets no link (the confirmation shows the phone instead).
      const action = manageActionAt(
        settings.portal,
        { startAt: booking.startAt, cancelled: booking.status === 'cancelled' },
        now,
        now,
      );
      // The link is made for this answer, as the mail makes its own: the token exists in clear only here. Once: a
      // form sent again is pointed to the mail (no new link per resend).
      const manageToken =
        action.kind === 'link' && !replayed
          ? createManageToken(ctx.store, booking.id, ctx.now().toISOString())
          : undefined;
      const manageUrl = manageToken ? manageUrlOf(settings.portal!.url, manageToken) : undefined;
      // The calendar links say what the mails and the .ics say (issue 41, item 8): what, with whom, where, the
      // reference and the self-service link; the location is the .ics's.
      const facts = factsOf(booking);
      const title = `${booking.reasonName} · ${settings.practiceName ?? ''}`;
      const details = eventDetails(facts, manageUrl);
      const location = eventLocation(facts);
      const google = `https://calendar.google.com/calendar/render?${new URLSearchParams({ action: 'TEMPLATE', text: title, dates: `${compactUtc(booking.startAt)}/${compactUtc(booking.endAt)}`, details, location })}`;
      const outlook = `https://outlook.live.com/calendar/0/action/compose?${new URLSearchParams({ subject: title, startdt: new Date(booking.startAt * 1000).toISOString(), enddt: new Date(booking.endAt * 1000).toISOString(), body: details, location })}`;
      // From the booking itself: its reason or schedule may have been removed since (`--force` keeps the bookings).
      const offer: Offer = {
        scheduleId: booking.scheduleId,
        scheduleName: booking.scheduleName,
        reasonId: booking.reasonId,
        reasonName: booking.reasonName,
        description: facts.reasonDescription,
        minutes: Math.round((booking.endAt - booking.startAt) / 60),
      };
      const local = `${formatLocal(new Date(booking.startAt * 1000), settings.timeZone!)}:00`; // a slot's local text
      const email =
        typeof booking.submission[EMAIL_FIELD] === 'string' ? (booking.submission[EMAIL_FIELD] as string) : '';
      const series = seriesOfBooking(ctx, booking)?.dates.map((date) => ({
        local: `${formatLocal(new Date(date.startAt * 1000), settings.timeZone!)}:00`,
        status: date.status,
        reference: date.reference,
      }));
      return {
        booking,
        local,
        offer,
        email,
        ...(series ? { series } : {}),
        calendar: { google, outlook },
        ...(manageUrl ? { manageUrl, manageToken } : {}),
      };
    },
    eventFile(reference, manageToken) {
      const booking = findBooking(ctx.store, reference);
      if (!booking) return undefined;
      const cancelled = booking.status === 'cancelled';
      const portal = ctx.settings().portal;
      // The link of its confirmation, while the page is on and the booking stands (a cancelled one's file removes it).
      const manageUrl = manageToken && portal && !cancelled ? manageUrlOf(portal.url, manageToken) : undefined;
      return bookingIcs(
        factsOf(booking),
        unixSeconds(ctx.now()),
        booking.sequence,
        cancelled ? 'CANCEL' : 'REQUEST',
        manageUrl,
      );
    },
  };
  return booker;
}
