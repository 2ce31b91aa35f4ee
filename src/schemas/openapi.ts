/**
 * The OpenAPI 3.1 document of the booking API (spec §9), built from the table of operations (operations.ts) and the
 * valibot schemas in api.ts: the same objects that validate requests and type responses.
 */
import { type ConversionConfig, type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import packageJson from '../../package.json' with { type: 'json' };
import { VALUE_MAX_LENGTH } from '../domain/submission.ts';
import { TOKEN_PREFIX } from '../domain/token.ts';
import {
  AnyBookingRequest,
  AnyBookingResponse,
  AnySlot,
  AnySlotsResponse,
  BODY_LIMIT,
  BookingRequest,
  BookingResponse,
  DaysResponse,
  ErrorBody,
  FormField,
  FormsResponse,
  PlainObject,
  Reason,
  ReasonsResponse,
  Schedule,
  SchedulesResponse,
  SlotsResponse,
  SubmissionRecord,
} from './api.ts';
import {
  ANY_OPERATIONS,
  ERROR_ANSWERS,
  HEADERS,
  OPERATIONS,
  type Operation,
  RATE_HEADERS,
  REPLAYED,
} from './operations.ts';
import { NotFreeDate, SeriesRefusal, SeriesRequest, SeriesResponse } from './series.ts';

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
  SeriesRequest,
  SeriesResponse,
  SeriesRefusal,
  NotFreeDate,
  AnySlot,
  AnySlotsResponse,
  AnyBookingRequest,
  AnyBookingResponse,
};

/** Returns `value` with every `#/$defs/X` reference pointed at `#/components/schemas/X` and `$schema` keys removed. */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (typeof value !== 'object' || value === null) return value;
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema' || key === '$defs') continue;
    result[key] =
      key === '$ref' && typeof item === 'string'
        ? item.replace('#/$defs/', '#/components/schemas/')
        : toComponentRefs(item);
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
      context.valibotSchema === PlainObject || context.valibotSchema === SubmissionRecord
        ? {
            type: 'object',
            description: 'The form values, keyed by the field names of GET /forms',
            additionalProperties: {
              description:
                `A string (at most ${VALUE_MAX_LENGTH.other} characters once trimmed, ${VALUE_MAX_LENGTH.textarea} for a textarea); a boolean for a checkbox; a number ` +
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

/** Returns the operation object of `operation`: its parameters, body and answers (the errors by reference). */
function operationObject(operation: Operation): Json {
  const parameters = [
    ...(operation.query ?? []).map(({ name, schema, typeMode, description, example }) => ({
      name,
      in: 'query',
      required: true,
      description,
      schema: jsonSchema(schema, typeMode, false),
      example,
    })),
    ...(operation.headerParameters ?? []),
  ];
  const { success } = operation;
  return {
    operationId: operation.operationId,
    tags: ['booking'],
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(operation.body.schema), example: operation.body.example } },
          },
        }
      : {}),
    responses: {
      [success.status]: {
        description: success.description,
        headers: success.replayable ? { ...RATE_HEADERS, ...REPLAYED } : RATE_HEADERS,
        content: { 'application/json': { schema: ref(success.schema), example: success.example } },
      },
      ...Object.fromEntries(operation.errors.map((status) => [status, response(ERROR_ANSWERS[status].name)])),
      ...(operation.notFound
        ? {
            '404': {
              description: operation.notFound.description,
              headers: { ...RATE_HEADERS, ...REPLAYED },
              content: {
                'application/json': { schema: ref(operation.notFound.schema), example: operation.notFound.example },
              },
            },
          }
        : {}),
    },
  };
}

/** Returns the OpenAPI 3.1 document served at /api/openapi.json. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'planner booking API',
      version: packageJson.version,
      description:
        'Read the free appointment times of a practice and book them, from your server. Six calls that build on ' +
        'each other: GET /schedules, /reasons, /days, /slots, /forms, then POST /bookings. Days and slots are in the ' +
        "practice's local time; the booking answer's slot is UTC. On GET calls a missing or malformed parameter " +
        'answers 404, never 400. A practice of several practitioners may offer one reason by several schedules (the ' +
        'same reason id in GET /reasons of each); GET /slots/any and POST /bookings/any then give the free times ' +
        'over all of them and book with whoever is free (the fewest booked minutes that day, then the lowest id).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // spec §9: relative on purpose, so the document is valid for any installation.
    servers: [{ url: '/api', description: 'The installation you call: https://<your installation>/api' }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'booking', description: 'The six calls of the booking process' }],
    paths: Object.fromEntries(
      [...OPERATIONS, ...ANY_OPERATIONS].map((operation) => [
        operation.path,
        { [operation.method]: operationObject(operation) },
      ]),
    ),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `The installation's one API token (\`${TOKEN_PREFIX}\` and 64 characters), made with \`planner token new\`. Server to server only.`,
        },
      },
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, schema]) => [
          name,
          jsonSchema(schema, name === 'BookingRequest' || name === 'AnyBookingRequest' ? 'input' : 'output'),
        ]),
      ),
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.values(ERROR_ANSWERS).map(({ name, description, examples, headers }) => [
          name,
          errorResponse(description, examples, headers),
        ]),
      ),
    },
  };
}
