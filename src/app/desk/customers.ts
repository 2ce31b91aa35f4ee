/**
 * Customers at the desk: found by the one search rule of `bookings list --search` and `customer find` (a name in any
 * spelling, a phone as people type it in the practice's country, an e-mail address or a reference), and one customer's
 * bookings with their no-shows. A practitioner finds and sees only customers with a booking on their schedules, and
 * only those bookings.
 */

import { invalid } from '../../errors.ts';
import { type Booking, bookingsOfCustomer } from '../../store/bookings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { findCustomers } from '../customers/customers.ts';
import { type DeskPerson, seesSchedule } from './agenda.ts';

/** The most customers one search lists. */
export const CUSTOMERS_LISTED = 50;

/** A customer as the desk lists them. */
export interface DeskCustomer {
  id: number;
  names: string[];
  phones: string[];
  email: string | null;
  bookings: number;
  /** Their latest booking's reference (a booking for them starts from it). */
  latest: string;
}

/**
 * The customers with a booking that matches `text` (2 to 200 characters) by the one search rule (`findCustomers`, as
 * `customer find`), with only the bookings `person` sees; at most CUSTOMERS_LISTED.
 */
export function deskCustomers(ctx: AppContext, person: DeskPerson, text: string): DeskCustomer[] {
  if (text.trim().length > 200) throw invalid('give 2 to 200 characters to look for', 'q');
  const seen = person.role === 'practitioner' ? person.schedules : undefined;
  return findCustomers(ctx, text, seen)
    .slice(0, CUSTOMERS_LISTED)
    .map((match) => ({
      id: match.customerId,
      names: match.names,
      phones: match.phones,
      email: match.email,
      bookings: match.bookings,
      latest: match.references.at(-1)!, // rows come by booking id: the last one is the latest made
    }));
}

/** One customer as the desk shows them: their bookings `person` sees, upcoming and past, and their no-shows. */
export interface DeskCustomerView {
  name: string;
  email: string | null;
  phones: string[];
  upcoming: Booking[];
  past: Booking[];
  noShows: number;
  latest: string;
}

/** The customer of record `id` with the bookings `person` sees; undefined when none (as for one that does not exist). */
export function deskCustomer(ctx: AppContext, person: DeskPerson, id: number): DeskCustomerView | undefined {
  const bookings = bookingsOfCustomer(ctx.store, id).filter((booking) => seesSchedule(person, booking.scheduleId));
  if (bookings.length === 0) return undefined;
  const now = unixSeconds(ctx.now());
  const latest = bookings.reduce((a, b) => (b.id > a.id ? b : a));
  const phones = [...new Set(bookings.map((booking) => booking.customerPhone).filter(Boolean))];
  return {
    name: latest.customerName || latest.customerEmail || latest.reference,
    email: latest.customerEmail,
    phones,
    upcoming: bookings.filter((booking) => booking.endAt > now),
    past: bookings.filter((booking) => booking.endAt <= now).reverse(),
    noShows: bookings.filter((booking) => booking.attendance === 'no_show').length,
    latest: latest.reference,
  };
}
