import { randomInt } from 'node:crypto';
import { TOKEN_BODY_LENGTH, TOKEN_PREFIX } from '../../domain/token.ts';
import { AppError } from '../../errors.ts';
import { setTokenHash } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from './configured.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** argon2id at the OWASP recommendation (19 MiB, 2 passes, 1 lane). Default algorithm of @node-rs/argon2 is argon2id. */
export const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Returns the argon2 module, loaded on first use. The single executable unpacks this native addon to
 * ~/.cache/pkg, or to PKG_NATIVE_CACHE_PATH when that is set at start: a service without a writable home needs it.
 */
export async function loadArgon2(): Promise<typeof import('@node-rs/argon2')> {
  try {
    return await import('@node-rs/argon2');
  } catch (error) {
    throw new AppError(
      'storage',
      `cannot load the argon2 module (${(error as Error).message.split('.')[0]}); for the single executable, start it with PKG_NATIVE_CACHE_PATH set to a folder it can write (the systemd unit does)`,
    );
  }
}

/** Returns a new token: the prefix and 64 characters drawn uniformly from [A-Za-z0-9] by a CSPRNG. */
export function generateToken(): string {
  let body = '';
  for (let i = 0; i < TOKEN_BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return TOKEN_PREFIX + body;
}

/**
 * Creates the installation's one token and returns it; only its argon2id hash is stored.
 * The previous token stops working at once (a running server sees the new hash at its next request).
 */
export async function rotateToken(ctx: AppContext): Promise<string> {
  requireConfigured(ctx);
  const token = generateToken();
  const { hash } = await loadArgon2();
  const hashed = await hash(token, ARGON2_OPTIONS);
  setTokenHash(ctx.store, hashed, ctx.now().toISOString());
  return token;
}
