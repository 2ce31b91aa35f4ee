/**
 * The API's shapes as valibot schemas: requests are validated with them, responses are typed by them, and the
 * OpenAPI document (src/schemas/openapi.ts) is derived from them. One schema per shape; types come from InferOutput.
 */
import * as v from 'valibot';
import { isIdText } from '../domain/checks.ts';
import { isDay, isSlotText, SLOT } from '../domain/dates.ts';
import { FORM_TYPES, INPUT_TYPES, type FieldDefinition } from '../domain/form.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UTC_SLOT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * A local time `YYYY-MM-DD HH:MM:SS` naming a real day and time, exactly 19 characters (spec §2 Slot), described
 * by `description`; `message` is the error of each step where a 400 answer names it.
 */
function SlotText(description: string, message?: string) {
  return v.pipe(
    v.string(message),
    v.length(19, message),
    v.regex(SLOT, message),
    v.check(isSlotText, message),
    v.description(description),
  );
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Query parameters (spec §4). Query values arrive as strings; the document shows their meaning.

/** An id in a query string: an integer >= 1 written plainly (`1`, not `01`, `1.0` or `+1`). */
export const IdParam = v.pipe(v.string(), v.check(isIdText), v.transform(Number), v.number(), v.integer(), v.minValue(1));
/** A local day `YYYY-MM-DD` that exists on the calendar. */
export const DayParam = v.pipe(v.string(), v.regex(DAY), v.check(isDay), v.description('A local day, YYYY-MM-DD, taken from GET /days'));
/** A local time `YYYY-MM-DD HH:MM:SS`, exactly 19 characters. */
export const SlotParam = SlotText('A local time, YYYY-MM-DD HH:MM:SS, taken from GET /slots; the space is sent as %20');

export const ReasonsQuery = v.object({ schedule: IdParam });
export const DaysQuery = v.object({ schedule: IdParam, reason: IdParam });
export const SlotsQuery = v.object({ schedule: IdParam, reason: IdParam, day: DayParam });
export const FormsQuery = v.object({ schedule: IdParam, reason: IdParam, slot: SlotParam });

// ---- The booking request (spec §2 BookingRequest).

/** Largest accepted POST body. The spec names none; 64 KiB holds any real form many times over. */
export const BODY_LIMIT = 64 * 1024;

/** Each field's message is the one the 400 answer carries, with `field` naming it. */
export const BOOKING_FIELD_ERRORS = {
  schedule: 'schedule must be an integer >= 1',
  reason: 'reason must be an integer >= 1',
  slot: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)',
  submission: 'submission must be an object of form values',
} as const;

const BodyId = (message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(Number.MAX_SAFE_INTEGER, message));

/** A JSON object, not an array (valibot's record alone also takes arrays). The OpenAPI builder names it `object`. */
export const PlainObject = v.custom<Record<string, unknown>>(isPlainObject, BOOKING_FIELD_ERRORS.submission);

/** The form values: keys are field names from GET /forms. */
export const Submission = v.pipe(PlainObject, v.record(v.string(), v.unknown(), BOOKING_FIELD_ERRORS.submission));

export const BookingRequest = v.strictObject({
  schedule: BodyId(BOOKING_FIELD_ERRORS.schedule),
  reason: BodyId(BOOKING_FIELD_ERRORS.reason),
  slot: SlotText('Local time YYYY-MM-DD HH:MM:SS, exactly 19 characters', BOOKING_FIELD_ERRORS.slot),
  submission: Submission,
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
  const known = Object.hasOwn(BOOKING_FIELD_ERRORS, field) ? (BOOKING_FIELD_ERRORS as Record<string, string>)[field] : undefined; // never `__proto__`
  return known ? { error: known, field } : { error: 'Unknown field', field };
}

// ---- Responses (spec §2). Strict objects: the contract tests fail on any property the document does not name.

const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

export const Schedule = v.strictObject({ id: Id, name: v.string() });
export const Reason = v.strictObject({
  id: Id,
  name: v.string(),
  description: v.pipe(v.string(), v.description('May be an empty string')),
  duration: v.pipe(v.number(), v.integer(), v.minValue(60), v.description('Seconds (1800 = 30 minutes)')),
});
export const Day = v.pipe(v.string(), v.regex(DAY), v.description('A local day with at least one free slot'));
export const Slot = SlotText('A free local time, YYYY-MM-DD HH:MM:SS');
export const FormField = v.strictObject({
  form_type: v.picklist(FORM_TYPES),
  input_type: v.picklist(INPUT_TYPES),
  label: v.string(),
  required: v.boolean(),
  value: v.pipe(v.union([v.string(), v.boolean()]), v.description('The pre-filled value: a string, or a boolean for a checkbox')),
  options: v.optional(v.pipe(v.array(v.string()), v.description('The choices of a select field (an addition to the spec)'))),
});
export const BookingResponse = v.strictObject({
  booking_id: Id,
  booking_details_id: v.pipe(v.string(), v.description('The public booking reference')),
  user_id: v.pipe(Id, v.description('The customer record (the same for the same e-mail address)')),
  slot: v.pipe(v.string(), v.regex(UTC_SLOT), v.description('The booked start in UTC, YYYY-MM-DDTHH:MM:SSZ')),
});
export const ErrorBody = v.strictObject({
  error: v.pipe(v.string(), v.description('What went wrong')),
  field: v.optional(v.pipe(v.string(), v.description('On a booking validation error: the affected field'))),
});

export const SchedulesResponse = v.strictObject({ data: v.array(Schedule) });
export const ReasonsResponse = v.strictObject({ data: v.array(Reason) });
export const DaysResponse = v.strictObject({ data: v.array(Day) });
export const SlotsResponse = v.strictObject({ data: v.array(Slot) });
export const FormsResponse = v.strictObject({ data: v.record(v.string(), FormField) });

export type SchedulesResponse = v.InferOutput<typeof SchedulesResponse>;
export type ReasonsResponse = v.InferOutput<typeof ReasonsResponse>;
export type DaysResponse = v.InferOutput<typeof DaysResponse>;
export type SlotsResponse = v.InferOutput<typeof SlotsResponse>;
export type FormsResponse = v.InferOutput<typeof FormsResponse>;
export type BookingResponse = v.InferOutput<typeof BookingResponse>;

/** Returns the form fields as GET /forms shows them (spec §2 FormField), indexed by field name, in form order. */
export function formsData(fields: readonly FieldDefinition[]): FormsResponse['data'] {
  return Object.fromEntries(
    fields.map((field) => [
      field.key,
      {
        form_type: field.formType,
        input_type: field.inputType,
        label: field.label,
        required: field.required,
        value: field.formType === 'checkbox' ? field.defaultValue === 'true' : field.defaultValue,
        ...(field.formType === 'select' ? { options: field.options } : {}),
      },
    ]),
  );
}
