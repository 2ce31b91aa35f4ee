import { hash as digestOf, timingSafeEqual } from 'node:crypto';
import { loadArgon2 } from '../app/practice/token.ts';
import { looksLikeToken } from '../domain/token.ts';

/** Verifies with argon2, loading the native addon on first use. */
async function verifyArgon2(hash: string, token: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  return verify(hash, token);
}

/** Tokens refused by argon2 that are remembered (per hash), so a client that keeps sending one costs no argon2. */
const REFUSED_REMEMBERED = 1000;

/** What the gate says of a token: valid, not valid, or the token that was valid until it was replaced. */
export type Verdict = boolean | 'replaced';

/**
 * Checks bearer tokens against the stored argon2id hash without running argon2 on every request:
 * the first successful verify remembers the token's SHA-256 digest for that hash; later requests compare
 * digests in constant time. A hash has exactly one token, so once it is known any other token is refused
 * without argon2. When the hash changes (token rotated), the old digest is kept to recognise the replaced token
 * (a client not updated yet is not guessing); tokens argon2 refused are remembered too.
 */
export function createTokenGate(verifyHash: (hash: string, token: string) => Promise<boolean> = verifyArgon2) {
  let known: { hash: string; digest: Buffer } | undefined;
  let previous: { hash: string; digest: Buffer } | undefined;
  let refused: { hash: string; digests: Set<string> } = { hash: '', digests: new Set() };
  return {
    /**
     * Says whether `authorization` carries the token whose argon2id hash is `hash`: at once when the answer is
     * known, as a promise when argon2 must run (the first time a token is seen). `mayVerify` is asked just
     * before argon2 would run; when it says no, the token counts as not valid.
     */
    check(
      authorization: string | null,
      hash: string | null,
      mayVerify: () => boolean = () => true,
    ): Verdict | Promise<boolean> {
      if (hash === null || authorization === null) return false;
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      const token = match?.[1];
      if (token === undefined || !looksLikeToken(token)) return false; // cheap rejects first
      const digest = digestOf('sha256', token, 'buffer') as Buffer; // one-shot SHA-256: no Hash object per request
      if (known?.hash === hash) return timingSafeEqual(known.digest, digest);
      if (known) [previous, known] = [known, undefined]; // the hash changed: its token was replaced
      if (previous && previous.hash !== hash && timingSafeEqual(previous.digest, digest)) return 'replaced';
      if (refused.hash !== hash) refused = { hash, digests: new Set() };
      const key = digest.toString('base64');
      if (refused.digests.has(key) || !mayVerify()) return false;
      return Promise.resolve()
        .then(() => verifyHash(hash, token))
        .then(
          (ok) => {
            if (ok) known = { hash, digest };
            else if (refused.hash === hash) {
              if (refused.digests.size >= REFUSED_REMEMBERED) refused.digests.clear();
              refused.digests.add(key);
            }
            return ok;
          },
          () => false, // a damaged hash in the file locks the API, it does not crash it
        );
    },
  };
}
