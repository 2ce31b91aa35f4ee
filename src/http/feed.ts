/**
 * The calendar feed's door: `GET /feed/<secret>.ics`, outside the /api gates. ETag and Last-Modified from the
 * feed's data, 304 when the calendar app has it already. A wrong secret gets a 404, and an address that sends many
 * is throttled as failed API tokens are.
 */
import { STATUS_CODES } from 'node:http';
import type { H3Event } from 'h3';
import { feedOf } from '../app/feed.ts';
import type { AppContext } from '../app/context.ts';
import { createAuthThrottle } from './auth-throttle.ts';
import { isCanonicalPath } from './handle.ts';
import { clientAddress } from './portal.ts';

/** What the access log shows for every path under /feed/: never the secret. */
export const FEED_LOGGED_PATH = '/feed/…';

const HEADERS = { 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, statusText: STATUS_CODES[status], headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...HEADERS, ...headers } });
}

/** Returns the handler of every request whose path is under `/feed/`. */
export function createFeedDoor(options: { ctx: AppContext; nowMs: () => number; log: (line: string) => void }) {
  const { ctx, nowMs } = options;
  const throttle = createAuthThrottle();
  return (event: H3Event): Response => {
    const match = /^\/feed\/([^/]+)\.ics$/.exec(event.url.pathname);
    const method = event.req.method;
    if (!match || (method !== 'GET' && method !== 'HEAD') || !isCanonicalPath(event)) return plain(404, 'Not Found\n');
    const address = clientAddress(event);
    const blockedFor = throttle.blockedFor(address, nowMs());
    if (blockedFor > 0 && !throttle.probe(address, nowMs())) return plain(429, 'Too Many Requests\n', { 'retry-after': String(blockedFor) });
    let feed;
    try {
      feed = feedOf(ctx, match[1]!);
    } catch (error) {
      options.log(`planner: GET ${FEED_LOGGED_PATH} failed: ${(error as Error).message}`);
      return plain(500, 'Internal Server Error\n');
    }
    if (!feed) {
      if (blockedFor > 0) return plain(429, 'Too Many Requests\n', { 'retry-after': String(blockedFor) });
      throttle.fail(address, nowMs());
      return plain(404, 'Not Found\n');
    }
    const headers = {
      etag: feed.etag,
      'last-modified': feed.lastModified.toUTCString(),
      // The URL is a key to customer data: no shared cache may keep it, and the app asks again each time.
      'cache-control': 'private, no-cache',
      ...HEADERS,
    };
    const match304 = event.req.headers.get('if-none-match');
    const since = event.req.headers.get('if-modified-since');
    const fresh =
      match304 !== null ? match304.split(',').some((tag) => tag.trim().replace(/^W\//, '') === feed.etag) : since !== null && Date.parse(since) >= feed.lastModified.getTime();
    if (fresh) return new Response(null, { status: 304, statusText: STATUS_CODES[304], headers });
    return new Response(feed.ics, { status: 200, statusText: STATUS_CODES[200], headers: { 'content-type': 'text/calendar; charset=utf-8', ...headers } });
  };
}
