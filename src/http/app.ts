import { getRequestIP, H3, HTTPError, type H3Event } from 'h3';
import { isConfigured } from '../app/installation.ts';
import type { Runtime } from '../app/runtime.ts';
import type { Settings } from '../store/settings.ts';
import { createAuthThrottle } from './auth-throttle.ts';
import { createRateLimiter } from './rate-limit.ts';
import { error, jsonText, NOT_FOUND, type ExtraHeaders } from './respond.ts';
import { registerRoutes } from './routes.ts';
import { openApiDocument } from '../schemas/openapi.ts';
import { createTokenGate, type Verdict } from './token-gate.ts';

export interface HttpOptions {
  /** The process's store, context (with its clock: tests pass their own) and settings watch. */
  runtime: Pick<Runtime, 'ctx' | 'watch'>;
  /** Where unexpected errors are reported (never with a token in them). */
  log?: (line: string) => void;
  /** Called after each booking the API made (the outbox worker delivers its mails at once). */
  afterBooking?: () => void;
  /** Receives one entry per answered request (no query string, no headers: never the token). */
  accessLog?: (entry: AccessEntry) => void;
  /** How long a request body may take to arrive (default 10 s). */
  bodyTimeoutMs?: number;
}

/** One line of the access log. The path carries no query: query values can be personal data. */
export interface AccessEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * Returns the h3 app of `planner serve`. Every `/api` call passes the spec's gates in order:
 * not configured (503), API disabled (503), token (401), rate limit (429); then its route, or 404.
 */
export function createHttpApp(options: HttpOptions): H3 {
  const { ctx, watch } = options.runtime;
  const nowMs = () => ctx.now().getTime();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const gate = createTokenGate();
  const limiter = createRateLimiter();
  const throttle = createAuthThrottle();

  const accessLog = options.accessLog;
  const app = new H3({
    silent: true, // unexpected errors are logged below, one line, without a stack in the answer
    ...(accessLog
      ? {
          onRequest(event: H3Event) {
            event.context.startedAt = performance.now();
          },
          onResponse(response: Response, event: H3Event) {
            const ms = Math.round((performance.now() - (event.context.startedAt as number)) * 100) / 100;
            accessLog({ time: new Date(nowMs()).toISOString(), method: event.req.method, path: event.url.pathname, status: response.status, ms });
          },
        }
      : {}),
    onError(failure: HTTPError, event: H3Event) {
      const status = failure.status;
      if (status === 404 || status === 405) return error(404, NOT_FOUND);
      if (status >= 500) {
        log(`planner: ${event.req.method} ${event.url.pathname} failed: ${String(failure.cause ?? failure.message)}`);
        return error(500, 'Internal Server Error');
      }
      return error(status, failure.statusText || failure.message || 'Bad Request');
    },
  });

  // spec §9: the document describes, it does not book: served without a token, also while disabled or not configured.
  const document = JSON.stringify(openApiDocument());

  /** Counts an authenticated call and lets it through with its rate-limit headers, or answers 429. */
  const admit = (event: H3Event, settings: Settings, next: () => unknown) => {
    const decision = limiter.take(settings.tokenHash!, settings.rateLimit, nowMs());
    // IETF draft-ietf-httpapi-ratelimit-headers: lets clients pace themselves before they hit the limit.
    const headers: ExtraHeaders = {
      'ratelimit-policy': `"default";q=${decision.limit};w=60`,
      ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    };
    if (!decision.allowed) return error(429, 'Too Many Requests', { headers: { ...headers, 'retry-after': String(decision.resetSeconds) } });
    event.context.rateHeaders = headers; // the routes put them on every answer they give
    return next();
  };

  app.use((event, next) => {
    const path = event.url.pathname;
    if (path !== '/api' && !path.startsWith('/api/')) return error(404, NOT_FOUND);
    if (path === '/api/openapi.json' && event.req.method === 'GET') return jsonText(200, document, { 'cache-control': 'no-cache' });
    const settings = watch.refresh();
    // spec §7: both 503 cases affect every call; §5: then the token; §8: then the rate limit.
    if (!isConfigured(settings)) return error(503, 'Not configured');
    if (!settings.apiEnabled) return error(503, 'API disabled');
    // Guessing is throttled per address: after FAILED_ATTEMPTS_PER_MINUTE failures, 429 until the minute ends
    // (a new token from there is still checked once every 5 s: the valid one gets through).
    const address = getRequestIP(event) ?? 'unknown';
    const blockedFor = throttle.blockedFor(address, nowMs());
    const decide = (verdict: Verdict) => {
      if (verdict === true) return admit(event, settings, next);
      if (verdict === 'replaced') return error(401, 'Unauthorized'); // a client not updated yet: not a guess
      if (blockedFor > 0) return error(429, 'Too Many Requests', { headers: { 'retry-after': String(blockedFor) } });
      throttle.fail(address, nowMs());
      return error(401, 'Unauthorized');
    };
    const verdict = gate.check(event.req.headers.get('authorization'), settings.tokenHash, () => blockedFor === 0 || throttle.probe(address, nowMs()));
    return verdict instanceof Promise ? verdict.then(decide) : decide(verdict);
  });

  registerRoutes(app, ctx, {
    log,
    afterBooking: options.afterBooking ?? (() => {}),
    generation: watch.generation,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
  });
  return app;
}
