import { getQuery, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { availableDays, availableSlots, bookableReasons, bookableSchedules, bookingFormFields, requireFreeSlot } from '../app/availability.ts';
import type { AppContext } from '../app/context.ts';
import { createBooking } from '../app/create-booking.ts';
import { utcText } from '../domain/days.ts';
import { AppError, notFound } from '../errors.ts';
import {
  BODY_LIMIT,
  bookingRequestProblem,
  formsData,
  DaysQuery,
  FormsQuery,
  ReasonsQuery,
  SlotsQuery,
  type BookingRequest,
  type BookingResponse,
  type DaysResponse,
  type FormsResponse,
  type ReasonsResponse,
  type SchedulesResponse,
  type SlotsResponse,
} from '../schemas/api.ts';
import { errorBody, jsonText, NOT_FOUND, type ExtraHeaders } from './respond.ts';

/** Returns the query parsed by `schema`; spec §7: on GET calls a missing or malformed parameter is 404, never 400. */
function query<S extends v.GenericSchema>(event: H3Event, schema: S): v.InferOutput<S> {
  const result = v.safeParse(schema, getQuery(event));
  if (!result.success) throw notFound('bad query');
  return result.output;
}

/** An answer of a route: its status and its JSON text (serialized once, also when cached). */
interface Reply {
  status: number;
  text: string;
  headers?: ExtraHeaders;
}

/** Returns a 200 (or `status`) answer with `body`, typed by the response schema it must fit. */
function reply<T>(body: T, status = 200): Reply {
  return { status, text: JSON.stringify(body) };
}

/** Returns the spec's error answer (§7): `{"error": …}`, with `field` where one is named. */
function failure(status: number, message: string, field?: string): Reply {
  return reply(errorBody(message, field), status);
}

/** Maps the core's errors to the spec's answers (§7); anything else is left to the app's 500 handler. */
function answerFor(problem: unknown, log: (line: string) => void): Reply {
  if (!(problem instanceof AppError)) throw problem;
  switch (problem.code) {
    case 'not_found':
      return failure(404, NOT_FOUND);
    case 'invalid':
      return failure(400, problem.message, problem.field);
    case 'not_configured':
      return failure(503, 'Not configured');
    case 'storage':
      log(`planner: ${problem.message}`);
      return failure(500, 'The booking could not be saved');
    case 'conflict':
      return failure(409, problem.message);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, refusing more than `limit` bytes (413) as they arrive, and a body that does not
 * arrive whole within `deadlineMs` (400, and the connection is closed: a slow client cannot hold it).
 */
async function readBodyText(event: H3Event, limit: number, deadlineMs: number): Promise<string | Reply> {
  const tooLarge = () => failure(413, `Body larger than ${limit} bytes`);
  const declared = Number(event.req.headers.get('content-length') ?? 0);
  if (declared > limit) return tooLarge();
  // Behind node:http, read Node's own request stream: the Web-stream adapter costs more than the booking.
  const body: AsyncIterable<Uint8Array> | null = event.runtime?.node?.req ?? event.req.body;
  if (!body) return '';
  const read = async (): Promise<string | Reply> => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    }
    try {
      return utf8.decode(Buffer.concat(chunks));
    } catch {
      return failure(400, 'Body is not valid UTF-8');
    }
  };
  const close = { connection: 'close' };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Reply>((resolve) => {
    timer = setTimeout(() => resolve({ ...failure(400, `Body not received within ${deadlineMs / 1000} s`), headers: close }), deadlineMs);
  });
  // A client that goes away mid-body: nobody is left to read the answer, but the reading must end quietly.
  const reading = read().catch(() => ({ ...failure(400, 'Body incomplete'), headers: close }));
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Registers the six calls of the spec (§4) on `app`, and the 404 for any other path under /api. */
export function registerRoutes(
  app: H3,
  ctx: AppContext,
  hooks: { log: (line: string) => void; afterBooking: () => void; generation: () => number; bodyTimeoutMs: number },
): void {
  const { log } = hooks;
  // Schedules, reasons and form fields change only when another process (the CLI) writes: their answers are
  // built once per generation of the file instead of once per request.
  const cache = new Map<string, { generation: number; reply: Reply }>();
  const cached = (key: string, build: () => Reply): Reply => {
    const generation = hooks.generation();
    const hit = cache.get(key);
    if (hit?.generation === generation) return hit.reply;
    if (cache.size > 10_000) cache.clear(); // keys are ids that exist: bounded anyway
    const built = build();
    cache.set(key, { generation, reply: built });
    return built;
  };
  /** Turns a route's reply (or the core's error) into the answer, with the gate's rate-limit headers. */
  const handle = (fn: (event: H3Event) => Reply | Promise<Reply>) => (event: H3Event) => {
    const started = performance.now();
    // Server-Timing (W3C): the time the call itself took, without HTTP; the benchmark reads it.
    const send = (answer: Reply) =>
      jsonText(answer.status, answer.text, {
        ...(event.context.rateHeaders as ExtraHeaders | undefined),
        ...answer.headers,
        'server-timing': `app;dur=${(performance.now() - started).toFixed(3)}`,
      });
    try {
      const answer = fn(event);
      return answer instanceof Promise ? answer.then(send, (problem: unknown) => send(answerFor(problem, log))) : send(answer);
    } catch (problem) {
      return send(answerFor(problem, log));
    }
  };

  app.get(
    '/api/schedules',
    handle(() => cached('schedules', () => reply<SchedulesResponse>({ data: bookableSchedules(ctx).map(({ id, name }) => ({ id, name })) }))),
  );

  app.get(
    '/api/reasons',
    handle((event) => {
      const { schedule } = query(event, ReasonsQuery);
      return cached(`reasons:${schedule}`, () =>
        reply<ReasonsResponse>({
          data: bookableReasons(ctx, schedule).map((reason) => ({
            id: reason.id,
            name: reason.name,
            description: reason.description,
            duration: reason.durationMinutes * 60, // spec §2: seconds
          })),
        }),
      );
    }),
  );

  app.get(
    '/api/days',
    handle((event) => {
      const { schedule, reason } = query(event, DaysQuery);
      return reply<DaysResponse>({ data: availableDays(ctx, schedule, reason) });
    }),
  );

  app.get(
    '/api/slots',
    handle((event) => {
      const { schedule, reason, day } = query(event, SlotsQuery);
      return reply<SlotsResponse>({ data: availableSlots(ctx, schedule, reason, day).map((slot) => slot.local) });
    }),
  );

  app.get(
    '/api/forms',
    handle((event) => {
      const { schedule, reason, slot } = query(event, FormsQuery);
      requireFreeSlot(ctx, schedule, reason, slot);
      return cached('forms', () => reply<FormsResponse>({ data: formsData(bookingFormFields(ctx)) }));
    }),
  );

  app.post(
    '/api/bookings',
    handle(async (event) => {
      // spec §4: `Content-Type: application/json` is required (a charset parameter is fine).
      const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return failure(415, 'Content-Type must be application/json');
      const text = await readBodyText(event, BODY_LIMIT, hooks.bodyTimeoutMs);
      if (typeof text !== 'string') return text;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return failure(400, 'Invalid JSON');
      }
      const problem = bookingRequestProblem(body);
      if (problem) return failure(400, problem.error, problem.field);
      const request = body as BookingRequest;
      const created = createBooking(
        ctx,
        { scheduleId: request.schedule, reasonId: request.reason, slot: request.slot, submission: request.submission },
        'api',
      );
      hooks.afterBooking();
      return reply<BookingResponse>(
        { booking_id: created.bookingId, booking_details_id: created.reference, user_id: created.customerId, slot: utcText(created.startAt) },
        201,
      );
    }),
  );

  // Any other path under /api, behind the gates: a route (not onError) so it carries the rate-limit headers.
  app.all('/api/**', handle(() => failure(404, NOT_FOUND)));
}
