/**
 * Every error answer of the API, in one table: its status and the text of its body (spec §7: `{"error": …}`).
 * The routes, the gates, the app's error handler and the server's client errors all answer from here.
 */
import { STATUS_CODES } from 'node:http';
import { AppError, type ErrorCode } from '../errors.ts';
import { ERROR_MAX_LENGTH } from '../schemas/api.ts';
import { WINDOW_SECONDS } from './rate-limit.ts';
import { type ExtraHeaders, errorBody, json } from './respond.ts';

/** A limit that counts calls in a window (a minute, unless `windowSeconds` says otherwise), as the rate-limit fields describe it. */
export interface RatePolicy {
  /** The policy's name in the fields: `default` for the token's budget, `failed-token` for the throttle of failed
   * tokens, `unknown-link` for the throttle of unknown page links and feed addresses, `bookings-per-hour` for the
   * booking page's bookings per client address. */
  name: string;
  /** Calls per window. */
  limit: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
  /** The window's length in seconds: `WINDOW_SECONDS` (a minute) unless given (the booking page counts an hour). */
  windowSeconds?: number;
}

/** Returns the IETF draft rate-limit fields (draft-ietf-httpapi-ratelimit-headers) of `policy` with `remaining` calls. */
export function rateLimitHeaders(policy: RatePolicy, remaining: number): ExtraHeaders {
  return {
    'ratelimit-policy': `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds ?? WINDOW_SECONDS}`,
    ratelimit: `"${policy.name}";r=${remaining};t=${policy.resetSeconds}`,
  };
}

/** One error answer before it is sent: its status, the spec's body, and the headers the status needs. */
export interface ErrorAnswer {
  status: number;
  body: { error: string; field?: string };
  headers?: ExtraHeaders;
}

/**
 * Returns the answer of `status` with `error` (and `field` where one is named) as its body. Every text is the
 * server's own and short; the cut at ERROR_MAX_LENGTH keeps the document's promise should one ever grow.
 */
export function errorAnswer(status: number, error: string, field?: string): ErrorAnswer {
  return { status, body: errorBody(error.slice(0, ERROR_MAX_LENGTH), field) };
}

/** The error answers whose text is fixed. */
export const HTTP_ERRORS = {
  // spec §7
  notFound: errorAnswer(404, 'Not Found'),
  // RFC 9110 §11.6.1: a 401 names the scheme it wants (RFC 6750 §3: Bearer); the body stays the spec's.
  unauthorized: { ...errorAnswer(401, 'Unauthorized'), headers: { 'www-authenticate': 'Bearer' } },
  tooManyRequests: errorAnswer(429, 'Too Many Requests'),
  apiDisabled: errorAnswer(503, 'API disabled'),
  notConfigured: errorAnswer(503, 'Not configured'),
  notSaved: errorAnswer(500, 'The booking could not be saved'),
  // POST /bookings: the body
  unsupportedMediaType: errorAnswer(415, 'Content-Type must be application/json'),
  invalidJson: errorAnswer(400, 'Invalid JSON'),
  notUtf8: errorAnswer(400, 'Body is not valid UTF-8'),
  bodyIncomplete: errorAnswer(400, 'Body incomplete'),
  // POST /bookings: the Idempotency-Key header (a key sent again with another body: KEY_REUSED)
  badKey: errorAnswer(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters'),
  // Requests that never reach a route
  badRequest: errorAnswer(400, 'Bad Request'),
  requestTimeout: errorAnswer(408, 'Request Timeout'),
  headersTooLarge: errorAnswer(431, 'Request Header Fields Too Large'),
  internal: errorAnswer(500, 'Internal Server Error'),
} as const;

/** Returns the 413 answer to a body larger than `limit` bytes. */
export function bodyTooLarge(limit: number): ErrorAnswer {
  return errorAnswer(413, `Body larger than ${limit} bytes`);
}

/** Returns the 400 answer to a body that did not arrive whole within `deadlineMs`. */
export function bodyTooSlow(deadlineMs: number): ErrorAnswer {
  return errorAnswer(400, `Body not received within ${deadlineMs / 1000} s`);
}

/** The answer of each code of the core's AppError (src/errors.ts). */
const APP_ERRORS: Record<ErrorCode, (problem: AppError) => ErrorAnswer> = {
  invalid: (problem) => errorAnswer(400, problem.message, problem.field),
  not_found: () => HTTP_ERRORS.notFound, // spec §7: always `Not Found`; the core's message names CLI commands
  conflict: (problem) => errorAnswer(409, problem.message),
  not_configured: () => HTTP_ERRORS.notConfigured,
  storage: () => HTTP_ERRORS.notSaved, // the cause is logged, never answered
};

/** Returns the answer to an AppError of the core; anything else is rethrown, for the app's 500 handler. */
export function answerFor(problem: unknown): ErrorAnswer {
  if (!(problem instanceof AppError)) throw problem;
  return APP_ERRORS[problem.code](problem);
}

/** Returns the answer to an error h3 raised itself (no route matched, or a handler threw something unexpected). */
export function answerForHttpError(status: number, text: string | undefined): ErrorAnswer {
  if (status === 404 || status === 405) return HTTP_ERRORS.notFound;
  if (status >= 500) return HTTP_ERRORS.internal;
  return errorAnswer(status, text || HTTP_ERRORS.badRequest.body.error);
}

/** Returns the answer to a request node:http refused before the app saw it, by its error code. */
export function answerForClientError(code: string | undefined): ErrorAnswer {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return HTTP_ERRORS.requestTimeout;
  if (code === 'HPE_HEADER_OVERFLOW') return HTTP_ERRORS.headersTooLarge;
  return HTTP_ERRORS.badRequest;
}

/** Returns `answer` as a JSON Response, with its own headers and `headers`. */
export function errorResponse(answer: ErrorAnswer, headers?: ExtraHeaders): Response {
  return json(answer.status, answer.body, { ...answer.headers, ...headers });
}

/**
 * Returns the 429 of every door for an exhausted `policy`: `Retry-After` (spec §7) and the rate-limit fields, so that
 * the token's limit, the throttle of failed tokens and the throttles of unknown links answer alike. The body is the
 * API's JSON (spec §7), or, for a door that speaks HTML or text (the page, the feed), `body` with its headers.
 */
export function tooManyRequests(
  policy: RatePolicy,
  body?: { content: string; headers: Record<string, string> },
): Response {
  const answer = tooManyAnswer(policy);
  if (!body) return errorResponse(answer);
  return new Response(body.content, {
    status: 429,
    statusText: STATUS_CODES[429],
    headers: { ...body.headers, ...answer.headers },
  });
}

/** Returns the API's 429 for an exhausted `policy` as an answer (tooManyRequests says which headers it carries). */
export function tooManyAnswer(policy: RatePolicy): ErrorAnswer {
  const headers = { ...rateLimitHeaders(policy, 0), 'retry-after': String(policy.resetSeconds) };
  return { ...HTTP_ERRORS.tooManyRequests, headers };
}

/** Returns `answer` as a plain-text Response (`<error>\n`), for a door that does not speak JSON (the feed). */
export function plainErrorResponse(answer: ErrorAnswer, headers: Record<string, string>): Response {
  return new Response(`${answer.body.error}\n`, {
    status: answer.status,
    statusText: STATUS_CODES[answer.status],
    headers: { ...headers, ...answer.headers },
  });
}
