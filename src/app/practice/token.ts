import { hash as digestOf, randomInt, timingSafeEqual } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isSea } from 'node:sea';
import { TOKEN_BODY_LENGTH, TOKEN_PREFIX } from '../../domain/token.ts';
import { AppError } from '../../errors.ts';
import { setTokenHash, upgradeTokenHash } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from './configured.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** argon2id at the OWASP recommendation (19 MiB, 2 passes, 1 lane). Default algorithm of @node-rs/argon2 is argon2id. */
export const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Why the argon2 module cannot load, in one line that says what to do. */
function argon2Problem(why: string): AppError {
  return new AppError(
    'storage',
    `cannot load the argon2 module (${why}); for the single executable, start it with PKG_NATIVE_CACHE_PATH set to a folder it can write (the systemd unit does)`,
  );
}

/**
 * Returns the argon2 module, loaded on first use. The single executable unpacks this native addon to
 * ~/.cache/pkg, or to PKG_NATIVE_CACHE_PATH when that is set at start (scripts/sea-main.cjs): a service without a
 * writable home needs it.
 */
export async function loadArgon2(): Promise<typeof import('@node-rs/argon2')> {
  try {
    return await import('@node-rs/argon2');
  } catch (error) {
    throw argon2Problem((error as Error).message.split('.')[0]!);
  }
}

/**
 * What `planner serve` checks at start about argon2, which only staff passwords (the front desk's sign-in) and an
 * API token stored before issue 49 need: loaded, the addon holds 3 MiB of an idle server's anonymous memory (issue
 * 49), so it loads at its first use, once. What would keep it from loading then, the single executable's folder to
 * unpack it to (PKG_NATIVE_CACHE_PATH, else ~/.cache, as scripts/sea-main.cjs picks it) not writable, stops the
 * start instead, in the same words. Throws that error; does nothing outside the single executable.
 */
export function checkArgon2Folder(): void {
  if (!isSea()) return;
  const folder = join(process.env.PKG_NATIVE_CACHE_PATH || join(homedir(), '.cache'), 'pkg');
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw argon2Problem(`${folder} cannot be written: ${(error as NodeJS.ErrnoException).code}`);
  }
}

/** Returns a new token: the prefix and 64 characters drawn uniformly from [A-Za-z0-9] by a CSPRNG. */
export function generateToken(): string {
  let body = '';
  for (let i = 0; i < TOKEN_BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return TOKEN_PREFIX + body;
}

/**
 * How a token is stored: `sha256:` and the base64url SHA-256 digest of the token (issue 49). A token is 64
 * characters drawn by a CSPRNG from 62 (381 bits): no list of guesses reaches it, so a memory-hard hash adds nothing
 * to what a stolen file gives away. NIST SP 800-63B (§5.1.2.2, look-up secrets) asks for a salted key derivation
 * function only below 112 bits of entropy; above, an approved one-way function. What argon2 cost instead was one
 * run of 19 MiB in every server's first request: fifty practices started together spent their first minute on it.
 * Installations from before keep an argon2id hash (`$argon2id$…`) until the server first sees the token, which then
 * stores this form in its place (`upgradeToken`).
 */
export const TOKEN_HASH_PREFIX = 'sha256:';

/** Returns the stored form of `token` (see TOKEN_HASH_PREFIX). */
export function tokenHash(token: string): string {
  return TOKEN_HASH_PREFIX + digestOf('sha256', token, 'base64url');
}

/** Returns the SHA-256 digest of `token`, as a stored `sha256:` hash holds it (one-shot: no Hash object made). */
export function tokenDigest(token: string): Buffer {
  return digestOf('sha256', token, 'buffer') as Buffer;
}

/** Returns the digest a stored `sha256:` hash holds, or undefined for an argon2id hash (or a damaged one). */
export function storedDigest(stored: string): Buffer | undefined {
  if (!stored.startsWith(TOKEN_HASH_PREFIX)) return undefined;
  const digest = Buffer.from(stored.slice(TOKEN_HASH_PREFIX.length), 'base64url');
  return digest.length === 32 ? digest : undefined;
}

/** Says whether `token` is the one whose stored hash is `stored`: either form, in constant time for the new one. */
export async function tokenMatches(stored: string, token: string): Promise<boolean> {
  const digest = storedDigest(stored);
  if (digest) return timingSafeEqual(digest, tokenDigest(token));
  if (!stored.startsWith('$argon2')) return false;
  return (await loadArgon2()).verify(stored, token).catch(() => false); // another shape: no match
}

/**
 * Stores `token`'s hash in its present form in place of `from`, an older form argon2 has just verified (the gate
 * calls it once); a rotation in between wins. Returns true when it was replaced.
 */
export function upgradeToken(ctx: AppContext, from: string, token: string): boolean {
  return upgradeTokenHash(ctx.store, from, tokenHash(token));
}

/**
 * Creates the installation's one token and returns it; only its hash is stored (TOKEN_HASH_PREFIX).
 * The previous token stops working at once (a running server sees the new hash at its next request).
 */
export function rotateToken(ctx: AppContext): string {
  requireConfigured(ctx);
  const token = generateToken();
  setTokenHash(ctx.store, tokenHash(token), ctx.now().toISOString());
  return token;
}
