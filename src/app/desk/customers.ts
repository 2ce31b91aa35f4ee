/**
 * Customers at the desk: found by the one search rule of `bookings list --search` and `customer find` (a name in any
 * spelling, a phone as people type it in the practice's country, an e-mail address or a reference), and one customer's
 * bookings with their no-shows. A practitioner finds and sees only customers with a booking on their schedules, and
 * only those bookings.
 */

import { callingCodeOf } from '../../domain/phone.ts';
import { invalid } from '../../errors.ts';
import { type Booking, bookingsOfCustomer } from '../../store/bookings.ts';
import { customerRowsMatching } from '../../store/personal-data.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
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

/** The customers with a booking that matches `text` (at least 2 characters), those `person` sees; at most CUSTOMERS_LISTED. */
export function deskCustomers(ctx: AppContext, person: DeskPerson, text: string): DeskCustomer[] {
  const needle = text.trim();
  if (needle.length < 2 || needle.length > 200) throw invalid('give 2 to 200 characters to look for', 'q');
  const settings = requireConfigured(ctx);
  const rows = customerRowsMatching(ctx.store, needle, callingCodeOf(settings.timeZone, settings.phone));
  const found = new Map<number, DeskCustomer>();
  for (const row of rows) {
    if (!seesSchedule(person, row.scheduleId)) continue;
    let customer = found.get(row.customerId);
    if (!customer) {
      if (found.size >= CUSTOMERS_LISTED) continue;
      customer = { id: row.customerId, names: [], phones: [], email: row.email, bookings: 0, latest: row.reference };
      found.set(row.customerId, customer);
    }
    const submission = JSON.parse(row.submission) as Record<string, unknown>;
    const name = [submission.first_name, submission.last_name]
      .filter((part) => typeof part === 'string' && part !== '')
      .join(' ');
    if (name && !customer.names.includes(name)) customer.names.unshift(name);
    if (typeof submission.phone === 'string' && submission.phone !== '' && !customer.phones.includes(submission.phone))
      customer.phones.unshift(submission.phone);
    customer.bookings++;
    customer.latest = row.reference; // rows come by booking id: the last one is the latest made
  }
  return [...found.values()];
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
