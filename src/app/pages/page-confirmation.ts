/**
 * What the booking page shows of a booking it made: the confirmation (the booking, a series' dates, the "add to
 * calendar" links, a self-service link made for that answer) and its calendar file. The same facts as the booking's
 * mails (bookingFacts, eventDetails, bookingIcs), so that the page, the mail and the calendar never disagree.
 */
import { formatLocal } from '../../domain/dates.ts';
import { manageUrlOf } from '../../domain/manage-url.ts';
import { bookingIcs, eventDetails, eventLocation } from '../../mail/calendar.ts';
import type { BookingFacts } from '../../mail/facts.ts';
import { manageActionAt } from '../../mail/messages.ts';
import { type Booking, findBooking } from '../../store/bookings.ts';
import { listFields } from '../../store/fields.ts';
import { createManageToken } from '../../store/manage-links.ts';
import { findReason } from '../../store/reasons.ts';
import type { Settings } from '../../store/settings.ts';
import { bookingFacts } from '../bookings/booking-facts.ts';
import { seriesOfBooking } from '../bookings/series.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { futureBookingsOf } from './booking-page.ts';
import { emailOf, type Offer } from './page-booking.ts';

/** What the confirmation shows of a booking. */
export interface PageConfirmation {
  booking: Booking;
  /** The slot's local text (`YYYY-MM-DD HH:MM:SS`). */
  local: string;
  offer: Offer;
  email: string;
  /** A self-service link made for this answer only (the page is on, the deadline ahead, the form not sent again). */
  manageUrl?: string;
  /**
   * When the booking is the first date of a series: every date of it, by start, its status and its reference (each
   * date's calendar file is its own booking's, `eventFile`).
   */
  series?: { local: string; status: Booking['status']; reference: string }[];
  /** Its token, for the calendar file's link (`eventFile`), which then carries the self-service link too. */
  manageToken?: string;
  /** Google's and Outlook's "add to calendar" links. */
  calendar: { google: string; outlook: string };
  /**
   * When the address now holds the page's share of future bookings (a series counts each date): how many, and the
   * share; the page then offers no other booking, which it would refuse.
   */
  atLimit?: { held: number; limit: number };
}

/** The address's future bookings and the page's share, when it holds that share or more (`PageConfirmation.atLimit`). */
function limitReached(ctx: AppContext, settings: Settings, email: string): PageConfirmation['atLimit'] {
  const limit = settings.bookingPage?.perEmail;
  if (limit === undefined || !email) return undefined;
  const held = futureBookingsOf(ctx, email);
  return held >= limit ? { held, limit } : undefined;
}

/** What the mails of `booking` are written from, as it stands (its reason's description: '' once removed). */
function factsOf(ctx: AppContext, booking: Booking): BookingFacts {
  return bookingFacts(requireConfigured(ctx), booking, findReason(ctx.store, booking.reasonId), listFields(ctx.store));
}

