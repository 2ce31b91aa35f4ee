/**
 * Staff passwords: Argon2id at OWASP's settings (`ARGON2_OPTIONS`, as the API token), hashed and verified by
 * @node-rs/argon2's asynchronous calls, which run on libuv's thread pool: a login never holds the event loop, so the
 * booking API and the pages go on while it is checked. A login for an address that is no one's is checked against a
 * hash made once of a random password, so it takes the time a real one takes (OWASP's Authentication Cheat Sheet:
 * "the application should respond with a generic error message regardless of whether the user ID or password was
 * incorrect", and in the same time).
 */
import { randomBytes } from 'node:crypto';
import { ARGON2_OPTIONS, loadArgon2 } from '../practice/token.ts';

/** Returns the Argon2id hash (PHC string) of `password`. */
export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, ARGON2_OPTIONS);
}

let standIn: Promise<string> | undefined;

/**
 * Returns whether `password` is the one `hashed` was made of; with `hashed` undefined (no such person, or not
 * enrolled) it verifies against a stand-in hash all the same and returns false, in the same time.
 */
export async function passwordMatches(hashed: string | null | undefined, password: string): Promise<boolean> {
  const argon2 = await loadArgon2();
  standIn ??= hashPassword(randomBytes(24).toString('base64url'));
  const against = hashed ?? (await standIn);
  try {
    const matches = await argon2.verify(against, password);
    return matches && hashed !== undefined && hashed !== null;
  } catch {
    return false; // a hash of another shape never matches
  }
}
