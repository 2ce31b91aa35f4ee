import type { RequestListener } from 'node:http';
import { H3, type H3Event, type HTTPError, type Middleware } from 'h3';
import { toNodeHandler } from 'h3/node';
import { createDaysCache, type DaysCache } from '../app/bookings/days-cache.ts';
import { clockMs } from '../app/context.ts';
import type { Runtime } from '../app/operations/runtime.ts';
import { upgradeToken } from '../app/practice/token.ts';
import { type LogAnswer, readsFirst } from './api-reads.ts';
import { createClientAddress } from './client-address.ts';
import { atFirstUse, isDoorRoute, registerDoorRoutes } from './door-routes.ts';
import { answerForHttpError, errorResponse, HTTP_ERRORS } from './errors.ts';
import { createGates } from './gates.ts';
import { isCanonicalPath } from './handle.ts';
import { failedLine, loggedPath } from './logged-path.ts';
import { jsonText } from './respond.ts';
import { registerRoutes } from './routes.ts';

export interface HttpOptions {
  /** The process's store, context (with its clock: tests pass their own) and settings watch. */
  runtime: Pick<Runtime, 'ctx' | 'watch'> & { environment?: Pick<Runtime['environment'], 'formMinSeconds'> };
  /** Where unexpected errors are reported (never with a token in them). */
  log?: (line: string) => void;
  /** Called after each booking the API or the self-service page made or changed (the workers send its mails at once). */
  afterBooking?: () => void;
  /** Receives one entry per answered request (no query string, no headers: never the token). */
  accessLog?: (entry: AccessEntry) => void;
  /** How long a request body may take to arrive (default 10 s). */
  bodyTimeoutMs?: number;
  /** The cache of free days behind GET /days (default: a new one); tests pass their own to read its figures. */
  daysCache?: DaysCache;
}

/** One line of the access log. The path carries no query (query values can be personal data), and no page link's token. */
export interface AccessEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * The time of an access-log line, ISO 8601 in UTC: made once per millisecond, however many requests end in it (at
 * 40,000 a second, 40 lines share each).
 */
function timeStamps(nowMs: () => number): () => string {
  let lastMs = Number.NaN;
  let last = '';
  return () => {
    const ms = nowMs();
    if (ms !== lastMs) {
      lastMs = ms;
      last = new Date(ms).toISOString();
    }
    return last;
  };
}

/** Returns the writer of access-log lines to `accessLog` (none: nothing is logged). */
function accessLogger(accessLog: HttpOptions['accessLog'], nowMs: () => number): LogAnswer {
  const stamp = timeStamps(nowMs);
  return (method, path, status, startedAt) =>
    accessLog?.({
      time: stamp(),
      method,
      path: loggedPath(path),
      status,
      ms: Math.round((performance.now() - startedAt) * 100) / 100,
    });
}

/**
 * Returns `route` as the app's middleware, each answer it returns logged (each error's is logged by onError). Not
 * h3's onRequest and onResponse hooks: they cost three promise turns a request (a tenth of GET /schedules).
 */
function loggedRoute(route: Middleware, logAnswer: LogAnswer | undefined): Middleware {
  if (!logAnswer) return route;
  return (event, next) => {
    const startedAt = performance.now();
    event.context.startedAt = startedAt;
    const answer = route(event, next);
    if (answer instanceof Promise)
      return answer.then((value: unknown) => {
        if (value instanceof Response) logAnswer(event.req.method, event.url.pathname, value.status, startedAt);
        return value;
      });
    // Most answers are at hand: no closure made for them.
    if (answer instanceof Response) logAnswer(event.req.method, event.url.pathname, answer.status, startedAt);
    return answer;
  };
}

/**
 * Returns the middleware that sends a request on: a door's route (door-routes.ts) to it, outside the /api gates; the
 * OpenAPI document (spec §9: it describes, it does not book: served without a token, also while disabled or not
 * configured); any other /api call through the gates to its route; anything else, the JSON 404.
 */
