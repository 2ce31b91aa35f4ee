/**
 * The calendar feed's door: `GET /feed/<secret>.ics` (its route in door-routes.ts), outside the /api gates. ETag and
 * Last-Modified from the feed's data, 304 when the calendar app has it already. A wrong secret gets a 404, and an
 * address that sends many a 429 (src/http/door-guard.ts).
 */
import { STATUS_CODES } from 'node:http';
import { getRouterParam, type H3Event } from 'h3';
import { type Feed, feedOf } from '../app/calendars/feed.ts';
import { createDoorGuard } from './door-guard.ts';
import type { FeedDoorOptions } from './door-options.ts';
import { HTTP_ERRORS, plainErrorResponse, tooManyRequests } from './errors.ts';
import { isCanonicalPath } from './handle.ts';
import { loggedPath } from './logged-path.ts';

const HEADERS = { 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };
/** The headers of the feed's error answers (plain text, the texts of src/http/errors.ts). */
const ERROR_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...HEADERS };

/**
 * True when the client's copy is current (RFC 9110 §13.2.2, for GET and HEAD): `If-None-Match`, when sent, decides
 * alone (weak comparison, §8.8.3.2; `*` matches, as the feed exists: §13.1.2); otherwise `If-Modified-Since`, when
 * it is a valid date and the feed has a Last-Modified.
 */
function isFresh(request: Headers, etag: string, lastModified: Date | undefined): boolean {
  const noneMatch = request.get('if-none-match');
  if (noneMatch !== null)
    return noneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
  const since = Date.parse(request.get('if-modified-since') ?? '');
  return lastModified !== undefined && !Number.isNaN(since) && since >= lastModified.getTime();
}

/** The feed's answer to `feed`: the calendar, or 304 when the client's copy is current. */
function feedAnswer(event: H3Event, feed: Feed): Response {
  const headers = {
    etag: feed.etag,
    ...(feed.lastModified ? { 'last-modified': feed.lastModified.toUTCString() } : {}),
    // The URL is a key to customer data: no shared cache may keep it, and the app asks again each time.
    'cache-control': 'private, no-cache',
    ...HEADERS,
  };
  if (isFresh(event.req.headers, feed.etag, feed.lastModified))
    return new Response(null, { status: 304, statusText: STATUS_CODES[304], headers });
  return new Response(feed.ics, {
    status: 200,
    statusText: STATUS_CODES[200],
    headers: { 'content-type': 'text/calendar; charset=utf-8', ...headers },
  });
}

/** Returns the feed's handlers, by route (door-routes.ts gives their paths). */
export function createFeedDoor(options: FeedDoorOptions) {
  const { ctx, nowMs } = options;
  const guard = createDoorGuard('unknown-link', nowMs);
  const notFound = () => plainErrorResponse(HTTP_ERRORS.notFound, ERROR_HEADERS);

  /** An address that is no feed's: 404, or 429 once the client sent too many this minute (door-guard.ts). */
  const unknownFeed = (event: H3Event): Response => {
    const throttled = guard.unknown(options.clientAddress(event));
    // `x-planner-page` lets `planner doctor` tell planner's own 404 from a proxy's, as on the pages.
    if (!throttled)
      return plainErrorResponse(HTTP_ERRORS.notFound, { ...ERROR_HEADERS, 'x-planner-page': 'not-found' });
    return tooManyRequests(throttled, {
      content: `${HTTP_ERRORS.tooManyRequests.body.error}\n`,
      headers: ERROR_HEADERS,
    });
  };

  return {
    /** GET /feed/<secret>.ics: every address is looked up. */
    calendar(event: H3Event): Response {
      if (!isCanonicalPath(event)) return notFound();
      let feed: Feed | undefined;
      try {
        feed = feedOf(ctx, getRouterParam(event, 'secret') ?? '');
      } catch (error) {
        options.log(`planner: GET ${loggedPath(event.url.pathname)} failed: ${(error as Error).message}`);
        return plainErrorResponse(HTTP_ERRORS.internal, ERROR_HEADERS);
      }
      return feed ? feedAnswer(event, feed) : unknownFeed(event);
    },
    /** Any other path or method under `/feed/`: 404. */
    unknownPath: notFound,
  };
}
