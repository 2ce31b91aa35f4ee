import { randomInt } from 'node:crypto';
import type { FreeSlot } from '../../domain/availability.ts';
import { appointmentEnd, buffersOf } from '../../domain/blocking.ts';
import type { Locale } from '../../domain/locales.ts';
import { checkSubmission, type SubmissionValue } from '../../domain/submission.ts';
import { asAppError, invalid } from '../../errors.ts';
import type { BookingFacts } from '../../mail/facts.ts';
import { bookingMessages } from '../../mail/messages.ts';
import { type BookingActor, insertBookingEvent } from '../../store/booking-events.ts';
import { type BookingSource, findBooking, insertBooking } from '../../store/bookings.ts';
import { findCustomerIdByEmail, insertCustomer } from '../../store/customers.ts';
import { type FormField, listFields } from '../../store/fields.ts';
import { enqueue } from '../../store/outbox.ts';
import type { Reason } from '../../store/reasons.ts';
import { emitBookingEvent } from '../../webhooks/events.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { scheduleReminders } from '../messages/reminders.ts';
import { requireConfigured } from '../practice/configured.ts';
import { EMAIL_FIELD } from '../practice/fields.ts';
import { availabilityOf, type EngineInput, findFreeSlot, scheduleAndReason, setAsideHours } from './availability.ts';
import { bookingFacts, eventFacts } from './booking-facts.ts';

export interface BookingOrder {
  scheduleId: number;
  reasonId: number;
  /** Local `YYYY-MM-DD HH:MM:SS`. */
  slot: string;
  submission: Record<string, unknown>;
}

export interface CreatedBooking {
  bookingId: number;
  reference: string;
  customerId: number;
  startAt: number;
  endAt: number;
}

// Crockford-style alphabet without 0/1/I/O: 16 characters carry 80 random bits.
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Returns an unguessable public booking reference (not the row id). */
export function newReference(): string {
  let reference = '';
  for (let i = 0; i < 16; i++) reference += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return reference;
}

