/**
 * The API's shapes as valibot schemas: requests are validated with them, responses are typed by them, and the
 * OpenAPI document (src/schemas/openapi.ts) is derived from them. One schema per shape; types come from InferOutput.
 */
import * as v from 'valibot';
import {
  DAYS_AHEAD_MAX,
  DESCRIPTION_MAX_LENGTH,
  DURATION_MAX_MINUTES,
  isIdText,
  NAME_MAX_LENGTH,
  STEP_MIN_MINUTES,
} from '../domain/checks.ts';
import { isDay, isSlotText, SLOT } from '../domain/dates.ts';
import { FIELD_KEY, type FieldDefinition, FORM_TYPES, INPUT_TYPES } from '../domain/form.ts';
import { VALUE_MAX_LENGTH } from '../domain/submission.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UTC_SLOT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** A booking reference: 16 characters of the alphabet without 0, 1, I and O (app/bookings/create-booking.ts). */
export const REFERENCE = /^[2-9A-HJ-NP-Z]{16}$/;

/**
 * A local time `YYYY-MM-DD HH:MM:SS` naming a real day and time, exactly 19 characters (spec §2 Slot), described
 * by `description`; `message` is the error of each step where a 400 answer names it.
 */
export function SlotText(description: string, message?: string) {
  return v.pipe(
    v.string(message),
    v.length(19, message),
    v.regex(SLOT, message),
    v.check(isSlotText, message),
    v.description(description),
  );
}

/** The largest id: SQLite's rowids are 64-bit, JavaScript's numbers are exact up to 2^53 - 1. */
const ID_MAX = Number.MAX_SAFE_INTEGER;

/** The OpenAPI format of an integer: its size (an id is int64; a count of seconds in a day fits int32). */
export const intFormat = (format: 'int32' | 'int64') => v.metadata<number, { format: typeof format }>({ format });

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Query parameters (spec §4). Query values arrive as strings; the document shows their meaning.

/** An id in a query string: an integer >= 1 written plainly (`1`, not `01`, `1.0` or `+1`). */
export const IdParam = v.pipe(
  v.string(),
  v.check(isIdText),
  v.transform(Number),
  v.number(),
  v.integer(),
  v.minValue(1),
  v.maxValue(ID_MAX),
  intFormat('int64'),
);
/** A local day `YYYY-MM-DD` that exists on the calendar. */
export const DayParam = v.pipe(
  v.string(),
  v.length(10),
  v.regex(DAY),
  v.check(isDay),
  v.description('A local day, YYYY-MM-DD, taken from GET /days'),
);
/** A local time `YYYY-MM-DD HH:MM:SS`, exactly 19 characters. */
export const SlotParam = SlotText('A local time, YYYY-MM-DD HH:MM:SS, taken from GET /slots; the space is sent as %20');

export const ReasonsQuery = v.object({ schedule: IdParam });
export const DaysQuery = v.object({ schedule: IdParam, reason: IdParam });
export const SlotsQuery = v.object({ schedule: IdParam, reason: IdParam, day: DayParam });
export const FormsQuery = v.object({ schedule: IdParam, reason: IdParam, slot: SlotParam });
/** GET /slots/any: a reason and a day, over every schedule that offers it. */
export const AnySlotsQuery = v.object({ reason: IdParam, day: DayParam });

// ---- The booking request (spec §2 BookingRequest).

/** Largest accepted POST body. The spec names none; 64 KiB holds any real form many times over. */
export const BODY_LIMIT = 64 * 1024;

/** Longest `error` text of an error answer: every text is the server's own, short (src/http/errors.ts holds to it). */
export const ERROR_MAX_LENGTH = 200;

/** Each field's message is the one the 400 answer carries, with `field` naming it. */
export const BOOKING_FIELD_ERRORS = {
  schedule: 'schedule must be an integer >= 1',
  reason: 'reason must be an integer >= 1',
  slot: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)',
  submission: 'submission must be an object of form values',
} as const;

export const BodyId = (message: string) =>
  v.pipe(
    v.number(message),
    v.integer(message),
    v.minValue(1, message),
    v.maxValue(ID_MAX, message),
    intFormat('int64'),
  );

/** A JSON object, not an array (valibot's record alone also takes arrays). The OpenAPI builder names it `object`. */
export const PlainObject = v.custom<Record<string, unknown>>(isPlainObject, BOOKING_FIELD_ERRORS.submission);

/** The form values: keys are field names from GET /forms. */
/** The form values' keys and values, as the record the OpenAPI builder also names `object` (after PlainObject). */
export const SubmissionRecord = v.record(v.string(), v.unknown(), BOOKING_FIELD_ERRORS.submission);
export const Submission = v.pipe(PlainObject, SubmissionRecord);

export const BookingRequest = v.strictObject({
  schedule: BodyId(BOOKING_FIELD_ERRORS.schedule),
  reason: BodyId(BOOKING_FIELD_ERRORS.reason),
  slot: SlotText('Local time YYYY-MM-DD HH:MM:SS, exactly 19 characters', BOOKING_FIELD_ERRORS.slot),
  submission: Submission,
});

export type BookingRequest = v.InferOutput<typeof BookingRequest>;

/** POST /bookings/any: BookingRequest without `schedule`, which the server chooses. */
export const AnyBookingRequest = v.strictObject({
  reason: BookingRequest.entries.reason,
  slot: BookingRequest.entries.slot,
  submission: Submission,
});

export type AnyBookingRequest = v.InferOutput<typeof AnyBookingRequest>;

