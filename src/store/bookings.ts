/**
 * The bookings as the admin sees and changes them: the rows with the names they refer to (`planner bookings`, a
 * booking's page and mails), and the writes of a booking, a cancellation and a move. The other readers of the table
 * have modules of their own: the availability window (booked-times.ts), the practitioner's feed (feed-rows.ts) and
 * the log of changes the cache of free days follows (booking-changes.ts).
 */

import type { Buffers } from '../domain/blocking.ts';
import { asciiLower } from '../domain/checks.ts';
import { type LocalTexts, parseLocalTexts } from '../domain/languages.ts';
import type { Locale } from '../domain/locales.ts';
import { nationalDigits } from '../domain/phone.ts';
import { submittedCustomer } from '../domain/submission.ts';
import { nameSearchText, type Store, searchText } from './db.ts';

/** Which door made a booking: the API, the admin (`bookings add`), the booking page (migration 14), the front desk (19). */
export type BookingSource = 'api' | 'admin' | 'page' | 'desk';
/** Whether the customer came, as the desk marked it (migration 19); null: not marked. */
export type Attendance = 'arrived' | 'no_show';
export type BookingStatus = 'booked' | 'cancelled';

/** A booking as the admin sees it, with the names it refers to. Times are UTC instants in Unix seconds. */
export interface Booking {
  id: number;
  reference: string;
  scheduleId: number;
  scheduleName: string;
  reasonId: number;
  reasonName: string;
  customerId: number;
  customerName: string;
  customerFirstName: string;
  customerLastName: string;
  customerEmail: string | null;
  /** The phone number submitted with it ('' when none). */
  customerPhone: string;
  startAt: number;
  endAt: number;
  submission: Record<string, unknown>;
  source: BookingSource;
  createdAt: string;
  status: BookingStatus;
  /** The .ics SEQUENCE: 0 when booked, +1 for each move or cancellation. */
  sequence: number;
  changedAt: string | null;
  cancelReason: string | null;
  /** The series it was booked in (`bookings add --repeat`), or null. */
  seriesId: number | null;
  /** Whether the customer came (the desk marks it), or null. */
  attendance: Attendance | null;
  /** The staff's private note ('' for none): never in a mail, webhook, feed or calendar. */
  staffNote: string;
  /** The language its customer is served in (migration 20); null: the practice's own, as it is now. */
  locale: Locale | null;
  /** Its reason's name in other languages (`reason set --name fr=…`). */
  reasonNames: LocalTexts;
}

interface BookingRow {
  id: number;
  reference: string;
  schedule_id: number;
  schedule_name: string;
  reason_id: number;
  reason_name: string;
  customer_id: number;
  start_at: number;
  end_at: number;
  submission: string;
  source: BookingSource;
  created_at: string;
  status: BookingStatus;
  sequence: number;
  changed_at: string | null;
  cancel_reason: string | null;
  series_id: number | null;
  attendance: Attendance | null;
  staff_note: string;
  locale: Locale | null;
  reason_names: string;
}

/** Returns the start instants of the bookings still on (booked) that start at `fromAt` or later. */
export function upcomingStarts(store: Store, fromAt: number): number[] {
  return (
    store.sql("SELECT start_at FROM bookings WHERE status = 'booked' AND start_at >= ?").all(fromAt) as {
      start_at: number;
    }[]
  ).map((row) => row.start_at);
}

function toBooking(row: BookingRow): Booking {
  const submission = JSON.parse(row.submission) as Record<string, unknown>;
  return {
    id: row.id,
    reference: row.reference,
    scheduleId: row.schedule_id,
    scheduleName: row.schedule_name,
    reasonId: row.reason_id,
    reasonName: row.reason_name,
    customerId: row.customer_id,
    ...submittedCustomer(submission),
    startAt: row.start_at,
    endAt: row.end_at,
    submission,
    source: row.source,
    createdAt: row.created_at,
    status: row.status,
    sequence: row.sequence,
    changedAt: row.changed_at,
    cancelReason: row.cancel_reason,
    seriesId: row.series_id,
    attendance: row.attendance,
    staffNote: row.staff_note,
    locale: row.locale,
    reasonNames: parseLocalTexts(row.reason_names),
  };
}

