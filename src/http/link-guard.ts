/**
 * The guard of the doors keyed by a secret in their URL: the self-service page's links and the calendar feed's
 * addresses (issue 23, finding 5). Both secrets carry 256 random bits, so no rate of guessing finds one: the
 * throttle is not what protects them. What it does is tell a guesser to stop: once an address has sent 20 unknown
 * ones in a minute, its further unknown ones are answered 429 until the minute ends. Every well-formed request is
 * still looked up (one SHA-256 and one index read): a real link opens whatever else comes from its address, so
 * customers behind one shared address (a proxy on another host, a container network) are never locked out by
 * someone guessing there; they only see 429 instead of 404 for a mistyped link.
 */
import { createAuthThrottle, FAILED_ATTEMPTS_PER_MINUTE } from './auth-throttle.ts';
import type { RatePolicy } from './errors.ts';

/** Returns the guard: `unknown(address)` counts a secret that opened nothing, and says whether to answer 429. */
export function createLinkGuard(nowMs: () => number) {
  const throttle = createAuthThrottle();
  return {
    /**
     * Counts an unknown secret from `address`. Returns the policy of the 429 to answer when the address has sent too
     * many this minute, or undefined: answer the door's 404.
     */
    unknown(address: string): RatePolicy | undefined {
      const blockedFor = throttle.blockedFor(address, nowMs());
      if (blockedFor > 0) return { name: 'unknown-link', limit: FAILED_ATTEMPTS_PER_MINUTE, resetSeconds: blockedFor };
      throttle.fail(address, nowMs());
      return undefined;
    },
  };
}
