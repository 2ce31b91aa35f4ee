/**
 * The calendar feed's door: `GET /feed/<secret>.ics`, outside the /api gates. ETag and Last-Modified from the
 * feed's data, 304 when the calendar app has it already. A wrong secret gets a 404, and an address that sends many
 * a 429 (src/http/link-guard.ts).
 */
import { STATUS_CODES } from 'node:http';
import type { H3Event } from 'h3';
import { feedOf } from '../app/feed.ts';
import type { AppContext } from '../app/context.ts';
import { HTTP_ERRORS, plainErrorResponse, tooManyRequests } from './errors.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';
import { createLinkGuard } from './link-guard.ts';

const HEADERS = { 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };
/** The headers of the feed's error answers (plain text, the texts of src/http/errors.ts). */
const ERROR_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...HEADERS };

/** Returns the handler of every request whose path is under `/feed/`. */
export function createFeedDoor(options: { ctx: AppContext; nowMs: () => number; log: (line: string) => void; clientAddress: (event: H3Event) => string }) {
  const { ctx, nowMs } = options;
  const guard = createLinkGuard(nowMs);
  return (event: H3Event): Response => {
    const match = /^\/feed\/([^/]+)\.ics$/.exec(event.url.pathname);
    const method = event.req.method;
    if (!match || (method !== 'GET' && method !== 'HEAD') || !isCanonicalPath(event)) return plainErrorResponse(HTTP_ERRORS.notFound, ERROR_HEADERS);
    let feed;
    try {
      feed = feedOf(ctx, match[1]!);
    } catch (error) {
      options.log(`planner: GET ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
      return plainErrorResponse(HTTP_ERRORS.internal, ERROR_HEADERS);
    }
    if (!feed) {
      // Every address is looked up; too many unknown ones from one client: 429 (src/http/link-guard.ts).
      const throttled = guard.unknown(options.clientAddress(event));
      if (!throttled) return plainErrorResponse(HTTP_ERRORS.notFound, ERROR_HEADERS);
      return tooManyRequests(throttled, { content: `${HTTP_ERRORS.tooManyRequests.body.error}\n`, headers: ERROR_HEADERS });
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
