/**
 * What the desk shows of the day and the week: per practitioner (schedule) the bookings, booked and cancelled, and the
 * free gaps of the opening hours between them. Who sees what: admin and reception every schedule, a practitioner
 * their own (`visibleSchedules`); a booking of another schedule is, for them, one that does not exist (`deskBooking`).
 * Reads: one query for the bookings of every schedule shown, and per schedule its hours, extra hours, closures and
 * busy times (a handful of schedules, never a query per booking or per day).
 */
import { closureOn, extraByDay, openRanges } from '../../domain/availability.ts';
import { dayNumber } from '../../domain/days.ts';
import { localToUnix } from '../../domain/zone.ts';
import { type Booking, bookingsOfSchedules, findBooking } from '../../store/bookings.ts';
import { busyIntervals } from '../../store/busy-times.ts';
import { listClosures } from '../../store/closures.ts';
import { readExtraHours, readWeeklyHours } from '../../store/hours.ts';
import { listSchedules, type Schedule } from '../../store/schedules.ts';
import { type StaffRow, staffById } from '../../store/staff.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/** The person at the desk a session belongs to. */
export type DeskPerson = Pick<StaffRow, 'id' | 'name' | 'email' | 'role' | 'schedules'>;

/** The person of `staffId` (a session's), unless removed. */
export function deskPerson(ctx: AppContext, staffId: number): DeskPerson | undefined {
  return staffById(ctx.store, staffId);
}

/** The schedules `person` sees: every one for admin and reception, their own for a practitioner. */
export function visibleSchedules(ctx: AppContext, person: DeskPerson): Schedule[] {
  const all = listSchedules(ctx.store);
  return person.role === 'practitioner' ? all.filter((one) => person.schedules.includes(one.id)) : all;
}

/** True when `person` may see (and, by role, change) the bookings of `scheduleId`. */
export function seesSchedule(person: DeskPerson, scheduleId: number): boolean {
  return person.role !== 'practitioner' || person.schedules.includes(scheduleId);
}

/** The booking of `reference` when `person` may see it; else undefined, as for one that does not exist. */
export function deskBooking(ctx: AppContext, person: DeskPerson, reference: string): Booking | undefined {
  if (!/^[23456789A-HJ-NP-Z]{16}$/.test(reference)) return undefined;
  const booking = findBooking(ctx.store, reference);
  return booking && seesSchedule(person, booking.scheduleId) ? booking : undefined;
}

/** Gaps shorter than this are not shown as free. */
const GAP_MIN_SECONDS = 5 * 60;

/** One line of a practitioner's day: a booking, or a free gap of the opening hours (instants, Unix seconds). */
export type AgendaItem = { kind: 'booking'; booking: Booking } | { kind: 'free'; startAt: number; endAt: number };

/** A practitioner's day: its lines in time order, and whether a closure (an absence) closes it. */
export interface AgendaDay {
  day: string;
  items: AgendaItem[];
  closed: boolean;
}

/** One practitioner's days. */
export interface AgendaColumn {
  schedule: Pick<Schedule, 'id' | 'name'>;
  days: AgendaDay[];
}

/** The day `count` days after `day` (`YYYY-MM-DD`). */
export function dayPlus(day: string, count: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** `open` (sorted, disjoint instants) minus `taken` (any order): what stays free, gaps of at least GAP_MIN_SECONDS. */
function freeGaps(
  open: readonly { startAt: number; endAt: number }[],
  taken: readonly { startAt: number; endAt: number }[],
): { startAt: number; endAt: number }[] {
  const sorted = [...taken].sort((a, b) => a.startAt - b.startAt);
  const gaps: { startAt: number; endAt: number }[] = [];
  for (const range of open) {
    let cursor = range.startAt;
    for (const one of sorted) {
      if (one.endAt <= cursor || one.startAt >= range.endAt) continue;
      if (one.startAt - cursor >= GAP_MIN_SECONDS) gaps.push({ startAt: cursor, endAt: one.startAt });
      cursor = Math.max(cursor, one.endAt);
    }
    if (range.endAt - cursor >= GAP_MIN_SECONDS) gaps.push({ startAt: cursor, endAt: range.endAt });
  }
  return gaps;
}

/**
 * The agenda of `schedules` for `count` local days from `firstDay`: per schedule and day its bookings (booked and
 * cancelled) and the free gaps of its opening hours, the busy times of its calendars and its booked times taken out.
 */
export function agenda(
  ctx: AppContext,
  schedules: readonly Pick<Schedule, 'id' | 'name'>[],
  firstDay: string,
  count: number,
): AgendaColumn[] {
  const zone = requireConfigured(ctx).timeZone;
  const days = Array.from({ length: count }, (_, index) => dayPlus(firstDay, index));
  const from = localToUnix(firstDay, 0, zone);
  const to = localToUnix(days.at(-1)!, 1440, zone);
  const bookings = bookingsOfSchedules(
    ctx.store,
    schedules.map((one) => one.id),
    from,
    to,
  );
  return schedules.map((schedule) => {
    const week = readWeeklyHours(ctx.store, schedule.id);
    const extra = extraByDay(readExtraHours(ctx.store, schedule.id, firstDay));
    const closures = listClosures(ctx.store, schedule.id);
    const busy = busyIntervals(ctx.store, schedule.id, from, to);
    const own = bookings.filter((booking) => booking.scheduleId === schedule.id);
    return {
      schedule: { id: schedule.id, name: schedule.name },
      days: days.map((day) => {
        const dayFrom = localToUnix(day, 0, zone);
        const dayTo = localToUnix(day, 1440, zone);
        const booked = own.filter((booking) => booking.startAt >= dayFrom && booking.startAt < dayTo);
        const closed = closureOn(closures, dayNumber(day)) !== undefined;
        const open = closed
          ? []
          : openRanges(week, extra, dayNumber(day)).map((range) => ({
              startAt: localToUnix(day, range.start, zone),
              endAt: localToUnix(day, range.end, zone),
            }));
        const taken = [...booked.filter((booking) => booking.status === 'booked'), ...busy];
        const items: AgendaItem[] = [
          ...booked.map((booking) => ({ kind: 'booking' as const, booking })),
          ...freeGaps(open, taken).map((gap) => ({ kind: 'free' as const, ...gap })),
        ].sort((a, b) => startOf(a) - startOf(b));
        return { day, items, closed };
      }),
    };
  });
}

const startOf = (item: AgendaItem) => (item.kind === 'booking' ? item.booking.startAt : item.startAt);
