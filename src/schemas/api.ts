/**
 * The API's request shapes as valibot schemas: the code validates with them, and (later) the OpenAPI
 * document is derived from them. One schema per request shape; types come from InferOutput.
 */
import * as v from 'valibot';
import { isDay } from '../domain/values.ts';

const ID = /^[1-9]\d{0,14}$/;
const SLOT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Returns true for `YYYY-MM-DD HH:MM:SS` naming a real day and time (19 characters exactly). */
export function isSlotText(text: string): boolean {
  if (text.length !== 19 || !SLOT.test(text) || !isDay(text.slice(0, 10))) return false;
  const [hours, minutes, seconds] = text.slice(11).split(':').map(Number) as [number, number, number];
  return hours < 24 && minutes < 60 && seconds < 60;
}

/** An id in a query string: an integer >= 1 written plainly (`1`, not `01`, `1.0` or `+1`). */
export const IdParam = v.pipe(v.string(), v.regex(ID), v.transform(Number), v.description('An id, an integer >= 1'));
export const DayParam = v.pipe(v.string(), v.check(isDay), v.description('A local day, YYYY-MM-DD'));
export const SlotParam = v.pipe(v.string(), v.check(isSlotText), v.description('A local time, YYYY-MM-DD HH:MM:SS'));

export const ReasonsQuery = v.object({ schedule: IdParam });
export const DaysQuery = v.object({ schedule: IdParam, reason: IdParam });
export const SlotsQuery = v.object({ schedule: IdParam, reason: IdParam, day: DayParam });
export const FormsQuery = v.object({ schedule: IdParam, reason: IdParam, slot: SlotParam });

// spec §2 BookingRequest. Each field's message is the one the 400 answer carries, with `field` naming it.
export const BOOKING_FIELD_ERRORS = {
  schedule: 'schedule must be an integer >= 1',
  reason: 'reason must be an integer >= 1',
  slot: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)',
  submission: 'submission must be an object of form values',
} as const;

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const BodyId = (message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(Number.MAX_SAFE_INTEGER, message));

export const BookingRequest = v.strictObject({
  schedule: BodyId(BOOKING_FIELD_ERRORS.schedule),
  reason: BodyId(BOOKING_FIELD_ERRORS.reason),
  slot: v.pipe(v.string(BOOKING_FIELD_ERRORS.slot), v.check(isSlotText, BOOKING_FIELD_ERRORS.slot)),
  // valibot's record also takes arrays, so the plain-object check comes first.
  submission: v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, BOOKING_FIELD_ERRORS.submission),
    v.record(v.string(), v.unknown(), BOOKING_FIELD_ERRORS.submission),
  ),
});

export type BookingRequest = v.InferOutput<typeof BookingRequest>;

/** Returns the 400 answer's `error` and `field` for a body that does not fit BookingRequest. */
export function bookingRequestProblem(body: unknown): { error: string; field?: string } | undefined {
  if (!isPlainObject(body)) return { error: 'Body must be a JSON object' };
  const result = v.safeParse(BookingRequest, body);
  if (result.success) return undefined;
  const key = result.issues[0].path?.[0]?.key;
  const field = typeof key === 'string' ? key : undefined;
  if (field === undefined) return { error: 'Invalid request' };
  const known = (BOOKING_FIELD_ERRORS as Record<string, string>)[field];
  return known ? { error: known, field } : { error: 'Unknown field', field };
}
