/**
 * The language a booking's customer chose (the self-service page's switcher): kept with the booking and its series'
 * other dates, and spoken by the reminders already written for them.
 */
import { isLocale } from '../../domain/languages.ts';
import type { Locale } from '../../domain/locales.ts';
import { invalid } from '../../errors.ts';
import { reminderMessage } from '../../mail/messages.ts';
import { findBooking, setBookingLocale } from '../../store/bookings.ts';
import { listFields } from '../../store/fields.ts';
import { rewriteReminders } from '../../store/outbox.ts';
import { findReason } from '../../store/reasons.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { bookingFacts } from './booking-facts.ts';

/**
 * Keeps `locale` as the language of the customer of bookings `ids` (a booking, or every date of its series), in one
 * transaction: their mails and pages from now on, and their reminders not yet sent, written again in it at their
 * times (they were written with the booking, in its language then). One booking at a time: at most a series' 52.
 */
export function keepLanguage(ctx: AppContext, ids: readonly number[], locale: Locale): void {
  const settings = requireConfigured(ctx);
  ctx.store.tx(() => {
    setBookingLocale(ctx.store, ids, locale);
    const fields = listFields(ctx.store);
    const stamp = unixSeconds(ctx.now());
    for (const id of ids) {
      const booking = findBooking(ctx.store, id);
      if (!booking || booking.status !== 'booked') continue;
      const facts = bookingFacts(settings, booking, findReason(ctx.store, booking.reasonId), fields);
      const message = reminderMessage(facts, stamp, booking.sequence);
      if (message) rewriteReminders(ctx.store, id, message);
    }
  });
}

/**
 * Returns the language `text` names for a customer booked by the admin or the desk (`--language fr`), when the
 * practice offers it; undefined for none given (the practice's own). Else throws naming the offered ones.
 */
export function customerLocale(ctx: AppContext, text: string | undefined, option = '--language'): Locale | undefined {
  if (text === undefined) return undefined;
  const { languages } = requireConfigured(ctx);
  if (isLocale(text) && languages.includes(text)) return text;
  throw invalid(
    `${option} ${text}: the practice serves its customers in ${languages.join(', ')} (planner practice set --languages)`,
    'language',
  );
}
