import { appointmentEnd, buffersOf } from '../../domain/blocking.ts';
import { isNote, NOTE_MAX_LENGTH } from '../../domain/checks.ts';
import { deadlineState } from '../../domain/deadline.ts';
import { AppError, invalid } from '../../errors.ts';
import { type BookingFacts, forPractice } from '../../mail/facts.ts';
import {
  changeMessages,
  customerChangeNotice,
  type BookingChange as MailChange,
  seriesCancellationMessages,
  seriesCancellationNotice,
} from '../../mail/messages.ts';
import { insertBookingEvent } from '../../store/booking-events.ts';
import {
  type Booking,
  cancelBookingRow,
  findBooking,
  listSeriesBookings,
  moveBookingRow,
} from '../../store/bookings.ts';
import { listFields } from '../../store/fields.ts';
import { enqueue } from '../../store/outbox.ts';
import { findReason } from '../../store/reasons.ts';
import { type Actor, emitBookingEvent } from '../../webhooks/events.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { dropBookingReminders, scheduleReminders } from '../messages/reminders.ts';
import { type ConfiguredSettings, requireConfigured } from '../practice/configured.ts';
import { availabilityOf, findFreeSlot, setAsideHours } from './availability.ts';
import { bookingFacts, eventFacts } from './booking-facts.ts';
import { requireBooking } from './bookings.ts';
import { inBookingTransaction } from './create-booking.ts';

/** The facts of the mails of a change, as the booking stands now (the reason's description: none once it was removed). */
function factsOf(ctx: AppContext, settings: ConfiguredSettings, booking: Booking): BookingFacts {
  return bookingFacts(settings, booking, findReason(ctx.store, booking.reasonId), listFields(ctx.store));
}

/** Who changes a booking, and (from a form the customer saw) the version they saw. */
export interface ChangeBy {
  /** Who acts (in the webhook payload); default admin. */
  actor?: Actor;
  /** The person at the desk (actor 'staff'), named in the history. */
  staffId?: number;
  /**
   * The booking's `sequence` when the change was asked for (the self-service page's forms carry it): when the
   * booking has changed since, nothing is done and a `conflict` is thrown, so a form sent twice (two tabs, the
   * back button) makes one change. Checked under the write lock.
   */
  expectedSequence?: number;
  /**
   * For the customer's page: the change is allowed only until this many hours before the start (`--cancel-until`),
   * and never once it has begun. Checked under the write lock, against the clock read there, so a form whose body
   * arrived after the deadline changes nothing, whenever its headers came.
   */
  untilHoursBefore?: number;
}

/** The history's person of a change made at the desk, else nothing. */
const staffOf = (by: ChangeBy) => (by.staffId === undefined ? {} : { staffId: by.staffId });

/** Thrown when a change comes after the page's deadline or the start: nothing was changed. */
export class TooLate extends AppError {
  readonly why: 'past-deadline' | 'started';
  constructor(why: 'past-deadline' | 'started', reference: string) {
    super('conflict', `booking ${reference}: too late to change it (${why})`);
    this.why = why;
  }
}

/** Throws TooLate when `now` (Unix seconds, read under the write lock) is past what `by` allows for `found`. */
function requireInTime(found: Booking, by: ChangeBy, now: number): void {
  if (by.untilHoursBefore === undefined) return;
  const state = deadlineState(found.startAt, by.untilHoursBefore, now);
  if (state !== 'open') throw new TooLate(state, found.reference);
}

/** Throws `conflict` when the booking is no longer the version the change was asked for. */
function requireSequence(found: Booking, expected: number | undefined): void {
  if (expected !== undefined && found.sequence !== expected) {
    throw new AppError('conflict', `booking ${found.reference} has changed since this was asked for`);
  }
}

/**
 * Runs a change of the booking `idOrReference` in one write transaction: reads the clock and the booking under the
 * lock, checks that the booking is still the version the change was asked for and that the change is in time, then
 * lets `change` write it and returns what `change` returns (the booking as it stands after).
 */
function changeBooking(
  ctx: AppContext,
  what: string,
  idOrReference: string,
  by: ChangeBy,
  change: (found: Booking, now: Date) => Booking,
): Booking {
  return inBookingTransaction(ctx, what, () => {
    const now = ctx.now(); // the time of the change: read under the write lock
    const found = requireBooking(ctx, idOrReference);
    requireSequence(found, by.expectedSequence);
    requireInTime(found, by, unixSeconds(now));
    return change(found, now);
  });
}

/**
 * Writes, in the change's transaction, what tells of it: the customer's mails (unless `notify` is false), the
 * practice's notice of a change the customer made on the page, and the webhook event. A change
 * the practice makes itself (the CLI) is not mailed to the notify address: whoever made it knows, and the
 * practice's calendars follow it through the feed and the calendar planner writes.
 */
