/**
 * The one guard of the doors against guessing, per client address (client-address.ts): the API's tokens (gates.ts),
 * the self-service page's links (portal.ts) and the calendar feed's addresses (feed.ts). Once an address has failed
 * `FAILED_ATTEMPTS_PER_MINUTE` times in a minute, its further failures are answered 429 until the minute ends, with
 * the headers of `tooManyRequests()` (errors.ts); the counting is auth-throttle.ts.
 *
 * What is still checked from a throttled address differs by what a check costs. A page link or a feed secret costs
 * one SHA-256 and one index read, so every well-formed one is still looked up: a real link
 * opens whatever else comes from its address, and customers behind one shared address (a proxy on another host, a
 * container network) are never locked out by someone guessing there; they only see 429 instead of 404 for a
 * mistyped link. Both secrets carry 256 random bits, so no rate of guessing finds one: the throttle tells a guesser
 * to stop, it is not what protects them. A token costs an argon2 run unless the gate knows it already, so a
 * throttled address has one new token checked every 5 s (`probe`).
 */
import { createAuthThrottle, FAILED_ATTEMPTS_PER_MINUTE } from './auth-throttle.ts';
import type { RatePolicy } from './errors.ts';

/** Returns the guard of one door; `policy` names its 429 (`RateLimit-Policy`). */
export function createDoorGuard(policy: 'failed-token' | 'unknown-link' | 'failed-login', nowMs: () => number) {
  const throttle = createAuthThrottle();
  const refusal = (address: string): RatePolicy | undefined => {
    const blockedFor = throttle.blockedFor(address, nowMs());
    return blockedFor > 0 ? { name: policy, limit: FAILED_ATTEMPTS_PER_MINUTE, resetSeconds: blockedFor } : undefined;
  };
  return {
    /** The policy of the 429 to answer `address` with when it is throttled now, else undefined. */
    refusal,
    /** Counts one failure (a wrong token) of `address`. */
    fail: (address: string): void => throttle.fail(address, nowMs()),
    /** True (and counted) when throttled `address` may have one new token checked now. */
    probe: (address: string): boolean => throttle.probe(address, nowMs()),
    /**
     * Counts an unknown secret (a page link, a feed address) from `address`. Returns the policy of the 429 to
     * answer when the address has sent too many this minute, or undefined: answer the door's 404.
     */
    unknown(address: string): RatePolicy | undefined {
      const refused = refusal(address);
      if (!refused) throttle.fail(address, nowMs());
      return refused;
    },
  };
}
