/**
 * A customer's personal data: finding a person, and everything planner holds about
 * them, for an access request (GDPR art. 15). A customer is the record that groups bookings by e-mail address
 * (store/customers.ts); what each booking submitted is kept on the booking.
 */

import { emailProblem } from '../../domain/checks.ts';
import { formatLocal } from '../../domain/dates.ts';
import { callingCodeOf } from '../../domain/phone.ts';
import { AppError, invalid } from '../../errors.ts';
import { keptMessage } from '../../mail/messages.ts';
import { findCustomerIdByEmail } from '../../store/customers.ts';
import {
  changesOfBookings,
  customerBookings,
  customerOfReference,
  customerRecord,
  customerRowsMatching,
  deliveriesOfBookings,
  linksOfBookings,
  mailsOfBookings,
} from '../../store/personal-data.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/** One person found by `customer find`: their record, the names and phones their bookings carry, and the bookings. */
export interface CustomerMatch {
  customerId: number;
  email: string | null;
  names: string[];
  phones: string[];
  bookings: number;
  references: string[];
}

const REFERENCE = /^[23456789A-HJ-NP-Z]{16}$/;

/**
 * Returns the people with a booking that holds `text` by the search rule of `bookings list --search` (its name, e-mail
 * address, phone or reference: `bookingMatches` in store/bookings.ts), each with all their bookings counted; with
 * `scheduleIds`, found by and counted with those schedules' bookings only (the desk's practitioner: their own). One
 * query.
 */
export function findCustomers(ctx: AppContext, text: string, scheduleIds?: readonly number[]): CustomerMatch[] {
  const needle = text.trim();
  if (needle.length < 2)
    throw invalid(
      'give at least 2 characters to look for (a name, an e-mail address, a phone number or a booking reference)',
    );
  const settings = requireConfigured(ctx);
  const rows = customerRowsMatching(ctx.store, needle, callingCodeOf(settings.timeZone, settings.phone), scheduleIds);
  const found = new Map<number, CustomerMatch>();
  for (const row of rows) {
    if (scheduleIds !== undefined && !scheduleIds.includes(row.scheduleId)) continue;
    let match = found.get(row.customerId);
    if (!match) {
      match = { customerId: row.customerId, email: row.email, names: [], phones: [], bookings: 0, references: [] };
      found.set(row.customerId, match);
    }
    const submission = JSON.parse(row.submission) as Record<string, unknown>;
    const name = [submission.first_name, submission.last_name]
      .filter((part) => typeof part === 'string' && part !== '')
      .join(' ');
    if (name && !match.names.includes(name)) match.names.push(name);
    if (typeof submission.phone === 'string' && submission.phone !== '' && !match.phones.includes(submission.phone))
      match.phones.push(submission.phone);
    match.bookings++;
    match.references.push(row.reference);
  }
  return [...found.values()];
}

/** Returns the customer that `key` names: an e-mail address, or a booking reference (its customer). */
export function customerOf(ctx: AppContext, key: string): number {
  const text = key.trim();
  const nobody = () =>
    new AppError(
      'not_found',
      `no customer with the e-mail address or booking reference "${text}" (planner customer find <text> looks for one)`,
    );
  if (REFERENCE.test(text.toUpperCase())) {
    const id = customerOfReference(ctx.store, text.toUpperCase());
    if (id === undefined) throw nobody();
    return id;
  }
  // Anything else is an address, looked up by the one rule of the same address (emailKey). What is not an address is
  // refused, so that a lookalike of one (U+212A KELVIN SIGN for K) is told apart from an address nobody has.
  const problem = emailProblem(text);
  if (problem !== undefined)
    throw invalid(
      `"${text}" is not an e-mail address planner takes: ${problem}; type the address again, or give a booking reference (planner customer find <text> looks for one)`,
    );
  const id = findCustomerIdByEmail(ctx.store, text);
  if (id === undefined) throw nobody();
  return id;
}

/** Everything planner holds about one customer (`customer export`): JSON, times in UTC and local. */
export interface CustomerExport {
  exportedAt: string;
  customer: { id: number; email: string | null; createdAt: string };
  bookings: {
    id: number;
    reference: string;
    schedule: string;
    reason: string;
    start: string;
    localStart: string;
    status: string;
    source: string;
    createdAt: string;
    cancelReason: string | null;
    submission: Record<string, unknown>;
  }[];
  mails: {
    booking: string;
    kind: string;
    to: string;
    subject: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
    text: string;
    html: string;
    ics: string | null;
  }[];
  webhookDeliveries: {
    booking: string;
    type: string;
    url: string;
    status: string;
    createdAt: string;
    deliveredAt: string | null;
    payload: unknown;
  }[];
  selfService: { booking: string; linkMadeAt: string }[];
  changes: { booking: string; at: string; kind: string; by: string | null }[];
}

/** Returns everything planner holds about the customer `key` names (an e-mail address or a booking reference). */
export function exportCustomer(ctx: AppContext, key: string): CustomerExport {
  const settings = requireConfigured(ctx);
  const zone = settings.timeZone;
  const id = customerOf(ctx, key);
  const customer = customerRecord(ctx.store, id);
  const bookings = customerBookings(ctx.store, id).map(({ startAt, submission, ...row }) => ({
    ...row,
    start: new Date(startAt * 1000).toISOString(),
    localStart: formatLocal(new Date(startAt * 1000), zone),
    submission: JSON.parse(submission) as Record<string, unknown>,
  }));
  const referenceOf = new Map(bookings.map((booking) => [booking.id, booking.reference]));
  const ids = [...referenceOf.keys()];
  const mails = mailsOfBookings(ctx.store, ids).map((row) => {
    const body = JSON.parse(row.body) as { text?: string; html?: string; ics?: string };
    // The manage line as words, not the mark the sender fills in (it holds a NUL, and the link is not kept).
    const { text, html } = keptMessage({ text: body.text ?? '', html: body.html ?? '' }, settings.locale);
    return {
      booking: referenceOf.get(row.bookingId)!,
      kind: row.kind,
      to: row.recipient,
      subject: row.subject,
      status: row.status,
      createdAt: row.createdAt,
      sentAt: row.sentAt,
      text,
      html,
      ics: body.ics ?? null,
    };
  });
  const webhookDeliveries = deliveriesOfBookings(ctx.store, ids).map(({ payload, ...row }) => {
    const parsed = JSON.parse(payload) as { data: { booking_id: number } };
    return { booking: referenceOf.get(parsed.data.booking_id)!, ...row, payload: parsed };
  });
  const selfService = linksOfBookings(ctx.store, ids).map((row) => ({
    booking: referenceOf.get(row.bookingId)!,
    linkMadeAt: row.at,
  }));
  const changes = changesOfBookings(ctx.store, ids).map((row) => ({
    booking: referenceOf.get(row.bookingId)!,
    at: row.at,
    kind: row.kind,
    by: row.actor,
  }));
  return { exportedAt: ctx.now().toISOString(), customer, bookings, mails, webhookDeliveries, selfService, changes };
}
