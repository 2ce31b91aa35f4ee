/**
 * A course of treatment: one order books the same local time every `interval` days, `count` times. Every
 * occurrence is checked by the one engine (hours, closures, notice, look-ahead, buffers, busy times, capacity) and
 * all are booked in one write transaction, or none; with `skipTaken`, the free ones. Each occurrence is a booking of
 * its own (reference, reminders, manage link, webhook event, calendar event) that names its series; the customer
 * gets one confirmation with every date and each date's own .ics.
 */
import { type BookedInterval, dayWindow, type FreeSlot, freeSlots } from '../../domain/availability.ts';
import { BUFFER_MAX_SECONDS, blockedSpan, buffersOf, LONGEST_BLOCK_SECONDS } from '../../domain/blocking.ts';
import { slotMinute } from '../../domain/dates.ts';
import { dayNumber, dayText } from '../../domain/days.ts';
import { type BookedTime, type Refusal, whyNotFree } from '../../domain/refusal.ts';
import { occurrenceSlots, SERIES_COUNT, SERIES_INTERVAL_DAYS } from '../../domain/series.ts';
import { localToUnix } from '../../domain/zone.ts';
import { AppError, invalid } from '../../errors.ts';
import { seriesMessages } from '../../mail/messages.ts';
import { bookedTimes } from '../../store/booked-times.ts';
import type { BookingActor } from '../../store/booking-events.ts';
import type { Booking, BookingSource } from '../../store/bookings.ts';
import type { Closure } from '../../store/closures.ts';
import { enqueue } from '../../store/outbox.ts';
import { findSeries, insertSeries, type Occurrence, type Series, seriesOccurrences } from '../../store/series.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { availabilityOf, type EngineInput } from './availability.ts';
import {
  actorOf,
  type BookingOptions,
  type BookingOrder,
  type CreatedBooking,
  checkOrder,
  customerOf,
  inBookingTransaction,
  newReference,
  writeBooking,
} from './create-booking.ts';

export interface SeriesOrder extends BookingOrder {
  /** Days between occurrences (`1w` = 7). */
  intervalDays: number;
  count: number;
  /** Book the free occurrences and report the others, instead of refusing the whole series. */
  skipTaken: boolean;
}

/** A date of a series that is not free: its time, why (the reasons `bookings add` gives), and the nearest free times that day. */
export interface NotFreeDate {
  slot: string;
  /** Why, as the engine tells it (`why`: the reasons `bookings add` gives). */
  refusal: Refusal<Closure>;
  /** Up to three free times of that day, nearest to the one asked for, in time order. */
  nearest: FreeSlot[];
}

export interface CreatedSeries {
  seriesId: number;
  reference: string;
  intervalDays: number;
  /** The occurrences booked, by start. */
  bookings: CreatedBooking[];
  /** With `skipTaken`: the dates not booked, by start. */
  skipped: NotFreeDate[];
}

/** Thrown when a series is refused (nothing was booked): a `not_found` like a single refused time, with each date. */
export class SeriesNotFree extends AppError {
  readonly dates: NotFreeDate[];
  readonly input: EngineInput;
  readonly scheduleId: number;
  readonly reasonId: number;
  /** How many dates the series has. */
  readonly total: number;
  constructor(of: { scheduleId: number; reasonId: number }, input: EngineInput, dates: NotFreeDate[], total: number) {
    super('not_found', `${dates.length} of the series' ${total} dates are not free`);
    this.dates = dates;
    this.total = total;
    this.input = input;
    this.scheduleId = of.scheduleId;
    this.reasonId = of.reasonId;
  }
}

/** Throws `invalid` unless the count and interval are within the series' limits. */
export function checkSeriesShape(intervalDays: number, count: number): void {
  if (!Number.isInteger(count) || count < SERIES_COUNT.min || count > SERIES_COUNT.max)
    throw invalid(`count must be from ${SERIES_COUNT.min} to ${SERIES_COUNT.max} (got ${count})`, 'count');
  if (
    !Number.isInteger(intervalDays) ||
    intervalDays < SERIES_INTERVAL_DAYS.min ||
    intervalDays > SERIES_INTERVAL_DAYS.max
  )
    throw invalid('repeat must be whole days or weeks from 1d to 52w (for example 1w, 2w or 7d)', 'repeat');
}

/** Returns the bookings of `sorted` (by start) that can reach the local days first … last, by binary search. */
function reachingDays(sorted: readonly BookedTime[], first: number, last: number, now: number): BookedTime[] {
  const window = dayWindow(first, last, now);
  const from = window.from - LONGEST_BLOCK_SECONDS;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]!.startAt < from) low = middle + 1;
    else high = middle;
  }
  const found: BookedTime[] = [];
  for (let i = low; i < sorted.length && sorted[i]!.startAt < window.to + BUFFER_MAX_SECONDS; i++)
    found.push(sorted[i]!);
  return found;
}

