/**
 * What the desk books and changes, each through the one use case the CLI and the API run (create-booking.ts,
 * series.ts, any-practitioner.ts, lifecycle.ts): the same checks, mails, webhooks, calendar writes and reminders.
 * The desk adds only what its users are: reception and admin book, move, cancel and send a confirmation again; a
 * practitioner only marks attendance and writes notes (marks.ts). What differs at the desk, by the issue:
 * - an e-mail address is not required: without one no mail goes out, and a phone number is required instead;
 * - "send a confirmation" may be left off (on by default where there is an address);
 * - reception may book or move outside the hours, on a closed day, within the notice or past the look-ahead, after a
 *   warning (`timeCheck`), never beyond the capacity or over another booking (availability.ts's `setAsideHours`).
 */

import { isSlotText } from '../../domain/dates.ts';
import type { Locale } from '../../domain/locales.ts';
import type { Refusal } from '../../domain/refusal.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { bookingMessages, seriesMessages } from '../../mail/messages.ts';
import { insertBookingEvent } from '../../store/booking-events.ts';
import { type Booking, listSeriesBookings } from '../../store/bookings.ts';
import type { Closure } from '../../store/closures.ts';
import { type FormField, listFields } from '../../store/fields.ts';
import { enqueue } from '../../store/outbox.ts';
import { findReason, listAllReasons, type Reason } from '../../store/reasons.ts';
import { createAnyBooking } from '../bookings/any-practitioner.ts';
import { availabilityOf, explainRefusal, findFreeSlot, SlotNotFree, setAsideHours } from '../bookings/availability.ts';
import { bookingFacts } from '../bookings/booking-facts.ts';
import { type CreatedBooking, createBooking } from '../bookings/create-booking.ts';
import { cancelBooking, cancelSeries, moveBooking } from '../bookings/lifecycle.ts';
import { type CreatedSeries, createSeries } from '../bookings/series.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { EMAIL_FIELD } from '../practice/fields.ts';
import { type DeskPerson, deskBooking } from './agenda.ts';

/** The submission key of the customer's phone (the default form's field, which the desk adds where a form lacks it). */
export const PHONE_FIELD = 'phone';

/** True when `person` books and changes bookings (reception and admin); a practitioner marks and notes only. */
export function mayChange(person: DeskPerson): boolean {
  return person.role !== 'practitioner';
}

/**
 * The practice's form as the desk fills it: in its order, with its checks, but the e-mail address optional; and a
 * phone field (the form's own, as the practice set it, else one added at its end), required by `phoneProblem` when no
 * address is given.
 */
export function deskFields(ctx: AppContext, phoneLabel: string): FormField[] {
  const fields = listFields(ctx.store).map((field) =>
    field.key === EMAIL_FIELD ? { ...field, required: false } : field,
  );
  if (fields.some((field) => field.key === PHONE_FIELD)) return fields;
  const position = (fields.at(-1)?.position ?? 0) + 1;
  return [
    ...fields,
    {
      key: PHONE_FIELD,
      formType: 'textbox',
      inputType: 'tel',
      label: phoneLabel,
      labels: {},
      choices: {},
      required: false,
      defaultValue: '',
      options: [],
      position,
    },
  ];
}

/** The practice's form as every booking shows what was submitted (labels in form order). */
export function practiceFields(ctx: AppContext): FormField[] {
  return listFields(ctx.store);
}

/** Every reason offered (not removed), in display order: the desk's choice of reasons. */
export function offeredReasons(ctx: AppContext): Reason[] {
  return listAllReasons(ctx.store);
}

/** The desk's own rule on a submission: without an e-mail address, a phone number (the field's error, or none). */
export function phoneProblem(submission: Record<string, unknown>): string | undefined {
  const text = (key: string) => {
    const value = submission[key];
    return typeof value === 'string' ? value.trim() : '';
  };
  return text(EMAIL_FIELD) === '' && text(PHONE_FIELD) === '' ? 'Field is required' : undefined;
}

/** Throws not_found (as for a booking that does not exist) unless `person` may change bookings. */
function requireChanger(person: DeskPerson): void {
  if (!mayChange(person)) throw notFound('the desk: only reception and admin change bookings');
}

/** The reasons a time outside the rules may still be booked by reception, after the warning. */
const SET_ASIDE = new Set(['hours', 'grid', 'closure', 'notice', 'look-ahead']);

/**
 * What the engine says of `slot` for the schedule and reason: free (undefined), outside the rules but bookable by
 * reception after a warning (`warn`), or refused (`refused`: taken, a buffer, a busy time, the past, a skipped
 * time), each with the engine's reason and its next free times.
 */
export function timeCheck(
  ctx: AppContext,
  of: { scheduleId: number; reasonId: number },
  slot: string,
  except = 0,
): { warn: Refusal<Closure> } | { refused: Refusal<Closure>; next: string[] } | undefined {
  if (!isSlotText(slot)) throw invalid('the time is not a date and time', 'slot');
  const { input } = availabilityOf(ctx, of.scheduleId, of.reasonId);
  try {
    findFreeSlot(ctx, input, of, slot, except);
    return undefined;
  } catch (error) {
    if (!(error instanceof SlotNotFree)) throw error;
    const advice = explainRefusal(ctx, error);
    const next = advice.next.map((free) => free.local);
    if (!SET_ASIDE.has(advice.refusal.why)) return { refused: advice.refusal, next };
    // Outside the rules: bookable only where the day, its rules set aside, still has the place.
    try {
      findFreeSlot(ctx, setAsideHours(input, slot), of, slot, except);
      return { warn: advice.refusal };
    } catch (again) {
      if (!(again instanceof SlotNotFree)) throw again;
      return { refused: { why: 'taken' }, next };
    }
  }
}

