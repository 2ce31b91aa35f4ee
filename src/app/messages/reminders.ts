/**
 * Reminders: one mail per booking and offset (`planner reminders set`), written to the outbox in the booking's (or
 * its move's) transaction with a not-before time; the outbox worker sends it then (src/mail/worker.ts), or drops it
 * when the appointment has begun. Changing the offsets applies to bookings made or moved afterwards.
 */
import { formatLocal } from '../../domain/dates.ts';
import {
  DROPPED,
  formatOffset,
  formatOffsets,
  MAX_OFFSET_MINUTES,
  offsetsAfterDeadline,
  parseOffsets,
  reminderTimes,
} from '../../domain/reminders.ts';
import { invalid } from '../../errors.ts';
import type { BookingFacts } from '../../mail/facts.ts';
import { reminderMessage } from '../../mail/messages.ts';
import { countScheduledReminders, dropReminders, enqueue, messagesOfBooking } from '../../store/outbox.ts';
import { setReminderOffsets } from '../../store/settings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/**
 * Writes the reminders of a booking as it now stands: one per offset whose time is after `now` (an offset whose
 * window the booking was made in is skipped), due `offset` real seconds before the start; none without a customer
 * e-mail. Call inside the transaction that writes the booking or its move. Returns how many were written.
 */
export function scheduleReminders(
  ctx: AppContext,
  facts: BookingFacts,
  booking: { id: number; sequence: number },
  offsets: readonly number[],
  now: Date,
): number {
  let written = 0;
  for (const { dueAt } of reminderTimes(facts.startAt, offsets, unixSeconds(now))) {
    const message = reminderMessage(facts, unixSeconds(now), booking.sequence);
    if (!message) break;
    enqueue(ctx.store, booking.id, message, dueAt, now.toISOString());
    written++;
  }
  return written;
}

/** Drops the pending reminders of a booking that was cancelled or moved; returns how many. Inside its transaction. */
export function dropBookingReminders(ctx: AppContext, bookingId: number, why: 'cancelled' | 'moved'): number {
  return dropReminders(ctx.store, bookingId, DROPPED[why]);
}

/** What `planner reminders show` prints. */
export interface ReminderSettings {
  /** `24h,2h` or `off`. */
  offsets: string;
  minutes: number[];
  /** Reminders written and not yet due. */
  scheduled: number;
}

/** Returns the reminder offsets and how many reminders are scheduled. */
export function showReminders(ctx: AppContext): ReminderSettings {
  const settings = requireConfigured(ctx);
  return {
    offsets: formatOffsets(settings.reminderOffsets),
    minutes: settings.reminderOffsets,
    scheduled: countScheduledReminders(ctx.store, unixSeconds(ctx.now())),
  };
}

/**
 * Sets the offsets from `24h,2h` (units m, h, d; 1m to 30d; at most 5) or `off`. They apply to bookings made or
 * moved afterwards: the reminders already scheduled keep their times (returned as `scheduled`). Nothing changes on
 * a refused value.
 */
export function setReminders(ctx: AppContext, text: string): ReminderSettings {
  requireConfigured(ctx);
  const parsed = parseOffsets(text);
  if (!parsed.ok) throw invalid(parsed.error);
  return ctx.store.tx(() => {
    setReminderOffsets(ctx.store, parsed.minutes);
    return showReminders(ctx);
  });
}

/**
 * Returns the warning `reminders set` and `portal enable` print when a reminder would arrive after the page's
 * deadline, or undefined: the page is off, or every reminder comes before the deadline.
 */
export function reminderDeadlineWarning(ctx: AppContext): string | undefined {
  const { portal, reminderOffsets } = requireConfigured(ctx);
  if (!portal) return undefined;
  const late = offsetsAfterDeadline(reminderOffsets, portal.cancelUntilHours);
  if (late.length === 0) return undefined;
  const which = late.map(formatOffset).join(' and ');
  const hours = portal.cancelUntilHours;
  const earlier =
    hours + 24 <= MAX_OFFSET_MINUTES / 60 ? `remind earlier (e.g. planner reminders set ${hours + 24}h) or ` : '';
  return (
    `the ${which} reminder${late.length > 1 ? 's arrive' : ' arrives'} when the page no longer allows changes (until ${hours} h before the start), ` +
    `so ${late.length > 1 ? 'they give' : 'it gives'} the practice's phone number instead of the link: ${earlier}` +
    `allow changes until later (e.g. planner portal enable --cancel-until ${Math.floor(Math.min(...late) / 120)})`
  );
}

/** A booking's reminder as `planner bookings show` lists it. */
export interface BookingReminder {
  /** When it is (or was) due, local `YYYY-MM-DD HH:MM`. */
  dueLocal: string;
  status: 'pending' | 'sent' | 'failed' | 'dropped';
  /** Why it was dropped or last failed. */
  reason: string | null;
}

/** Returns the reminders of a booking, by due time (outbox_by_booking). */
export function bookingReminders(ctx: AppContext, bookingId: number): BookingReminder[] {
  const zone = requireConfigured(ctx).timeZone;
  return messagesOfBooking(ctx.store, bookingId)
    .filter((message) => message.kind === 'reminder')
    .sort((a, b) => a.retryFrom - b.retryFrom || a.id - b.id)
    .map((message) => ({
      dueLocal: formatLocal(new Date(message.retryFrom * 1000), zone),
      status: message.status,
      reason: message.lastError,
    }));
}
