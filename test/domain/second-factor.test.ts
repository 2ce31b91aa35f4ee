import { describe, expect, it } from 'vitest';
import {
  acceptedStep,
  codeOf,
  otpauthUri,
  RECOVERY_CODES,
  recoveryCodeFrom,
  recoveryCodeHash,
  secretForTyping,
  TOTP_SETTINGS,
  totpCode,
  totpStep,
} from '../../src/domain/second-factor.ts';

const ascii = (text: string) => new TextEncoder().encode(text);

/** RFC 6238, Appendix B: the seeds, and the 8-digit codes at six times for each hash function. */
const SEEDS = {
  SHA1: ascii('12345678901234567890'),
  SHA256: ascii('12345678901234567890123456789012'),
  SHA512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
} as const;
const VECTORS: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('Appendix B at T = %i s: SHA-1 %s, SHA-256 %s, SHA-512 %s', (seconds, sha1, sha256, sha512) => {
    const at = (algorithm: keyof typeof SEEDS) =>
      totpCode(SEEDS[algorithm], seconds, { algorithm, digits: 8, period: 30 });
    expect([at('SHA1'), at('SHA256'), at('SHA512')]).toEqual([sha1, sha256, sha512]);
  });

  it('the apps’ code is the last six digits of the SHA-1 vector (RFC 4226’s truncation, modulo 10^6)', () => {
    for (const [seconds, sha1] of VECTORS) expect(totpCode(SEEDS.SHA1, seconds)).toBe(sha1.slice(2));
    expect(TOTP_SETTINGS).toEqual({ algorithm: 'SHA1', digits: 6, period: 30 });
  });

  it('accepts the code of now and of one step either side, and no further', () => {
    const now = 1_234_567_890;
    const codeAt = (offset: number) => totpCode(SEEDS.SHA1, now + offset * 30);
    expect(acceptedStep(SEEDS.SHA1, codeAt(0), now, null)).toBe(totpStep(now));
    expect(acceptedStep(SEEDS.SHA1, codeAt(-1), now, null)).toBe(totpStep(now) - 1);
    expect(acceptedStep(SEEDS.SHA1, codeAt(1), now, null)).toBe(totpStep(now) + 1);
    expect(acceptedStep(SEEDS.SHA1, codeAt(-2), now, null)).toBeUndefined();
    expect(acceptedStep(SEEDS.SHA1, codeAt(2), now, null)).toBeUndefined();
  });

  it('never accepts a code twice, nor one older than the last accepted (RFC 6238 §5.2)', () => {
    const now = 2_000_000_000;
    const code = totpCode(SEEDS.SHA1, now);
    const step = acceptedStep(SEEDS.SHA1, code, now, null)!;
    expect(acceptedStep(SEEDS.SHA1, code, now + 5, step)).toBeUndefined();
    expect(acceptedStep(SEEDS.SHA1, totpCode(SEEDS.SHA1, now - 30), now, step)).toBeUndefined();
    expect(acceptedStep(SEEDS.SHA1, totpCode(SEEDS.SHA1, now + 30), now + 30, step)).toBe(step + 1);
  });

  it('reads a code as apps show it, and refuses any other text', () => {
    expect(codeOf('123 456')).toBe('123456');
    expect(codeOf(' 123-456 ')).toBe('123456');
    for (const typed of ['12345', '1234567', '12345a', '１２３４５６', '', '123456\n1'])
      expect(codeOf(typed)).toBeUndefined();
    expect(acceptedStep(SEEDS.SHA1, 'abcdef', 59, null)).toBeUndefined();
  });

  it('gives the otpauth URI with issuer and account, and the secret in base32 for typing', () => {
    const uri = new URL(otpauthUri(SEEDS.SHA1, 'Praxis Müller', 'anna@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Praxis Müller:anna@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Praxis Müller',
      secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(secretForTyping(SEEDS.SHA1)).toBe('GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ');
  });
});

describe('recovery codes', () => {
  it('are three groups of four letters without look-alikes, 60 bits each', () => {
    const code = recoveryCodeFrom(Uint8Array.from({ length: 12 }, (_, i) => i * 21));
    expect(code).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
    expect(RECOVERY_CODES).toBe(10);
    expect(() => recoveryCodeFrom(new Uint8Array(11))).toThrow();
  });

  it('hash the same however they are typed, and refuse text of another shape', () => {
    const code = recoveryCodeFrom(Uint8Array.from({ length: 12 }, (_, i) => 200 - i * 7));
    const hash = recoveryCodeHash(code)!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeHash(code.toUpperCase())).toBe(hash);
    expect(recoveryCodeHash(code.replaceAll('-', ' '))).toBe(hash);
    expect(recoveryCodeHash(code.replaceAll('-', ''))).toBe(hash);
    for (const typed of ['', 'abcd-efgh-ijk', 'abcd-efgh-ijkl0', 'abcd-efgh-ijk1', '0000-0000-0000'])
      expect(recoveryCodeHash(typed), typed).toBeUndefined();
  });
});