const SELECT = `
  SELECT b.id, b.reference, b.schedule_id, s.name AS schedule_name, b.reason_id, r.name AS reason_name,
         b.customer_id, b.start_at, b.end_at, b.submission, b.source, b.created_at,
         b.status, b.sequence, b.changed_at, b.cancel_reason, b.series_id, b.attendance, b.staff_note, b.locale,
         r.names AS reason_names
  FROM bookings b
  JOIN schedules s ON s.id = b.schedule_id
  JOIN reasons r ON r.id = b.reason_id`;

/** What `planner bookings list` asks for: a range of starts, and optionally a schedule, a status and a search text. */
export interface BookingFilter {
  /** First start (Unix seconds), inclusive. */
  fromAt: number;
  /** End of the range (Unix seconds), exclusive; none: open. */
  toAt?: number;
  scheduleId?: number;
  status?: BookingStatus;
  /** Part of the name (first and last), e-mail, phone or reference (`bookingMatches`). */
  search?: string;
  /** The practice's calling code, for phone numbers in the search (domain/phone.ts). */
  callingCode?: string;
}

/**
 * The one search rule (`bookings list --search`, `customer find`, the desk), as a condition on the booking `b` and its
 * parameters, for the parameters of `bookingSearch` (through the search's index, booking_search; a row not in it is
 * folded when searched, FOLDED_MATCHES): its reference or its phone holds the text folded as `searchText` folds both (case,
 * Unicode compatibility forms); its name (first and last together) holds it folded as `nameSearchText` folds both
 * (accents and umlaut spellings too: `mueller` and `muller` find `Müller`); its phone's national number holds the
 * text's when the text is written like a phone number, in the practice's country (`0170 2223334`, `+49 170 2223334`
 * and `01702223334` find one another: domain/phone.ts), or its digits hold the text's digits as typed (`040123456`
 * finds `040 123 456`, `4930 555` finds `+49 30 555`); or its e-mail address
 * holds the text with A-Z lower-cased only (`asciiLower`, as `emailKey` compares addresses: no folding makes a
 * lookalike letter find an address).
 */
/** The rule of `bookingMatches` on booking `u` folded when searched: for a row without its index entry (`searched` NULL). */
const FOLDED_MATCHES = `(instr(planner_search(u.reference), :search) > 0
  OR instr(planner_name(concat_ws(' ', u.submission ->> '$.first_name', u.submission ->> '$.last_name')), :name) > 0
  OR instr(planner_search(u.submission ->> '$.phone'), :search) > 0
  OR (:digits <> '' AND instr(planner_phone(u.submission ->> '$.phone', ''), :digits) > 0)
  OR (:national <> '' AND instr(planner_phone(u.submission ->> '$.phone', :cc), :national) > 0)
  OR instr(planner_email(u.submission ->> '$.email'), :email) > 0)`;

export function bookingMatches(search: SearchParameters): { sql: string; params: Record<string, string | null> } {
  const unions: string[] = [];
  const params: Record<string, string | null> = {
    search: search.search,
    name: search.name,
    digits: search.digits,
    national: search.national,
    cc: search.cc,
    email: search.email,
  };
  const through = (column: string, name: string, glob: string | null) => {
    if (glob === null) return; // nothing to find: not asked (an empty pattern would scan the whole index)
    unions.push(`SELECT rowid FROM booking_search WHERE ${column} GLOB :${name}`);
    params[name] = glob;
  };
  through('name', 'nameGlob', search.nameGlob);
  through('other', 'searchGlob', search.searchGlob);
  through('email', 'emailGlob', search.emailGlob);
  through('digits', 'digitsGlob', search.digitsGlob);
  through('digits', 'nationalGlob', search.nationalGlob);
  unions.push(`SELECT id FROM bookings u WHERE u.searched IS NULL AND ${FOLDED_MATCHES}`);
  return { sql: `b.id IN (${unions.join(' UNION ')})`, params };
}

/** A GLOB pattern that finds `text` anywhere (its `*`, `?` and `[` taken as themselves); null for '' (finds nothing). */
function anywhere(text: string): string | null {
  return text === '' ? null : `*${text.replace(/[*?[]/g, (char) => `[${char}]`)}*`;
}

/**
 * The folded forms the search compares, kept in its index with a booking when it is written (`insertBooking`;
 * migration 19): its name as `nameSearchText` folds it, its reference and phone as `searchText` does, its phone's
 * digits (a number in any of its forms holds the practice's national number: domain/phone.ts), its address as
 * `asciiLower`. A row without them (written by another program) is folded when searched, by the same rule.
 */
