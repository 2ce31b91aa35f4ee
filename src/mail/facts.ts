/**
 * What a booking's mails, its .ics and the event planner writes into the practitioner's calendar are written from:
 * the booking as it is now, with the practice's words. Made in the booking's transaction by `bookingFacts`
 * (src/app/bookings/booking-facts.ts); a file of its own so that the builders (messages.ts, calendar.ts, translations.ts)
 * import it without importing each other.
 */
import type { BookingSource } from '../store/bookings.ts';
import type { Locale } from '../store/settings.ts';

export interface BookingFacts {
  practiceName: string;
  notifyEmail: string;
  /** The customer's language (the booking's, else the practice's own): their mails and calendar files. */
  locale: Locale;
  timeZone: string;
  /** Where the practice is, one line ('' when not given): the mails' "Where" and the .ics LOCATION. */
  address: string;
  /** The practice's phone number ('' when not given). */
  phone: string;
  /** The practitioner: the schedule's name. */
  scheduleName: string;
  /** The reason's name in the customer's language. */
  reasonName: string;
  /** The reason's description ("what to bring"; '' when none), in the customer's language. */
  reasonDescription: string;
  /** What the practice's own notices say instead: its language, and the reason in it. */
  practice: { locale: Locale; reasonName: string; reasonDescription: string };
  reference: string;
  startAt: number;
  endAt: number;
  source: BookingSource;
  /** The customer's e-mail (the submitted value of the `email` field), if any. */
  customerEmail: string | null;
  customerName: string;
  /** What was submitted, with each field's label, in form order. */
  fields: { label: string; value: string | boolean }[];
}

/** The facts as the practice's notices tell them: in its own language, the reason in its own words. */
export function forPractice(facts: BookingFacts): BookingFacts {
  return { ...facts, ...facts.practice };
}
