import type { H3, H3Event } from 'h3';
import { anySlotsOfDay, createAnyBooking } from '../app/any-practitioner.ts';
import {
  availableSlots,
  bookableReasons,
  bookableSchedules,
  bookingFormFields,
  requireFreeSlot,
} from '../app/availability.ts';
import type { AppContext } from '../app/context.ts';
import { createCommitGroup } from '../app/commit-group.ts';
import { createDaysCache, type DaysCache } from '../app/days-cache.ts';
import { createBooking, type CreatedBooking } from '../app/create-booking.ts';
import {
  answerOnce,
  bookOnce,
  fingerprintOf,
  IDEMPOTENCY_KEY,
  keepRefusal,
  KEY_REUSED,
  keptFor,
  type KeyedAnswer,
} from '../app/idempotency.ts';
import { AppError, invalid } from '../errors.ts';
import { utcText } from '../domain/days.ts';
import {
  AnySlotsQuery,
  anyBookingRequestProblem,
  BODY_LIMIT,
  bookingRequestProblem,
  type AnyBookingRequest,
  type AnyBookingResponse,
  type AnySlotsResponse,
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
import { answerFor, errorAnswer, HTTP_ERRORS } from './errors.ts';
import { createHandler, createReplyCache, failure, query, reply, type Reply } from './handle.ts';

/**
 * Registers the six calls of the spec (§4) on `app`, issue 40's two beside them (GET /slots/any, POST /bookings/any),
 * and the 404 for any other path under /api.
 */
export function registerRoutes(
  app: H3,
  ctx: AppContext,
  hooks: {
    log: (line: string) => void;
    afterBooking: () => void;
    generation: () => number;
    bodyTimeoutMs: number;
    daysCache?: DaysCache;
  },
): void {
  const daysCache = hooks.daysCache ?? createDaysCache();
  // Issue 17: concurrent bookings share one transaction and one fsync (src/app/commit-group.ts).
  const commit = createCommitGroup(ctx.store, 'the booking could not be saved');
  const cached = createReplyCache(hooks.generation);
  const handle = createHandler(hooks.log);
  // RFC 9110 §9.3.2: HEAD answers as GET does, without the body (node:http leaves it out).
  const get = (route: string, handler: ReturnType<typeof handle>) =>
    app.on('GET', route, handler).on('HEAD', route, handler);

  get(
    '/api/schedules',
    handle(() =>
      cached('schedules', () =>
        reply<SchedulesResponse>({ data: bookableSchedules(ctx).map(({ id, name }) => ({ id, name })) }),
      ),
    ),
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
      // Issue 17: from the cache of free days, which recomputes only the days a change touched.
      return reply<DaysResponse>({ data: daysCache.days(ctx, schedule, reason) });
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
      // Issue 16: an optional Idempotency-Key makes a retry safe (src/app/idempotency.ts); without it, nothing changes.
      const key = event.req.headers.get('idempotency-key');
      if (key !== null && !IDEMPOTENCY_KEY.test(key)) return failure(HTTP_ERRORS.badKey);
      const body = await readJsonBody(event, BODY_LIMIT, hooks.bodyTimeoutMs);
      if (!('json' in body)) return body;
      const problem = bookingRequestProblem(body.json);
      const orderOf = () => {
        const request = body.json as BookingRequest; // checked: no problem
        return {
          scheduleId: request.schedule,
          reasonId: request.reason,
          slot: request.slot,
          submission: request.submission,
        };
      };
      const answered = (created: CreatedBooking) =>
        reply<BookingResponse>(
          {
            booking_id: created.bookingId,
            booking_details_id: created.reference,
            user_id: created.customerId,
            slot: utcText(created.startAt),
          },
          201,
        );
      if (key === null) {
        if (problem) return failure(errorAnswer(400, problem.error, problem.field));
        const answer = answered(await commit(() => createBooking(ctx, orderOf(), 'api')));
        hooks.afterBooking();
        return answer;
      }
      const fingerprint = fingerprintOf(body.text);
      const keyed = (answer: KeyedAnswer): Reply => ({
        status: answer.status,
        text: answer.body,
        ...(answer.replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}),
      });
      try {
        const kept = keptFor(ctx, key, fingerprint); // the usual retry: answered without taking the write lock
        if (kept) return keyed(kept);
        if (problem) throw invalid(problem.error, problem.field);
        const answer = await commit(() =>
          bookOnce(ctx, orderOf(), key, fingerprint, (created) => answered(created).text),
        );
        if (!answer.replayed) hooks.afterBooking();
        return keyed(answer);
      } catch (error) {
        // Only the booking's own refusals are kept (400, 404): a 500 is not, so a retry after a fault is tried again.
        const answer = answerFor(error);
        if ((answer.status !== 400 && answer.status !== 404) || (error as AppError).message === KEY_REUSED) throw error;
        return keyed(keepRefusal(ctx, key, fingerprint, answer.status, JSON.stringify(answer.body)));
      }
    }),
  );

  // Issue 40: any practitioner, beside the six (which stay as the spec says).
  get(
    '/api/slots/any',
    handle((event) => {
      const { reason, day } = query(event, AnySlotsQuery);
      return reply<AnySlotsResponse>({
        data: anySlotsOfDay(ctx, reason, day).map((slot) => ({ slot: slot.local, schedules: slot.scheduleIds })),
      });
    }),
  );

  app.post(
    '/api/bookings/any',
    handle((event) =>
      bookingPost(event, {
        ctx,
        commit,
        afterBooking: hooks.afterBooking,
        bodyTimeoutMs: hooks.bodyTimeoutMs,
        problemOf: anyBookingRequestProblem,
        book: (json) => {
          const request = json as AnyBookingRequest; // checked: no problem
          const created = createAnyBooking(
            ctx,
            { reasonId: request.reason, slot: request.slot, submission: request.submission },
            'api',
          );
          return reply<AnyBookingResponse>(
            {
              booking_id: created.bookingId,
              booking_details_id: created.reference,
              user_id: created.customerId,
              slot: utcText(created.startAt),
              schedule: created.scheduleId,
            },
            201,
          ).text;
        },
      }),
    ),
  );

  // Any other path under /api, behind the gates: a route (not onError) so it carries the rate-limit headers.
  app.all(
    '/api/**',
    handle(() => failure(HTTP_ERRORS.notFound)),
  );
}

