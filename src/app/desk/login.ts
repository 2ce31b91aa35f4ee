/**
 * Logging in at the front desk, in two steps, and the session that follows (OWASP's Authentication and Session
 * Management cheat sheets):
 * 1. the e-mail address and password: Argon2id off the event loop; an address that is no one's, a person not
 *    enrolled, a locked account and a wrong password all get the same answer, after the same hash's time;
 * 2. the code of their app, or one recovery code (each once): the session begins with a new identifier, never the
 *    one of step 1 (no fixation), and a form token of its own.
 * Five failures in a row (either step) lock the account for LOCK_MINUTES, doubling with each lockout up to a day; a
 * login that succeeds forgets them. The throttle of one client address is the door's (it never slows the API).
 */
import { randomBytes } from 'node:crypto';
import { acceptedStep, codeOf, recoveryCodeHash } from '../../domain/second-factor.ts';
import {
  deleteSession,
  insertSession,
  type LoginRow,
  loginRowOf,
  pendingLoginOf,
  pruneSessions,
  recordLoginFailure,
  recordLoginSuccess,
  sessionOf,
  touchSession,
  useRecoveryCode,
} from '../../store/staff.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { HashesBusy, passwordMatches } from './passwords.ts';
import { checkStaffEmail } from './staff.ts';

/** Failures in a row that lock an account, and the first lock's length (then 30, 60 … minutes, at most a day). */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
const LOCK_MAX_SECONDS = 24 * 3600;
/** How long the code may come after the password. */
export const CODE_WITHIN_SECONDS = 300;

/** How often a session's last request is written down. */
const SEEN_EVERY_SECONDS = 60;

const lockSeconds = (lockouts: number) => Math.min(LOCK_MINUTES * 60 * 2 ** lockouts, LOCK_MAX_SECONDS);
const newSecret = () => randomBytes(32).toString('base64url');

/** The address as stored, or undefined for text that is none (the login answers as for an unknown one). */
function addressOf(text: string): string | undefined {
  try {
    return checkStaffEmail(text);
  } catch {
    return undefined;
  }
}

/**
 * Step 1. Returns the identifier of a login awaiting its code (for the door's short-lived cookie), or undefined:
 * the one answer for every failure, after the time one hash takes.
 */
export async function checkPassword(ctx: AppContext, email: string, password: string): Promise<string | undefined> {
  requireConfigured(ctx);
  const address = addressOf(email);
  const person = address === undefined ? undefined : loginRowOf(ctx.store, address);
  let matches: boolean;
  try {
    matches = await passwordMatches(person?.passwordHash, password);
  } catch (error) {
    if (error instanceof HashesBusy) return undefined; // refused at once, counted against no one
    throw error;
  }
  if (!person) return undefined;
  const now = unixSeconds(ctx.now());
  return ctx.store.tx(() => {
    // Read again under the write lock: other logins may have locked the account (or a reset changed the password)
    // while this one waited for its hash.
    const current = loginRowOf(ctx.store, address!);
    if (!current || current.passwordHash !== person.passwordHash) return undefined;
    if (current.lockedUntil !== null && current.lockedUntil > now) return undefined; // not counted while locked
    if (!matches) {
      recordLoginFailure(ctx.store, person.id, now, LOCK_AFTER_FAILURES, lockSeconds);
      return undefined;
    }
    pruneSessions(ctx.store, person.id, now, requireConfigured(ctx).deskSessions, CODE_WITHIN_SECONDS);
    const pending = newSecret();
    insertSession(ctx.store, { id: pending, staffId: person.id, formToken: newSecret(), verified: false }, now);
    return pending;
  });
}

/** The step of `typed` as a TOTP code of `person`, or 'recovery' when it used up one of their recovery codes. */
function secondFactor(ctx: AppContext, person: LoginRow, typed: string, now: number): number | 'recovery' | undefined {
  if (codeOf(typed) !== undefined && person.totpSecret !== null)
    return acceptedStep(person.totpSecret, typed, now, person.totpLastStep);
  const hash = recoveryCodeHash(typed);
  return hash !== undefined && useRecoveryCode(ctx.store, person.id, hash, now) ? 'recovery' : undefined;
}

/**
 * Step 2. With the login `pending` (from step 1, within CODE_WITHIN_SECONDS) and a code of the person's app or one
 * of their recovery codes, begins the session: a new identifier and its form token. Undefined for every failure.
 * The pending login is used up either way.
 */
export function checkCode(
  ctx: AppContext,
  pending: string,
  typed: string,
): { session: string; formToken: string } | undefined {
  const now = unixSeconds(ctx.now());
  return ctx.store.tx(() => {
    const person = pendingLoginOf(ctx.store, pending, now - CODE_WITHIN_SECONDS);
    deleteSession(ctx.store, pending);
    if (!person || (person.lockedUntil !== null && person.lockedUntil > now)) return undefined;
    const matched = secondFactor(ctx, person, typed, now);
    if (matched === undefined) {
      recordLoginFailure(ctx.store, person.id, now, LOCK_AFTER_FAILURES, lockSeconds);
      return undefined;
    }
    recordLoginSuccess(ctx.store, person.id, matched === 'recovery' ? null : matched);
    const session = { session: newSecret(), formToken: newSecret() };
    insertSession(
      ctx.store,
      { id: session.session, staffId: person.id, formToken: session.formToken, verified: true },
      now,
    );
    return session;
  });
}

/**
 * The session of identifier `id` while it lasts (`desk set --idle/--max`), marked seen now (unless `seen` is false:
 * a page's own refresh, which is no one at the desk); undefined once it has ended (then it is deleted), was never
 * made, or its person was removed.
 */
export function openSession(
  ctx: AppContext,
  id: string,
  { seen = true }: { seen?: boolean } = {},
): { staffId: number; formToken: string } | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const { deskSessions } = requireConfigured(ctx);
  const now = unixSeconds(ctx.now());
  const session = sessionOf(ctx.store, id);
  if (!session) return undefined;
  if (
    now - session.seenAt >= deskSessions.idleMinutes * 60 ||
    now - session.createdAt >= deskSessions.maxMinutes * 60
  ) {
    deleteSession(ctx.store, id);
    return undefined;
  }
  // Marked seen at most once a minute: a page view is then a read, not a write (the idle end is to the minute).
  if (seen && now - session.seenAt >= SEEN_EVERY_SECONDS) touchSession(ctx.store, id, now);
  return { staffId: session.staffId, formToken: session.formToken };
}

/** Ends the session of `id` (logout). */
export function endSession(ctx: AppContext, id: string): void {
  deleteSession(ctx.store, id);
}