function tellChange(
  ctx: AppContext,
  changed: Booking,
  facts: BookingFacts,
  change: MailChange,
  by: { notify: boolean } & ChangeBy,
  now: Date,
): void {
  const stamp = unixSeconds(now);
  const at = now.toISOString();
  if (by.notify) {
    for (const message of changeMessages(facts, stamp, change)) enqueue(ctx.store, changed.id, message, stamp, at);
  }
  if (by.actor === 'customer')
    enqueue(ctx.store, changed.id, customerChangeNotice(forPractice(facts), change), stamp, at);
  const event = eventFacts(changed, by.actor ?? 'admin', change.kind === 'update' ? change.previousStartAt : undefined);
  emitBookingEvent(ctx.store, change.kind === 'update' ? 'booking.changed' : 'booking.cancelled', event, stamp, at);
}

/**
 * Cancels a booking: it stays (status cancelled, with the reason) and its time is free again at once. In the same
 * transaction: the customer's cancellation mail with an .ics METHOD:CANCEL of the same UID (unless `notify` is
 * false), its pending reminders dropped, and the `booking.cancelled` webhook event. A date of a series: the mail
 * says which of its other dates stay booked (none with `others: 'going'`).
 */
export function cancelBooking(
  ctx: AppContext,
  idOrReference: string,
  options: { reason?: string; notify: boolean; others?: 'kept' | 'going' } & ChangeBy,
): Booking {
  const settings = requireConfigured(ctx);
  const reason = cancelReason(options.reason);
  return changeBooking(ctx, 'the booking could not be cancelled', idOrReference, options, (found, now) => {
    if (found.status === 'cancelled') throw invalid(`booking ${found.reference} is already cancelled`);
    const { cancelled, facts } = cancelOne(ctx, settings, found, reason, options, now);
    // The other dates of its series still booked, which its mail lists, unless the caller cancels them too
    // (`others: 'going'`: an erasure cancels every future date of the customer in the same transaction).
    const stillBooked =
      found.seriesId === null || options.others === 'going'
        ? []
        : stillBookedOf(listSeriesBookings(ctx.store, found.seriesId), now);
    tellChange(
      ctx,
      cancelled,
      facts,
      { kind: 'cancellation', sequence: cancelled.sequence, reason, ...bookAgain(settings), stillBooked },
      options,
      now,
    );
    return cancelled;
  });
}

/** The starts of a series' dates still booked and ahead at `now`: the cancellation of one of them lists them. */
function stillBookedOf(dates: readonly Booking[], now: Date): number[] {
  const at = unixSeconds(now);
  return dates.filter((date) => date.status === 'booked' && date.startAt > at).map((date) => date.startAt);
}

/** While the booking page is on, the customer's cancellation offers a new booking there. */
function bookAgain(settings: ConfiguredSettings): { bookAgainUrl?: string } {
  return settings.portal && settings.bookingPage ? { bookAgainUrl: `${settings.portal.url}/book/` } : {};
}

/** Cancels one booking in the change's transaction: its row, its history, its reminders dropped. Tells no one. */
function cancelOne(
  ctx: AppContext,
  settings: ConfiguredSettings,
  found: Booking,
  reason: string | null,
  by: ChangeBy,
  now: Date,
): { cancelled: Booking; facts: BookingFacts } {
  const at = now.toISOString();
  cancelBookingRow(ctx.store, found.id, reason, at);
  insertBookingEvent(ctx.store, found.id, {
    at,
    kind: 'cancelled',
    actor: by.actor ?? 'admin',
    previousStartAt: null,
    ...staffOf(by),
  });
  const cancelled = findBooking(ctx.store, found.id)!;
  dropBookingReminders(ctx, cancelled.id, 'cancelled'); // a cancelled booking gets no more reminders
  return { cancelled, facts: factsOf(ctx, settings, cancelled) };
}

/**
 * Cancels a booking of a series and every later occurrence still booked, in one transaction: each keeps
 * its history, loses its reminders and gets its `booking.cancelled` event; the customer gets ONE mail with every
 * date and one .ics METHOD:CANCEL (unless `notify` is false), and a change made by the customer on the page gives the
 * practice one notice of it. Returns the occurrences cancelled, by start.
 */
