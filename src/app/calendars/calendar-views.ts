/**
 * The practitioner's own calendars as every output shows them: `planner calendar list` and `busy`,
 * `status` and `doctor`. The address is masked and the password never shown. Reads only: the sync is calendars.ts.
 */
import { maskCalendarUrl } from '../../calendar/url.ts';
import { formatLocal } from '../../domain/dates.ts';
import { dayNumber, dayText, SECONDS_PER_DAY } from '../../domain/days.ts';
import { localToUnix } from '../../domain/zone.ts';
import { notFound } from '../../errors.ts';
import { type BusyConflict, busyConflicts, busyOfSchedule, countBusy } from '../../store/busy-times.ts';
import { type SeenEdit, seenEdits, type WriteCounts, writeCounts } from '../../store/calendar-writes.ts';
import { type CalendarDetails, type CalendarRow, listCalendars } from '../../store/calendars.ts';
import { findSchedule, type Schedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { type EditView, editView } from './calendar-edits.ts';
import { STUCK_AFTER_SECONDS } from './policy.ts';
import { reconnectCommand } from './providers.ts';

/**
 * The instants a schedule's calendars must cover: a day before now to a day after the look-ahead's last day (a sync
 * reads a day further, calendars.ts).
 */
export function busyWindow(schedule: Pick<Schedule, 'daysAhead'>, now: number): { from: number; to: number } {
  return { from: now - SECONDS_PER_DAY, to: now + (schedule.daysAhead + 2) * SECONDS_PER_DAY };
}

/** A calendar as every output shows it: the URL masked, never the password. */
export interface CalendarView
  extends Pick<CalendarRow, 'id' | 'scheduleId' | 'label' | 'kind' | 'user' | 'everyMinutes'> {
  /** Masked: maskCalendarUrl. */
  url: string;
  /** The last successful sync, ISO. */
  lastSuccess: string | null;
  /** Busy times (pieces of at most a day) within the schedule's window now. */
  busy: number;
  state: 'ok' | 'failing';
  failingSince: string | null;
  lastError: string | null;
  /** Upcoming bookings a busy time of this calendar overlaps. */
  conflicts: ConflictView[];
  /** Whether it receives every booking of its schedule, and how that stands; null when it does not. */
  writing: WritingView | null;
  /** What it receives of the customer: every answer (`full`) or the reason, first name and reference (`minimal`). */
  details: CalendarDetails;
  /** Planner's events its last read showed moved or removed in a calendar app (app/calendars/calendar-edits.ts). */
  edits: EditView[];
  /**
   * A Google or Microsoft calendar whose account's consent is gone (revoked, expired, unshared): why, and the command
   * that reconnects it; null when it needs none.
   */
  reconnect: { why: string; command: string } | null;
}

/**
 * How writing bookings into a calendar stands: how many booking changes wait to be written, and when writes fail,
 * since when and why (`failing`, as a failing read shows); `catching-up`: writes that failed wait, but the last write
 * succeeded (the calendar answers again, and planner is writing what waited); `stuck`: failing for
 * STUCK_AFTER_SECONDS or longer (planner never gives a write up, but `status` and `doctor` say so loudly).
 */
export interface WritingView {
  waiting: number;
  state: 'ok' | 'catching-up' | 'failing';
  failingSince: string | null;
  lastError: string | null;
  stuck: boolean;
}

/** A booked appointment that a busy time overlaps: the admin moves or cancels it. */
export interface ConflictView {
  reference: string;
  scheduleId: number;
  calendarId: number;
  /** Local `YYYY-MM-DD HH:MM` in the installation's zone. */
  start: string;
  customerName: string;
  reasonName: string;
}

const iso = (at: number | null) => (at === null ? null : new Date(at * 1000).toISOString());

function conflictViews(conflicts: readonly BusyConflict[], zone: string): ConflictView[] {
  return conflicts.map((c) => ({
    reference: c.reference,
    scheduleId: c.scheduleId,
    calendarId: c.calendarId,
    start: formatLocal(new Date(c.startAt * 1000), zone),
    customerName: c.customerName,
    reasonName: c.reasonName,
  }));
}

export function viewOf(
  ctx: AppContext,
  calendar: CalendarRow,
  conflicts: readonly ConflictView[],
  writes: Map<number, WriteCounts> = writeCounts(ctx.store),
  edits: readonly SeenEdit[] = seenEdits(ctx.store, unixSeconds(ctx.now()), calendar.id),
): CalendarView {
  const schedule = findSchedule(ctx.store, calendar.scheduleId);
  const mine = writes.get(calendar.id);
  const now = unixSeconds(ctx.now());
  const retrying = mine?.retryingSince ?? null;
  // Writes that failed still wait, but the last write succeeded: the calendar answers again and is catching up.
  const catchingUp = retrying !== null && calendar.writeLastOk === true;
  const since = catchingUp ? null : retrying;
  const zone = requireConfigured(ctx).timeZone;
  const window = busyWindow(schedule ?? { daysAhead: 0 }, unixSeconds(ctx.now()));
  return {
    id: calendar.id,
    scheduleId: calendar.scheduleId,
    label: calendar.label,
    kind: calendar.kind,
    url: maskCalendarUrl(calendar.url),
    user: calendar.user,
    everyMinutes: calendar.everyMinutes,
    lastSuccess: iso(calendar.syncedAt),
    busy: countBusy(ctx.store, calendar.id, window.from, window.to),
    state: calendar.failingSince === null ? 'ok' : 'failing',
    failingSince: iso(calendar.failingSince),
    lastError: calendar.lastError,
    conflicts: conflicts.filter((conflict) => conflict.calendarId === calendar.id),
    writing:
      calendar.writeBookings || (mine?.waiting ?? 0) > 0
        ? {
            waiting: mine?.waiting ?? 0,
            state: catchingUp ? 'catching-up' : since === null ? 'ok' : 'failing',
            failingSince: iso(since),
            lastError: since === null ? null : (mine?.lastError ?? null),
            stuck: since !== null && now - since >= STUCK_AFTER_SECONDS,
          }
        : null,
    details: calendar.details,
    edits: edits.filter((edit) => edit.calendarId === calendar.id).map((edit) => editView(edit, zone)),
    reconnect: calendar.reconnect === null ? null : { why: calendar.reconnect, command: reconnectCommand(calendar) },
  };
}

/** Returns every upcoming booking a busy time overlaps (optionally of one calendar), in the order they begin. */
export function calendarConflicts(ctx: AppContext, calendarId?: number): ConflictView[] {
  const zone = requireConfigured(ctx).timeZone;
  return conflictViews(busyConflicts(ctx.store, unixSeconds(ctx.now()), calendarId), zone);
}

/** Returns a conflict as the one-line lists name it: `K7Q2… (Ada Lovelace, Consultation)`. */
export function conflictLabel(conflict: ConflictView): string {
  return `${conflict.reference} (${conflict.customerName || 'no name given'}, ${conflict.reasonName})`;
}

/** The conflicts of `calendars` together, each booking once (in the order they come): what the lists print. */
export function everyConflict(calendars: readonly { conflicts: readonly ConflictView[] }[]): ConflictView[] {
  return [
    ...new Map(
      calendars.flatMap((calendar) => calendar.conflicts).map((conflict) => [conflict.reference, conflict]),
    ).values(),
  ];
}

/** Returns every calendar as shown: masked, with its state, busy times in the window and conflicts. */
export function calendars(ctx: AppContext): CalendarView[] {
  const conflicts = calendarConflicts(ctx);
  const writes = writeCounts(ctx.store);
  const edits = seenEdits(ctx.store, unixSeconds(ctx.now()));
  return listCalendars(ctx.store).map((calendar) => viewOf(ctx, calendar, conflicts, writes, edits));
}

/** A busy time as `planner calendar busy` shows it. */
export interface BusyView {
  calendarId: number;
  calendar: string;
  /** Local `YYYY-MM-DD HH:MM` in the installation's zone. */
  start: string;
  end: string;
  startAt: number;
  endAt: number;
}

/** Returns the busy times of a schedule on `days` local days from `fromDay` (default today), as planner derived them. */
export function busyTimesOfSchedule(
  ctx: AppContext,
  scheduleId: number,
  fromDay: string | undefined,
  days: number,
): { timeZone: string; busy: BusyView[] } {
  const zone = requireConfigured(ctx).timeZone;
  scheduleOf(ctx, scheduleId);
  const first = fromDay ?? formatLocal(ctx.now(), zone).slice(0, 10);
  const from = localToUnix(first, 0, zone);
  const to = localToUnix(dayText(dayNumber(first) + days), 0, zone);
  const labels = new Map(listCalendars(ctx.store).map((calendar) => [calendar.id, calendar.label]));
  const busy = busyOfSchedule(ctx.store, scheduleId, from, to).map((time) => ({
    calendarId: time.calendarId,
    calendar: labels.get(time.calendarId) ?? '',
    start: formatLocal(new Date(time.startAt * 1000), zone),
    end: formatLocal(new Date(time.endAt * 1000), zone),
    startAt: time.startAt,
    endAt: time.endAt,
  }));
  return { timeZone: zone, busy };
}

/** Returns the schedule with `scheduleId`, or throws not_found naming where to look. */
export function scheduleOf(ctx: AppContext, scheduleId: number): Schedule {
  const schedule = findSchedule(ctx.store, scheduleId);
  if (!schedule) throw notFound(`schedule ${scheduleId} does not exist (planner schedule list shows them)`);
  return schedule;
}