/** Returns the 400 answer's `error` and `field` for a body that does not fit BookingRequest. */
export function bookingRequestProblem(body: unknown): { error: string; field?: string } | undefined {
  return requestProblem(BookingRequest, BOOKING_FIELD_ERRORS, body);
}

/** Returns the 400 answer's `error` and `field` for a body that does not fit AnyBookingRequest (as POST /bookings). */
export function anyBookingRequestProblem(body: unknown): { error: string; field?: string } | undefined {
  return requestProblem(AnyBookingRequest, BOOKING_FIELD_ERRORS, body);
}

/**
 * Returns the 400 answer's `error` and `field` for a body that does not fit `schema` (a JSON object of the API's
 * writes): the first wrong field's message from `errors`, `Unknown field` for a key the request does not have.
 */
export function requestProblem(
  schema: v.GenericSchema & { entries: Record<string, unknown> },
  errors: Readonly<Record<string, string>>,
  body: unknown,
): { error: string; field?: string } | undefined {
  if (!isPlainObject(body)) return { error: 'Body must be a JSON object' };
  const result = v.safeParse(schema, body);
  if (result.success) return undefined;
  const key = result.issues[0].path?.[0]?.key;
  const field = typeof key === 'string' ? key : undefined;
  if (field === undefined) return { error: 'Invalid request' };
  const known = Object.hasOwn(schema.entries, field) ? errors[field] : undefined; // a field of this request (never `__proto__`)
  return known ? { error: known, field } : { error: 'Unknown field', field };
}

// ---- Responses (spec §2). Strict objects: the contract tests fail on any property the document does not name.

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(ID_MAX), intFormat('int64'));
/** A name as the CLI stores it: a schedule's, a reason's, a field's label (1 to 200 characters). */
const Name = v.pipe(v.string(), v.maxLength(NAME_MAX_LENGTH));

export const Schedule = v.strictObject({ id: Id, name: Name });
export const Reason = v.strictObject({
  id: Id,
  name: Name,
  description: v.pipe(v.string(), v.maxLength(DESCRIPTION_MAX_LENGTH), v.description('May be an empty string')),
  duration: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(60),
    v.maxValue(DURATION_MAX_MINUTES * 60),
    intFormat('int32'),
    v.description('Seconds (1800 = 30 minutes)'),
  ),
});
export const Day = v.pipe(
  v.string(),
  v.length(10),
  v.regex(DAY),
  v.description('A local day with at least one free slot'),
);
export const Slot = SlotText('A free local time, YYYY-MM-DD HH:MM:SS');
export const FormField = v.strictObject({
  form_type: v.picklist(FORM_TYPES),
  input_type: v.picklist(INPUT_TYPES),
  label: Name,
  required: v.boolean(),
  value: v.pipe(
    v.union([v.pipe(v.string(), v.maxLength(VALUE_MAX_LENGTH.textarea)), v.boolean()]),
    v.description('The pre-filled value: a string, or a boolean for a checkbox'),
  ),
  options: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(VALUE_MAX_LENGTH.other))),
      v.description(
        'The choices of a select field, in order; only on fields whose form_type is select. The value sent is one of them.',
      ),
    ),
  ),
});
export const BookingResponse = v.strictObject({
  booking_id: Id,
  booking_details_id: v.pipe(
    v.string(),
    v.length(16),
    v.regex(REFERENCE),
    v.description('The public booking reference'),
  ),
  user_id: v.pipe(Id, v.description('The customer record (the same for the same e-mail address)')),
  slot: v.pipe(
    v.string(),
    v.length(20),
    v.regex(UTC_SLOT),
    v.description('The booked start in UTC, YYYY-MM-DDTHH:MM:SSZ'),
  ),
});
/** POST /bookings/any's answer: BookingResponse's fields and the schedule chosen. */
export const AnyBookingResponse = v.strictObject({
  ...BookingResponse.entries,
  schedule: v.pipe(Id, v.description('The schedule (practitioner) chosen: one of GET /schedules')),
});
/** A free time over the schedules that offer a reason, and which of them are free then. */
export const AnySlot = v.strictObject({
  slot: Slot,
  schedules: v.pipe(v.array(Id), v.minLength(1), v.description('The schedules free at that time, in id order')),
});
export const ErrorBody = v.strictObject({
  error: v.pipe(v.string(), v.maxLength(ERROR_MAX_LENGTH), v.description('What went wrong')),
  field: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(BODY_LIMIT),
      v.description('On a booking validation error: the affected field, or the unknown key that was sent'),
    ),
  ),
});

export const SchedulesResponse = v.strictObject({ data: v.array(Schedule) });
export const ReasonsResponse = v.strictObject({ data: v.array(Reason) });
/** Today and the days of the longest look-ahead. */
export const DaysResponse = v.strictObject({ data: v.pipe(v.array(Day), v.maxLength(DAYS_AHEAD_MAX + 1)) });
/** One start per step of the day's wall clock at most (a fall-back hour gives its local times once). */
export const SlotsResponse = v.strictObject({ data: v.pipe(v.array(Slot), v.maxLength(1440 / STEP_MIN_MINUTES)) });
export const FormsResponse = v.strictObject({
  data: v.record(v.pipe(v.string(), v.maxLength(64), v.regex(FIELD_KEY)), FormField),
});

/** One entry per minute of the day's wall clock at most (the schedules' grids may differ). */
export const AnySlotsResponse = v.strictObject({ data: v.pipe(v.array(AnySlot), v.maxLength(1440)) });

export type SchedulesResponse = v.InferOutput<typeof SchedulesResponse>;
export type AnySlotsResponse = v.InferOutput<typeof AnySlotsResponse>;
export type AnyBookingResponse = v.InferOutput<typeof AnyBookingResponse>;
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
