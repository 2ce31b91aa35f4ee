import {
  type AvailabilityInput,
  dayWindow,
  type FreeSlot,
  freeDays,
  freeSlots,
  freeSlotsByDay,
  lookAhead,
  nextFreeSlots,
  nextWindow,
} from '../../domain/availability.ts';
import { localDay, slotMinute } from '../../domain/dates.ts';
import { dayNumber, dayText } from '../../domain/days.ts';
import { type Refusal, whyNotFree } from '../../domain/refusal.ts';
import { localToUnix } from '../../domain/zone.ts';
import { AppError, notFound } from '../../errors.ts';
import { bookedIntervals, bookedTimes } from '../../store/booked-times.ts';
import { type Closure, listClosures } from '../../store/closures.ts';
import { type FormField, listFields } from '../../store/fields.ts';
import { readExtraHours, readWeeklyHours } from '../../store/hours.ts';
import { findReason, listReasons, type Reason } from '../../store/reasons.ts';
import { findSchedule, listSchedules, type Schedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/** Returns the schedules customers can book. */
export function bookableSchedules(ctx: AppContext): Schedule[] {
  return listSchedules(ctx.store);
}

function scheduleOrNotFound(ctx: AppContext, scheduleId: number): Schedule {
  const schedule = findSchedule(ctx.store, scheduleId);
  if (!schedule) throw notFound(`schedule ${scheduleId} does not exist`);
  return schedule;
}

/** Returns the reasons of a schedule; not_found when the schedule does not exist. */
export function bookableReasons(ctx: AppContext, scheduleId: number): Reason[] {
  scheduleOrNotFound(ctx, scheduleId);
  return listReasons(ctx.store, scheduleId);
}

/** Returns the schedule and the reason; not_found when either is unknown or the schedule does not offer the reason. */
export function scheduleAndReason(
  ctx: AppContext,
  scheduleId: number,
  reasonId: number,
): { schedule: Schedule; reason: Reason } {
  const schedule = scheduleOrNotFound(ctx, scheduleId);
  const reason = findReason(ctx.store, reasonId);
  if (!reason) throw notFound(`reason ${reasonId} does not exist in schedule ${scheduleId}`);
  if (!reason.scheduleIds.includes(scheduleId))
    throw notFound(
      `schedule ${scheduleId} does not offer reason ${reasonId} "${reason.name}" (planner reason set ${reasonId} --schedules ${[...reason.scheduleIds, scheduleId].join(',')} would add it)`,
    );
  return { schedule, reason };
}

/** The engine's input as the app reads it: the closures keep their id and note (a refusal names its closure). */
export type EngineInput = AvailabilityInput & { closures: readonly Closure[] };

/** Returns everything the engine needs for one schedule and reason; not_found as `scheduleAndReason`. */
export function availabilityInput(ctx: AppContext, scheduleId: number, reasonId: number): EngineInput {
  return availabilityOf(ctx, scheduleId, reasonId).input;
}

/** Returns the engine's input together with the schedule and reason it was read from (one read of each). */
export function availabilityOf(
  ctx: AppContext,
  scheduleId: number,
  reasonId: number,
): { input: EngineInput; schedule: Schedule; reason: Reason } {
  const settings = requireConfigured(ctx);
  const { schedule, reason } = scheduleAndReason(ctx, scheduleId, reasonId);
  const input: EngineInput = {
    zone: settings.timeZone,
    now: unixSeconds(ctx.now()),
    rules: schedule,
    week: readWeeklyHours(ctx.store, scheduleId),
    // One query for the extra hours of every date from today on; the engine takes the days it walks.
    extra: readExtraHours(ctx.store, scheduleId, localDay(ctx.now(), settings.timeZone)),
    closures: listClosures(ctx.store, scheduleId),
    durationMinutes: reason.durationMinutes,
    bufferBeforeMinutes: reason.bufferBeforeMinutes,
    bufferAfterMinutes: reason.bufferAfterMinutes,
  };
  return { input, schedule, reason };
}

/**
 * Returns the local days with at least one free slot, within the schedule's look-ahead. `except` leaves one booking
 * out of the count (the self-service page offers a booking's own time as free when moving it).
 */
export function availableDays(ctx: AppContext, scheduleId: number, reasonId: number, except = 0): string[] {
  const input = availabilityInput(ctx, scheduleId, reasonId);
  const window = lookAhead(input);
  return freeDays(input, window, bookedIntervals(ctx.store, scheduleId, window.from, window.to, except));
}

/** Returns the free slots of one local day (`YYYY-MM-DD`, already checked to be a real day); `except` as above. */
export function availableSlots(
  ctx: AppContext,
  scheduleId: number,
  reasonId: number,
  day: string,
  except = 0,
): FreeSlot[] {
  return slotsOfDay(ctx, availabilityInput(ctx, scheduleId, reasonId), scheduleId, day, except);
}

function slotsOfDay(
  ctx: AppContext,
  input: AvailabilityInput,
  scheduleId: number,
  day: string,
  except = 0,
): FreeSlot[] {
  const window = dayWindow(dayNumber(day), dayNumber(day), input.now);
  return freeSlots(input, day, bookedIntervals(ctx.store, scheduleId, window.from, window.to, except));
}

/**
 * Thrown when a time is not free: a `not_found` (the API answers 404 `Not Found`, spec §7), which keeps what is
 * needed to tell why and what is free instead (`explainRefusal`, for the CLI).
 */
export class SlotNotFree extends AppError {
  readonly scheduleId: number;
  readonly reasonId: number;
  readonly slot: string;
  /** The engine's input the time was checked against (without the notice for `bookings move --force`). */
  readonly input: EngineInput;
  /** The booking left out of the count (the one being moved), or 0. */
  readonly except: number;
  constructor(of: { scheduleId: number; reasonId: number }, slot: string, input: EngineInput, except: number) {
    super('not_found', `${slot} is not a free slot`);
    this.scheduleId = of.scheduleId;
    this.reasonId = of.reasonId;
    this.slot = slot;
    this.input = input;
    this.except = except;
  }
}

/**
 * Returns the free slot named by its local text (`YYYY-MM-DD HH:MM:SS`) for the schedule and reason `of` (whose
 * engine input is `input`), or throws SlotNotFree (not_found). `except` leaves one booking out of the count (a
 * booking being moved does not block its own new time).
 */
export function findFreeSlot(
  ctx: AppContext,
  input: EngineInput,
  of: { scheduleId: number; reasonId: number },
  slot: string,
  except = 0,
): FreeSlot {
  const found = slotsOfDay(ctx, input, of.scheduleId, slot.slice(0, 10), except).find((free) => free.local === slot);
  if (!found) throw new SlotNotFree(of, slot, input, except);
  return found;
}

/** The grid of a time booked outside the rules (`setAsideHours`): any five minutes. */
const OUTSIDE_STEP_MINUTES = 5;

/**
 * The engine's input for a time the desk books outside the rules (reception's choice, after a warning): the whole
 * local day of `slot` open, its closures set aside, no minimum notice, no look-ahead, any five minutes. What still
 * holds: the past, the capacity, every other booking with its buffers, and the practitioner's busy times, all counted
 * by the engine as for any booking, so such a time never doubles a booking.
 */
export function setAsideHours(input: EngineInput, slot: string): EngineInput {
  const day = slot.slice(0, 10);
  const number = dayNumber(day);
  return {
    ...input,
    rules: {
      ...input.rules,
      noticeMinutes: 0,
      daysAhead: Math.max(input.rules.daysAhead, 3660),
      stepMinutes: OUTSIDE_STEP_MINUTES,
    },
    extra: [...input.extra, { day, ranges: [{ start: 0, end: 1440 }] }],
    closures: input.closures.filter(
      (closure: Closure) => !(dayNumber(closure.fromDay) <= number && number <= dayNumber(closure.toDay)),
    ),
  };
}

/** Why a time was refused, and the first free times after it. */
export interface RefusalAdvice {
  refusal: Refusal<Closure>;
  /** Up to three free slots after the refused time, within the look-ahead. */
  next: FreeSlot[];
}

/**
 * Returns why the engine refused `refused.slot` (domain/refusal.ts asks the engine itself) and the next three free
 * times after it, from the same input: two queries, the slot's day and the rest of the look-ahead.
 */
export function explainRefusal(ctx: AppContext, refused: SlotNotFree): RefusalAdvice {
  const { input, scheduleId, slot, except } = refused;
  const day = dayNumber(slot.slice(0, 10));
  const window = dayWindow(day, day, input.now);
  // Free again by now (a booking cancelled meanwhile by another process) reads as taken: it was, a moment ago.
  const refusal = whyNotFree(input, slot, bookedTimes(ctx.store, scheduleId, window.from, window.to, except)) ?? {
    why: 'taken',
  };
  const after = localToUnix(slot.slice(0, 10), slotMinute(slot), input.zone);
  const rest = nextWindow(input, after);
  const next = nextFreeSlots(
    input,
    after,
    3,
    rest.firstDay > rest.lastDay ? [] : bookedIntervals(ctx.store, scheduleId, rest.from, rest.to, except),
  );
  return { refusal, next };
}

/** The free times of a range of days. */
export interface FreeTimes {
  schedule: Schedule;
  reason: Reason;
  timeZone: string;
  /** The days asked for that the look-ahead allows, each with its free slots (possibly none). */
  days: { day: string; slots: FreeSlot[] }[];
  /** The look-ahead's last day: days after it were asked for but have no times. */
  lastDay: string;
  /** Today in the installation's zone: days before it have no times. */
  today: string;
  /** Whether the schedule has hours on any weekday, or extra hours on a date from today on (without, it has no times). */
  hasHours: boolean;
}

/**
 * Returns the free times of `days` local days from `fromDay` (default today), from the engine that answers GET /slots:
 * one query for the bookings of the whole range.
 */
export function freeTimes(
  ctx: AppContext,
  scheduleId: number,
  reasonId: number,
  range: { fromDay?: string; days: number },
): FreeTimes {
  const { input, schedule, reason } = availabilityOf(ctx, scheduleId, reasonId);
  const allowed = lookAhead(input);
  const today = dayText(allowed.firstDay);
  const first = dayNumber(range.fromDay ?? today);
  const window = dayWindow(
    Math.max(first, allowed.firstDay),
    Math.min(first + range.days - 1, allowed.lastDay),
    input.now,
  );
  const bookings =
    window.firstDay > window.lastDay ? [] : bookedIntervals(ctx.store, scheduleId, window.from, window.to);
  return {
    schedule,
    reason,
    timeZone: input.zone,
    days: freeSlotsByDay(input, window, bookings),
    lastDay: dayText(allowed.lastDay),
    today,
    hasHours: input.week.some((ranges) => ranges.length > 0) || input.extra.length > 0,
  };
}

/** Throws not_found unless `slot` (local `YYYY-MM-DD HH:MM:SS`) is free now for the schedule and reason. */
export function requireFreeSlot(ctx: AppContext, scheduleId: number, reasonId: number, slot: string): void {
  findFreeSlot(ctx, availabilityInput(ctx, scheduleId, reasonId), { scheduleId, reasonId }, slot);
}

/** Returns the booking form's fields in form order. */
export function bookingFormFields(ctx: AppContext): FormField[] {
  return listFields(ctx.store);
}
