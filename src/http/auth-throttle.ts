import { WINDOW_SECONDS } from './rate-limit.ts';

/**
 * Failures (wrong tokens, unknown page links or feed addresses) one address may make per minute before its further
 * ones are answered 429 (door-guard.ts).
 */
export const FAILED_ATTEMPTS_PER_MINUTE = 20;

const WINDOW_MS = WINDOW_SECONDS * 1000;
/** A throttled address may still have one new token checked (with argon2) this often. */
const PROBE_EVERY_MS = 5_000;
/** Addresses remembered at most: a flood from many addresses cannot grow memory without bound. */
const MAX_ADDRESSES = 10_000;

/**
 * Counts failures per client address in a fixed one-minute window (opened by the address's first failure): the
 * mechanism under every door's guard (door-guard.ts). Once an address has failed `FAILED_ATTEMPTS_PER_MINUTE`
 * times, its tokens are not checked any more until the window ends, but for one new token every 5 s: at most 12
 * argon2 runs a minute.
 * A request with the valid token is let through when the gate knows it without argon2, and otherwise is
 * checked at the next probe, so users behind the same address (a proxy) are not locked out by someone
 * guessing, nor by a client that still sends the token that was just replaced.
 */
export function createAuthThrottle(limit = FAILED_ATTEMPTS_PER_MINUTE) {
  const windows = new Map<string, { start: number; count: number; probedAt?: number }>();
  const current = (address: string, nowMs: number) => {
    const window = windows.get(address);
    return window && nowMs - window.start < WINDOW_MS ? window : undefined;
  };
  return {
    /** Seconds until `address` may try again (at least 1), or 0 when it is not throttled. */
    blockedFor(address: string, nowMs: number): number {
      const window = current(address, nowMs);
      if (!window || window.count < limit) return 0;
      return Math.max(1, Math.ceil((window.start + WINDOW_MS - nowMs) / 1000));
    },
    /** True (and counted) when throttled `address` may have one new token checked now. */
    probe(address: string, nowMs: number): boolean {
      const window = current(address, nowMs);
      if (!window) return true;
      if (window.probedAt !== undefined && nowMs - window.probedAt < PROBE_EVERY_MS) return false;
      window.probedAt = nowMs;
      return true;
    },
    /** Counts one failed attempt of `address`. */
    fail(address: string, nowMs: number): void {
      const window = current(address, nowMs);
      if (window) {
        window.count++;
        return;
      }
      if (windows.size >= MAX_ADDRESSES) {
        // The map is in order of window start: expired windows are at its front, so this stops at the first
        // live one (constant work per failure, also under a flood), and then forgets the oldest live window.
        for (const [key, old] of windows) {
          if (nowMs - old.start < WINDOW_MS && windows.size < MAX_ADDRESSES) break;
          windows.delete(key);
          if (nowMs - old.start < WINDOW_MS) break;
        }
      }
      windows.delete(address); // re-inserted last: the order stays by window start
      windows.set(address, { start: nowMs, count: 1 });
    },
    /** Addresses remembered (for tests of the memory bound). */
    size: () => windows.size,
  };
}
