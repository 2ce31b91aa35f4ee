/**
 * The OpenAPI 3.1 document of the booking API (spec §9), derived from the valibot schemas in api.ts: the same
 * objects that validate requests and type responses. Examples come from the demo installation.
 */
import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import packageJson from '../../package.json' with { type: 'json' };
import { DEMO } from '../domain/demo.ts';
import { DEFAULT_FIELDS } from '../domain/form.ts';
import { TOKEN_PREFIX } from '../domain/token.ts';
import {
  BODY_LIMIT,
  BookingRequest,
  BookingResponse,
  DayParam,
  DaysResponse,
  ErrorBody,
  FormField,
  formsData,
  FormsResponse,
  IdParam,
  PlainObject,
  Reason,
  ReasonsResponse,
  Schedule,
  SchedulesResponse,
  SlotParam,
  SlotsResponse,
} from './api.ts';

type AnySchema = v.GenericSchema;
type Json = Record<string, unknown>;

/** The named schemas; the document refers to each as `#/components/schemas/<name>`. */
const COMPONENTS: Record<string, AnySchema> = {
  Schedule,
  Reason,
  FormField,
  BookingRequest,
  BookingResponse,
  Error: ErrorBody,
  SchedulesResponse,
  ReasonsResponse,
  DaysResponse,
  SlotsResponse,
  FormsResponse,
};

/** Returns `value` with every `#/$defs/X` reference pointed at `#/components/schemas/X` and `$schema` keys removed. */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (typeof value !== 'object' || value === null) return value;
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$defs') continue;
    result[key] = key === '$ref' && typeof item === 'string' ? item.replace('#/$defs/', '#/components/schemas/') : toComponentRefs(item);
  }
  return result;
}

/**
 * Returns the JSON Schema of `schema`. `input` describes what a client sends (a request), `output` what the
 * server means by it (a query id is a string on the wire and an integer >= 1 in meaning).
 */
function jsonSchema(schema: AnySchema, typeMode: 'input' | 'output', named = true): Json {
  const definitions = Object.fromEntries(Object.entries(COMPONENTS).filter(([, item]) => named && item !== schema));
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore', // `check` actions (a real calendar day) have no JSON Schema form; the pattern stays
    definitions,
    overrideSchema: (context): JsonSchema | undefined =>
      context.valibotSchema === PlainObject
        ? {
            type: 'object',
            description: 'The form values, keyed by the field names of GET /forms',
            additionalProperties: {
              description:
                'A string (at most 500 characters once trimmed, 5000 for a textarea); a boolean for a checkbox; a number ' +
                'also for a number field; null counts as missing',
              type: ['string', 'number', 'boolean', 'null'],
              maxLength: BODY_LIMIT, // no value is longer than the body; the field's own limit is checked once trimmed
            },
          }
        : undefined,
  };
  return toComponentRefs(toJsonSchema(schema, config)) as Json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

function errorResponse(description: string, examples: Record<string, Json>, headers?: Json): Json {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': {
        schema: ref('Error'),
        examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
      },
    },
  };
}

/** The rate-limit fields: on every answer to a call that passed the token gate (src/http/handle.ts adds them). */
const RATE_HEADERS = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

function ok(description: string, schemaName: string, example: unknown): Json {
  return { description, headers: RATE_HEADERS, content: { 'application/json': { schema: ref(schemaName), example } } };
}

function queryParameter(name: string, schema: AnySchema, typeMode: 'input' | 'output', description: string, example: unknown): Json {
  return { name, in: 'query', required: true, description, schema: jsonSchema(schema, typeMode, false), example };
}

const scheduleParameter = queryParameter('schedule', IdParam, 'output', 'A schedule id from GET /schedules', 1);
const reasonParameter = queryParameter('reason', IdParam, 'output', 'A reason id from GET /reasons of that schedule', 1);

const EXAMPLE_DAY = '2026-11-24';
const EXAMPLE_SLOT = `${EXAMPLE_DAY} 09:30:00`;

/** GET call error answers: spec §4 lists 401, 404, 429 and 503 for every GET but /schedules (no 404). */
function getResponses(success: Json, withNotFound: boolean): Json {
  return {
    '200': success,
    '401': response('Unauthorized'),
    ...(withNotFound ? { '404': response('NotFound') } : {}),
    '429': response('TooManyRequests'),
    '503': response('ServiceUnavailable'),
  };
}

