import type { H3 } from 'h3';
import { anySlotsOfDay, createAnyBooking } from '../app/bookings/any-practitioner.ts';
import {
  availableSlots,
  bookableReasons,
  bookableSchedules,
  bookingFormFields,
  requireFreeSlot,
} from '../app/bookings/availability.ts';
import { createCommitGroup } from '../app/bookings/commit-group.ts';
import { type CreatedBooking, createBooking } from '../app/bookings/create-booking.ts';
import { createDaysCache, type DaysCache } from '../app/bookings/days-cache.ts';
import {
  actOnce,
  fingerprintOf,
  IDEMPOTENCY_KEY,
  KEY_REUSED,
  type KeyedAnswer,
  keepRefusal,
  keptFor,
} from '../app/bookings/idempotency.ts';
import { type CreatedSeries, createSeries, type NotFreeDate, SeriesNotFree } from '../app/bookings/series.ts';
import type { AppContext } from '../app/context.ts';
import { utcText } from '../domain/days.ts';
import { preferredLanguage } from '../domain/languages.ts';
import type { Locale } from '../domain/locales.ts';
import { AppError, invalid } from '../errors.ts';
import {
  type AnyBookingRequest,
  type AnyBookingResponse,
  AnySlotsQuery,
  type AnySlotsResponse,
  anyBookingRequestProblem,
  BODY_LIMIT,
  type BookingRequest,
  type BookingResponse,
  bookingRequestProblem,
  DaysQuery,
  type DaysResponse,
  FormsQuery,
  type FormsResponse,
  formsData,
  ReasonsQuery,
  type ReasonsResponse,
  type SchedulesResponse,
  SlotsQuery,
  type SlotsResponse,
} from '../schemas/api.ts';
import {
  type SeriesRefusal,
  type SeriesRequest,
  type SeriesResponse,
  seriesOrder,
  seriesRequestProblem,
} from '../schemas/series.ts';
import { readJsonBody } from './body.ts';
import { answerFor, errorAnswer, HTTP_ERRORS } from './errors.ts';
import { createHandler, createReplyCache, failure, query, type ReadRoute, type Reply, reply } from './handle.ts';

/** A booking as the API answers it (spec §2 BookingResponse). */
function bookingResponse(created: CreatedBooking): BookingResponse {
  return {
    booking_id: created.bookingId,
    booking_details_id: created.reference,
    user_id: created.customerId,
    slot: utcText(created.startAt),
  };
}

/** A date of a series that is not free, as POST /series answers it. */
function notFreeDate(date: NotFreeDate): NonNullable<SeriesRefusal['dates']>[number] {
  return { slot: date.slot, why: date.refusal.why, nearest: date.nearest.map((slot) => slot.local) };
}

/**
 * Returns the API's GET calls by path, each its reply to a query: the five of the spec (§4) and GET /slots/any
 * beside them. Schedules, reasons and form fields come from `cached` (built once per data generation); free days
 * from `daysCache`, which recomputes only the days a change touched.
 */
function readRoutes(ctx: AppContext, cached: ReturnType<typeof createReplyCache>, daysCache: DaysCache) {
  return new Map<string, ReadRoute>([
    [
      '/api/schedules',
      () =>
        cached('schedules', () =>
          reply<SchedulesResponse>({ data: bookableSchedules(ctx).map(({ id, name }) => ({ id, name })) }),
        ),
    ],
    [
      '/api/reasons',
      (search) => {
        const { schedule } = query(search, ReasonsQuery);
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
      },
    ],
    [
      '/api/days',
      (search) => {
        const { schedule, reason } = query(search, DaysQuery);
        return reply<DaysResponse>({ data: daysCache.days(ctx, schedule, reason) });
      },
    ],
    [
      '/api/slots',
      (search) => {
        const { schedule, reason, day } = query(search, SlotsQuery);
        return reply<SlotsResponse>({ data: availableSlots(ctx, schedule, reason, day).map((slot) => slot.local) });
      },
    ],
    [
      '/api/forms',
      (search) => {
        const { schedule, reason, slot } = query(search, FormsQuery);
        requireFreeSlot(ctx, schedule, reason, slot);
        return cached('forms', () => reply<FormsResponse>({ data: formsData(bookingFormFields(ctx)) }));
      },
    ],
    // Any practitioner, beside the six (which stay as the spec says).
    [
      '/api/slots/any',
      (search) => {
        const { reason, day } = query(search, AnySlotsQuery);
        return reply<AnySlotsResponse>({
          data: anySlotsOfDay(ctx, reason, day).map((slot) => ({ slot: slot.local, schedules: slot.scheduleIds })),
        });
      },
    ],
  ]);
}

/** The API's GET calls (readRoutes) and the runner of one (handle.ts), for api-reads.ts. */
export interface ApiReads {
  routes: ReadonlyMap<string, ReadRoute>;
  read: (route: ReadRoute, search: string) => Reply;
}

