import {
  CAPACITY_MAX,
  DAYS_AHEAD_MAX,
  NOTICE_MAX_MINUTES,
  nameMessage,
  nameProblem,
  STEP_MAX_MINUTES,
  STEP_MIN_MINUTES,
} from '../../domain/checks.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { countFutureBookings } from '../../store/bookings.ts';
import {
  findSchedule,
  insertSchedule,
  listSchedules,
  markScheduleRemoved,
  type Schedule,
  type ScheduleValues,
  updateSchedule,
} from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from './configured.ts';

/** Defaults of a new schedule (documented in the README). */
export const SCHEDULE_DEFAULTS = { daysAhead: 60, noticeMinutes: 60, stepMinutes: 15, capacity: 1 } as const;

/** Returns `value` when it is a whole number in [min, max], else throws `invalid` naming the option (`--step`) and the value. */
export function checkWhole(value: number, option: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${option} must be a whole number from ${min} to ${max} (got ${value})`, option.replace(/^--/, ''));
  }
  return value;
}

/** Returns the trimmed name, or throws when it is empty, too long, not one line or holds direction controls. */
export function checkName(value: string, label = 'name'): string {
  const problem = nameProblem(value);
  if (problem) throw invalid(nameMessage(label, problem), label);
  return value.trim();
}

function checkValues(values: ScheduleValues): ScheduleValues {
  return {
    name: checkName(values.name),
    daysAhead: checkWhole(values.daysAhead, '--days-ahead', 0, DAYS_AHEAD_MAX),
    noticeMinutes: checkWhole(values.noticeMinutes, '--notice', 0, NOTICE_MAX_MINUTES),
    stepMinutes: checkWhole(values.stepMinutes, '--step', STEP_MIN_MINUTES, STEP_MAX_MINUTES),
    capacity: checkWhole(values.capacity, '--capacity', 1, CAPACITY_MAX),
  };
}

/** Returns the schedule or throws `not_found` with a hint. */
export function getSchedule(ctx: AppContext, id: number): Schedule {
  const schedule = findSchedule(ctx.store, id);
  if (!schedule) throw notFound(`schedule ${id} does not exist (see \`planner schedule list\`)`);
  return schedule;
}

/** Adds a schedule and returns its id. */
export function addSchedule(ctx: AppContext, values: Partial<ScheduleValues> & { name: string }): number {
  requireConfigured(ctx);
  const checked = checkValues({ ...SCHEDULE_DEFAULTS, ...values });
  return insertSchedule(ctx.store, checked, ctx.now().toISOString());
}

/** Returns all schedules. */
export function schedules(ctx: AppContext): Schedule[] {
  requireConfigured(ctx);
  return listSchedules(ctx.store);
}

/** Changes the given values of a schedule and returns it as stored. */
export function changeSchedule(ctx: AppContext, id: number, changes: Partial<ScheduleValues>): Schedule {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const current = getSchedule(ctx, id);
    updateSchedule(ctx.store, id, checkValues({ ...current, ...changes }));
    return getSchedule(ctx, id);
  });
}

/**
 * Removes a schedule from the API and the lists. Refuses while it has future bookings unless `force`;
 * the bookings themselves are always kept.
 */
export function removeSchedule(ctx: AppContext, id: number, force: boolean): void {
  requireConfigured(ctx);
  ctx.store.tx(() => {
    getSchedule(ctx, id);
    const upcoming = countFutureBookings(ctx.store, { scheduleId: id }, unixSeconds(ctx.now()));
    if (upcoming > 0 && !force) {
      throw new AppError(
        'conflict',
        `schedule ${id} has ${upcoming} future booking(s); cancel them first or pass --force (the bookings are kept)`,
      );
    }
    markScheduleRemoved(ctx.store, id, ctx.now().toISOString());
  });
}
