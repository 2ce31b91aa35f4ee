import { type ExtraHours, extraByDay, openRanges } from '../../domain/availability.ts';
import { isNote } from '../../domain/checks.ts';
import { isDay, localDay } from '../../domain/dates.ts';
import { dayNumber } from '../../domain/days.ts';
import { type MinuteRange, parseDays, parseRanges } from '../../domain/hours.ts';
import { type Stranding, strandedBookings } from '../../domain/refusal.ts';
import { invalid, notFound, valueOrInvalid } from '../../errors.ts';
import { type Booking, listBookings } from '../../store/bookings.ts';
import { type Closure, deleteClosure, findClosure, insertClosure, listClosures } from '../../store/closures.ts';
import {
  readExtraHours,
  readWeeklyHours,
  replaceExtraHours,
  replaceHours,
  type WeeklyHours,
} from '../../store/hours.ts';
import { listSchedules, type Schedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from './configured.ts';
import { getSchedule } from './schedules.ts';

/** An upcoming booked appointment that its schedule's hours and closures no longer allow: the customer is not told. */
export interface StrandedBooking
  extends Pick<
    Booking,
    | 'id'
    | 'reference'
    | 'scheduleId'
    | 'scheduleName'
    | 'reasonId'
    | 'reasonName'
    | 'startAt'
    | 'endAt'
    | 'customerName'
    | 'customerEmail'
  > {
  /** The phone number given with the booking ('' when none). */
  phone: string;
  /** On a closed day, or not wholly inside the opening hours. */
  why: Stranding;
}

/**
 * Returns the upcoming booked appointments of `scheduleIds` that their schedule's hours and closures no longer
 * allow, by start: one query for the upcoming bookings, then the hours (weekly and extra) and closures of each
 * schedule, then pure checks (domain/refusal.ts). Call inside the transaction that changed the hours or closures.
 */
export function strandedOf(ctx: AppContext, scheduleIds: readonly number[]): StrandedBooking[] {
  const zone = requireConfigured(ctx).timeZone;
  const today = localDay(ctx.now(), zone);
  const fromAt = unixSeconds(ctx.now());
  const upcoming = listBookings(
    ctx.store,
    scheduleIds.length === 1 ? { fromAt, scheduleId: scheduleIds[0] } : { fromAt },
  ).filter((booking) => booking.status === 'booked' && scheduleIds.includes(booking.scheduleId));
  const stranded: StrandedBooking[] = [];
  for (const scheduleId of scheduleIds) {
    const own = upcoming.filter((booking) => booking.scheduleId === scheduleId);
    if (own.length === 0) continue;
    const rules = {
      zone,
      week: readWeeklyHours(ctx.store, scheduleId),
      extra: readExtraHours(ctx.store, scheduleId, today),
      closures: listClosures(ctx.store, scheduleId),
    };
    for (const { booking, why } of strandedBookings(rules, own)) {
      const phone = booking.submission.phone;
      stranded.push({
        id: booking.id,
        reference: booking.reference,
        scheduleId: booking.scheduleId,
        scheduleName: booking.scheduleName,
        reasonId: booking.reasonId,
        reasonName: booking.reasonName,
        startAt: booking.startAt,
        endAt: booking.endAt,
        customerName: booking.customerName,
        customerEmail: booking.customerEmail,
        phone: typeof phone === 'string' ? phone : '',
        why,
      });
    }
  }
  return stranded.sort((a, b) => a.startAt - b.startAt || a.id - b.id);
}

/**
 * Sets the opening hours of the weekdays in `days` (`mon-fri`) to `ranges` (`09:00-12:00,13:00-17:30` or `closed`).
 * Returns the week and the upcoming bookings it no longer allows (the change is made all the same: the admin may
 * mean it, and moves or cancels them next).
 */
export function setHours(
  ctx: AppContext,
  scheduleId: number,
  days: string,
  ranges: string,
): { schedule: Schedule; week: WeeklyHours; stranded: StrandedBooking[] } {
  requireConfigured(ctx);
  const weekdays = valueOrInvalid(parseDays(days));
  const parsed: MinuteRange[] = valueOrInvalid(parseRanges(ranges));
  return ctx.store.tx(() => {
    const schedule = getSchedule(ctx, scheduleId);
    replaceHours(ctx.store, scheduleId, weekdays, parsed);
    return { schedule, week: readWeeklyHours(ctx.store, scheduleId), stranded: strandedOf(ctx, [scheduleId]) };
  });
}

/** Returns the weekly opening hours of a schedule. */
export function hoursOf(ctx: AppContext, scheduleId: number): WeeklyHours {
  requireConfigured(ctx);
  getSchedule(ctx, scheduleId);
  return readWeeklyHours(ctx.store, scheduleId);
}

/** Returns a schedule's extra hours from today (the installation's zone) on, by date. */
export function extraHoursOf(ctx: AppContext, scheduleId: number): ExtraHours[] {
  const settings = requireConfigured(ctx);
  getSchedule(ctx, scheduleId);
  return readExtraHours(ctx.store, scheduleId, localDay(ctx.now(), settings.timeZone));
}

/** What `setExtraHours` or `removeExtraHours` left on a date. */
export interface ExtraHoursChange {
  day: string;
  /** The date's extra hours now (none after a removal). */
  extra: MinuteRange[];
  /** The extra hours the date had before (what a removal took away). */
  before: MinuteRange[];
  /** What the date is open now: its weekday's hours with the extra hours added (merged where they overlap or touch). */
  open: MinuteRange[];
  /** A closure on that date: it wins, the date stays closed. */
  closure: Closure | undefined;
  /** The upcoming bookings the hours and closures no longer allow (a removal may leave some outside). */
  stranded: StrandedBooking[];
}

/** Returns `day` when it is a real calendar day, today or later in the installation's zone; else throws invalid. */
function upcomingDay(ctx: AppContext, day: string): string {
  const zone = requireConfigured(ctx).timeZone;
  if (!isDay(day)) throw invalid(`"${day}" is not a calendar day YYYY-MM-DD`);
  const today = localDay(ctx.now(), zone);
  if (day < today)
    throw invalid(`${day} is in the past (today is ${today} in ${zone}): extra hours are for today or a later date`);
  return day;
}

/** Replaces the extra hours of `day` (none: removes them) in one transaction, and returns what is left. */
function changeExtraHours(
  ctx: AppContext,
  scheduleId: number,
  day: string,
  ranges: MinuteRange[],
  mustHave: boolean,
): ExtraHoursChange {
  return ctx.store.tx(() => {
    getSchedule(ctx, scheduleId);
    const before = readExtraHours(ctx.store, scheduleId, day).find((item) => item.day === day)?.ranges ?? [];
    if (mustHave && before.length === 0)
      throw notFound(
        `schedule ${scheduleId} has no extra hours on ${day} (\`planner hours show ${scheduleId}\` lists them)`,
      );
    replaceExtraHours(ctx.store, scheduleId, day, ranges);
    const number = dayNumber(day);
    const week = readWeeklyHours(ctx.store, scheduleId);
    const extra = extraByDay([{ day, ranges }]);
    const closure = listClosures(ctx.store, scheduleId).find(
      (closed) => dayNumber(closed.fromDay) <= number && number <= dayNumber(closed.toDay),
    );
    return {
      day,
      extra: ranges,
      before: [...before],
      open: [...openRanges(week, extra, number)],
      closure,
      stranded: strandedOf(ctx, [scheduleId]),
    };
  });
}

/**
 * Opens local date `day` (`YYYY-MM-DD`, today or later) of a schedule for `ranges` (`09:00-13:00`, the syntax of
 * `setHours`) beyond its weekly hours: a Saturday clinic, or an evening added to a weekday. Replaces the
 * date's earlier extra hours; a closure on that date still wins.
 */
export function setExtraHours(ctx: AppContext, scheduleId: number, day: string, ranges: string): ExtraHoursChange {
  upcomingDay(ctx, day);
  const parsed = valueOrInvalid(parseRanges(ranges));
  if (parsed.length === 0)
    throw invalid(
      `extra hours need a time range such as 09:00-13:00 (to take a date's extra hours away: \`planner hours extra ${scheduleId} ${day} --remove\`; to close a date: \`planner closure add\`)`,
    );
  return changeExtraHours(ctx, scheduleId, day, parsed, false);
}

/** Removes the extra hours of local date `day` (today or later); not_found when it has none. */
export function removeExtraHours(ctx: AppContext, scheduleId: number, day: string): ExtraHoursChange {
  upcomingDay(ctx, day);
  return changeExtraHours(ctx, scheduleId, day, [], true);
}

/** What `addClosure` made: one closure per schedule, and the upcoming bookings now on a closed day or outside the hours. */
export interface AddedClosures {
  closures: { id: number; scheduleId: number }[];
  stranded: StrandedBooking[];
}

/**
 * Closes a schedule, or every schedule (`'all'`), from `fromDay` to `toDay` inclusive (one day when `toDay` is
 * absent), in one transaction. A closure that ends before today (the installation's zone) is refused: it would close
 * nothing. Bookings on the closed days stay booked; they are returned, to be moved or cancelled.
 */
export function addClosure(
  ctx: AppContext,
  target: number | 'all',
  fromDay: string,
  toDay: string | undefined,
  note: string,
): AddedClosures {
  const settings = requireConfigured(ctx);
  const last = toDay ?? fromDay;
  for (const day of [fromDay, last]) {
    if (!isDay(day)) throw invalid(`"${day}" is not a calendar day YYYY-MM-DD`);
  }
  if (last < fromDay) throw invalid(`the closure ends (${last}) before it starts (${fromDay})`);
  const today = localDay(ctx.now(), settings.timeZone);
  if (last < today) {
    const days = last === fromDay ? fromDay : `${fromDay} to ${last}`;
    throw invalid(
      `${days} lies wholly in the past (today is ${today} in ${settings.timeZone}): a closure must end today or later`,
    );
  }
  if (!isNote(note))
    throw invalid('the note must be at most 500 characters, without control characters or text-direction controls');
  return ctx.store.tx(() => {
    const scheduleIds =
      target === 'all' ? listSchedules(ctx.store).map((schedule) => schedule.id) : [getSchedule(ctx, target).id];
    if (scheduleIds.length === 0)
      throw invalid('there are no schedules to close (add one with `planner schedule add <name>`)');
    const closures = scheduleIds.map((scheduleId) => ({
      id: insertClosure(ctx.store, { scheduleId, fromDay, toDay: last, note: note.trim() }),
      scheduleId,
    }));
    return { closures, stranded: strandedOf(ctx, scheduleIds) };
  });
}

/** Returns the closures of a schedule. */
export function closuresOf(ctx: AppContext, scheduleId: number): Closure[] {
  requireConfigured(ctx);
  getSchedule(ctx, scheduleId);
  return listClosures(ctx.store, scheduleId);
}

/** Deletes a closure: the days open again. */
export function removeClosure(ctx: AppContext, id: number): void {
  requireConfigured(ctx);
  ctx.store.tx(() => {
    if (!findClosure(ctx.store, id))
      throw notFound(`closure ${id} does not exist (see \`planner closure list <schedule-id>\`)`);
    deleteClosure(ctx.store, id);
  });
}