function text(value: SubmissionValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Runs a change of bookings in one write transaction. An error of the core passes through; any other (the
 * database refused the write) becomes a storage error whose message is for the log, not the client.
 */
export function inBookingTransaction<T>(ctx: AppContext, what: string, change: () => T): T {
  try {
    return ctx.store.tx(change);
  } catch (error) {
    throw asAppError(error, what);
  }
}

/** An order checked before the write lock: the form, the submitted values, and the one instant of the booking. */
export interface CheckedOrder {
  fields: FormField[];
  values: Record<string, SubmissionValue>;
  email: string | null;
  /** One instant for the booking, its customer and its messages. */
  now: Date;
  at: string;
}

/**
 * The cheap checks before the write lock: unknown schedule or reason (404 first), then the submission (400). Returns
 * the checked values.
 */
export function checkOrder(
  ctx: AppContext,
  order: { scheduleId: number; reasonId: number; submission: Record<string, unknown> },
  form: FormField[] = listFields(ctx.store),
): CheckedOrder {
  scheduleAndReason(ctx, order.scheduleId, order.reasonId);
  const fields = form;
  const checked = checkSubmission(fields, order.submission);
  if (!checked.ok) throw invalid(checked.error, checked.field);
  const now = ctx.now();
  return {
    fields,
    values: checked.values,
    email: text(checked.values[EMAIL_FIELD]) || null,
    now,
    at: now.toISOString(),
  };
}

/** Returns the customer record of the order's e-mail (or `without`'s), made now when there is none. Call inside the booking's transaction. */
export function customerOf(ctx: AppContext, checked: CheckedOrder, without?: number): number {
  // The record groups bookings by address; the booking keeps what was submitted (store/customers.ts). Without an
  // address, the record `without` names (the desk's customer picked), else a new one.
  return (
    (checked.email === null ? without : findCustomerIdByEmail(ctx.store, checked.email)) ??
    insertCustomer(ctx.store, checked.email, checked.at)
  );
}

/**
 * How a door books beyond the API's defaults (the front desk's): the person at the desk (actor 'staff'); the form it
 * checks against (the desk's: an e-mail address optional, a phone then required); whether the customer gets a
 * confirmation (`confirmation` false: none, though they have an address; their reminders still come); and, for
 * reception, a time outside the hours, on a closed day, within the notice or past the look-ahead (`outsideHours`:
 * never beyond the capacity, over another booking or a busy time, or in the past: app/bookings/availability.ts's
 * `setAsideHours`).
 */
export interface BookingOptions {
  staffId?: number;
  /**
   * The customer record a booking without an e-mail address joins (the desk's caller picked from the customers);
   * without it, such a booking makes a record of its own. An address always decides by itself.
   */
  customerId?: number;
  /** The customer's language (the page's or the API's `Accept-Language`); absent: the practice's own. */
  locale?: Locale;
  fields?: FormField[];
  confirmation?: boolean;
  outsideHours?: boolean;
}

/** Where a checked order is written: the schedule and reason, their engine input, and the free slot found. */
export interface Placement {
  scheduleId: number;
  reasonId: number;
  input: EngineInput;
  reason: Reason;
  slot: FreeSlot;
}

/**
 * Writes one booking at a slot found free under the write lock, with its history, its reminders, its webhook event
 * and (unless `by.mails` is false: a series writes one confirmation for all its dates) its mails. Returns it, with
 * the facts its mails are written from. Call inside the booking's transaction.
 */
export function writeBooking(
  ctx: AppContext,
  checked: CheckedOrder,
  customerId: number,
  placed: Placement,
  by: { source: BookingSource; actor: BookingActor; seriesId?: number; mails?: boolean } & BookingOptions,
): { created: CreatedBooking; facts: BookingFacts } {
  const { at, now } = checked;
  const endAt = appointmentEnd(placed.slot.startAt, placed.input);
  const reference = newReference();
  const bookingId = insertBooking(ctx.store, {
    reference,
    scheduleId: placed.scheduleId,
    reasonId: placed.reasonId,
    customerId,
    startAt: placed.slot.startAt,
    endAt,
    submission: checked.values,
    source: by.source,
    createdAt: at,
    buffers: buffersOf(placed.reason),
    seriesId: by.seriesId ?? null,
    locale: by.locale ?? null,
  });
  insertBookingEvent(ctx.store, bookingId, {
    at,
    kind: 'created',
    actor: by.actor,
    previousStartAt: null,
    ...(by.staffId === undefined ? {} : { staffId: by.staffId }),
  }); // its history (bookings show)
  const settings = requireConfigured(ctx);
  // Read back as a change reads it: the mails and the event say what the store holds (app/bookings/booking-facts.ts).
  const booking = findBooking(ctx.store, bookingId)!;
  const facts = bookingFacts(settings, booking, placed.reason, checked.fields);
  // The mails are written with the booking: if one is written, so is the other.
  if (by.mails !== false)
    for (const message of bookingMessages(facts, unixSeconds(now)))
      if (message.kind !== 'confirmation' || by.confirmation !== false)
        enqueue(ctx.store, bookingId, message, unixSeconds(now), at);
  // And its reminders, each due at its time before the start.
  scheduleReminders(ctx, facts, { id: bookingId, sequence: 0 }, settings.reminderOffsets, now);
  // So is the webhook event: every hook that asked for new bookings gets one delivery of it.
  emitBookingEvent(ctx.store, 'booking.created', eventFacts(booking, by.actor), unixSeconds(now), at);
  return { created: { bookingId, reference, customerId, startAt: placed.slot.startAt, endAt }, facts };
}

/** Who made a booking of `source`: the booking page's are the customer's, the desk's a person at the desk's. */
export function actorOf(source: BookingSource): BookingActor {
  return source === 'page' ? 'customer' : source === 'desk' ? 'staff' : source;
}

/**
 * Books a slot: in one `BEGIN IMMEDIATE` transaction it checks that the slot is still free (capacity included),
 * finds the customer by e-mail or creates one, inserts the booking and puts its e-mails in the outbox. Two requests
 * for the last place of a slot cannot both succeed: the second sees the first's booking. Errors: not_found
 * (schedule, reason, slot not free), invalid with `field` (the submission), storage (the database could not be written).
 */
export function createBooking(
  ctx: AppContext,
  order: BookingOrder,
  source: BookingSource,
  actor: BookingActor = actorOf(source),
  options: BookingOptions = {},
): CreatedBooking {
  const checked = checkOrder(ctx, order, options.fields);
  // The transaction rolls back on any error: nothing half-written.
  return inBookingTransaction(ctx, 'the booking could not be saved', () => {
    // Read again under the write lock: another process may have booked, or changed hours, meanwhile.
    const { input, reason } = availabilityOf(ctx, order.scheduleId, order.reasonId);
    const rules = options.outsideHours ? setAsideHours(input, order.slot) : input;
    const slot = findFreeSlot(ctx, rules, order, order.slot);
    const placed = { scheduleId: order.scheduleId, reasonId: order.reasonId, input, reason, slot };
    return writeBooking(ctx, checked, customerOf(ctx, checked, options.customerId), placed, {
      source,
      actor,
      ...options,
    }).created;
  });
}
