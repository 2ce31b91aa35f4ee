import { invalid, notFound, valueOrInvalid } from '../errors.ts';
import { parseDays, parseRanges, type MinuteRange } from '../domain/hours.ts';
import { isNote } from '../domain/checks.ts';
import { isDay } from '../domain/dates.ts';
import { deleteClosure, findClosure, insertClosure, listClosures, type Closure } from '../store/closures.ts';
import { readWeeklyHours, replaceHours, type WeeklyHours } from '../store/hours.ts';
import type { AppContext } from './context.ts';
import { requireConfigured } from './installation.ts';
import { getSchedule } from './schedules.ts';

/** Sets the opening hours of the weekdays in `days` (`mon-fri`) to `ranges` (`09:00-12:00,13:00-17:30` or `closed`). */
export function setHours(ctx: AppContext, scheduleId: number, days: string, ranges: string): WeeklyHours {
  requireConfigured(ctx);
  const weekdays = valueOrInvalid(parseDays(days));
  const parsed: MinuteRange[] = valueOrInvalid(parseRanges(ranges));
  return ctx.store.tx(() => {
    getSchedule(ctx, scheduleId);
    replaceHours(ctx.store, scheduleId, weekdays, parsed);
    return readWeeklyHours(ctx.store, scheduleId);
  });
}

/** Returns the weekly opening hours of a schedule. */
export function hoursOf(ctx: AppContext, scheduleId: number): WeeklyHours {
  requireConfigured(ctx);
  getSchedule(ctx, scheduleId);
  return readWeeklyHours(ctx.store, scheduleId);
}

/** Closes a schedule from `fromDay` to `toDay` inclusive (one day when `toDay` is absent); returns the closure id. */
export function addClosure(ctx: AppContext, scheduleId: number, fromDay: string, toDay: string | undefined, note: string): number {
  requireConfigured(ctx);
  const last = toDay ?? fromDay;
  for (const day of [fromDay, last]) {
    if (!isDay(day)) throw invalid(`"${day}" is not a calendar day YYYY-MM-DD`);
  }
  if (last < fromDay) throw invalid(`the closure ends (${last}) before it starts (${fromDay})`);
  if (!isNote(note)) throw invalid('the note must be at most 500 characters, without control characters or text-direction controls');
  return ctx.store.tx(() => {
    getSchedule(ctx, scheduleId);
    return insertClosure(ctx.store, { scheduleId, fromDay, toDay: last, note: note.trim() });
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
    if (!findClosure(ctx.store, id)) throw notFound(`closure ${id} does not exist (see \`planner closure list <schedule-id>\`)`);
    deleteClosure(ctx.store, id);
  });
}
