import {
  BUFFER_MAX_MINUTES,
  CONTROL,
  DESCRIPTION_MAX_LENGTH,
  DIRECTION_CONTROL,
  DURATION_MAX_MINUTES,
  nameMessage,
} from '../../domain/checks.ts';
import type { LocalTexts } from '../../domain/languages.ts';
import { moveTo } from '../../domain/lists.ts';
import { SERIES_COUNT } from '../../domain/series.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { countFutureBookings } from '../../store/bookings.ts';
import {
  findReason,
  futureBookingsBySchedule,
  insertReason,
  listReasons,
  markReasonRemoved,
  type Reason,
  type ReasonValues,
  setReasonSeriesMax,
  setReasonTexts,
  updateReason,
  writeReasonOrder,
  writeReasonSchedules,
} from '../../store/reasons.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from './configured.ts';
import { mergedTexts } from './local-texts.ts';
import { checkName, checkWhole, getSchedule } from './schedules.ts';

function checkDescription(value: string): string {
  if (value.length > DESCRIPTION_MAX_LENGTH)
    throw invalid(
      `--description must be at most ${DESCRIPTION_MAX_LENGTH} characters (got ${value.length})`,
      'description',
    );
  if (DIRECTION_CONTROL.test(value)) throw invalid(nameMessage('--description', 'direction control'), 'description');
  if (CONTROL.test(value))
    throw invalid('--description must not contain control characters (line breaks and tabs are fine)', 'description');
  return value.trim();
}

/** A reason's name and description in other languages (`--name fr=…`, `--description fr=…`; '' removes one). */
export interface ReasonTexts {
  names?: LocalTexts;
  descriptions?: LocalTexts;
}

/** The most weekly dates the booking page may offer for a reason as a series (`reason set --series`): a series' own bounds. */
export const SERIES_MAX = SERIES_COUNT;

/**
 * Returns `--series <max>` as kept: 0 (off) for `0` or `off`, else a whole number of weekly dates from 2 to 52 the
 * booking page offers for the reason; throws `invalid` naming the option and the value otherwise.
 */
export function checkSeriesMax(text: string): number {
  const trimmed = text.trim();
  if (trimmed === 'off' || trimmed === '0') return 0;
  const value = /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= SERIES_MAX.min && value <= SERIES_MAX.max))
    throw invalid(
      `--series takes the most weekly dates the booking page offers, from ${SERIES_MAX.min} to ${SERIES_MAX.max}, or 0 or off to offer none (got "${text}")`,
      'series',
    );
  return value;
}

/** Returns the reason or throws `not_found`. */
export function getReason(ctx: AppContext, id: number): Reason {
  const reason = findReason(ctx.store, id);
  if (!reason) throw notFound(`reason ${id} does not exist (see \`planner reason list <schedule-id>\`)`);
  return reason;
}

/** Returns `ids` once each, in the order given; refuses an empty list or a schedule that does not exist. */
function checkSchedules(ctx: AppContext, ids: readonly number[]): number[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw invalid('give at least one schedule id, e.g. 1 or 1,2,3', 'schedules');
  for (const id of unique) getSchedule(ctx, id);
  return unique;
}

/**
 * Adds a reason offered by `scheduleIds` (one or more: one reason, the same id at each) and returns its id. The
 * first schedule is its own (`reasons.schedule_id`).
 */
export function addReason(
  ctx: AppContext,
  scheduleIds: number | readonly number[],
  values: {
    name: string;
    durationMinutes: number;
    description?: string;
    bufferBeforeMinutes?: number;
    bufferAfterMinutes?: number;
  },
): number {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const schedules = checkSchedules(ctx, typeof scheduleIds === 'number' ? [scheduleIds] : scheduleIds);
    return insertReason(ctx.store, schedules, {
      name: checkName(values.name),
      durationMinutes: checkWhole(values.durationMinutes, '--duration', 1, DURATION_MAX_MINUTES),
      bufferBeforeMinutes: checkWhole(values.bufferBeforeMinutes ?? 0, '--buffer-before', 0, BUFFER_MAX_MINUTES),
      bufferAfterMinutes: checkWhole(values.bufferAfterMinutes ?? 0, '--buffer-after', 0, BUFFER_MAX_MINUTES),
      description: checkDescription(values.description ?? ''),
    });
  });
}

/** Returns the reasons of a schedule in display order. */
export function reasonsOf(ctx: AppContext, scheduleId: number): Reason[] {
  requireConfigured(ctx);
  getSchedule(ctx, scheduleId);
  return listReasons(ctx.store, scheduleId);
}

