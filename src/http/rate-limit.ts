/** The outcome of counting one request against the limit. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/**
 * Every count at the doors runs in a fixed window of this many seconds: the rate limit per token (here), the throttle
 * of failed tokens and unknown secrets (auth-throttle.ts), and what the RateLimit-Policy field says (`w`, errors.ts).
 */
export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

/**
 * A fixed one-minute window per key (the key is the token's identity, so a new token starts fresh).
 * The window opens with the key's first request; `limit` is read per call, so `planner api limit` applies at once.
 */
export function createRateLimiter() {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts a request for `key` at `nowMs` and returns whether it may proceed. */
    take(key: string, limit: number, nowMs: number): RateDecision {
      let window = windows.get(key);
      if (!window || nowMs - window.start >= WINDOW_MS) {
        if (windows.size > 1000) windows.clear(); // keys are token hashes: a handful at most
        window = { start: nowMs, count: 0 };
        windows.set(key, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - nowMs) / 1000));
      if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
      window.count++;
      return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
    },
  };
}