/** Returns `list` (by start) with `time` inserted in its place. */
function inserted(list: BookedTime[], time: BookedTime): BookedTime[] {
  const at = list.findIndex((other) => other.startAt > time.startAt);
  return at < 0 ? [...list, time] : [...list.slice(0, at), time, ...list.slice(at)];
}

/**
 * Checks every occurrence against the engine with ONE read of the bookings and busy times of the series' whole
 * window; an occurrence found free counts against the later ones (a daily series of long appointments cannot
 * overlap itself). Returns the free slots and the dates that are not, each in the series' order.
 */
export function planSeries(
  ctx: AppContext,
  input: EngineInput,
  scheduleId: number,
  slots: readonly string[],
): { free: FreeSlot[]; notFree: NotFreeDate[] } {
  const first = dayNumber(slots[0]!.slice(0, 10));
  const last = dayNumber(slots.at(-1)!.slice(0, 10));
  const window = dayWindow(first, last, input.now);
  let booked = [...bookedTimes(ctx.store, scheduleId, window.from, window.to)];
  const buffers = buffersOf(input);
  const free: FreeSlot[] = [];
  const notFree: NotFreeDate[] = [];
  for (const slot of slots) {
    const day = dayNumber(slot.slice(0, 10));
    const ofDay = reachingDays(booked, day, day, input.now);
    const offered = freeSlots(input, dayText(day), ofDay as readonly BookedInterval[]);
    const found = offered.find((candidate) => candidate.local === slot);
    if (found) {
      free.push(found);
      const end = found.startAt + input.durationMinutes * 60;
      const span = blockedSpan(found.startAt, end, buffers);
      booked = inserted(booked, {
        startAt: span.from,
        endAt: span.to,
        appointmentStartAt: found.startAt,
        appointmentEndAt: end,
      });
      continue;
    }
    const wanted = localToUnix(slot.slice(0, 10), slotMinute(slot), input.zone);
    const nearest = [...offered]
      .sort((a, b) => Math.abs(a.startAt - wanted) - Math.abs(b.startAt - wanted) || a.startAt - b.startAt)
      .slice(0, 3)
      .sort((a, b) => a.startAt - b.startAt);
    notFree.push({ slot, refusal: whyNotFree(input, slot, ofDay) ?? { why: 'taken' }, nearest });
  }
  return { free, notFree };
}

/**
 * Books a series in one `BEGIN IMMEDIATE` transaction: every occurrence, or none (a SeriesNotFree listing each date
 * that is not free); with `skipTaken`, the free ones (none free: SeriesNotFree too). One customer record, one
 * confirmation and one notice for the whole series, each occurrence's reminders, webhook event and calendar event.
 */
export function createSeries(
  ctx: AppContext,
  order: SeriesOrder,
  source: BookingSource,
  actor: BookingActor = actorOf(source),
  options: Omit<BookingOptions, 'outsideHours'> = {},
): CreatedSeries {
  checkSeriesShape(order.intervalDays, order.count);
  const checked = checkOrder(ctx, order, options.fields);
  const slots = occurrenceSlots(order.slot, order.intervalDays, order.count);
  return inBookingTransaction(ctx, 'the series could not be saved', () => {
    const { input, reason } = availabilityOf(ctx, order.scheduleId, order.reasonId);
    const plan = planSeries(ctx, input, order.scheduleId, slots);
    if (plan.free.length === 0 || (plan.notFree.length > 0 && !order.skipTaken))
      throw new SeriesNotFree(order, input, plan.notFree, slots.length);
    const reference = newReference();
    const seriesId = insertSeries(ctx.store, {
      reference,
      intervalDays: order.intervalDays,
      createdAt: checked.at,
    });
    const customerId = customerOf(ctx, checked, options.customerId);
    const written = plan.free.map((slot) =>
      writeBooking(
        ctx,
        checked,
        customerId,
        { scheduleId: order.scheduleId, reasonId: order.reasonId, input, reason, slot },
        { source, actor, seriesId, mails: false, ...options },
      ),
    );
    // One confirmation and one notice for the whole series, kept with its first occurrence (whose page shows all).
    const stamp = unixSeconds(checked.now);
    for (const message of seriesMessages(
      written.map((one) => one.facts),
      stamp,
    ))
      if (message.kind !== 'confirmation' || options.confirmation !== false)
        enqueue(ctx.store, written[0]!.created.bookingId, message, stamp, checked.at);
    return {
      seriesId,
      reference,
      intervalDays: order.intervalDays,
      bookings: written.map((one) => one.created),
      skipped: plan.notFree,
    };
  });
}

/** Returns the series of a booking with every one of its dates, by start; undefined for a booking made alone. */
export function seriesOfBooking(
  ctx: AppContext,
  booking: Pick<Booking, 'seriesId'>,
): (Series & { dates: Occurrence[] }) | undefined {
  const series = booking.seriesId === null ? undefined : findSeries(ctx.store, booking.seriesId);
  return series && { ...series, dates: seriesOccurrences(ctx.store, series.id) };
}
