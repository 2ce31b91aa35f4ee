import { isIdText } from '../../domain/checks.ts';
import { isDay, localDay } from '../../domain/dates.ts';
import { dayNumber, dayText, isoWeekday } from '../../domain/days.ts';
import { callingCodeOf } from '../../domain/phone.ts';
import { localToUnix } from '../../domain/zone.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { type Booking, type BookingStatus, findBooking, listBookings } from '../../store/bookings.ts';
import { type FormField, listFields } from '../../store/fields.ts';
import { findSeriesByReference } from '../../store/series.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { getSchedule } from '../practice/schedules.ts';
import { type AnyBooking, createAnyBooking } from './any-practitioner.ts';
import { type CreatedBooking, createBooking } from './create-booking.ts';
import { customerLocale } from './language.ts';
import { type CreatedSeries, createSeries, type SeriesOrder } from './series.ts';

/** What `planner bookings list` filters by (options as typed). */
export interface BookingListFilter {
  scheduleId?: number;
  /** First local day `YYYY-MM-DD` or `today` (default: today in the installation's zone). */
  fromDay?: string;
  /** Last local day, inclusive, `YYYY-MM-DD` or `today`. */
  toDay?: string;
  /** `today` (that one day) or `week` (Monday to Sunday of this week); instead of fromDay and toDay. */
  period?: 'today' | 'week';
  /** `booked` (the default), `cancelled` or `all`. */
  status?: string;
  /** Part of a name, e-mail, phone or reference, in any case. */
  search?: string;
}

/** The `--status` values of `bookings list`: the first is the default (cancelled bookings hidden). */
export const LIST_STATUSES = ['booked', 'cancelled', 'all'] as const;

/** Longest `--search` text (a name is at most 200 characters). */
const SEARCH_MAX_LENGTH = 200;

/** Returns `day` as a calendar day (`today` is today in the installation's zone), or refuses it naming `option`. */
function listDay(day: string, option: '--from' | '--to', today: string): string {
  if (day === 'today') return today;
  if (!isDay(day)) throw invalid(`${option} "${day}" is not a calendar day YYYY-MM-DD (or today)`, option.slice(2));
  return day;
}

/**
 * Returns the local days `[first, last]` the filter asks for: `today`; `week`, Monday to Sunday of the week holding
 * today (ISO 8601, as most of Europe's calendars show it); or `--from` (default today) to `--to` (default open).
 */
function listDays(filter: BookingListFilter, today: string): { fromDay: string; toDay?: string } {
  if (filter.period !== undefined) {
    const given = filter.fromDay !== undefined ? '--from' : filter.toDay !== undefined ? '--to' : undefined;
    if (given) throw invalid(`--${filter.period} names the days itself: leave out ${given}`, given.slice(2));
    if (filter.period === 'today') return { fromDay: today, toDay: today };
    const monday = dayNumber(today) - (isoWeekday(dayNumber(today)) - 1);
    return { fromDay: dayText(monday), toDay: dayText(monday + 6) };
  }
  const fromDay = filter.fromDay === undefined ? today : listDay(filter.fromDay, '--from', today);
  const toDay = filter.toDay === undefined ? undefined : listDay(filter.toDay, '--to', today);
  if (toDay !== undefined && toDay < fromDay) {
    throw invalid(
      `--to ${toDay} is before the first day, ${fromDay}${filter.fromDay === undefined ? ' (today; give --from for earlier days)' : ''}`,
      'to',
    );
  }
  return { fromDay, toDay };
}

/** Returns the bookings the filter names, by start: one query (store/bookings.ts), whatever the filters. */
export function listBookingsFrom(ctx: AppContext, filter: BookingListFilter): Booking[] {
  const settings = requireConfigured(ctx);
  const { fromDay, toDay } = listDays(filter, localDay(ctx.now(), settings.timeZone));
  const status = filter.status ?? LIST_STATUSES[0];
  if (!(LIST_STATUSES as readonly string[]).includes(status)) {
    throw invalid(
      `--status must be ${LIST_STATUSES.join(', ').replace(/, (?=[^,]*$)/, ' or ')} (got "${status}")`,
      'status',
    );
  }
  // A reference the list cut (`LISTAAAA…`) is found by the part shown, also when copied with its `…`.
  const search = filter.search?.trim().replace(/^…|…$/g, '').trim();
  if (search === '')
    throw invalid('--search needs some text: part of a name, an e-mail, a phone number or a reference', 'search');
  if (search !== undefined && search.length > SEARCH_MAX_LENGTH)
    throw invalid(`--search must be at most ${SEARCH_MAX_LENGTH} characters (got ${search.length})`, 'search');
  if (filter.scheduleId !== undefined) getSchedule(ctx, filter.scheduleId);
  return listBookings(ctx.store, {
    fromAt: localToUnix(fromDay, 0, settings.timeZone),
    toAt: toDay === undefined ? undefined : localToUnix(dayText(dayNumber(toDay) + 1), 0, settings.timeZone),
    scheduleId: filter.scheduleId,
    status: status === 'all' ? undefined : (status as BookingStatus),
    search,
    callingCode: callingCodeOf(settings.timeZone, settings.phone),
  });
}

