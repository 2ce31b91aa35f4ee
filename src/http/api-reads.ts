/**
 * The API's usual GET call answered on node:http itself, before h3 (issue 49): a GET (or HEAD) of one of the read
 * routes, by its exact path, with a plain query and the known token (gates.ts, `admitKnown`). It runs the same
 * gates, the same route and the same answer's headers as h3 would: only h3 and srvx's request and response
 * objects are left out, which cost a third of the server's time a call (docs/performance.md, issue 49). Every other
 * request, and this one whenever anything is not as usual (no token or another one, the API disabled, a path or
 * a query written another way), goes to h3 untouched: nothing is counted before that is decided.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HTTP_ERRORS } from './errors.ts';
import type { Admission } from './gates.ts';
import { failure, type Reply, replyHeaders } from './handle.ts';
import { failedLine } from './logged-path.ts';
import { type ExtraHeaders, jsonHeaders } from './respond.ts';
import type { ApiReads } from './routes.ts';

/**
 * A query taken as it is written: letters, digits, `_.:=&-`, percent escapes and `+` (a slot's space is sent as
 * `%20` or `+`). h3 reads the query from the WHATWG URL, whose parser leaves these characters as they are, so both
 * parse the same text with the same parser (handle.ts, `query`); a query with any other character goes to h3.
 */
const PLAIN_QUERY = /^[\w.:=&%+-]*$/;

/** Logs one answer in the access log: the method, the path, the status and the time since `startedAt`. */
export type LogAnswer = (method: string, path: string, status: number, startedAt: number) => void;

/**
 * Returns the value of the one `name` header (lower case) in `raw` (node's rawHeaders), null when there is none,
 * undefined when it is sent twice (h3 then decides, as for any other request).
 */
function onlyHeader(raw: string[], name: string): string | null | undefined {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const field = raw[i]!;
    if (field.length !== name.length || field.toLowerCase() !== name) continue;
    if (value !== null) return undefined;
    value = raw[i + 1]!;
  }
  return value;
}

/** Sends `reply` with the API's JSON headers and `headers` (the reply's own) after them (HEAD: node leaves the body out). */
function send(response: ServerResponse, reply: Reply, headers: ExtraHeaders | undefined = reply.headers): number {
  response.writeHead(reply.status, jsonHeaders(reply.text, headers));
  response.end(reply.text);
  return reply.status;
}

/**
 * Returns the server's request listener: the usual GET call of the API answered here, everything else by `rest`
 * (h3's node handler). `admitKnown` is the gates' (configured, enabled, the known token, then the rate limit).
 */
export function readsFirst(
  options: {
    reads: ApiReads;
    admitKnown: (authorization: string | null) => Admission | undefined;
    log: (line: string) => void;
    logAnswer?: LogAnswer;
  },
  rest: RequestListener,
): RequestListener {
  const { reads, admitKnown, log, logAnswer } = options;
  /** The usual call's method, path, query, route and token header; undefined: a request for h3. */
  const usualCall = (request: IncomingMessage) => {
    const method = request.method;
    const target = request.url;
    if ((method !== 'GET' && method !== 'HEAD') || target === undefined) return undefined;
    const mark = target.indexOf('?');
    const path = mark < 0 ? target : target.slice(0, mark);
    const search = mark < 0 ? '' : target.slice(mark);
    const route = reads.routes.get(path);
    if (route === undefined || !PLAIN_QUERY.test(search.slice(1))) return undefined;
    const authorization = onlyHeader(request.rawHeaders, 'authorization');
    return authorization === undefined ? undefined : { method, path, search, route, authorization };
  };
  type Call = NonNullable<ReturnType<typeof usualCall>>;
  /** Answers a call the gates let through: its route's reply, or the 429; returns the status. */
  const answer = (response: ServerResponse, call: Call, admission: Admission) => {
    if ('refusal' in admission) return send(response, failure(admission.refusal));
    const started = performance.now();
    const reply = reads.read(call.route, call.search);
    return send(response, reply, replyHeaders(reply, admission.rateHeaders, started));
  };
  /** Answers a call that threw as h3's error handler does (app.ts): the error line, the JSON 500 and its entry. */
  const failed = (response: ServerResponse, call: Call, error: unknown, startedAt: number) => {
    try {
      log(failedLine(call.method, call.path, error));
      if (response.headersSent) response.destroy();
      else send(response, failure(HTTP_ERRORS.internal));
      logAnswer?.(call.method, call.path, HTTP_ERRORS.internal.status, startedAt);
    } catch {
      response.destroy(); // a log that throws too: this connection ends, the server goes on
    }
  };
  return (request, response) => {
    const startedAt = performance.now();
    const call = usualCall(request);
    if (call === undefined) return rest(request, response);
    let admission: Admission | undefined;
    try {
      // The settings are read first, as h3's gates read them first: a file that cannot be read fails either way.
      admission = admitKnown(call.authorization);
    } catch (error) {
      return failed(response, call, error, startedAt);
    }
    if (admission === undefined) return rest(request, response);
    try {
      const status = answer(response, call, admission);
      logAnswer?.(call.method, call.path, status, startedAt);
    } catch (error) {
      failed(response, call, error, startedAt);
    }
  };
}
