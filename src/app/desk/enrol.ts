/**
 * Enrolment at the front desk (`/desk/enrol/<token>`): the person chooses a password, sets up their second factor
 * from the QR code or the URI, confirms one code, and gets ten recovery codes, shown once. Until the code is confirmed
 * they cannot log in, and the link keeps working (for its 24 hours) so that a step can be done again; once confirmed,
 * the link is used up.
 */
import { randomBytes } from 'node:crypto';
import {
  acceptedStep,
  otpauthUri,
  RECOVERY_CODES,
  recoveryCodeFrom,
  recoveryCodeHash,
  secretForTyping,
  TOTP_SECRET_BYTES,
} from '../../domain/second-factor.ts';
import { type PasswordProblem, passwordProblem } from '../../domain/staff.ts';
import { completeEnrolment, type EnrolmentRow, findEnrolment, setCredentials } from '../../store/staff.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { hashPassword } from './passwords.ts';
import { ENROL_TOKEN } from './staff.ts';

/** Where an enrolment stands: a password to choose, a code to confirm; or the link does not work (gone). */
export type EnrolmentState =
  | { step: 'password'; email: string; name: string }
  | { step: 'code'; email: string; name: string; uri: string; secret: string }
  | { step: 'gone' };

/** The second factor as the page shows it: the URI (for the QR code and password managers) and the secret typed. */
function secondFactorOf(ctx: AppContext, enrolment: EnrolmentRow & { totpSecret: Uint8Array }) {
  const issuer = `planner · ${requireConfigured(ctx).practiceName}`;
  return {
    uri: otpauthUri(enrolment.totpSecret, issuer, enrolment.email),
    secret: secretForTyping(enrolment.totpSecret),
  };
}

/** The enrolment of `token` while it works: made, not used, not expired, its person not removed. */
function openLink(ctx: AppContext, token: string): EnrolmentRow | undefined {
  if (!ENROL_TOKEN.test(token)) return undefined;
  const enrolment = findEnrolment(ctx.store, token);
  if (!enrolment || enrolment.usedAt !== null || enrolment.expiresAt <= unixSeconds(ctx.now())) return undefined;
  return enrolment;
}

/** Returns where the enrolment of `token` stands. */
export function enrolmentState(ctx: AppContext, token: string): EnrolmentState {
  const enrolment = openLink(ctx, token);
  if (!enrolment) return { step: 'gone' };
  const { email, name } = enrolment;
  if (enrolment.passwordHash === null || enrolment.totpSecret === null) return { step: 'password', email, name };
  return { step: 'code', email, name, ...secondFactorOf(ctx, { ...enrolment, totpSecret: enrolment.totpSecret }) };
}

/**
 * Keeps the password chosen with the link `token` (when the rule takes it: else its problem) and makes the second
 * factor's secret: a new one each time a password is chosen, so a secret seen before the person chose again is worth
 * nothing. Returns the next step, or `gone` when the link no longer works.
 */
export async function choosePassword(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<EnrolmentState | { step: 'password'; problem: PasswordProblem }> {
  const enrolment = openLink(ctx, token);
  if (!enrolment) return { step: 'gone' };
  const problem = passwordProblem(password, {
    email: enrolment.email,
    practiceName: requireConfigured(ctx).practiceName ?? '',
  });
  if (problem) return { step: 'password', problem };
  const hashed = await hashPassword(password); // off the event loop, before the write
  const secret = new Uint8Array(randomBytes(TOTP_SECRET_BYTES));
  ctx.store.tx(() => {
    if (openLink(ctx, token)) setCredentials(ctx.store, enrolment.staffId, hashed, secret);
  });
  return enrolmentState(ctx, token);
}

/**
 * Confirms the second factor with a code of it: the person is enrolled, the link used up, and their ten recovery
 * codes returned (to be shown once; only their hashes are kept). `wrong`: the code is not the app's code of now;
 * `gone`: the link no longer works, or no password was chosen yet.
 */
export function confirmCode(
  ctx: AppContext,
  token: string,
  code: string,
): { step: 'done'; recoveryCodes: string[] } | { step: 'wrong' } | { step: 'gone' } {
  return ctx.store.tx(() => {
    const enrolment = openLink(ctx, token);
    if (!enrolment || enrolment.totpSecret === null || enrolment.passwordHash === null)
      return { step: 'gone' as const };
    const now = ctx.now();
    const step = acceptedStep(enrolment.totpSecret, code, unixSeconds(now), null);
    if (step === undefined) return { step: 'wrong' as const };
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, () => recoveryCodeFrom(randomBytes(12)));
    completeEnrolment(
      ctx.store,
      { staffId: enrolment.staffId, token },
      step,
      recoveryCodes.map((recovery) => recoveryCodeHash(recovery)!),
      { iso: now.toISOString(), unix: unixSeconds(now) },
    );
    return { step: 'done' as const, recoveryCodes };
  });
}
