/**
 * The booking API's operations as data (spec §4): their parameters, bodies, answers and examples, and the error
 * answers and headers they share. src/schemas/openapi.ts builds the OpenAPI document from these tables; the schemas
 * they name are the valibot schemas of api.ts. Examples come from the demo installation.
 */
import type * as v from 'valibot';
import { DEMO } from '../domain/demo.ts';
import { DEFAULT_FIELDS } from '../domain/form.ts';
import { BODY_LIMIT, DayParam, formsData, IdParam, SlotParam } from './api.ts';

type Json = Record<string, unknown>;

/** The rate-limit fields: on every answer to a call that passed the token gate (src/http/handle.ts adds them). */
export const RATE_HEADERS = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

/** A required query parameter: its schema as the client sends it (`input`) or as the server means it (`output`). */
export interface QueryParameter {
  name: string;
  schema: v.GenericSchema;
  typeMode: 'input' | 'output';
  description: string;
  example: unknown;
}

/** The error answers an operation may give, each a component of `ERROR_ANSWERS` by its status. */
export type ErrorStatus = '400' | '401' | '404' | '413' | '415' | '429' | '500' | '503';

/** One operation of the API, as data: what `operationObject` makes of it is its part of the document. */
export interface Operation {
  path: string;
  method: 'get' | 'post';
  operationId: string;
  summary: string;
  description: string;
  query?: readonly QueryParameter[];
  /** Header parameters, as OpenAPI writes them. */
  headerParameters?: readonly Json[];
  /** The JSON body: its schema's component name and an example. */
  body?: { schema: string; example: unknown };
  /** The answer when it works: its status, the component name of its schema, and an example. */
  success: { status: '200' | '201'; description: string; schema: string; example: unknown; replayable?: boolean };
  /** The error answers, in the spec's order (§4). */
  errors: readonly ErrorStatus[];
  /** A 404 of the operation's own body (POST /series: the dates that are not free), instead of the shared one. */
  notFound?: { description: string; schema: string; example: unknown };
}

const EXAMPLE_DAY = '2026-11-24';
const EXAMPLE_SLOT = `${EXAMPLE_DAY} 09:30:00`;

const SCHEDULE: QueryParameter = {
  name: 'schedule',
  schema: IdParam,
  typeMode: 'output',
  description: 'A schedule id from GET /schedules',
  example: 1,
};
const REASON: QueryParameter = {
  name: 'reason',
  schema: IdParam,
  typeMode: 'output',
  description: 'A reason id from GET /reasons of that schedule',
  example: 1,
};
/** spec §4 lists 401, 404, 429 and 503 for every GET but /schedules (no 404). */
const GET_ERRORS: readonly ErrorStatus[] = ['401', '404', '429', '503'];

const demoSchedule = DEMO.schedules[0];

/** The optional Idempotency-Key of the API's writes (POST /bookings, POST /series). */
const IDEMPOTENCY_KEY_HEADER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Optional. Any 1 to 255 visible ASCII characters the client picks per booking it means to make (e.g. a UUID), ' +
    'sent again unchanged with every retry of that request. Without it, nothing changes.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
  example: '8f14e45f-ceea-467f-a0e6-5e3c1b9d2c71',
};

