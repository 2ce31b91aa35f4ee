import { describe, expect, it } from 'vitest';
import { AppError, type ErrorCode, invalid, notFound } from '../../src/errors.ts';
import {
  answerFor,
  answerForClientError,
  answerForHttpError,
  bodyTooLarge,
  bodyTooSlow,
  errorAnswer,
  errorResponse,
  HTTP_ERRORS,
  rateLimitHeaders,
  tooManyRequests,
} from '../../src/http/errors.ts';
import { ERROR_MAX_LENGTH } from '../../src/schemas/api.ts';

describe('the error table', () => {
  it.each([
    // The spec's texts (§7), exactly.
    ['notFound', 404, 'Not Found'],
    ['unauthorized', 401, 'Unauthorized'],
    ['tooManyRequests', 429, 'Too Many Requests'],
    ['apiDisabled', 503, 'API disabled'],
    ['notConfigured', 503, 'Not configured'],
    ['notSaved', 500, 'The booking could not be saved'],
    ['unsupportedMediaType', 415, 'Content-Type must be application/json'],
    ['invalidJson', 400, 'Invalid JSON'],
    ['notUtf8', 400, 'Body is not valid UTF-8'],
    ['bodyIncomplete', 400, 'Body incomplete'],
    ['badKey', 400, 'Idempotency-Key must be 1 to 255 visible ASCII characters'],
    ['badRequest', 400, 'Bad Request'],
    ['requestTimeout', 408, 'Request Timeout'],
    ['headersTooLarge', 431, 'Request Header Fields Too Large'],
    ['internal', 500, 'Internal Server Error'],
  ] as const)('%s is %i {"error": "%s"}', (name, status, error) => {
    expect(HTTP_ERRORS[name]).toMatchObject({ status, body: { error } });
    // Only the 401 names a header of its own (RFC 9110 §11.6.1); errorResponse and failure() send it.
    expect(HTTP_ERRORS[name].headers).toEqual(name === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : undefined);
  });

  it('cuts an error text at the length the document declares, and sends the 401 with WWW-Authenticate', async () => {
    expect(errorAnswer(400, 'x'.repeat(ERROR_MAX_LENGTH + 1)).body.error).toHaveLength(ERROR_MAX_LENGTH);
    const response = errorResponse(HTTP_ERRORS.unauthorized);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.text()).toBe('{"error":"Unauthorized"}');
  });

  it('has one row per answer', () => {
    expect(Object.keys(HTTP_ERRORS)).toHaveLength(15);
  });

  it('answers with a value in the text', () => {
    expect(bodyTooLarge(65536)).toEqual({ status: 413, body: { error: 'Body larger than 65536 bytes' } });
    expect(bodyTooSlow(10_000)).toEqual({ status: 400, body: { error: 'Body not received within 10 s' } });
  });

  it.each([
    [invalid('Field is required', 'last_name'), 400, { error: 'Field is required', field: 'last_name' }],
    [invalid('Invalid request'), 400, { error: 'Invalid request' }],
    [notFound('booking 7 does not exist (see `planner bookings list`)'), 404, { error: 'Not Found' }],
    [new AppError('not_configured', 'run planner init first'), 503, { error: 'Not configured' }],
    [new AppError('storage', 'disk I/O error'), 500, { error: 'The booking could not be saved' }],
    [new AppError('conflict', 'has bookings'), 409, { error: 'has bookings' }],
  ] as const)('maps the core’s %s to %i', (problem, status, body) => {
    expect(answerFor(problem)).toEqual({ status, body });
  });

  it('covers every AppError code, and rethrows anything else (for the 500 handler)', () => {
    const codes: ErrorCode[] = ['invalid', 'not_found', 'conflict', 'not_configured', 'storage'];
    for (const code of codes) expect(answerFor(new AppError(code, 'x')).status).toBeGreaterThanOrEqual(400);
    const unexpected = new TypeError('boom');
    expect(() => answerFor(unexpected)).toThrow(unexpected);
  });

  it('maps h3’s own errors and node:http’s client errors', () => {
    expect(answerForHttpError(404, 'Cannot find any route')).toBe(HTTP_ERRORS.notFound);
    expect(answerForHttpError(405, 'Method Not Allowed')).toBe(HTTP_ERRORS.notFound);
    expect(answerForHttpError(500, 'secret detail')).toBe(HTTP_ERRORS.internal);
    expect(answerForHttpError(502, undefined)).toBe(HTTP_ERRORS.internal);
    expect(answerForHttpError(400, 'Invalid URL')).toEqual({ status: 400, body: { error: 'Invalid URL' } });
    expect(answerForHttpError(400, '')).toEqual(HTTP_ERRORS.badRequest);
    expect(answerForClientError('ERR_HTTP_REQUEST_TIMEOUT')).toBe(HTTP_ERRORS.requestTimeout);
    expect(answerForClientError('HPE_HEADER_OVERFLOW')).toBe(HTTP_ERRORS.headersTooLarge);
    expect(answerForClientError('HPE_INVALID_METHOD')).toBe(HTTP_ERRORS.badRequest);
    expect(answerForClientError(undefined)).toBe(HTTP_ERRORS.badRequest);
  });

  it('errorResponse sends the body as JSON, no-store, with extra headers', async () => {
    const response = errorResponse(HTTP_ERRORS.unauthorized, { 'x-extra': '1' });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-extra')).toBe('1');
    expect(await response.text()).toBe('{"error":"Unauthorized"}');
  });
});

describe('tooManyRequests()', () => {
  it.each([
    ['the token’s limit', { name: 'default', limit: 300, resetSeconds: 42 }],
    ['the throttle of failed tokens', { name: 'failed-token', limit: 20, resetSeconds: 7 }],
  ])('answers %s with Retry-After and the rate-limit fields, remaining 0', async (_, policy) => {
    const response = tooManyRequests(policy);
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: 'Too Many Requests' });
    expect(response.headers.get('retry-after')).toBe(String(policy.resetSeconds));
    expect(response.headers.get('ratelimit-policy')).toBe(`"${policy.name}";q=${policy.limit};w=60`);
    expect(response.headers.get('ratelimit')).toBe(`"${policy.name}";r=0;t=${policy.resetSeconds}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('the fields of an admitted call are the same, with the calls remaining', () => {
    expect(rateLimitHeaders({ name: 'default', limit: 300, resetSeconds: 60 }, 299)).toEqual({
      'ratelimit-policy': '"default";q=300;w=60',
      ratelimit: '"default";r=299;t=60',
    });
  });
});
