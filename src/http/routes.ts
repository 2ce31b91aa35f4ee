import { getQuery, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { availableDays, availableSlots, bookableReasons, bookableSchedules, bookingForm } from '../app/availability.ts';
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
import { error, NOT_FOUND } from './respond.ts';

/** Returns the query parsed by `schema`; spec §7: on GET calls a missing or malformed parameter is 404, never 400. */
function query<S extends v.GenericSchema>(event: H3Event, schema: S): v.InferOutput<S> {
  const result = v.safeParse(schema, getQuery(event));
  if (!result.success) throw notFound('bad query');
  return result.output;
}

/** Maps the core's errors to the spec's answers (§7); anything else is left to the app's 500 handler. */
function answerFor(failure: unknown, log: (line: string) => void): Response {
  if (!(failure instanceof AppError)) throw failure;
  switch (failure.code) {
    case 'not_found':
      return error(404, NOT_FOUND);
    case 'invalid':
      return error(400, failure.message, { field: failure.field });
    case 'not_configured':
      return error(503, 'Not configured');
    case 'storage':
      log(`planner: ${failure.message}`);
      return error(500, 'The booking could not be saved');
    case 'conflict':
      return error(409, failure.message);
  }
}

/** Reads the body as text, refusing more than `limit` bytes (413) as they arrive. */
async function readBodyText(event: H3Event, limit: number): Promise<string | Response> {
  const tooLarge = () => error(413, `Body larger than ${limit} bytes`);
  const declared = Number(event.req.headers.get('content-length') ?? 0);
  if (declared > limit) return tooLarge();
  const body = event.req.body;
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) return tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Registers the six calls of the spec (§4) on `app`. */
export function registerRoutes(app: H3, ctx: AppContext, hooks: { log: (line: string) => void; afterBooking: () => void }): void {
  const { log } = hooks;
  const handle = (fn: (event: H3Event) => unknown) => async (event: H3Event) => {
    try {
      return await fn(event);
    } catch (failure) {
      return answerFor(failure, log);
    }
  };

  app.get('/api/schedules', handle((): SchedulesResponse => ({ data: bookableSchedules(ctx).map(({ id, name }) => ({ id, name })) })));

  app.get(
    '/api/reasons',
    handle((event): ReasonsResponse => {
      const { schedule } = query(event, ReasonsQuery);
      return {
        data: bookableReasons(ctx, schedule).map((reason) => ({
          id: reason.id,
          name: reason.name,
          description: reason.description,
          duration: reason.durationMinutes * 60, // spec §2: seconds
        })),
      };
    }),
  );

  app.get(
    '/api/days',
    handle((event): DaysResponse => {
      const { schedule, reason } = query(event, DaysQuery);
      return { data: availableDays(ctx, schedule, reason) };
    }),
  );

  app.get(
    '/api/slots',
    handle((event): SlotsResponse => {
      const { schedule, reason, day } = query(event, SlotsQuery);
      return { data: availableSlots(ctx, schedule, reason, day).map((slot) => slot.local) };
    }),
  );

  app.get(
    '/api/forms',
    handle((event): FormsResponse => {
      const { schedule, reason, slot } = query(event, FormsQuery);
      return { data: formsData(bookingForm(ctx, schedule, reason, slot)) };
    }),
  );

  app.post(
    '/api/bookings',
    handle(async (event) => {
      // spec §4: `Content-Type: application/json` is required (a charset parameter is fine).
      const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return error(415, 'Content-Type must be application/json');
      const text = await readBodyText(event, BODY_LIMIT);
      if (text instanceof Response) return text;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return error(400, 'Invalid JSON');
      }
      const problem = bookingRequestProblem(body);
      if (problem) return error(400, problem.error, { field: problem.field });
      const request = body as BookingRequest;
      const created = createBooking(
        ctx,
        { scheduleId: request.schedule, reasonId: request.reason, slot: request.slot, submission: request.submission },
        'api',
      );
      hooks.afterBooking();
      event.res.status = 201;
      event.res.statusText = 'Created';
      const response: BookingResponse = {
        booking_id: created.bookingId,
        booking_details_id: created.reference,
        user_id: created.customerId,
        slot: utcText(created.startAt),
      };
      return response;
    }),
  );
}