/**
 * Registers the six calls of the spec (§4) on `app`, three beside them (POST /series, GET /slots/any,
 * POST /bookings/any), and the 404 for any other path under /api. Returns the GET calls, for api-reads.ts.
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
): ApiReads {
  const daysCache = hooks.daysCache ?? createDaysCache();
  // Concurrent bookings share one transaction and one fsync (src/app/bookings/commit-group.ts).
  const commit = createCommitGroup(ctx.store, 'the booking could not be saved');
  const handle = createHandler(hooks.log);
  // RFC 9110 §9.3.2: HEAD answers as GET does, without the body (node:http leaves it out).
  const reads = readRoutes(ctx, createReplyCache(hooks.generation), daysCache);
  for (const [path, route] of reads) {
    const handler = handle((event) => route(event.url.search));
    app.on('GET', path, handler).on('HEAD', path, handler);
  }

  interface WriteSpec<T> {
    problemOf: (json: unknown) => { error: string; field?: string } | undefined;
    /** Books from the checked body, for a customer of `locale` (their `Accept-Language`, when the practice offers it). */
    act: (json: unknown, locale?: Locale) => T;
    answered: (made: T) => Reply;
    refused?: (error: unknown) => Reply | undefined;
  }
  type Problem = ReturnType<WriteSpec<unknown>['problemOf']>;

  /** A write without a key: a 400 for a bad body, else the act and its answer (a refusal in the spec's own words). */
  const writeOnce = async <T>(spec: WriteSpec<T>, json: unknown, problem: Problem): Promise<Reply> => {
    if (problem) return failure(errorAnswer(400, problem.error, problem.field));
    try {
      const answer = spec.answered(await commit(() => spec.act(json)));
      hooks.afterBooking();
      return answer;
    } catch (error) {
      const own = spec.refused?.(error);
      if (own) return own;
      throw error;
    }
  };

  /** A write with an Idempotency-Key: the kept answer of a retry, or the act once and its answer kept. */
  const writeKeyed = async <T>(
    spec: WriteSpec<T>,
    key: string,
    body: { json: unknown; text: string },
    problem: Problem,
  ): Promise<Reply> => {
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
      const answer = await commit(() => actOnce(ctx, key, fingerprint, () => spec.answered(spec.act(body.json)).text));
      if (!answer.replayed) hooks.afterBooking();
      return keyed(answer);
    } catch (error) {
      // Only the booking's own refusals are kept (400, 404): a 500 is not, so a retry after a fault is tried again.
      const answer = spec.refused?.(error) ?? failure(answerFor(error));
      if ((answer.status !== 400 && answer.status !== 404) || (error as AppError).message === KEY_REUSED) throw error;
      return keyed(keepRefusal(ctx, key, fingerprint, answer.status, answer.text));
    }
  };

  /**
   * A write of the API (POST /bookings, POST /series): the body read and checked (`problemOf`: the 400's error and
   * field), then `act` under the write lock in the commit group and its 201 (`answered`). An optional
   * Idempotency-Key makes a retry safe (src/app/bookings/idempotency.ts); without it, nothing changes. `refused` may answer a
   * refusal of the core in its own words (a series' dates); only 400 and 404 refusals are kept for a key.
   */
  const write = <T>(spec: WriteSpec<T>) =>
    handle(async (event) => {
      const key = event.req.headers.get('idempotency-key');
      if (key !== null && !IDEMPOTENCY_KEY.test(key)) return failure(HTTP_ERRORS.badKey);
      const body = await readJsonBody(event, BODY_LIMIT, hooks.bodyTimeoutMs);
      if (!('json' in body)) return body;
      const problem = spec.problemOf(body.json);
      // The customer's language: an offered one their Accept-Language asks for; else none (the practice's own).
      const locale = preferredLanguage(event.req.headers.get('accept-language'), ctx.settings().languages);
      const spoken = { ...spec, act: (json: unknown) => spec.act(json, locale) };
      return key === null ? writeOnce(spoken, body.json, problem) : writeKeyed(spoken, key, body, problem);
    });

  app.post(
    '/api/bookings',
    write({
      problemOf: bookingRequestProblem,
      act: (json, locale) => {
        const request = json as BookingRequest; // checked: no problem
        return createBooking(
          ctx,
          {
            scheduleId: request.schedule,
            reasonId: request.reason,
            slot: request.slot,
            submission: request.submission,
          },
          'api',
          'api',
          { locale },
        );
      },
      answered: (created: CreatedBooking) => reply<BookingResponse>(bookingResponse(created), 201),
    }),
  );

  // A series, beside the six calls (which stay as the spec has them).
  app.post(
    '/api/series',
    write({
      problemOf: seriesRequestProblem,
      act: (json, locale) => createSeries(ctx, seriesOrder(json as SeriesRequest), 'api', 'api', { locale }),
      answered: (made: CreatedSeries) =>
        reply<SeriesResponse>(
          {
            series_id: made.reference,
            bookings: made.bookings.map(bookingResponse),
            skipped: made.skipped.map(notFreeDate),
          },
          201,
        ),
      refused: (error) =>
        error instanceof SeriesNotFree
          ? reply<SeriesRefusal>({ error: 'Not Found', dates: error.dates.map(notFreeDate) }, 404)
          : undefined,
    }),
  );

  app.post(
    '/api/bookings/any',
    write({
      problemOf: anyBookingRequestProblem,
      act: (json, locale) => {
        const request = json as AnyBookingRequest; // checked: no problem
        return createAnyBooking(
          ctx,
          { reasonId: request.reason, slot: request.slot, submission: request.submission },
          'api',
          'api',
          { locale },
        );
      },
      answered: (created) =>
        reply<AnyBookingResponse>({ ...bookingResponse(created), schedule: created.scheduleId }, 201),
    }),
  );

  // Any other path under /api, behind the gates: a route (not onError) so it carries the rate-limit headers.
  app.all(
    '/api/**',
    handle(() => failure(HTTP_ERRORS.notFound)),
  );
  return { routes: reads, read: handle.read };
}
