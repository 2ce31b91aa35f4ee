/**
 * The front desk's second factor: time-based one-time codes (TOTP, RFC 6238) as every authenticator app makes them
 * (HMAC-SHA-1, 6 digits, 30-second steps), and the recovery codes that stand in for a lost phone. Pure: the secret
 * and the codes are made from random bytes by the caller (app/staff/), and the time is given.
 *
 * The HMAC and the dynamic truncation are otpauth's (a well-kept library, over @noble/hashes), checked against RFC
 * 6238's Appendix B in test/domain/second-factor.test.ts. What is ours: which steps are accepted (the one of `now` and
 * one either side, RFC 6238 §5.2's "one time step" of network delay and clock drift), that a step once used is never
 * accepted again (§5.2: "the verifier MUST NOT accept the second attempt of the OTP after the successful validation
 * has been issued for the first OTP"), and that codes are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as the apps default to it (Google Authenticator ignores other values). */
export const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** A secret's length: 20 bytes, the HMAC-SHA-1 output size RFC 4226 §4 recommends (160 bits). */
export const TOTP_SECRET_BYTES = 20;
/** How many steps either side of now a code may be from. */
const DRIFT_STEPS = 1;

/** The settings a code is computed with: RFC 6238's test vectors use 8 digits and three hash functions. */
export interface TotpSettings {
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
}

/** Returns the code of `secret` at `unixSeconds`. */
export function totpCode(secret: Uint8Array, unixSeconds: number, settings: TotpSettings = TOTP_SETTINGS): string {
  return TOTP.generate({
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    ...settings,
    timestamp: unixSeconds * 1000,
  });
}

/** Returns the time step `unixSeconds` falls in (RFC 6238 §4.2: T = floor((now − T0) / X), T0 = 0). */
export function totpStep(unixSeconds: number): number {
  return Math.floor(unixSeconds / TOTP_SETTINGS.period);
}

/** Returns `typed` as a code: its digits, with the spaces and hyphens an app shows between them removed. */
export function codeOf(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Returns the step the code `typed` belongs to, when it is the code of `secret` at now's step or one either side, and
 * that step is after `lastStep` (the step of the last code accepted: a code, or an earlier one, is never accepted
 * twice); else undefined. Every candidate step is computed and compared, so the time taken does not say which matched.
 */
export function acceptedStep(
  secret: Uint8Array,
  typed: string,
  unixSeconds: number,
  lastStep: number | null,
): number | undefined {
  const code = codeOf(typed) ?? '';
  const now = totpStep(unixSeconds);
  let accepted: number | undefined;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const matches = sameText(totpCode(secret, step * TOTP_SETTINGS.period), code);
    if (matches && accepted === undefined && (lastStep === null || step > lastStep)) accepted = step;
  }
  return accepted;
}

/**
 * Returns the `otpauth://totp/…` URI of Google's Key Uri Format that an authenticator app or a password manager reads
 * (from the QR code or pasted): `issuer:account` as the label, the issuer again as a parameter, the secret in base32
 * without padding.
 */
export function otpauthUri(secret: Uint8Array, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    ...TOTP_SETTINGS,
  }).toString();
}

/** The secret in base32, as an app asks for it when it is typed in by hand (groups of four for reading). */
export function secretForTyping(secret: Uint8Array): string {
  return (new Secret({ buffer: Uint8Array.from(secret).buffer }).base32.match(/.{1,4}/g) ?? []).join(' ');
}

/** How many recovery codes a person gets, each usable once. */
export const RECOVERY_CODES = 10;
/** The letters of a recovery code: lower case and digits without the look-alikes 0, 1, l, o. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** Characters of a code: 12 of 32 letters, 60 bits, as three groups of four. */
const RECOVERY_LENGTH = 12;

/** Returns a recovery code written out from 12 random bytes (`xxxx-xxxx-xxxx`). */
export function recoveryCodeFrom(random: Uint8Array): string {
  if (random.length < RECOVERY_LENGTH) throw new Error(`a recovery code needs ${RECOVERY_LENGTH} random bytes`);
  const letters = Array.from(random.subarray(0, RECOVERY_LENGTH), (byte) => RECOVERY_ALPHABET[byte % 32]!).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8)}`;
}

/**
 * Returns what is stored of a recovery code as typed (upper or lower case, with or without hyphens and spaces): its
 * SHA-256. A code holds 60 random bits, so a fast hash suffices (as for the API token); undefined for text that is no
 * code's shape.
 */
export function recoveryCodeHash(typed: string): string | undefined {
  const letters = typed.toLowerCase().replace(/[\s-]/g, '');
  if (letters.length !== RECOVERY_LENGTH || [...letters].some((letter) => !RECOVERY_ALPHABET.includes(letter)))
    return undefined;
  return createHash('sha256').update(letters).digest('hex');
}
