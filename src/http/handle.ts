/**
 * What the six routes share: the reply type, query parsing (spec §7: 404 on GET), the per-generation cache of
 * answers, and the handler wrapper that adds Server-Timing and the gate's rate-limit headers and turns the
 * core's errors into answers (src/http/errors.ts).
 */
import { getQuery, type H3Event } from 'h3';
import * as v from 'valibot';
import { AppError, notFound } from '../errors.ts';
import { answerFor, type ErrorAnswer, HTTP_ERRORS } from './errors.ts';
import { type ExtraHeaders, jsonText } from './respond.ts';

/** An answer of a route: its status and its JSON text (serialized once, also when cached). */
export interface Reply {
  status: number;
  text: string;
  headers?: ExtraHeaders;
}

/** Returns a 200 (or `status`) answer with `body`, typed by the response schema it must fit. */
export function reply<T>(body: T, status = 200): Reply {
  return { status, text: JSON.stringify(body) };
}

/** Returns the error `answer` as a route's reply, with its own headers and `headers`. */
export function failure(answer: ErrorAnswer, headers?: ExtraHeaders): Reply {
  const all = { ...answer.headers, ...headers };
  return { ...reply(answer.body, answer.status), ...(Object.keys(all).length > 0 ? { headers: all } : {}) };
}

/** A GET route of the API: its reply to the query (`search`: the URL's `?…` part, or empty). */
export type ReadRoute = (search: string) => Reply;

/** Returns the query parsed by `schema`; spec §7: on GET calls a missing or malformed parameter is 404, never 400. */
export function query<S extends v.GenericSchema>(search: string, schema: S): v.InferOutput<S> {
  // h3's own query parser (repeated names become a list, which no schema takes), on the URL's search alone: the
  // same for a call h3 routes and one that api-reads.ts answers.
  const result = v.safeParse(schema, getQuery({ url: { search } } as H3Event));
  if (!result.success) throw notFound('bad query');
  return result.output;
}

/** At most this many answers are kept by a reply cache (its keys name schedules that exist: far fewer in practice). */
export const REPLY_CACHE_ENTRIES = 1_000;

/**
 * Returns `cached(key, build)`: the reply built once per `generation()` of the data. Schedules, reasons and form
 * fields change only when another process (the CLI) writes, so their answers need not be built per request.
 * A build that throws (an unknown schedule) keeps nothing; past REPLY_CACHE_ENTRIES it starts again empty.
 */
export function createReplyCache(generation: () => number, limit = REPLY_CACHE_ENTRIES) {
  const cache = new Map<string, { generation: number; reply: Reply }>();
  const cached = (key: string, build: () => Reply): Reply => {
    const current = generation();
    const hit = cache.get(key);
    if (hit?.generation === current) return hit.reply;
    const built = build();
    if (cache.size >= limit && !cache.has(key)) cache.clear();
    cache.set(key, { generation: current, reply: built });
    return built;
  };
  return Object.assign(cached, { size: () => cache.size });
}

/**
 * True when the request names its path exactly as the route does. The URL parser forgives `..` and `.` segments,
 * percent-encoded letters and backslashes (`/api/%73chedules`, `/api/../api/schedules`, `/api\\schedules`) and the
 * router a trailing slash; a reverse-proxy rule written for the literal path would be bypassed by them, so only
 * the canonical form answers: the raw request target must be the parsed path, with no trailing slash.
 */
export function isCanonicalPath(event: H3Event): boolean {
  const raw = (event.runtime?.node?.req as { url?: string } | undefined)?.url; // absent in-process: already parsed
  const path = event.url.pathname;
  if (path.length > 1 && path.endsWith('/')) return false;
  if (raw === undefined) return true;
  // Every call pays this: compare in place, without splitting or a regular expression for the usual origin form.
  const query = raw.indexOf('?');
  const end = query < 0 ? raw.length : query;
  if (raw.startsWith('/')) return end === path.length && raw.startsWith(path);
  // RFC 9112 §3.2.2: a request target may come in absolute form (`http://host/api/…`); its path is what counts.
  return raw.slice(0, end).replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') === path;
}

/**
 * Returns the headers a route's `answer` adds to the API's own: the gate's rate-limit headers, the reply's, and
 * Server-Timing (W3C): the time since `started` (`performance.now()`), the call itself without HTTP; the
 * benchmark reads it.
 */
export function replyHeaders(answer: Reply, rateHeaders: ExtraHeaders | undefined, started: number): ExtraHeaders {
  return { ...rateHeaders, ...answer.headers, 'server-timing': `app;dur=${(performance.now() - started).toFixed(3)}` };
}

/**
 * Returns `handle(fn)`: an h3 handler that turns a route's reply (or the core's error) into the answer, with the
 * gate's rate-limit headers and Server-Timing. The cause of a storage error is logged, never answered. Its `read`
 * runs a GET route the same way for api-reads.ts, which answers without h3.
 */
export function createHandler(log: (line: string) => void) {
  const answerOf = (problem: unknown): Reply => {
    const answer = answerFor(problem);
    if (problem instanceof AppError && problem.code === 'storage') log(`planner: ${problem.message}`);
    return failure(answer);
  };
  const read = (route: ReadRoute, search: string): Reply => {
    try {
      return route(search);
    } catch (problem) {
      return answerOf(problem);
    }
  };
  const handle = (fn: (event: H3Event) => Reply | Promise<Reply>) => (event: H3Event) => {
    const started = performance.now();
    const send = (answer: Reply) =>
      jsonText(
        answer.status,
        answer.text,
        replyHeaders(answer, event.context.rateHeaders as ExtraHeaders | undefined, started),
      );
    try {
      if (!isCanonicalPath(event)) return send(failure(HTTP_ERRORS.notFound));
      const answer = fn(event);
      return answer instanceof Promise
        ? answer.then(send, (problem: unknown) => send(answerOf(problem)))
        : send(answer);
    } catch (problem) {
      return send(answerOf(problem));
    }
  };
  return Object.assign(handle, { read });
}