/** The six operations of the booking process, in the order a client calls them (spec §4). */
export const OPERATIONS: readonly Operation[] = [
  {
    path: '/schedules',
    method: 'get',
    operationId: 'listSchedules',
    summary: 'List the schedules (calendars)',
    description:
      'The first call of the booking process: each schedule id is the `schedule` parameter of the calls that follow.',
    success: {
      status: '200',
      description: 'The schedules',
      schema: 'SchedulesResponse',
      example: { data: DEMO.schedules.map((schedule, index) => ({ id: index + 1, name: schedule.name })) },
    },
    errors: ['401', '429', '503'],
  },
  {
    path: '/reasons',
    method: 'get',
    operationId: 'listReasons',
    summary: 'List the reasons (services) of a schedule',
    description:
      'Each reason has its own duration, in seconds; its id is the `reason` parameter of GET /days, /slots and /forms.',
    query: [SCHEDULE],
    success: {
      status: '200',
      description: 'The reasons, in order; an empty array when none are configured',
      schema: 'ReasonsResponse',
      example: {
        data: demoSchedule.reasons.map((reason, index) => ({
          id: index + 1,
          name: reason.name,
          description: reason.description,
          duration: reason.durationMinutes * 60,
        })),
      },
    },
    errors: GET_ERRORS,
  },
  {
    path: '/days',
    method: 'get',
    operationId: 'listDays',
    summary: 'List the days with at least one free slot',
    description: "How far ahead the list reaches is the schedule's look-ahead.",
    query: [SCHEDULE, REASON],
    success: {
      status: '200',
      description: 'The days, in order',
      schema: 'DaysResponse',
      example: { data: ['2026-11-23', EXAMPLE_DAY, '2026-11-25'] },
    },
    errors: GET_ERRORS,
  },
  {
    path: '/slots',
    method: 'get',
    operationId: 'listSlots',
    summary: 'List the free times of one day',
    description:
      "The free start times of the day in the practice's local time, taking bookings, notice and closures into " +
      'account. A day outside the look-ahead answers an empty array.',
    query: [
      SCHEDULE,
      REASON,
      { name: 'day', schema: DayParam, typeMode: 'input', description: 'A day from GET /days', example: EXAMPLE_DAY },
    ],
    success: {
      status: '200',
      description: 'The free local times of the day, in order; an empty array when none is free',
      schema: 'SlotsResponse',
      example: { data: [`${EXAMPLE_DAY} 09:00:00`, `${EXAMPLE_DAY} 09:15:00`, EXAMPLE_SLOT] },
    },
    errors: GET_ERRORS,
  },
  {
    path: '/forms',
    method: 'get',
    operationId: 'getForm',
    summary: 'List the form fields to fill to book a free slot',
    description:
      'The field names are the keys of `submission` in POST /bookings. They are configured per installation: always fetch them.',
    query: [
      SCHEDULE,
      REASON,
      {
        name: 'slot',
        schema: SlotParam,
        typeMode: 'input',
        description: 'A slot from GET /slots',
        example: EXAMPLE_SLOT,
      },
    ],
    success: {
      status: '200',
      description: 'The fields, indexed by name, in form order',
      schema: 'FormsResponse',
      example: {
        data: formsData(
          DEFAULT_FIELDS.map((field) => ({ ...field, formType: 'textbox' as const, defaultValue: '', options: [] })),
        ),
      },
    },
    errors: GET_ERRORS,
  },
  {
    path: '/bookings',
    method: 'post',
    operationId: 'createBooking',
    summary: 'Book a free slot (and create or find the customer record)',
    description:
      'The slot is checked and booked in one transaction: of simultaneous requests for the last place, one ' +
      'succeeds and the others get 404. Confirmation e-mails are sent as for any booking. With an ' +
      '`Idempotency-Key`, a retry is safe: a repeat with the same key and the same body within 24 hours gets the ' +
      'first answer again (201, or the 400 or 404 of the booking), with `Idempotent-Replayed: true`, and books ' +
      'nothing; the same key with another body gets 400 `Idempotency-Key reused with a different request`.',
    headerParameters: [IDEMPOTENCY_KEY_HEADER],
    body: {
      schema: 'BookingRequest',
      example: {
        schedule: 1,
        reason: 1,
        slot: EXAMPLE_SLOT,
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
      },
    },
    success: {
      status: '201',
      description:
        'Booked (or, with `Idempotent-Replayed: true`, booked by an earlier request with the same Idempotency-Key)',
      schema: 'BookingResponse',
      example: { booking_id: 1, booking_details_id: 'J6X99LA2FD5TAU9S', user_id: 1, slot: '2026-11-24T08:30:00Z' },
      replayable: true,
    },
    // The 401 (answered before a token is known) and the 503 (before any gate counts) carry no rate-limit fields.
    errors: ['400', '401', '404', '413', '415', '429', '500', '503'],
  },
  // A series: beside the six calls of the spec, which stay as they are.
  {
    path: '/series',
    method: 'post',
    operationId: 'createSeries',
    summary: 'Book a series: the same time every week (or every n days), all dates or none',
    description:
      'A course of treatment: the first date (`slot`) and every `repeat` after it, `count` dates in all, for one ' +
      'customer. Every date is checked as POST /bookings checks one (hours, closures, notice, look-ahead, buffers, ' +
      "the practitioner's calendar, capacity) and all are booked in one transaction, or none: a 404 then lists each " +
      'date that is not free, why, and the nearest free times that day. With `skip_taken: true` the free dates are ' +
      'booked and the others listed in `skipped`. Each date is a booking of its own (its reference, reminders, ' +
      "webhook event); the customer gets one confirmation with every date and each date's calendar file. " +
      'Idempotency-Key works as for POST /bookings.',
    headerParameters: [IDEMPOTENCY_KEY_HEADER],
    body: {
      schema: 'SeriesRequest',
      example: {
        schedule: 1,
        reason: 1,
        slot: EXAMPLE_SLOT,
        repeat: '1w',
        count: 6,
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
      },
    },
    success: {
      status: '201',
      description:
        'Booked (or, with `Idempotent-Replayed: true`, booked by an earlier request with the same Idempotency-Key)',
      schema: 'SeriesResponse',
      example: {
        series_id: 'K7Q2M9XW4HCT8RZP',
        bookings: [
          { booking_id: 1, booking_details_id: 'J6X99LA2FD5TAU9S', user_id: 1, slot: '2026-11-24T08:30:00Z' },
          { booking_id: 2, booking_details_id: 'P3WQ8N2ZK5RM7TXA', user_id: 1, slot: '2026-12-01T08:30:00Z' },
        ],
        skipped: [],
      },
      replayable: true,
    },
    errors: ['400', '401', '404', '413', '415', '429', '500', '503'],
    notFound: {
      description:
        'Schedule or reason not found (`{"error":"Not Found"}`), or dates of the series not free: nothing was booked; ' +
        '`dates` lists each with why and the nearest free times that day. Kept for an Idempotency-Key like a 404 of POST /bookings',
      schema: 'SeriesRefusal',
      example: {
        error: 'Not Found',
        dates: [{ slot: '2026-12-08 09:30:00', why: 'taken', nearest: ['2026-12-08 09:00:00', '2026-12-08 10:00:00'] }],
      },
    },
  },
];

