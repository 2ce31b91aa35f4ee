import { timingSafeEqual } from 'node:crypto';
import { storedDigest, tokenDigest, tokenMatches } from '../app/practice/token.ts';
import { looksLikeToken, TOKEN_LENGTH } from '../domain/token.ts';

/** Tokens refused by argon2 that are remembered (per hash), so a client that keeps sending one costs no argon2. */
const REFUSED_REMEMBERED = 1000;

/** What the gate says of a token: valid, not valid, or the token that was valid until it was replaced. */
export type Verdict = boolean | 'replaced';

/**
 * Checks bearer tokens against the stored hash (app/practice/token.ts) without hashing more than one SHA-256 a
 * request, and none for the known token: once a request has shown the token whose digest the hash holds, the gate
 * keeps its bytes (the request's own buffers held them anyway) and compares the next ones to them in constant time
 * (a SHA-256 was 2 µs, 7 % of the server's time in GET /schedules: docs/performance.md, issue 49). A `sha256:` hash
 * is compared at once, in constant time. An argon2id hash from an older installation costs one argon2 run, the first
 * time its token is seen: the gate then remembers the token's digest for that hash, and `upgraded` is called to
 * store the new form (a rotation meanwhile wins). A hash has exactly one token, so once it is known any other token
 * is refused without argon2. When the hash changes (token rotated), the old digest is kept to recognise the replaced
 * token (a client not updated yet is not guessing), not its bytes; tokens argon2 refused are remembered too.
 */
export function createTokenGate(
  options: {
    verifyHash?: (hash: string, token: string) => Promise<boolean>;
    upgraded?: (hash: string, token: string) => void;
    /** The token's SHA-256 (tests count the calls). */
    digest?: (token: string) => Buffer;
  } = {},
) {
  const { verifyHash = tokenMatches, upgraded, digest: digestOfToken = tokenDigest } = options;
  let known: { hash: string; digest: Buffer; bytes?: Buffer } | undefined;
  let previous: { hash: string; digest: Buffer } | undefined;
  // Where a request's token is copied to be compared with the known one's bytes (no allocation per request).
  const scratch = Buffer.alloc(TOKEN_LENGTH);
  /** True when `token` (well-formed: TOKEN_LENGTH ASCII characters) is the known token, compared in constant time. */
  const isKnownToken = (token: string) => {
    if (!known?.bytes) return false;
    scratch.write(token, 0, TOKEN_LENGTH, 'latin1');
    return timingSafeEqual(scratch, known.bytes);
  };
  let refused: { hash: string; digests: Set<string> } = { hash: '', digests: new Set() };
  /** Follows the stored hash: a new one makes the known token the previous one; a `sha256:` one is known at once. */
  const follow = (hash: string) => {
    if (known?.hash === hash) return;
    // The hash changed: its token was replaced. Its digest is kept to recognise it, its bytes are not.
    if (known) [previous, known] = [{ hash: known.hash, digest: known.digest }, undefined];
    const stored = storedDigest(hash);
    if (stored) known = { hash, digest: stored };
  };
  const wasReplaced = (hash: string, digest: Buffer) =>
    previous !== undefined && previous.hash !== hash && timingSafeEqual(previous.digest, digest);
  /** Keeps what argon2 said of a token: the hash's token (and stores the new form), or one more refused. */
  const learn = (verified: boolean, hash: string, token: string, digest: Buffer, key: string) => {
    if (verified) {
      known = { hash, digest, bytes: Buffer.from(token, 'latin1') };
      upgraded?.(hash, token);
    } else if (refused.hash === hash) {
      if (refused.digests.size >= REFUSED_REMEMBERED) refused.digests.clear();
      refused.digests.add(key);
    }
    return verified;
  };
  /**
   * The token of `authorization` when it is well formed (a bearer token of the right length and alphabet) and there
   * is a `hash` to compare it with, which the gate then follows; undefined otherwise (cheap rejects first).
   */
  const tokenFor = (authorization: string | null, hash: string | null) => {
    if (hash === null || authorization === null) return undefined;
    const token = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
    if (token === undefined || !looksLikeToken(token)) return undefined;
    follow(hash);
    return token;
  };
  return {
    /**
     * True when `authorization` carries the known token of `hash` (its bytes kept: the answer needs no digest and no
     * argon2); false says nothing more than "not at once": `check` then decides.
     */
    knows(authorization: string | null, hash: string | null): boolean {
      const token = tokenFor(authorization, hash);
      return token !== undefined && isKnownToken(token);
    },
    /**
     * Says whether `authorization` carries the token whose hash is `hash`: at once when the answer is known, as a
     * promise when argon2 must run (an older installation's hash, the first time a token is seen). `mayVerify` is
     * asked just before argon2 would run; when it says no, the token counts as not valid.
     */
    check(
      authorization: string | null,
      hash: string | null,
      mayVerify: () => boolean = () => true,
    ): Verdict | Promise<boolean> {
      const token = tokenFor(authorization, hash);
      if (token === undefined || hash === null) return false;
      if (isKnownToken(token)) return true;
      const digest = digestOfToken(token);
      if (known) {
        if (!timingSafeEqual(known.digest, digest)) return wasReplaced(hash, digest) && 'replaced';
        known.bytes = Buffer.from(token, 'latin1');
        return true;
      }
      if (wasReplaced(hash, digest)) return 'replaced';
      if (refused.hash !== hash) refused = { hash, digests: new Set() };
      const key = digest.toString('base64');
      if (refused.digests.has(key) || !mayVerify()) return false;
      return Promise.resolve()
        .then(() => verifyHash(hash, token))
        .then(
          (verified) => learn(verified, hash, token, digest, key),
          () => false, // a damaged hash in the file locks the API, it does not crash it
        );
    },
  };
}