export function searchKeys(reference: string, submission: Record<string, unknown>): string[] {
  const text = (key: string) => (typeof submission[key] === 'string' ? (submission[key] as string) : '');
  const name = [text('first_name'), text('last_name')].filter((part) => part !== '').join(' ');
  return [
    nameSearchText(name),
    `${searchText(reference)}\n${searchText(text('phone'))}`,
    nationalDigits(text('phone'), ''),
    asciiLower(text('email')),
  ];
}

/** The parameters of the search (`bookingMatches`). */
export interface SearchParameters {
  search: string;
  name: string;
  digits: string;
  national: string;
  cc: string;
  email: string;
  nameGlob: string | null;
  searchGlob: string | null;
  emailGlob: string | null;
  digitsGlob: string | null;
  nationalGlob: string | null;
}

/**
 * Returns the parameters of the search (`bookingMatches`) for a search text (trimmed), phone numbers read in the country of
 * `callingCode` (domain/phone.ts: `0170 2223334` and `+49 170 2223334` are one number in Germany).
 */
export function bookingSearch(text: string, callingCode: string): SearchParameters {
  const needle = text.trim();
  const folded = {
    search: searchText(needle),
    name: nameSearchText(needle),
    digits: nationalDigits(needle, ''),
    national: nationalDigits(needle, callingCode),
    cc: callingCode,
    email: asciiLower(needle),
  };
  return {
    ...folded,
    nameGlob: anywhere(folded.name),
    searchGlob: anywhere(folded.search),
    emailGlob: anywhere(folded.email),
    digitsGlob: anywhere(folded.digits),
    nationalGlob: anywhere(folded.national),
  };
}

/**
 * Returns the bookings that start in the filter's range, by start: one statement for every combination of filters
 * (a range of bookings_by_start; the other conditions are checked on its rows). The search is `bookingMatches`.
 */
export function listBookings(store: Store, filter: BookingFilter): Booking[] {
  const search =
    filter.search === undefined
      ? { sql: '1', params: {} }
      : bookingMatches(bookingSearch(filter.search, filter.callingCode ?? ''));
  const rows = store
    .sql(
      `${SELECT}
       WHERE b.start_at >= :from AND b.start_at < :to
         AND (:schedule IS NULL OR b.schedule_id = :schedule)
         AND (:status IS NULL OR b.status = :status)
         AND ${search.sql}
       ORDER BY b.start_at, b.id`,
    )
    .all({
      from: filter.fromAt,
      to: filter.toAt ?? Number.MAX_SAFE_INTEGER,
      schedule: filter.scheduleId ?? null,
      status: filter.status ?? null,
      ...search.params,
    });
  return (rows as unknown as BookingRow[]).map(toBooking);
}

/** Returns the booking with this id or public reference. */
export function findBooking(store: Store, idOrReference: number | string): Booking | undefined {
  const row =
    typeof idOrReference === 'number'
      ? store.sql(`${SELECT} WHERE b.id = ?`).get(idOrReference)
      : store.sql(`${SELECT} WHERE b.reference = ?`).get(idOrReference);
  return row ? toBooking(row as unknown as BookingRow) : undefined;
}

/** Returns the bookings of one customer record, by start (one range of bookings_by_customer). */
export function bookingsOfCustomer(store: Store, customerId: number): Booking[] {
  const rows = store.sql(`${SELECT} WHERE b.customer_id = ? ORDER BY b.start_at, b.id`).all(customerId);
  return (rows as unknown as BookingRow[]).map(toBooking);
}

/**
 * Returns the bookings (booked and cancelled) of `scheduleIds` that start in [from, to), by start: the desk's day and
 * week (one range of bookings_by_start, whatever the number of schedules).
 */
export function bookingsOfSchedules(store: Store, scheduleIds: readonly number[], from: number, to: number): Booking[] {
  const rows = store
    .sql(
      `${SELECT} WHERE b.start_at >= ? AND b.start_at < ? AND b.schedule_id IN (SELECT value FROM json_each(?))
       ORDER BY b.start_at, b.id`,
    )
    .all(from, to, JSON.stringify(scheduleIds)) as unknown as BookingRow[];
  return rows.map(toBooking);
}

/** Returns every booking of a series, by start: one range of the index bookings_by_series. */
export function listSeriesBookings(store: Store, seriesId: number): Booking[] {
  const rows = store.sql(`${SELECT} WHERE b.series_id = ? ORDER BY b.start_at, b.id`).all(seriesId);
  return (rows as unknown as BookingRow[]).map(toBooking);
}

