/**
 * The requests planner sends to Google's hosts (the Calendar API and the token endpoint), through the outbound policy
 * (src/outbound/request.ts): one session per operation (one deadline for the token, the requests and their
 * back-off), no redirect followed (Google's APIs answer where they are asked; a 3xx fails with a line), and Google's
 * rate limits waited out as its guide on errors says: exponential back-off, a few times, within the deadline.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  failureLine,
  type OutboundAnswer,
  OutboundError,
  type OutboundLimits,
  type OutboundSession,
  openSession,
  send,
} from '../outbound/request.ts';
import { providerBase } from './provider.ts';

/** One operation's requests: 20 s in all, nothing followed. A read's pages are larger than a write's answers. */
export const GOOGLE_WRITE_LIMITS: OutboundLimits = { timeoutMs: 20_000, maxBytes: 1024 * 1024, maxRedirects: 0 };
export const GOOGLE_READ_LIMITS: OutboundLimits = { timeoutMs: 20_000, maxBytes: 10 * 2 ** 20, maxRedirects: 0 };

/** The waits before each retry of a rate-limited request (Google: "Implement exponential backoff"). */
export const BACKOFF_MS = [500, 1000, 2000] as const;

const USER_AGENT = 'planner-calendar/1';

/** Makes the error of a failed operation from its one line: a write's CalendarWriteError, a read's CalendarFetchError. */
export type Failing = (line: string, answered: boolean) => Error;

/** One operation's requests to Google, and how its failures are thrown. */
export interface GoogleSession {
  outbound: OutboundSession;
  /** Date.now() past which no back-off is started: the outbound deadline would cut it off anyway. */
  deadline: number;
  fail: Failing;
}

/** Opens an operation's session: its deadline starts now. */
export function openGoogleSession(limits: OutboundLimits, fail: Failing): GoogleSession {
  const { base, allowInsecure } = providerBase('google', 'api');
  const outbound = openSession({ url: base, allowInsecure }, limits, USER_AGENT, () => {
    throw new Error('planner follows no redirect from Google');
  });
  return { outbound, deadline: Date.now() + limits.timeoutMs, fail };
}

/** The `reason` of a Calendar API error body (`error.errors[0].reason`), or the token endpoint's `error` code. */
export function reasonOf(answer: OutboundAnswer): string | undefined {
  let reason: unknown;
  try {
    const body = JSON.parse(answer.body) as { error?: unknown };
    reason =
      typeof body.error === 'string'
        ? body.error
        : (body.error as { errors?: { reason?: unknown }[] } | undefined)?.errors?.[0]?.reason;
  } catch {
    return undefined;
  }
  // A code, as Google's are: anything else (a line break, a long text) never reaches a line.
  return typeof reason === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(reason) ? reason : undefined;
}

const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/** Whether Google asks planner to wait and try again: a rate limit (403 with its reason, 429) or a passing outage. */
function limited(answer: OutboundAnswer): boolean {
  if (answer.status === 403) return RATE_REASONS.has(reasonOf(answer) ?? '');
  return answer.status === 429 || answer.status === 500 || answer.status === 503;
}

/** The line of a request still limited after the back-off: it heals by waiting, so the caller tries later. */
function limitedLine(host: string, answer: OutboundAnswer): string {
  const reason = reasonOf(answer);
  const status = `HTTP ${answer.status}${answer.status === 403 && reason ? ` ${reason}` : ''}`;
  if (answer.status === 500 || answer.status === 503)
    return `${host} is unavailable (${status}); it is tried again later`;
  return `${host} is limiting planner's requests (${status}); it is tried again later`;
}

/**
 * Sends one request and returns its answer (any status but a limit's: the caller decides); a rate limit or outage is
 * retried after BACKOFF_MS while the deadline allows, then fails as one line. A failure before an answer fails as
 * outbound's line (not answered after a time-out or a lost connection: Google may have done it).
 */
export async function call(
  gs: GoogleSession,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<OutboundAnswer> {
  const host = new URL(url).host;
  for (let attempt = 0; ; attempt++) {
    let answer: OutboundAnswer;
    try {
      answer = await send(gs.outbound, method, url, headers, body);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const why = error.failure;
      throw gs.fail(
        failureLine(why, host, gs.outbound.limits, 'an answer'),
        why.kind !== 'timeout' && why.kind !== 'network',
      );
    }
    if (!limited(answer)) return answer;
    const wait = BACKOFF_MS[attempt];
    if (wait === undefined || Date.now() + wait >= gs.deadline) throw gs.fail(limitedLine(host, answer), true);
    await sleep(wait);
  }
}

/** The JSON of a successful answer; one that is not JSON fails the operation as a line naming the host. */
export function jsonOf<T>(gs: GoogleSession, url: string, answer: OutboundAnswer): T {
  try {
    const value = JSON.parse(answer.body) as unknown;
    if (value !== null && typeof value === 'object') return value as T;
  } catch {
    // said below
  }
  throw gs.fail(`${new URL(url).host} answered HTTP ${answer.status} with something that is not JSON`, true);
}