/** Returns the OpenAPI 3.1 document served at /api/openapi.json. */
export function openApiDocument(): Json {
  const demoSchedule = DEMO.schedules[0];
  const defaultForm = formsData(
    DEFAULT_FIELDS.map((field) => ({ ...field, formType: 'textbox' as const, defaultValue: '', options: [] })),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'planner booking API',
      version: packageJson.version,
      description:
        'Read the free appointment times of a practice and book them, from your server. Six calls that build on ' +
        'each other: GET /schedules, /reasons, /days, /slots, /forms, then POST /bookings. Days and slots are in the ' +
        "practice's local time; the booking answer's slot is UTC. On GET calls a missing or malformed parameter " +
        'answers 404, never 400.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // spec §9: relative on purpose, so the document is valid for any installation.
    servers: [{ url: '/api', description: 'The installation you call: https://<your installation>/api' }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'booking', description: 'The six calls of the booking process' }],
    paths: {
      '/schedules': {
        get: {
          operationId: 'listSchedules',
          tags: ['booking'],
          summary: 'List the schedules (calendars)',
          description: 'The first call of the booking process: each schedule id is the `schedule` parameter of the calls that follow.',
          responses: getResponses(
            ok('The schedules', 'SchedulesResponse', { data: DEMO.schedules.map((schedule, index) => ({ id: index + 1, name: schedule.name })) }),
            false,
          ),
        },
      },
      '/reasons': {
        get: {
          operationId: 'listReasons',
          tags: ['booking'],
          summary: 'List the reasons (services) of a schedule',
          description: 'Each reason has its own duration, in seconds; its id is the `reason` parameter of GET /days, /slots and /forms.',
          parameters: [scheduleParameter],
          responses: getResponses(
            ok('The reasons, in order; an empty array when none are configured', 'ReasonsResponse', {
              data: demoSchedule.reasons.map((reason, index) => ({
                id: index + 1,
                name: reason.name,
                description: reason.description,
                duration: reason.durationMinutes * 60,
              })),
            }),
            true,
          ),
        },
      },
      '/days': {
        get: {
          operationId: 'listDays',
          tags: ['booking'],
          summary: 'List the days with at least one free slot',
          description: "How far ahead the list reaches is the schedule's look-ahead.",
          parameters: [scheduleParameter, reasonParameter],
          responses: getResponses(ok('The days, in order', 'DaysResponse', { data: ['2026-11-23', EXAMPLE_DAY, '2026-11-25'] }), true),
        },
      },
      '/slots': {
        get: {
          operationId: 'listSlots',
          tags: ['booking'],
          summary: 'List the free times of one day',
          description:
            "The free start times of the day in the practice's local time, taking bookings, notice and closures into " +
            'account. A day outside the look-ahead answers an empty array.',
          parameters: [scheduleParameter, reasonParameter, queryParameter('day', DayParam, 'input', 'A day from GET /days', EXAMPLE_DAY)],
          responses: getResponses(
            ok('The free local times of the day, in order; an empty array when none is free', 'SlotsResponse', {
              data: [`${EXAMPLE_DAY} 09:00:00`, `${EXAMPLE_DAY} 09:15:00`, EXAMPLE_SLOT],
            }),
            true,
          ),
        },
      },
      '/forms': {
        get: {
          operationId: 'getForm',
          tags: ['booking'],
          summary: 'List the form fields to fill to book a free slot',
          description: 'The field names are the keys of `submission` in POST /bookings. They are configured per installation: always fetch them.',
          parameters: [scheduleParameter, reasonParameter, queryParameter('slot', SlotParam, 'input', 'A slot from GET /slots', EXAMPLE_SLOT)],
          responses: getResponses(ok('The fields, indexed by name, in form order', 'FormsResponse', { data: defaultForm }), true),
        },
      },
      '/bookings': {
        post: {
          operationId: 'createBooking',
          tags: ['booking'],
          summary: 'Book a free slot (and create or find the customer record)',
          description:
            'The slot is checked and booked in one transaction: of simultaneous requests for the last place, one ' +
            'succeeds and the others get 404. Confirmation e-mails are sent as for any booking. With an ' +
            '`Idempotency-Key`, a retry is safe: a repeat with the same key and the same body within 24 hours gets the ' +
            'first answer again (201, or the 400 or 404 of the booking), with `Idempotent-Replayed: true`, and books ' +
            'nothing; the same key with another body gets 400 `Idempotency-Key reused with a different request`.',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Optional. Any 1 to 255 visible ASCII characters the client picks per booking it means to make (e.g. a UUID), ' +
                'sent again unchanged with every retry of that request. Without it, nothing changes.',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
              example: '8f14e45f-ceea-467f-a0e6-5e3c1b9d2c71',
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('BookingRequest'),
                example: {
                  schedule: 1,
                  reason: 1,
                  slot: EXAMPLE_SLOT,
                  submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'Booked (or, with `Idempotent-Replayed: true`, booked by an earlier request with the same Idempotency-Key)',
              headers: { ...RATE_HEADERS, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } },
              content: {
                'application/json': {
                  schema: ref('BookingResponse'),
                  example: { booking_id: 1, booking_details_id: 'J6X99LA2FD5TAU9S', user_id: 1, slot: '2026-11-24T08:30:00Z' },
                },
              },
            },
            '400': response('BadRequest'),
            // The 401 (answered before a token is known) and the 503 (before any gate counts) carry no rate-limit fields.
            '401': response('Unauthorized'),
            '404': response('NotFound'),
            '413': response('PayloadTooLarge'),
            '415': response('UnsupportedMediaType'),
            '429': response('TooManyRequests'),
            '500': response('NotSaved'),
            '503': response('ServiceUnavailable'),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `The installation's one API token (\`${TOKEN_PREFIX}\` and 64 characters), made with \`planner token new\`. Server to server only.`,
        },
      },
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, schema]) => [name, jsonSchema(schema, name === 'BookingRequest' ? 'input' : 'output')]),
      ),
      headers: {
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
          description: 'Present (`true`) when the answer is the one kept for the request\'s Idempotency-Key: nothing was booked now',
          schema: { type: 'string', const: 'true' },
        },
        'WWW-Authenticate': {
          description: 'The scheme the API wants (RFC 9110 §11.6.1, RFC 6750 §3): send `Authorization: Bearer <token>`',
          required: true,
          schema: { type: 'string', const: 'Bearer' },
        },
      },
      responses: {
        BadRequest: errorResponse(
          'Invalid request: invalid JSON, a wrong field, or a form field missing or invalid; a malformed ' +
            'Idempotency-Key, or one sent again with another body (a 400 of the booking kept for a key is answered again ' +
            'with `Idempotent-Replayed: true`)',
          {
            fieldRequired: { error: 'Field is required', field: 'last_name' },
            invalidJson: { error: 'Invalid JSON' },
            badSlot: { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
            badKey: { error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
            keyReused: { error: 'Idempotency-Key reused with a different request' },
          },
          { ...RATE_HEADERS, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } },
        ),
        Unauthorized: errorResponse(
          'Token missing, wrong, or replaced by a newer one. Answered before the token is known, so it carries no rate-limit fields.',
          { unauthorized: { error: 'Unauthorized' } },
          { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
        ),
        NotFound: errorResponse(
          'Schedule, reason, day or slot not found or no longer free; on GET calls also a missing or malformed parameter. ' +
            'POST /bookings: a 404 kept for an Idempotency-Key is answered again with `Idempotent-Replayed: true`',
          { notFound: { error: 'Not Found' } },
          { ...RATE_HEADERS, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } },
        ),
        PayloadTooLarge: errorResponse(
          'The body is larger than the limit',
          { tooLarge: { error: `Body larger than ${BODY_LIMIT} bytes` } },
          RATE_HEADERS,
        ),
        UnsupportedMediaType: errorResponse(
          'The request lacks Content-Type: application/json',
          { unsupported: { error: 'Content-Type must be application/json' } },
          RATE_HEADERS,
        ),
        TooManyRequests: errorResponse(
          'More calls than the limit per minute for this token (default 300)',
          { tooMany: { error: 'Too Many Requests' } },
          { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_HEADERS },
        ),
        NotSaved: errorResponse('The customer record or the appointment could not be saved; nothing was saved', {
          notSaved: { error: 'The booking could not be saved' },
        }),
        ServiceUnavailable: errorResponse('The API is switched off, or the installation is not set up yet', {
          disabled: { error: 'API disabled' },
          notConfigured: { error: 'Not configured' },
        }),
      },
    },
  };
}