/**
 * Calls beside the six: a practice of several practitioners offers a reason by several schedules (the
 * same reason id in GET /reasons of each), and a client may ask for the free times over all of them and book with
 * whoever is free. The six stay exactly as they are.
 */
export const ANY_OPERATIONS: readonly Operation[] = [
  {
    path: '/slots/any',
    method: 'get',
    operationId: 'listAnySlots',
    summary: 'List the free times of one day with any practitioner who offers a reason',
    description:
      'The free start times of the day over every schedule that offers the reason (GET /reasons of each lists it ' +
      'with the same id), each with the schedules free then. A day outside every look-ahead answers an empty array.',
    query: [
      { ...REASON, description: 'A reason id from GET /reasons of any schedule' },
      { name: 'day', schema: DayParam, typeMode: 'input', description: 'A local day', example: EXAMPLE_DAY },
    ],
    success: {
      status: '200',
      description: 'The free local times of the day, in order, each with who is free; an empty array when none is',
      schema: 'AnySlotsResponse',
      example: {
        data: [
          { slot: `${EXAMPLE_DAY} 09:00:00`, schedules: [1, 2] },
          { slot: EXAMPLE_SLOT, schedules: [2] },
        ],
      },
    },
    errors: GET_ERRORS,
  },
  {
    path: '/bookings/any',
    method: 'post',
    operationId: 'createAnyBooking',
    summary: 'Book a free time with any practitioner who offers the reason',
    description:
      'As POST /bookings without `schedule`: the server chooses, in the booking’s own transaction, among the ' +
      'schedules that offer the reason and are free at that instant, the one with the fewest booked minutes that ' +
      'local day, then the lowest id; the answer names it (`schedule`), and so do the confirmation e-mails. When ' +
      'none is free: 404, as for a single booking. Errors and Idempotency-Key as POST /bookings.',
    headerParameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Optional, as on POST /bookings: any 1 to 255 visible ASCII characters, sent again unchanged with every retry.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
        example: '0b9c2b7e-7a51-4d2c-9f0e-2f6f7c1d8a43',
      },
    ],
    body: {
      schema: 'AnyBookingRequest',
      example: {
        reason: 1,
        slot: EXAMPLE_SLOT,
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
      },
    },
    success: {
      status: '201',
      description:
        'Booked with the schedule named (or, with `Idempotent-Replayed: true`, by an earlier request with the same Idempotency-Key)',
      schema: 'AnyBookingResponse',
      example: {
        booking_id: 1,
        booking_details_id: 'J6X99LA2FD5TAU9S',
        user_id: 1,
        slot: '2026-11-24T08:30:00Z',
        schedule: 2,
      },
      replayable: true,
    },
    errors: ['400', '401', '404', '413', '415', '429', '500', '503'],
  },
];