/**
 * Answers a booking call's POST as POST /bookings does: the body read and checked (`problemOf`: 400), then `book`
 * (which books and returns the 201's body) in the group commit; with an Idempotency-Key, once per key
 * (`answerOnce`), the booking's own refusals (400, 404) kept and replayed, a 500 not.
 */
async function bookingPost(
  event: H3Event,
  call: {
    ctx: AppContext;
    commit: <T>(run: () => T) => Promise<T>;
    afterBooking: () => void;
    bodyTimeoutMs: number;
    problemOf: (json: unknown) => { error: string; field?: string } | undefined;
    book: (json: unknown) => string;
  },
): Promise<Reply> {
  const { ctx, commit } = call;
  const key = event.req.headers.get('idempotency-key');
  if (key !== null && !IDEMPOTENCY_KEY.test(key)) return failure(HTTP_ERRORS.badKey);
  const body = await readJsonBody(event, BODY_LIMIT, call.bodyTimeoutMs);
  if (!('json' in body)) return body;
  const problem = call.problemOf(body.json);
  if (key === null) {
    if (problem) return failure(errorAnswer(400, problem.error, problem.field));
    const text = await commit(() => call.book(body.json));
    call.afterBooking();
    return { status: 201, text };
  }
  const fingerprint = fingerprintOf(body.text);
  const keyed = (answer: KeyedAnswer): Reply => ({
    status: answer.status,
    text: answer.body,
    ...(answer.replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}),
  });
  try {
    const kept = keptFor(ctx, key, fingerprint); // the usual retry: answered without taking the write lock
    if (kept) return keyed(kept);
    if (problem) throw invalid(problem.error, problem.field);
    const answer = await commit(() => answerOnce(ctx, key, fingerprint, () => call.book(body.json)));
    if (!answer.replayed) call.afterBooking();
    return keyed(answer);
  } catch (error) {
    const answer = answerFor(error);
    if ((answer.status !== 400 && answer.status !== 404) || (error as AppError).message === KEY_REUSED) throw error;
    return keyed(keepRefusal(ctx, key, fingerprint, answer.status, JSON.stringify(answer.body)));
  }
}
