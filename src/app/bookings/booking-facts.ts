/**
 * What a booking's mails and webhook events are written from, built in one place for a new booking
 * (create-booking.ts) and for a change (lifecycle.ts): both read the booking back as the store holds it, so a mail
 * and an event say the same of it whichever way it came about.
 */
import { servedIn, textIn } from '../../domain/languages.ts';
import { submittedFields } from '../../domain/submission.ts';
import type { BookingFacts } from '../../mail/facts.ts';
import type { Booking } from '../../store/bookings.ts';
import type { FormField } from '../../store/fields.ts';
import type { Reason } from '../../store/reasons.ts';
import type { Actor, BookingEventFacts } from '../../webhooks/events.ts';
import type { ConfiguredSettings } from '../practice/configured.ts';

/**
 * The facts of the mails of `booking` as it stands: the practice from `settings`, its `reason`'s description (none
 * when the reason was removed) and what was submitted, labelled by the form's `fields` in their order; the reason in
 * the customer's language (the booking's, else the practice's), and in the practice's for its notices.
 */
export function bookingFacts(
  settings: ConfiguredSettings,
  booking: Booking,
  reason: Pick<Reason, 'description' | 'descriptions'> | undefined,
  fields: readonly FormField[],
): BookingFacts {
  const locale = servedIn(settings.languages, booking.locale);
  const reasonDescription = reason?.description ?? '';
  return {
    practiceName: settings.practiceName,
    notifyEmail: settings.notifyEmail,
    locale,
    practice: { locale: settings.locale, reasonName: booking.reasonName, reasonDescription },
    timeZone: settings.timeZone,
    address: settings.address,
    phone: settings.phone,
    scheduleName: booking.scheduleName,
    reasonName: textIn(booking.reasonName, booking.reasonNames, locale),
    reasonDescription: reason ? textIn(reasonDescription, reason.descriptions, locale) : '',
    reference: booking.reference,
    startAt: booking.startAt,
    endAt: booking.endAt,
    source: booking.source,
    customerEmail: booking.customerEmail,
    customerName: booking.customerName,
    fields: submittedFields(fields, booking.submission),
  };
}

/** What a webhook event says of `booking` as it stands; `previousStartAt` for a move. */
export function eventFacts(booking: Booking, actor: Actor, previousStartAt?: number): BookingEventFacts {
  return {
    bookingId: booking.id,
    reference: booking.reference,
    customerId: booking.customerId,
    scheduleId: booking.scheduleId,
    reasonId: booking.reasonId,
    startAt: booking.startAt,
    previousStartAt,
    status: booking.status,
    actor,
    customer: {
      firstName: booking.customerFirstName,
      lastName: booking.customerLastName,
      email: booking.customerEmail,
    },
  };
}