function dispatch(gates: Middleware, openApiText: () => Promise<string>): Middleware {
  return (event, next) => {
    if (isDoorRoute(event)) return next();
    const path = event.url.pathname;
    if (path !== '/api' && !path.startsWith('/api/')) return errorResponse(HTTP_ERRORS.notFound);
    const method = event.req.method;
    if (path === '/api/openapi.json' && (method === 'GET' || method === 'HEAD') && isCanonicalPath(event))
      return openApiText().then((text) => jsonText(200, text, { 'cache-control': 'no-cache' }));
    return gates(event, next);
  };
}

/** The app's answer to an error h3 raised (no route, or a handler that threw): logged when it is the server's. */
function errorAnswer(log: (line: string) => void, logAnswer: LogAnswer) {
  return (failure: HTTPError, event: H3Event) => {
    if (failure.status >= 500) log(failedLine(event.req.method, event.url.pathname, failure.cause ?? failure.message));
    const answer = errorResponse(answerForHttpError(failure.status, failure.statusText || failure.message));
    const startedAt = (event.context.startedAt as number | undefined) ?? performance.now();
    logAnswer(event.req.method, event.url.pathname, answer.status, startedAt);
    return answer;
  };
}

/** The h3 app of `planner serve`, and the server's request listener: the API's usual GET call first (api-reads.ts). */
export interface HttpServing {
  app: H3;
  listener: RequestListener;
}

/**
 * Returns the h3 app of `planner serve` (tests call it in process).
 */
export function createHttpApp(options: HttpOptions): H3 {
  return createHttpServing(options).app;
}

/**
 * Returns the h3 app of `planner serve` and its node:http listener. Every `/api` call passes the spec's gates in
 * order: not configured (503), API disabled (503), token (401), rate limit (429); then its route, or 404. The HTML
 * doors and the feed answer on their own routes (door-routes.ts). The listener answers the usual GET call of the
 * API itself, through the same gates and routes (api-reads.ts), and hands everything else to the app.
 */
export function createHttpServing(options: HttpOptions): HttpServing {
  const { ctx, watch } = options.runtime;
  const nowMs = clockMs(ctx);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logAnswer = accessLogger(options.accessLog, nowMs);
  // Unexpected errors are logged by errorAnswer, one line, without a stack in the answer.
  const app = new H3({ silent: true, onError: errorAnswer(log, logAnswer) });
  // Built at its first request, as the doors are: a server that never serves it never loads its code (anonymous
  // memory; docs/performance.md says what each saves).
  const openApiText = atFirstUse(() =>
    import('../schemas/openapi.ts').then(({ openApiDocument }) => JSON.stringify(openApiDocument())),
  );
  // One rule for the client's address at every door that counts per address (trusted proxies only).
  const clientAddress = createClientAddress(() => watch.refresh());
  // An older installation's argon2id hash is replaced by the token's SHA-256 the first time the token is seen
  // (app/practice/token.ts says why); a file that cannot be written now is upgraded by a later start.
  const upgrade = (from: string, token: string) => {
    try {
      upgradeToken(ctx, from, token);
    } catch (error) {
      log(`planner: the token's hash stays in its older form for now: ${(error as Error).message}`);
    }
  };
  const gates = createGates({ settings: () => watch.refresh(), nowMs, clientAddress, upgradeToken: upgrade });
  app.use(loggedRoute(dispatch(gates, openApiText), options.accessLog ? logAnswer : undefined));
  const afterBooking = options.afterBooking ?? (() => {});
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  // One cache of free days for GET /api/days and the booking page's days.
  const daysCache = options.daysCache ?? createDaysCache();
  // The doors get the context whose settings follow other processes' writes.
  registerDoorRoutes(app, {
    ctx: { ...ctx, settings: () => watch.refresh() },
    nowMs,
    log,
    clientAddress,
    afterBooking,
    bodyTimeoutMs,
    daysCache,
    ...(options.runtime.environment ? { formMinSeconds: options.runtime.environment.formMinSeconds } : {}),
  });
  const reads = registerRoutes(app, ctx, { log, afterBooking, generation: watch.generation, bodyTimeoutMs, daysCache });
  const listener = readsFirst(
    { reads, admitKnown: gates.admitKnown, log, ...(options.accessLog ? { logAnswer } : {}) },
    toNodeHandler(app),
  );
  return { app, listener };
}
