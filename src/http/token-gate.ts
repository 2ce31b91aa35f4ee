import { hash as digestOf, timingSafeEqual } from 'node:crypto';
import { loadArgon2, looksLikeToken } from '../app/token.ts';

/** Verifies with argon2, loading the native addon on first use. */
async function verifyArgon2(hash: string, token: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  return verify(hash, token);
}

/**
 * Checks bearer tokens against the stored argon2id hash without running argon2 on every request:
 * the first successful verify remembers the token's SHA-256 digest for that hash; later requests compare
 * digests in constant time. A hash has exactly one token, so once it is known any other token is refused
 * without argon2. A new hash (token rotated) makes the remembered digest useless at once.
 */
export function createTokenGate(verifyHash: (hash: string, token: string) => Promise<boolean> = verifyArgon2) {
  let known: { hash: string; digest: Buffer } | undefined;
  return {
    /**
     * Returns true when `authorization` carries the token whose argon2id hash is `hash`: at once when the
     * answer is known, as a promise when argon2 must run (the first time a token is seen). With `mayVerify`
     * false, argon2 is not run and a token that would need it counts as not valid.
     */
    check(authorization: string | null, hash: string | null, mayVerify = true): boolean | Promise<boolean> {
      if (hash === null || authorization === null) return false;
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      const token = match?.[1];
      if (token === undefined || !looksLikeToken(token)) return false; // cheap rejects first
      const digest = digestOf('sha256', token, 'buffer') as Buffer; // one-shot SHA-256: no Hash object per request
      if (known?.hash === hash) return timingSafeEqual(known.digest, digest);
      if (!mayVerify) return false;
      return Promise.resolve()
        .then(() => verifyHash(hash, token))
        .then(
        (ok) => {
          if (ok) known = { hash, digest };
          return ok;
        },
        () => false, // a damaged hash in the file locks the API, it does not crash it
      );
    },
    /** Forgets the remembered digest. */
    forget(): void {
      known = undefined;
    },
  };
}
