/**
 * "Any practitioner": the free times of a reason over every schedule that offers it, each with who is
 * free, and a booking with whoever is free at that time. Who is chosen is decided inside the booking's write
 * transaction, among the schedules still free at that instant (the one engine: hours, closures, notice, buffers,
 * busy times, capacity): the one with the fewest booked minutes that local day, then the lowest schedule id.
 */
import type { FreeSlot } from '../../domain/availability.ts';
import { localDay } from '../../domain/dates.ts';
import { dayNumber, dayText } from '../../domain/days.ts';
import { checkSubmission } from '../../domain/submission.ts';
import { localToUnix } from '../../domain/zone.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { bookedMinutesOfDay } from '../../store/booked-times.ts';
import type { BookingActor } from '../../store/booking-events.ts';
import type { BookingSource } from '../../store/bookings.ts';
import { listFields } from '../../store/fields.ts';
import { findReason, type Reason } from '../../store/reasons.ts';
import type { Schedule } from '../../store/schedules.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import {
  availabilityOf,
  availableSlots,
  bookableSchedules,
  explainRefusal,
  findFreeSlot,
  freeTimes,
  type RefusalAdvice,
  SlotNotFree,
} from './availability.ts';
import { type BookingOptions, type CreatedBooking, createBooking, inBookingTransaction } from './create-booking.ts';

/** A free time and the schedules free then, in id order. */
export interface AnySlot extends FreeSlot {
  scheduleIds: number[];
}

/**
 * Returns the reason and the schedules that offer it (not removed), in id order, only those of `among` when given
 * (the booking page's schedules); not_found for an unknown reason.
 */
export function offeringSchedules(
  ctx: AppContext,
  reasonId: number,
  among?: readonly number[],
): { reason: Reason; schedules: Schedule[] } {
  requireConfigured(ctx);
  const reason = findReason(ctx.store, reasonId);
  if (!reason) throw notFound(`reason ${reasonId} does not exist (see \`planner reason list <schedule-id>\`)`);
  const schedules = bookableSchedules(ctx).filter(
    (schedule) => reason.scheduleIds.includes(schedule.id) && (among === undefined || among.includes(schedule.id)),
  );
  return { reason, schedules };
}

/** Returns the free slots of each schedule as one list by time, each with the schedules free then. */
function merged(bySchedule: readonly { scheduleId: number; slots: readonly FreeSlot[] }[]): AnySlot[] {
  const at = new Map<string, AnySlot>();
  for (const { scheduleId, slots } of bySchedule) {
    for (const slot of slots) {
      const found = at.get(slot.local);
      if (found) found.scheduleIds.push(scheduleId);
      else at.set(slot.local, { ...slot, scheduleIds: [scheduleId] });
    }
  }
  return [...at.values()].sort((a, b) => a.startAt - b.startAt);
}

/**
 * Returns the free times of one local day (`YYYY-MM-DD`, a real day) over every schedule that offers the reason:
 * what GET /slots/any answers. Each schedule's input and bookings are read once (a few queries per schedule).
 */
export function anySlotsOfDay(ctx: AppContext, reasonId: number, day: string, among?: readonly number[]): AnySlot[] {
  const { schedules } = offeringSchedules(ctx, reasonId, among);
  return merged(
    schedules.map((schedule) => ({
      scheduleId: schedule.id,
      slots: availableSlots(ctx, schedule.id, reasonId, day),
    })),
  );
}

/** The free times of a range of days over every schedule that offers a reason. */
export interface AnyFreeTimes {
  reason: Reason;
  /** The schedules that offer it, in id order. */
  schedules: Schedule[];
  timeZone: string;
  /** The days asked for that some schedule's look-ahead allows, each with its free times (possibly none). */
  days: { day: string; slots: AnySlot[] }[];
  /** The last day of the longest look-ahead among them. */
  lastDay: string;
  /** Today in the installation's zone. */
  today: string;
  /** Whether any of them has opening hours. */
  hasHours: boolean;
}

/**
 * Returns the free times of `days` local days from `fromDay` (default today) over every schedule that offers the
 * reason: each schedule's input and the bookings of the whole range read once (`freeTimes`), the engine run per
 * schedule, the times merged (only those of `among`, when given: the desk's practitioner's own). No query per day.
 */
export function freeTimesAny(
  ctx: AppContext,
  reasonId: number,
  range: { fromDay?: string; days: number },
  among?: readonly number[],
): AnyFreeTimes {
  const settings = requireConfigured(ctx);
  const { reason, schedules } = offeringSchedules(ctx, reasonId, among);
  const each = schedules.map((schedule) => freeTimes(ctx, schedule.id, reasonId, range));
  const byDay = new Map<string, { scheduleId: number; slots: FreeSlot[] }[]>();
  each.forEach((times, index) => {
    for (const { day, slots } of times.days) {
      const list = byDay.get(day) ?? [];
      list.push({ scheduleId: schedules[index]!.id, slots });
      byDay.set(day, list);
    }
  });
  const today = each[0]?.today ?? localDay(ctx.now(), settings.timeZone);
  return {
    reason,
    schedules,
    timeZone: settings.timeZone,
    days: [...byDay.keys()].sort().map((day) => ({ day, slots: merged(byDay.get(day)!) })),
    lastDay: each.map((times) => times.lastDay).reduce((a, b) => (a > b ? a : b), today),
    today,
    hasHours: each.some((times) => times.hasHours),
  };
}