/** `YYYYMMDDTHHMMSSZ` of Unix seconds, as Google's link takes it. */
const compactUtc = (at: number) =>
  new Date(at * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Google's and Outlook's "add to calendar" links of `booking`: what the mails and the .ics say (what, with whom,
 * where, the reference and the self-service link); the location is the .ics's.
 */
function calendarLinks(
  settings: Settings,
  booking: Booking,
  facts: BookingFacts,
  manageUrl: string | undefined,
): PageConfirmation['calendar'] {
  const title = `${facts.reasonName} · ${settings.practiceName ?? ''}`; // in the customer's language
  const details = eventDetails(facts, manageUrl);
  const location = eventLocation(facts);
  const google = `https://calendar.google.com/calendar/render?${new URLSearchParams({ action: 'TEMPLATE', text: title, dates: `${compactUtc(booking.startAt)}/${compactUtc(booking.endAt)}`, details, location })}`;
  const outlook = `https://outlook.live.com/calendar/0/action/compose?${new URLSearchParams({ subject: title, startdt: new Date(booking.startAt * 1000).toISOString(), enddt: new Date(booking.endAt * 1000).toISOString(), body: details, location })}`;
  return { google, outlook };
}

/**
 * The self-service link of the confirmation of `booking`, made for this answer (as the mail makes its own: the token
 * exists in clear only here), when the page's deadline allows a change now; none for a form sent again (it is
 * pointed to the mail: no new link per resend).
 */
function confirmationLink(
  ctx: AppContext,
  settings: Settings,
  booking: Booking,
  replayed: boolean,
): { manageUrl: string; manageToken: string } | undefined {
  const now = unixSeconds(ctx.now());
  // Written now: a booking made inside the deadline gets no link (the confirmation shows the phone instead).
  const booked = { startAt: booking.startAt, cancelled: booking.status === 'cancelled' };
  if (manageActionAt(settings.portal, booked, now, now).kind !== 'link' || replayed) return undefined;
  const manageToken = createManageToken(ctx.store, booking.id, ctx.now().toISOString());
  return { manageUrl: manageUrlOf(settings.portal!.url, manageToken), manageToken };
}

/**
 * What was booked, from the booking itself: its reason or schedule may be gone since (`--force` keeps the bookings).
 */
function offerOfBooking(booking: Booking, description: string): Offer {
  return {
    scheduleId: booking.scheduleId,
    scheduleName: booking.scheduleName,
    reasonId: booking.reasonId,
    reasonName: booking.reasonName,
    description,
    minutes: Math.round((booking.endAt - booking.startAt) / 60),
  };
}

/** A slot's local text (`YYYY-MM-DD HH:MM:SS`) of the instant `at` (Unix seconds) in `timeZone`. */
function localSlot(at: number, timeZone: string): string {
  return `${formatLocal(new Date(at * 1000), timeZone)}:00`;
}

/** What the confirmation of `reference` shows; `replayed`: the form was sent again (no new self-service link). */
export function confirmation(
  ctx: AppContext,
  settings: Settings,
  reference: string,
  replayed: boolean,
): PageConfirmation {
  const booking = findBooking(ctx.store, reference)!;
  const link = confirmationLink(ctx, settings, booking, replayed);
  const facts = factsOf(ctx, booking);
  const series = seriesOfBooking(ctx, booking)?.dates.map((date) => ({
    local: localSlot(date.startAt, settings.timeZone!),
    status: date.status,
    reference: date.reference,
  }));
  const email = emailOf(booking.submission);
  const atLimit = limitReached(ctx, settings, email);
  return {
    booking,
    local: localSlot(booking.startAt, settings.timeZone!),
    offer: offerOfBooking({ ...booking, reasonName: facts.reasonName }, facts.reasonDescription),
    email,
    ...(atLimit ? { atLimit } : {}),
    ...(series ? { series } : {}),
    calendar: calendarLinks(settings, booking, facts, link?.manageUrl),
    ...(link ?? {}),
  };
}

/**
 * The calendar file of the booking `reference`: its own REQUEST or, cancelled, CANCEL (the same as its mails', a
 * date of a series too), or undefined when there is none; with `manageToken` (its confirmation's, the door having
 * checked that the confirmation made it), the self-service link.
 */
export function eventFile(ctx: AppContext, reference: string, manageToken?: string): string | undefined {
  const booking = findBooking(ctx.store, reference);
  if (!booking) return undefined;
  const cancelled = booking.status === 'cancelled';
  const portal = ctx.settings().portal;
  // The link of its confirmation, while the page is on and the booking stands (a cancelled one's file removes it).
  const manageUrl = manageToken && portal && !cancelled ? manageUrlOf(portal.url, manageToken) : undefined;
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  return bookingIcs(factsOf(ctx, booking), unixSeconds(ctx.now()), booking.sequence, method, manageUrl);
}
