import { invalid, notFound } from '../errors.ts';
import { isDay, localDay } from '../domain/values.ts';
import { localToUnix } from '../domain/zone.ts';
import { findBooking, listBookings, type Booking } from '../store/bookings.ts';
import type { AppContext } from './context.ts';
import { requireConfigured } from './installation.ts';
import { getSchedule } from './schedules.ts';

/** Returns the bookings from local day `fromDay` (default: today in the installation's zone), by start. */
export function bookings(ctx: AppContext, filter: { scheduleId?: number; fromDay?: string }): Booking[] {
  const settings = requireConfigured(ctx);
  const fromDay = filter.fromDay ?? localDay(ctx.now(), settings.timeZone);
  if (!isDay(fromDay)) throw invalid(`"${fromDay}" is not a calendar day YYYY-MM-DD`, 'from');
  if (filter.scheduleId !== undefined) getSchedule(ctx, filter.scheduleId);
  return listBookings(ctx.store, { fromAt: localToUnix(fromDay, 0, settings.timeZone), scheduleId: filter.scheduleId });
}

/** Returns one booking by id (`42`) or public reference. */
export function booking(ctx: AppContext, idOrReference: string): Booking {
  requireConfigured(ctx);
  const key = /^[1-9]\d{0,15}$/.test(idOrReference) ? Number(idOrReference) : idOrReference;
  const found = findBooking(ctx.store, key);
  if (!found) throw notFound(`booking ${idOrReference} does not exist (see \`planner bookings list\`)`);
  return found;
}
