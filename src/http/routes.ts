import type { H3 } from 'h3';
import { availableDays, availableSlots, bookableReasons, bookableSchedules, bookingFormFields, requireFreeSlot } from '../app/availability.ts';
import type { AppContext } from '../app/context.ts';
import { createBooking } from '../app/create-booking.ts';
import { utcText } from '../domain/days.ts';
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
import { readJsonBody } from './body.ts';
import { errorAnswer, HTTP_ERRORS } from './errors.ts';
import { createHandler, createReplyCache, failure, query, reply } from './handle.ts';

/** Registers the six calls of the spec (§4) on `app`, and the 404 for any other path under /api. */
export function registerRoutes(
  app: H3,
  ctx: AppContext,
  hooks: { log: (line: string) => void; afterBooking: () => void; generation: () => number; bodyTimeoutMs: number },
): void {
  const cached = createReplyCache(hooks.generation);
  const handle = createHandler(hooks.log);
  // RFC 9110 §9.3.2: HEAD answers as GET does, without the body (node:http leaves it out).
  const get = (route: string, handler: ReturnType<typeof handle>) => app.on('GET', route, handler).on('HEAD', route, handler);

  get(
    '/api/schedules',
    handle(() => cached('schedules', () => reply<SchedulesResponse>({ data: bookableSchedules(ctx).map(({ id, name }) => ({ id, name })) }))),
  );

  get(
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

  get(
    '/api/days',
    handle((event) => {
      const { schedule, reason } = query(event, DaysQuery);
      return reply<DaysResponse>({ data: availableDays(ctx, schedule, reason) });
    }),
  );

  get(
    '/api/slots',
    handle((event) => {
      const { schedule, reason, day } = query(event, SlotsQuery);
      return reply<SlotsResponse>({ data: availableSlots(ctx, schedule, reason, day).map((slot) => slot.local) });
    }),
  );

  get(
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
      const body = await readJsonBody(event, BODY_LIMIT, hooks.bodyTimeoutMs);
      if (!('json' in body)) return body;
      const problem = bookingRequestProblem(body.json);
      if (problem) return failure(errorAnswer(400, problem.error, problem.field));
      const request = body.json as BookingRequest;
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
  app.all('/api/**', handle(() => failure(HTTP_ERRORS.notFound)));
}