/** The header that marks an answer kept for an Idempotency-Key. */
export const REPLAYED = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };

/** The error answers, by status: each a component under `#/components/responses/`. */
export const ERROR_ANSWERS: Record<
  ErrorStatus,
  { name: string; description: string; examples: Record<string, Json>; headers?: Json }
> = {
  '400': {
    name: 'BadRequest',
    description:
      'Invalid request: invalid JSON, a wrong field, or a form field missing or invalid; a malformed ' +
      'Idempotency-Key, or one sent again with another body (a 400 of the booking kept for a key is answered again ' +
      'with `Idempotent-Replayed: true`)',
    examples: {
      fieldRequired: { error: 'Field is required', field: 'last_name' },
      invalidJson: { error: 'Invalid JSON' },
      badSlot: { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
      badKey: { error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
      keyReused: { error: 'Idempotency-Key reused with a different request' },
    },
    headers: { ...RATE_HEADERS, ...REPLAYED },
  },
  '401': {
    name: 'Unauthorized',
    description:
      'Token missing, wrong, or replaced by a newer one. Answered before the token is known, so it carries no rate-limit fields.',
    examples: { unauthorized: { error: 'Unauthorized' } },
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
  },
  '404': {
    name: 'NotFound',
    description:
      'Schedule, reason, day or slot not found or no longer free; on GET calls also a missing or malformed parameter. ' +
      'POST /bookings: a 404 kept for an Idempotency-Key is answered again with `Idempotent-Replayed: true`',
    examples: { notFound: { error: 'Not Found' } },
    headers: { ...RATE_HEADERS, ...REPLAYED },
  },
  '413': {
    name: 'PayloadTooLarge',
    description: 'The body is larger than the limit',
    examples: { tooLarge: { error: `Body larger than ${BODY_LIMIT} bytes` } },
    headers: RATE_HEADERS,
  },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The request lacks Content-Type: application/json',
    examples: { unsupported: { error: 'Content-Type must be application/json' } },
    headers: RATE_HEADERS,
  },
  '429': {
    name: 'TooManyRequests',
    description: 'More calls than the limit per minute for this token (default 300)',
    examples: { tooMany: { error: 'Too Many Requests' } },
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_HEADERS },
  },
  '500': {
    name: 'NotSaved',
    description: 'The customer record or the appointment could not be saved; nothing was saved',
    examples: { notSaved: { error: 'The booking could not be saved' } },
  },
  '503': {
    name: 'ServiceUnavailable',
    description: 'The API is switched off, or the installation is not set up yet',
    examples: { disabled: { error: 'API disabled' }, notConfigured: { error: 'Not configured' } },
  },
};

/** The headers every answer may carry, under `#/components/headers/`. */
export const HEADERS: Json = {
  'Retry-After': {
    description: 'Whole seconds until the rate limit lets calls through again (within the one-minute window)',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60 },
  },
  RateLimit: {
    description:
      'IETF draft rate-limit fields: remaining calls and seconds until the window resets, e.g. `"default";r=299;t=60` ' +
      '(`"failed-token"` on the 429 of the throttle of failed tokens)',
    schema: { type: 'string', maxLength: 64, pattern: '^"(default|failed-token)";r=\\d{1,10};t=\\d{1,2}$' },
  },
  'RateLimit-Policy': {
    description: 'The limit per one-minute window, e.g. `"default";q=300;w=60`',
    schema: { type: 'string', maxLength: 64, pattern: '^"(default|failed-token)";q=\\d{1,10};w=60$' },
  },
  'Idempotent-Replayed': {
    description:
      "Present (`true`) when the answer is the one kept for the request's Idempotency-Key: nothing was booked now",
    schema: { type: 'string', const: 'true' },
  },
  'WWW-Authenticate': {
    description: 'The scheme the API wants (RFC 9110 §11.6.1, RFC 6750 §3): send `Authorization: Bearer <token>`',
    required: true,
    schema: { type: 'string', const: 'Bearer' },
  },
};
