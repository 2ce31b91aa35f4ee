/**
 * The gates every `/api` call passes, in the spec's order: configured (503), API enabled (503), token (401, and
 * the per-address throttle of failed tokens: 429), rate limit per token (429). Every 429, here and at the other
 * doors, comes from `tooManyRequests()` in errors.ts; the client's address from client-address.ts.
 */
import type { H3Event } from 'h3';
import { isConfigured } from '../app/practice/configured.ts';
import type { Settings } from '../store/settings.ts';
import { createDoorGuard } from './door-guard.ts';
import {
  type ErrorAnswer,
  errorResponse,
  HTTP_ERRORS,
  rateLimitHeaders,
  tooManyAnswer,
  tooManyRequests,
} from './errors.ts';
import { createRateLimiter } from './rate-limit.ts';
import type { ExtraHeaders } from './respond.ts';
import { createTokenGate, type Verdict } from './token-gate.ts';

/** A counted call of the known token: let through with its rate-limit headers, or refused with the 429. */
export type Admission = { rateHeaders: ExtraHeaders } | { refusal: ErrorAnswer };

/**
 * Returns the gate middleware: it answers a call that does not pass, or lets it through to `next` (with the
 * token's rate-limit headers in `event.context.rateHeaders`, which the routes put on every answer). Its
 * `admitKnown` passes the usual call without h3 (api-reads.ts): the installation configured, the API enabled and
 * the token the known one, it counts the call; anything else it leaves to the middleware, having changed nothing.
 */
export function createGates(options: {
  settings: () => Settings;
  nowMs: () => number;
  clientAddress: (event: H3Event) => string;
  /** Stores the token's hash in its present form when argon2 has just verified an older one (token-gate.ts). */
  upgradeToken?: (from: string, token: string) => void;
}) {
  const { nowMs } = options;
  const gate = createTokenGate({ upgraded: options.upgradeToken });
  const limiter = createRateLimiter();
  const guard = createDoorGuard('failed-token', nowMs);

  /** Counts an authenticated call: its rate-limit headers, or the 429 when the token's budget is spent. */
  const count = (settings: Settings): Admission => {
    const decision = limiter.take(settings.tokenHash!, settings.rateLimit, nowMs());
    const policy = { name: 'default', limit: decision.limit, resetSeconds: decision.resetSeconds };
    if (!decision.allowed) return { refusal: tooManyAnswer(policy) };
    // IETF draft-ietf-httpapi-ratelimit-headers: lets clients pace themselves before they hit the limit.
    return { rateHeaders: rateLimitHeaders(policy, decision.remaining) };
  };

  /** Counts an authenticated call and lets it through with its rate-limit headers, or answers 429. */
  const admit = (event: H3Event, settings: Settings, next: () => unknown) => {
    const admission = count(settings);
    if ('refusal' in admission) return errorResponse(admission.refusal);
    event.context.rateHeaders = admission.rateHeaders;
    return next();
  };

  const middleware = (event: H3Event, next: () => unknown) => {
    const settings = options.settings();
    // spec §7: both 503 cases affect every call; §5: then the token; §8: then the rate limit.
    if (!isConfigured(settings)) return errorResponse(HTTP_ERRORS.notConfigured);
    if (!settings.apiEnabled) return errorResponse(HTTP_ERRORS.apiDisabled);
    // Guessing is throttled per address (door-guard.ts): after FAILED_ATTEMPTS_PER_MINUTE failures, 429 until the
    // minute ends (a new token from there is still checked once every 5 s: the valid one gets through). The known
    // token passes whatever its address did, so the address is looked at only for a token that is not known yet.
    let address: string | undefined;
    let refusal: ReturnType<typeof guard.refusal> | null = null;
    const throttled = () => {
      address ??= options.clientAddress(event);
      if (refusal === null) refusal = guard.refusal(address);
      return refusal;
    };
    const decide = (verdict: Verdict) => {
      if (verdict === true) return admit(event, settings, next);
      if (verdict === 'replaced') return errorResponse(HTTP_ERRORS.unauthorized); // a client not updated yet: not a guess
      const refused = throttled();
      if (refused) return tooManyRequests(refused);
      guard.fail(address!);
      return errorResponse(HTTP_ERRORS.unauthorized);
    };
    const verdict = gate.check(
      event.req.headers.get('authorization'),
      settings.tokenHash,
      () => throttled() === undefined || guard.probe(address!),
    );
    return verdict instanceof Promise ? verdict.then(decide) : decide(verdict);
  };

  return Object.assign(middleware, {
    /** The known token's call counted (`authorization`: its header), or undefined: the middleware must decide. */
    admitKnown(authorization: string | null): Admission | undefined {
      const settings = options.settings();
      if (!isConfigured(settings) || !settings.apiEnabled) return undefined;
      return gate.knows(authorization, settings.tokenHash) ? count(settings) : undefined;
    },
  });
}