export function cancelSeries(
  ctx: AppContext,
  idOrReference: string,
  options: { reason?: string; notify: boolean } & ChangeBy,
): Booking[] {
  const settings = requireConfigured(ctx);
  const reason = cancelReason(options.reason);
  return inBookingTransaction(ctx, 'the series could not be cancelled', () => {
    const now = ctx.now();
    const found = requireBooking(ctx, idOrReference);
    if (found.seriesId === null)
      throw invalid(`booking ${found.reference} is not part of a series: cancel it without --series`);
    requireSequence(found, options.expectedSequence);
    if (found.status === 'cancelled') throw invalid(`booking ${found.reference} is already cancelled`);
    // One read of the series before and one after: each date's write is its own, no read per date.
    const later = listSeriesBookings(ctx.store, found.seriesId).filter(
      (one) => one.status === 'booked' && one.startAt >= found.startAt,
    );
    const stamp = unixSeconds(now);
    const at = now.toISOString();
    for (const booking of later) requireInTime(booking, options, stamp);
    const actor = options.actor ?? 'admin';
    for (const booking of later) {
      cancelBookingRow(ctx.store, booking.id, reason, at);
      insertBookingEvent(ctx.store, booking.id, {
        at,
        kind: 'cancelled',
        actor,
        previousStartAt: null,
        ...staffOf(options),
      });
      dropBookingReminders(ctx, booking.id, 'cancelled');
    }
    const ids = new Set(later.map((booking) => booking.id));
    const after = listSeriesBookings(ctx.store, found.seriesId);
    const cancelledNow = after.filter((one) => ids.has(one.id));
    const reasonOf = findReason(ctx.store, found.reasonId);
    const fields = listFields(ctx.store);
    const done = cancelledNow.map((cancelled) => {
      emitBookingEvent(ctx.store, 'booking.cancelled', eventFacts(cancelled, actor), stamp, at);
      return { cancelled, facts: bookingFacts(settings, cancelled, reasonOf, fields) };
    });
    const all = done.map(({ cancelled, facts }) => ({ facts, sequence: cancelled.sequence }));
    const first = done[0]!.cancelled.id;
    if (options.notify)
      for (const message of seriesCancellationMessages(all, stamp, {
        reason,
        ...bookAgain(settings),
        stillBooked: stillBookedOf(after, now),
      }))
        enqueue(ctx.store, first, message, stamp, at);
    if (options.actor === 'customer')
      enqueue(
        ctx.store,
        first,
        seriesCancellationNotice(
          all.map((one) => ({ ...one, facts: forPractice(one.facts) })),
          reason,
        ),
        stamp,
        at,
      );
    return done.map(({ cancelled }) => cancelled);
  });
}

/** Returns the admin's or customer's reason for a cancellation, trimmed (null when none), or throws `invalid`. */
function cancelReason(text: string | undefined): string | null {
  const reason = text?.trim() || null;
  if (reason !== null && !isNote(reason, true))
    throw invalid(
      `--reason must be one line of at most ${NOTE_MAX_LENGTH} characters, without control characters or text-direction controls`,
    );
  return reason;
}

/**
 * Moves a booking to another local time (`YYYY-MM-DD HH:MM:SS`), keeping its id and reference, and its practitioner
 * unless `scheduleId` names another schedule that offers its reason (the self-service page's choice). The new time is
 * checked exactly as for a new booking, in the same kind of transaction (hours, closures, look-ahead, capacity;
 * the booking itself does not count against its new time); the minimum notice only when `force` is false. Sends
 * the customer an update with an .ics of a higher SEQUENCE (unless `notify` is false) and `booking.changed`; drops
 * the pending reminders of the old time and writes those of the new one (with the new SEQUENCE), also when
 * `notify` is false.
 */
export function moveBooking(
  ctx: AppContext,
  idOrReference: string,
  slot: string,
  options: { notify: boolean; force: boolean; scheduleId?: number; outsideHours?: boolean } & ChangeBy,
): Booking {
  const settings = requireConfigured(ctx);
  return changeBooking(ctx, 'the booking could not be moved', idOrReference, options, (found, now) => {
    const at = now.toISOString();
    if (found.status === 'cancelled')
      throw invalid(`booking ${found.reference} is cancelled: book a new appointment instead`);
    // Another practitioner only where they offer the reason too (availabilityOf: not_found else).
    const scheduleId = options.scheduleId ?? found.scheduleId;
    const { input, reason } = availabilityOf(ctx, scheduleId, found.reasonId);
    // Reception at the desk may move outside the hours (after a warning): setAsideHours keeps what must hold.
    const allowed = options.outsideHours ? setAsideHours(input, slot) : input;
    const rules = options.force ? { ...allowed.rules, noticeMinutes: 0 } : allowed.rules;
    const free = findFreeSlot(ctx, { ...allowed, rules }, { scheduleId, reasonId: found.reasonId }, slot, found.id);
    if (free.startAt === found.startAt && scheduleId === found.scheduleId)
      throw invalid(`booking ${found.reference} is already at ${slot}`);
    const to = {
      scheduleId,
      startAt: free.startAt,
      endAt: appointmentEnd(free.startAt, input),
      buffers: buffersOf(reason),
    };
    moveBookingRow(ctx.store, found.id, to, at);
    insertBookingEvent(ctx.store, found.id, {
      at,
      kind: 'moved',
      actor: options.actor ?? 'admin',
      previousStartAt: found.startAt,
      ...staffOf(options),
    });
    const moved = findBooking(ctx.store, found.id)!;
    // The reminders follow the new time: those of the old time go (with those already due), new ones are written.
    dropBookingReminders(ctx, moved.id, 'moved');
    const facts = factsOf(ctx, settings, moved);
    scheduleReminders(ctx, facts, moved, settings.reminderOffsets, now);
    tellChange(
      ctx,
      moved,
      facts,
      {
        kind: 'update',
        sequence: moved.sequence,
        previousStartAt: found.startAt,
        ...(moved.scheduleId === found.scheduleId ? {} : { previousScheduleName: found.scheduleName }),
      },
      options,
      now,
    );
    return moved;
  });
}
