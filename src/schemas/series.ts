/**
 * POST /series, beside the six calls of the spec: its request, answers and the check of its body. A call
 * of its own, so that the six stay exactly as the spec has them; it answers as POST /bookings does (the same 400,
 * 404, 415, Idempotency-Key), with every booking made, or on a 404 for dates that are not free, each such date.
 */
import * as v from 'valibot';
import type { SeriesOrder } from '../app/bookings/series.ts';
import { REFUSAL_REASONS } from '../domain/refusal.ts';
import { repeatDays, SERIES_COUNT } from '../domain/series.ts';
import {
  BOOKING_FIELD_ERRORS,
  BodyId,
  BookingResponse,
  intFormat,
  REFERENCE,
  requestProblem,
  SlotText,
  Submission,
} from './api.ts';

/** Each field's message is the one the 400 answer carries, with `field` naming it. */
export const SERIES_FIELD_ERRORS = {
  ...BOOKING_FIELD_ERRORS,
  slot: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters): the first date',
  repeat: 'repeat must be whole days or weeks from 1d to 52w, such as "1w", "2w" or "7d"',
  count: `count must be an integer from ${SERIES_COUNT.min} to ${SERIES_COUNT.max}`,
  skip_taken: 'skip_taken must be true or false',
} as const;

export const SeriesRequest = v.strictObject({
  schedule: BodyId(SERIES_FIELD_ERRORS.schedule),
  reason: BodyId(SERIES_FIELD_ERRORS.reason),
  slot: SlotText('The first date: local time YYYY-MM-DD HH:MM:SS, exactly 19 characters', SERIES_FIELD_ERRORS.slot),
  repeat: v.pipe(
    v.string(SERIES_FIELD_ERRORS.repeat),
    v.maxLength(16, SERIES_FIELD_ERRORS.repeat),
    v.regex(/^(?:\d{1,3}|(?:\d{1,2}[wW])?(?:\d{1,3}[dD])?)$/, SERIES_FIELD_ERRORS.repeat),
    v.check((text) => repeatDays(text) !== undefined, SERIES_FIELD_ERRORS.repeat),
    v.description('The time between the dates, whole days or weeks: "1w", "2w", "7d" (a bare number counts days)'),
  ),
  count: v.pipe(
    v.number(SERIES_FIELD_ERRORS.count),
    v.integer(SERIES_FIELD_ERRORS.count),
    v.minValue(SERIES_COUNT.min, SERIES_FIELD_ERRORS.count),
    v.maxValue(SERIES_COUNT.max, SERIES_FIELD_ERRORS.count),
    intFormat('int32'),
    v.description('How many dates'),
  ),
  skip_taken: v.optional(
    v.pipe(
      v.boolean(SERIES_FIELD_ERRORS.skip_taken),
      v.description('true: book the free dates and list the others in `skipped`; false (default): all or nothing'),
    ),
  ),
  submission: Submission,
});

export type SeriesRequest = v.InferOutput<typeof SeriesRequest>;

/** Returns the 400 answer's `error` and `field` for a body that does not fit SeriesRequest. */
export function seriesRequestProblem(body: unknown): { error: string; field?: string } | undefined {
  return requestProblem(SeriesRequest, SERIES_FIELD_ERRORS, body);
}

/** Returns the core's order of a checked request. */
export function seriesOrder(request: SeriesRequest): SeriesOrder {
  return {
    scheduleId: request.schedule,
    reasonId: request.reason,
    slot: request.slot,
    submission: request.submission,
    intervalDays: repeatDays(request.repeat)!,
    count: request.count,
    skipTaken: request.skip_taken === true,
  };
}

const LocalSlot = SlotText('A local time, YYYY-MM-DD HH:MM:SS');

/** A date of the series that is not free: when, why (the engine's reason), and the nearest free times that day. */
export const NotFreeDate = v.strictObject({
  slot: LocalSlot,
  why: v.pipe(
    v.picklist(REFUSAL_REASONS),
    v.description(
      'past, notice (within the minimum notice), look-ahead (beyond it), closure, no-such-time (the clocks go forward), ' +
        "hours (outside the opening hours), grid (off the step), busy (the practitioner's own calendar), taken, buffer",
    ),
  ),
  nearest: v.pipe(
    v.array(LocalSlot),
    v.maxLength(3),
    v.description('Up to three free times of that day, nearest first in time order'),
  ),
});

export const SeriesResponse = v.strictObject({
  series_id: v.pipe(v.string(), v.length(16), v.regex(REFERENCE), v.description("The series' public reference")),
  bookings: v.pipe(
    v.array(BookingResponse),
    v.maxLength(SERIES_COUNT.max),
    v.description('Every booking made, by start: each is a booking of its own (its reference, mails, reminders)'),
  ),
  skipped: v.pipe(
    v.array(NotFreeDate),
    v.maxLength(SERIES_COUNT.max),
    v.description('With skip_taken: the dates not booked (else always empty)'),
  ),
});

/** The 404 of a series: nothing was booked; `dates` lists each date that is not free (none for an unknown schedule or reason). */
export const SeriesRefusal = v.strictObject({
  error: v.pipe(v.literal('Not Found'), v.description('Always Not Found (spec §7)')),
  // Absent when the schedule or reason is not found: then the body is POST /bookings' `{"error":"Not Found"}`.
  dates: v.optional(
    v.pipe(
      v.array(NotFreeDate),
      v.maxLength(SERIES_COUNT.max),
      v.description('Each date that is not free (absent when the schedule or reason is not found)'),
    ),
  ),
});

export type SeriesResponse = v.InferOutput<typeof SeriesResponse>;
export type SeriesRefusal = v.InferOutput<typeof SeriesRefusal>;