/** Returns one booking by id (`42`) or public reference, or throws `not_found`. */
export function requireBooking(ctx: AppContext, idOrReference: string): Booking {
  requireConfigured(ctx);
  const key = isIdText(idOrReference) ? Number(idOrReference) : idOrReference;
  const found = findBooking(ctx.store, key);
  if (found) return found;
  // The reference of a series names no booking: say which of its dates to give instead.
  const series = typeof key === 'string' ? findSeriesByReference(ctx.store, key) : undefined;
  if (series)
    throw notFound(
      `${idOrReference} is a series of ${series.dates.length} dates, not a booking: give one of its dates, e.g. planner bookings show ${series.dates[0]!.reference}`,
    );
  throw notFound(`booking ${idOrReference} does not exist (see \`planner bookings list\`)`);
}

/** Returns the submission the admin's `key=value` pairs make: checkbox fields take true/false (also yes/no, 1/0). */
function submissionOf(form: FormField[], pairs: string[]): Record<string, unknown> {
  const checkboxes = new Set(form.filter((field) => field.formType === 'checkbox').map((field) => field.key));
  // Built from entries: a key such as `__proto__` becomes an own (unknown) field, refused as the API refuses it.
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw invalid(`--field "${pair}" must be key=value (example: --field first_name=Ada)`);
      const key = pair.slice(0, at);
      const value = pair.slice(at + 1);
      return [key, checkboxes.has(key) ? ['true', 'yes', '1'].includes(value.toLowerCase()) : value];
    }),
  );
}

/** Runs an admin's booking (`book`) of the `key=value` pairs, turning a refused form value into the CLI's line. */
function asAdmin<T>(ctx: AppContext, pairs: string[], book: (submission: Record<string, unknown>) => T): T {
  const form = listFields(ctx.store);
  try {
    return book(submissionOf(form, pairs));
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid' && error.field)
      throw invalid(fieldRefusal(form, pairs, error), error.field);
    throw error;
  }
}

/**
 * Books a slot from the admin's `key=value` pairs through the same path as the API (source `admin`).
 * Checkbox fields take true/false (also yes/no, 1/0); everything else is text.
 */
export function addBooking(
  ctx: AppContext,
  order: { scheduleId: number; reasonId: number; slot: string; values: string[]; language?: string },
): CreatedBooking {
  const locale = customerLocale(ctx, order.language);
  return asAdmin(ctx, order.values, (submission) =>
    createBooking(
      ctx,
      { scheduleId: order.scheduleId, reasonId: order.reasonId, slot: order.slot, submission },
      'admin',
      'admin',
      { locale },
    ),
  );
}

/** Books a series (`bookings add --repeat … --count …`) from the admin's pairs, as `addBooking` books one time. */
export function addSeries(
  ctx: AppContext,
  order: Omit<SeriesOrder, 'submission'> & { values: string[]; language?: string },
): CreatedSeries {
  const locale = customerLocale(ctx, order.language);
  return asAdmin(ctx, order.values, (submission) =>
    createSeries(ctx, { ...order, submission }, 'admin', 'admin', { locale }),
  );
}

/**
 * Books a slot from the admin's `key=value` pairs with whichever schedule offering the reason is free then
 * (app/bookings/any-practitioner.ts: the choice is made in the booking's transaction), source `admin`.
 */
export function addAnyBooking(
  ctx: AppContext,
  order: { reasonId: number; slot: string; values: string[]; language?: string },
): AnyBooking {
  const locale = customerLocale(ctx, order.language);
  return asAdmin(ctx, order.values, (submission) =>
    createAnyBooking(ctx, { reasonId: order.reasonId, slot: order.slot, submission }, 'admin', 'admin', { locale }),
  );
}

/**
 * Returns the CLI's line for a form value the submission check refused: the option as typed with the value given,
 * and what would fit (a select's options, the form's keys). The API keeps the spec's texts (`Must be one of the options`).
 */
function fieldRefusal(form: FormField[], pairs: string[], error: AppError): string {
  const key = error.field!;
  const field = form.find((candidate) => candidate.key === key);
  const pair = pairs.findLast((candidate) => candidate.startsWith(`${key}=`));
  if (error.message === 'Field is required') return `--field ${key} is required (example: --field ${key}=…)`;
  if (!field)
    return `--field ${pair ?? key}: no such field (the form has ${form.map((known) => known.key).join(', ')})`;
  const what = error.message.charAt(0).toLowerCase() + error.message.slice(1);
  const hint =
    field.formType === 'select'
      ? `: ${field.options.join(', ')}`
      : field.formType === 'checkbox'
        ? ' (true or false)'
        : '';
  return `--field ${pair ?? key}: ${what}${hint}`;
}
