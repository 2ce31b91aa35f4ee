import { AppError, invalid, notFound } from '../errors.ts';
import { listFields } from '../store/fields.ts';
import { createBooking, type CreatedBooking } from './create-booking.ts';
import { isIdText } from '../domain/checks.ts';
import { isDay, localDay } from '../domain/dates.ts';
import { localToUnix } from '../domain/zone.ts';
import { findBooking, listBookings, type Booking } from '../store/bookings.ts';
import type { AppContext } from './context.ts';
import { requireConfigured } from './installation.ts';
import { getSchedule } from './schedules.ts';

/** Returns the bookings from local day `fromDay` (default: today in the installation's zone), by start. */
export function listBookingsFrom(ctx: AppContext, filter: { scheduleId?: number; fromDay?: string }): Booking[] {
  const settings = requireConfigured(ctx);
  const fromDay = filter.fromDay ?? localDay(ctx.now(), settings.timeZone);
  if (!isDay(fromDay)) throw invalid(`"${fromDay}" is not a calendar day YYYY-MM-DD`, 'from');
  if (filter.scheduleId !== undefined) getSchedule(ctx, filter.scheduleId);
  return listBookings(ctx.store, { fromAt: localToUnix(fromDay, 0, settings.timeZone), scheduleId: filter.scheduleId });
}

/** Returns one booking by id (`42`) or public reference, or throws `not_found`. */
export function requireBooking(ctx: AppContext, idOrReference: string): Booking {
  requireConfigured(ctx);
  const key = isIdText(idOrReference) ? Number(idOrReference) : idOrReference;
  const found = findBooking(ctx.store, key);
  if (!found) throw notFound(`booking ${idOrReference} does not exist (see \`planner bookings list\`)`);
  return found;
}

/**
 * Books a slot from the admin's `key=value` pairs through the same path as the API (source `admin`).
 * Checkbox fields take true/false (also yes/no, 1/0); everything else is text.
 */
export function addBooking(ctx: AppContext, order: { scheduleId: number; reasonId: number; slot: string; values: string[] }): CreatedBooking {
  const checkboxes = new Set(listFields(ctx.store).filter((field) => field.formType === 'checkbox').map((field) => field.key));
  // Built from entries: a key such as `__proto__` becomes an own (unknown) field, refused as the API refuses it.
  const submission: Record<string, unknown> = Object.fromEntries(
    order.values.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw invalid(`--field "${pair}" must be key=value (example: --field first_name=Ada)`);
      const key = pair.slice(0, at);
      const value = pair.slice(at + 1);
      return [key, checkboxes.has(key) ? ['true', 'yes', '1'].includes(value.toLowerCase()) : value];
    }),
  );
  try {
    return createBooking(ctx, { scheduleId: order.scheduleId, reasonId: order.reasonId, slot: order.slot, submission }, 'admin');
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid' && error.field) throw invalid(`--field ${error.field}: ${error.message}`, error.field);
    throw error;
  }
}