/** Returns how many bookings start at or after `fromAt`, in one schedule or for one reason. */
export function countFutureBookings(
  store: Store,
  by: { scheduleId: number } | { reasonId: number },
  fromAt: number,
): number {
  const row =
    'scheduleId' in by
      ? store
          .sql("SELECT COUNT(*) AS n FROM bookings WHERE schedule_id = ? AND start_at >= ? AND status = 'booked'")
          .get(by.scheduleId, fromAt)
      : store
          .sql("SELECT COUNT(*) AS n FROM bookings WHERE reason_id = ? AND start_at >= ? AND status = 'booked'")
          .get(by.reasonId, fromAt);
  return (row as { n: number }).n;
}

/** Inserts a booking row and returns its id. Call inside the transaction that checked the slot. */
export function insertBooking(
  store: Store,
  booking: {
    reference: string;
    scheduleId: number;
    reasonId: number;
    customerId: number;
    startAt: number;
    endAt: number;
    submission: Record<string, unknown>;
    source: BookingSource;
    createdAt: string;
    /** Seconds kept free before and after it (its reason's buffers when booked). */
    buffers: Buffers;
    /** The series it belongs to, if any. */
    seriesId?: number | null;
    /** The customer's language; null or absent: the practice's own. */
    locale?: Locale | null;
  },
): number {
  const result = store
    .sql(
      `INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at, buffer_before, buffer_after, series_id, locale, searched)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
    )
    .run(
      booking.reference,
      booking.scheduleId,
      booking.reasonId,
      booking.customerId,
      booking.startAt,
      booking.endAt,
      JSON.stringify(booking.submission),
      booking.source,
      booking.createdAt,
      booking.buffers.before,
      booking.buffers.after,
      booking.seriesId ?? null,
      booking.locale ?? null,
    );
  const id = Number(result.lastInsertRowid);
  store
    .sql('INSERT INTO booking_search (rowid, name, other, digits, email) VALUES (?, ?, ?, ?, ?)')
    .run(id, ...searchKeys(booking.reference, booking.submission));
  return id;
}

/** Marks a booking cancelled (with the admin's reason) and counts the change in its sequence. */
export function cancelBookingRow(store: Store, id: number, reason: string | null, at: string): void {
  store
    .sql(
      "UPDATE bookings SET status = 'cancelled', cancel_reason = ?, sequence = sequence + 1, changed_at = ? WHERE id = ? AND status = 'booked'",
    )
    .run(reason, at, id);
}

/**
 * Moves a booking to a new interval (with its reason's buffers as they are now), and to another schedule offering its
 * reason where the customer chose one, keeping its id and reference; counts the change in its sequence.
 */
export function moveBookingRow(
  store: Store,
  id: number,
  to: { scheduleId: number; startAt: number; endAt: number; buffers: Buffers },
  at: string,
): void {
  store
    .sql(
      'UPDATE bookings SET schedule_id = ?, start_at = ?, end_at = ?, buffer_before = ?, buffer_after = ?, sequence = sequence + 1, changed_at = ? WHERE id = ?',
    )
    .run(to.scheduleId, to.startAt, to.endAt, to.buffers.before, to.buffers.after, at, id);
}

/** Returns how many bookings (not cancelled) that begin after `now` the customer with e-mail key `key` holds. */
export function countFutureBookingsOfKey(store: Store, key: string, now: number): number {
  const row = store
    .sql(
      `SELECT count(*) AS n FROM bookings b JOIN customers c ON c.id = b.customer_id
       WHERE c.email_key = ? AND b.status = 'booked' AND b.start_at > ?`,
    )
    .get(key, now) as { n: number };
  return row.n;
}

/** Sets whether the customer came (the desk's mark), or clears it (null). Not a change of the booking: no sequence. */
export function setAttendance(store: Store, id: number, attendance: Attendance | null): void {
  store.sql('UPDATE bookings SET attendance = ? WHERE id = ?').run(attendance, id);
}

/** Sets the staff's private note of a booking ('' for none). */
export function setStaffNote(store: Store, id: number, note: string): void {
  store.sql('UPDATE bookings SET staff_note = ? WHERE id = ?').run(note, id);
}

/** Keeps `locale` as the language of the customer of bookings `ids` (their mails and pages from now on). */
export function setBookingLocale(store: Store, ids: readonly number[], locale: Locale): void {
  store
    .sql('UPDATE bookings SET locale = ? WHERE id IN (SELECT value FROM json_each(?))')
    .run(locale, JSON.stringify(ids));
}
