/**
 * Staff passwords: Argon2id at OWASP's settings (`ARGON2_OPTIONS`, as the API token), hashed and verified by
 * @node-rs/argon2's asynchronous calls, which run on libuv's thread pool: a login never holds the event loop, so the
 * booking API and the pages go on while it is checked. A login for an address that is no one's is checked against a
 * hash made once of a random password, so it takes the time a real one takes (OWASP's Authentication Cheat Sheet:
 * "the application should respond with a generic error message regardless of whether the user ID or password was
 * incorrect", and in the same time).
 *
 * One hash at a time (`HASH_LANES`), at most HASHES_PER_SECOND, the others waiting in order, at most HASH_QUEUE_MAX of
 * them: a flood of logins from many addresses (each address is throttled by the door) then takes a third of one core
 * at most (a hash takes about 30 ms), and the booking API and the pages keep the rest (the benchmark's GET /slots
 * beside a flood); beyond the queue a login fails at once (`HashesBusy`) instead of holding memory and time. A
 * practice's desk logs in a few times an hour.
 */
import { randomBytes } from 'node:crypto';
import { ARGON2_OPTIONS, loadArgon2 } from '../practice/token.ts';

/** Hashes at once, and logins that may wait for one. */
export const HASH_LANES = 1;
export const HASH_QUEUE_MAX = 64;
export const HASHES_PER_SECOND = 10;

/** Thrown when HASH_QUEUE_MAX logins wait already: this one is refused at once, as a failure that counts against no one. */
export class HashesBusy extends Error {
  constructor() {
    super('too many logins at once: try again in a moment');
  }
}

let running = 0;
const waiting: (() => void)[] = [];
/** When the next hash may start (ms, the process's clock). */
let nextStart = 0;

/** Runs `work` (one hash) in its turn: at most HASH_LANES at once, the rest in order. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_LANES) {
    if (waiting.length >= HASH_QUEUE_MAX) throw new HashesBusy();
    await new Promise<void>((resolve) => waiting.push(resolve)); // the lane is handed over, already counted
  } else running++;
  try {
    const wait = nextStart - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    nextStart = performance.now() + 1000 / HASHES_PER_SECOND;
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Returns the Argon2id hash (PHC string) of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const argon2 = await loadArgon2();
  return inTurn(() => argon2.hash(password, ARGON2_OPTIONS));
}

let standIn: Promise<string> | undefined;

/**
 * Returns whether `password` is the one `hashed` was made of; with `hashed` undefined (no such person, or not
 * enrolled) it verifies against a stand-in hash all the same and returns false, in the same time.
 */
export async function passwordMatches(hashed: string | null | undefined, password: string): Promise<boolean> {
  const argon2 = await loadArgon2();
  standIn ??= argon2.hash(randomBytes(24).toString('base64url'), ARGON2_OPTIONS);
  const against = hashed ?? (await standIn);
  const matches = await inTurn(() => argon2.verify(against, password).catch(() => false)); // another shape: no match
  return matches && hashed !== undefined && hashed !== null;
}