/** A booking the desk makes. */
export interface DeskOrder {
  /** A schedule's id, or 'any' (whoever offering the reason is free then). */
  schedule: number | 'any';
  reasonId: number;
  slot: string;
  submission: Record<string, unknown>;
  /** Send the customer a confirmation (where they gave an address). */
  confirmation: boolean;
  /** Reception's choice after the warning: a time outside the rules (never with 'any' or a series). */
  outsideHours: boolean;
  /** A weekly series of this many dates (2 or more), or one booking. */
  weeks?: number;
  /** The customer picked (their record), which a booking without an e-mail address joins. */
  customerId?: number;
  /** The customer's language, one the practice offers besides its own (absent: the practice's own). */
  locale?: Locale;
}

/**
 * Books `order` for `person` (reception or admin) with source 'desk' and the person in its history. Errors as the
 * use cases': invalid with `field` (the form, or the phone the desk requires without an address), not_found (a time
 * not free: SlotNotFree / NoPractitionerFree), SeriesNotFree.
 */
export function deskBook(
  ctx: AppContext,
  person: DeskPerson,
  order: DeskOrder,
  fields: FormField[],
): CreatedBooking | CreatedSeries {
  requireChanger(person);
  const problem = phoneProblem(order.submission);
  if (problem) throw invalid(problem, PHONE_FIELD);
  const options = {
    staffId: person.id,
    fields,
    confirmation: order.confirmation,
    ...(order.customerId === undefined ? {} : { customerId: order.customerId }),
    ...(order.locale === undefined ? {} : { locale: order.locale }),
  };
  const { reasonId, slot, submission } = order;
  if (order.schedule === 'any') {
    if (order.outsideHours) throw invalid('a time outside the hours needs a practitioner, not "any"');
    return createAnyBooking(ctx, { reasonId, slot, submission }, 'desk', 'staff', options);
  }
  const scheduleId = order.schedule;
  if (order.weeks !== undefined && order.weeks > 1) {
    if (order.outsideHours) throw invalid('a series is booked within the hours');
    return createSeries(
      ctx,
      { scheduleId, reasonId, slot, submission, intervalDays: 7, count: order.weeks, skipTaken: false },
      'desk',
      'staff',
      options,
    );
  }
  return createBooking(ctx, { scheduleId, reasonId, slot, submission }, 'desk', 'staff', {
    ...options,
    outsideHours: order.outsideHours,
  });
}

/** The booking of `reference` that `person` may change, or not_found (as one that does not exist). */
function changeable(ctx: AppContext, person: DeskPerson, reference: string): Booking {
  requireChanger(person);
  const booking = deskBooking(ctx, person, reference);
  if (!booking) throw notFound(`booking ${reference} not found`);
  return booking;
}

/** Moves `reference` to `slot` (with `scheduleId`, another practitioner offering its reason), as `bookings move`. */
export function deskMove(
  ctx: AppContext,
  person: DeskPerson,
  reference: string,
  move: { slot: string; scheduleId?: number; notify: boolean; outsideHours: boolean; sequence: number },
): Booking {
  const booking = changeable(ctx, person, reference);
  return moveBooking(ctx, booking.reference, move.slot, {
    notify: move.notify,
    force: false,
    outsideHours: move.outsideHours,
    ...(move.scheduleId === undefined ? {} : { scheduleId: move.scheduleId }),
    actor: 'staff',
    staffId: person.id,
    expectedSequence: move.sequence,
  });
}

/** Cancels `reference` (with its later dates: `later`), telling the customer or not, as `bookings cancel`. */
export function deskCancel(
  ctx: AppContext,
  person: DeskPerson,
  reference: string,
  cancel: { reason: string; notify: boolean; later: boolean; sequence: number },
): Booking[] {
  const booking = changeable(ctx, person, reference);
  const by = {
    reason: cancel.reason,
    notify: cancel.notify,
    actor: 'staff' as const,
    staffId: person.id,
    expectedSequence: cancel.sequence,
  };
  return cancel.later && booking.seriesId !== null
    ? cancelSeries(ctx, booking.reference, by)
    : [cancelBooking(ctx, booking.reference, by)];
}

/**
 * Sends the customer of `reference` their confirmation again (as it stands now; a series' dates: the series'),
 * recorded in its history.
 */
export function resendConfirmation(ctx: AppContext, person: DeskPerson, reference: string): void {
  const settings = requireConfigured(ctx);
  ctx.store.tx(() => {
    const booking = changeable(ctx, person, reference);
    if (booking.status !== 'booked') throw new AppError('conflict', `booking ${reference} is cancelled`);
    if (!booking.customerEmail) throw new AppError('conflict', `booking ${reference} has no e-mail address`);
    const now = ctx.now();
    const stamp = unixSeconds(now);
    const reason = findReason(ctx.store, booking.reasonId);
    const fields = listFields(ctx.store);
    // A date of a series: the series' confirmation again, with its dates still ahead and booked (the page of any of
    // them changes each); a booking made alone, its own.
    const dates =
      booking.seriesId === null
        ? [booking]
        : listSeriesBookings(ctx.store, booking.seriesId).filter(
            (one) => one.status === 'booked' && (one.startAt > stamp || one.id === booking.id),
          );
    const all = dates.map((one) => bookingFacts(settings, one, reason, fields));
    const messages = booking.seriesId === null ? bookingMessages(all[0]!, stamp) : seriesMessages(all, stamp);
    for (const message of messages)
      if (message.kind === 'confirmation') enqueue(ctx.store, dates[0]!.id, message, stamp, now.toISOString());
    insertBookingEvent(ctx.store, booking.id, {
      at: now.toISOString(),
      kind: 'confirmation_sent',
      actor: 'staff',
      previousStartAt: null,
      staffId: person.id,
    });
  });
}
