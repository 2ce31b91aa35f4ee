import { freeDays, freeSlots, lookAhead, dayWindow, type AvailabilityInput, type FreeSlot } from '../domain/availability.ts';
import { dayNumber } from '../domain/days.ts';
import { notFound } from '../errors.ts';
import { bookedIntervals } from '../store/bookings.ts';
import { listClosures } from '../store/closures.ts';
import { listFields, type FormField } from '../store/fields.ts';
import { readWeeklyHours } from '../store/hours.ts';
import { findReason, listReasons, type Reason } from '../store/reasons.ts';
import { findSchedule, listSchedules, type Schedule } from '../store/schedules.ts';
import { unixSeconds, type AppContext } from './context.ts';
import { requireConfigured } from './installation.ts';

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

/** Returns the schedule and the reason; not_found when either is unknown or they do not belong together. */
export function scheduleAndReason(ctx: AppContext, scheduleId: number, reasonId: number): { schedule: Schedule; reason: Reason } {
  const schedule = scheduleOrNotFound(ctx, scheduleId);
  const reason = findReason(ctx.store, reasonId);
  if (!reason || reason.scheduleId !== scheduleId) throw notFound(`reason ${reasonId} does not exist in schedule ${scheduleId}`);
  return { schedule, reason };
}

/** Returns everything the engine needs for one schedule and reason; not_found as `scheduleAndReason`. */
export function availabilityInput(ctx: AppContext, scheduleId: number, reasonId: number): AvailabilityInput {
  return availabilityOf(ctx, scheduleId, reasonId).input;
}

/** Returns the engine's input together with the schedule and reason it was read from (one read of each). */
export function availabilityOf(
  ctx: AppContext,
  scheduleId: number,
  reasonId: number,
): { input: AvailabilityInput; schedule: Schedule; reason: Reason } {
  const settings = requireConfigured(ctx);
  const { schedule, reason } = scheduleAndReason(ctx, scheduleId, reasonId);
  const input: AvailabilityInput = {
    zone: settings.timeZone,
    now: unixSeconds(ctx.now()),
    rules: schedule,
    week: readWeeklyHours(ctx.store, scheduleId),
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
export function availableSlots(ctx: AppContext, scheduleId: number, reasonId: number, day: string, except = 0): FreeSlot[] {
  return slotsOfDay(ctx, availabilityInput(ctx, scheduleId, reasonId), scheduleId, day, except);
}

function slotsOfDay(ctx: AppContext, input: AvailabilityInput, scheduleId: number, day: string, except = 0): FreeSlot[] {
  const window = dayWindow(dayNumber(day), dayNumber(day), input.now);
  return freeSlots(input, day, bookedIntervals(ctx.store, scheduleId, window.from, window.to, except));
}

/**
 * Returns the free slot named by its local text (`YYYY-MM-DD HH:MM:SS`), or throws not_found. `except` leaves one
 * booking out of the count (a booking being moved does not block its own new time).
 */
export function findFreeSlot(ctx: AppContext, input: AvailabilityInput, scheduleId: number, slot: string, except = 0): FreeSlot {
  const found = slotsOfDay(ctx, input, scheduleId, slot.slice(0, 10), except).find((free) => free.local === slot);
  if (!found) throw notFound(`${slot} is not a free slot`);
  return found;
}

/** Throws not_found unless `slot` (local `YYYY-MM-DD HH:MM:SS`) is free now for the schedule and reason. */
export function requireFreeSlot(ctx: AppContext, scheduleId: number, reasonId: number, slot: string): void {
  findFreeSlot(ctx, availabilityInput(ctx, scheduleId, reasonId), scheduleId, slot);
}

/** Returns the booking form's fields in form order. */
export function bookingFormFields(ctx: AppContext): FormField[] {
  return listFields(ctx.store);
}
