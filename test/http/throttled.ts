import { expect } from 'vitest';

/**
 * Asserts the headers every 429 of every door carries (src/http/errors.ts tooManyRequests, issue 23 finding 12):
 * Retry-After in whole seconds within the window (a minute, unless the policy counts over `windowSeconds`: the
 * booking page's bookings per hour), and the rate-limit fields of `policy` (quota `limit`) with nothing remaining.
 */
export function expectThrottled(headers: Headers, policy: string, limit: number, windowSeconds = 60): void {
  const retryAfter = Number(headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(headers.get('ratelimit-policy')).toBe(`"${policy}";q=${limit};w=${windowSeconds}`);
  expect(headers.get('ratelimit')).toBe(`"${policy}";r=0;t=${retryAfter}`);
}