/**
 * Changes the given values of a reason and returns it as stored. `position` moves it in its list (1 = first);
 * `seriesMax` (checkSeriesMax) sets the weekly dates its booking page offers.
 */
export function changeReason(
  ctx: AppContext,
  id: number,
  changes: Partial<ReasonValues> & ReasonTexts & { seriesMax?: number },
): Reason {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const current = getReason(ctx, id);
    const { names, descriptions, ...own } = changes;
    const next = { ...current, ...own };
    updateReason(ctx.store, id, {
      name: checkName(next.name),
      durationMinutes: checkWhole(next.durationMinutes, '--duration', 1, DURATION_MAX_MINUTES),
      bufferBeforeMinutes: checkWhole(next.bufferBeforeMinutes, '--buffer-before', 0, BUFFER_MAX_MINUTES),
      bufferAfterMinutes: checkWhole(next.bufferAfterMinutes, '--buffer-after', 0, BUFFER_MAX_MINUTES),
      description: checkDescription(next.description),
    });
    if (changes.position !== undefined) {
      const ids = listReasons(ctx.store, current.scheduleId).map((reason) => reason.id);
      writeReasonOrder(ctx.store, moveTo(ids, id, checkWhole(changes.position, '--position', 1, 1_000_000)));
    }
    if (changes.seriesMax !== undefined) setReasonSeriesMax(ctx.store, id, changes.seriesMax);
    const ownLocale = ctx.settings().locale;
    if (names || descriptions)
      setReasonTexts(
        ctx.store,
        id,
        mergedTexts(current.names, names ?? {}, (text, locale) => checkName(text, `--name ${locale}=…`), ownLocale),
        mergedTexts(current.descriptions, descriptions ?? {}, checkDescription, ownLocale),
      );
    return getReason(ctx, id);
  });
}

/** What `setReasonSchedules` did: who offers the reason now, and the future bookings left where it is no longer offered. */
export interface ReasonSchedulesChange {
  reason: Reason;
  /** Schedules that stopped offering it and still hold future bookings of it (kept as they are), with their count. */
  kept: { scheduleId: number; bookings: number }[];
}

/**
 * Makes `scheduleIds` (one or more existing schedules) the ones that offer reason `id`. A schedule that stops
 * offering it keeps its future bookings of it as they are (they can be cancelled; not moved, as a removed reason's):
 * the answer counts them, so the admin is told.
 */
export function setReasonSchedules(ctx: AppContext, id: number, scheduleIds: readonly number[]): ReasonSchedulesChange {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const current = getReason(ctx, id);
    const schedules = checkSchedules(ctx, scheduleIds);
    const upcoming = futureBookingsBySchedule(ctx.store, id, unixSeconds(ctx.now()));
    writeReasonSchedules(ctx.store, id, schedules);
    const kept = current.scheduleIds
      .filter((scheduleId) => !schedules.includes(scheduleId) && (upcoming.get(scheduleId) ?? 0) > 0)
      .map((scheduleId) => ({ scheduleId, bookings: upcoming.get(scheduleId)! }));
    return { reason: getReason(ctx, id), kept };
  });
}

/**
 * Changes the given values of a reason and, with `scheduleIds`, who offers it, in one transaction: as
 * `changeReason`, then `setReasonSchedules`.
 */
export function changeReasonAndSchedules(
  ctx: AppContext,
  id: number,
  changes: Partial<ReasonValues> & ReasonTexts & { seriesMax?: number },
  scheduleIds: readonly number[] | undefined,
): ReasonSchedulesChange {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const reason = changeReason(ctx, id, changes);
    return scheduleIds === undefined ? { reason, kept: [] } : setReasonSchedules(ctx, id, scheduleIds);
  });
}

/** Removes a reason; refuses while it has future bookings unless `force` (the bookings are kept). */
export function removeReason(ctx: AppContext, id: number, force: boolean): void {
  requireConfigured(ctx);
  ctx.store.tx(() => {
    getReason(ctx, id);
    const upcoming = countFutureBookings(ctx.store, { reasonId: id }, unixSeconds(ctx.now()));
    if (upcoming > 0 && !force) {
      throw new AppError(
        'conflict',
        `reason ${id} has ${upcoming} future booking(s); pass --force to remove it anyway (the bookings are kept)`,
      );
    }
    markReasonRemoved(ctx.store, id, ctx.now().toISOString());
  });
}