/** A candidate practitioner: a schedule free at the time, and the minutes already booked with it that local day. */
export interface Candidate {
  scheduleId: number;
  bookedMinutes: number;
}

/** Returns the schedule chosen among `candidates` (at least one): the fewest booked minutes, then the lowest id. */
export function choosePractitioner(candidates: readonly Candidate[]): number {
  return candidates.reduce((best, candidate) =>
    candidate.bookedMinutes < best.bookedMinutes ||
    (candidate.bookedMinutes === best.bookedMinutes && candidate.scheduleId < best.scheduleId)
      ? candidate
      : best,
  ).scheduleId;
}

/**
 * Thrown when no schedule offering the reason is free at the time: a `not_found` (the API answers 404 `Not Found`,
 * as for a single booking), which keeps each schedule's refusal (`explainAnyRefusal`, for the CLI).
 */
export class NoPractitionerFree extends AppError {
  readonly reasonId: number;
  readonly slot: string;
  /** Each offering schedule's refusal, in id order (empty when no schedule offers the reason). */
  readonly refusals: readonly SlotNotFree[];
  constructor(reasonId: number, slot: string, refusals: readonly SlotNotFree[]) {
    super('not_found', `${slot} is not a free slot with any schedule that offers reason ${reasonId}`);
    this.reasonId = reasonId;
    this.slot = slot;
    this.refusals = refusals;
  }
}

/** Why each schedule refused, and the first free times after the refused time over all of them. */
export interface AnyRefusalAdvice {
  each: { refused: SlotNotFree; advice: RefusalAdvice }[];
  /** Up to three free times after it, each with the schedules free then. */
  next: AnySlot[];
}

/** Returns why each schedule refused the time and the next three free times over all of them (explainRefusal each). */
export function explainAnyRefusal(ctx: AppContext, refused: NoPractitionerFree): AnyRefusalAdvice {
  const each = refused.refusals.map((one) => ({ refused: one, advice: explainRefusal(ctx, one) }));
  const next = merged(each.map(({ refused: one, advice }) => ({ scheduleId: one.scheduleId, slots: advice.next })));
  return { each, next: next.slice(0, 3) };
}

/**
 * Returns the schedule to book `slot` with: among those offering the reason that are free at that instant, by
 * `choosePractitioner`; throws NoPractitionerFree when none is. Call inside the booking's write transaction.
 */
function practitionerFor(
  ctx: AppContext,
  reasonId: number,
  slot: string,
  among: readonly number[] | undefined,
): Schedule {
  const { schedules } = offeringSchedules(ctx, reasonId, among);
  const free: number[] = [];
  const refusals: SlotNotFree[] = [];
  for (const schedule of schedules) {
    const { input } = availabilityOf(ctx, schedule.id, reasonId);
    try {
      findFreeSlot(ctx, input, { scheduleId: schedule.id, reasonId }, slot);
      free.push(schedule.id);
    } catch (error) {
      if (!(error instanceof SlotNotFree)) throw error;
      refusals.push(error);
    }
  }
  if (free.length === 0) throw new NoPractitionerFree(reasonId, slot, refusals);
  const zone = requireConfigured(ctx).timeZone;
  const day = slot.slice(0, 10);
  const minutes = bookedMinutesOfDay(
    ctx.store,
    free,
    localToUnix(day, 0, zone),
    localToUnix(dayText(dayNumber(day) + 1), 0, zone),
  );
  const chosen = choosePractitioner(
    free.map((scheduleId) => ({ scheduleId, bookedMinutes: minutes.get(scheduleId) ?? 0 })),
  );
  return schedules.find((schedule) => schedule.id === chosen)!;
}

/** What an "any practitioner" booking made: the booking and the schedule chosen. */
export interface AnyBooking extends CreatedBooking {
  scheduleId: number;
  scheduleName: string;
}

/** An "any practitioner" order: the reason, the local slot `YYYY-MM-DD HH:MM:SS` and the form values. */
export interface AnyBookingOrder {
  reasonId: number;
  slot: string;
  submission: Record<string, unknown>;
  /** Only these schedules may be chosen (the booking page's); default: every schedule that offers the reason. */
  among?: readonly number[];
}

/**
 * Books `order.slot` with whichever schedule offering the reason is free then (the rule above), in one write
 * transaction: the choice and the booking (createBooking's check, write, mails, reminders, event) see the same
 * state. Errors as createBooking: not_found (reason; NoPractitionerFree when none is free), invalid with `field`
 * (the submission), storage.
 */
export function createAnyBooking(
  ctx: AppContext,
  order: AnyBookingOrder,
  source: BookingSource,
  actor?: BookingActor,
  options: BookingOptions = {},
): AnyBooking {
  // The same cheap checks, in the same order, as a single booking: the unknown reason (404), then the form (400).
  offeringSchedules(ctx, order.reasonId, order.among);
  const checked = checkSubmission(options.fields ?? listFields(ctx.store), order.submission);
  if (!checked.ok) throw invalid(checked.error, checked.field);
  return inBookingTransaction(ctx, 'the booking could not be saved', () => {
    const schedule = practitionerFor(ctx, order.reasonId, order.slot, order.among);
    const { reasonId, slot, submission } = order;
    const created = createBooking(ctx, { scheduleId: schedule.id, reasonId, slot, submission }, source, actor, options);
    return { ...created, scheduleId: schedule.id, scheduleName: schedule.name };
  });
}
