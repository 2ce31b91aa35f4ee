import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, generateToken, tokenHash } from '../../src/app/practice/token.ts';
import { looksLikeToken } from '../../src/domain/token.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { createTokenGate } from '../../src/http/token-gate.ts';

describe('token gate', () => {
  it('compares a stored SHA-256 at once, in every request, and knows the replaced token after a rotation', () => {
    const token = generateToken();
    const verified: string[] = [];
    const gate = createTokenGate({
      verifyHash: async (h) => {
        verified.push(h);
        return false;
      },
    });
    // Booleans at once (no promise): nothing slow runs, not even for the first request.
    expect(gate.check(`Bearer ${generateToken()}`, tokenHash(token))).toBe(false);
    expect(gate.check(`Bearer ${token}`, tokenHash(token))).toBe(true);
    expect(gate.check(`Bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, tokenHash(token))).toBe(false);
    const next = generateToken();
    expect(gate.check(`Bearer ${token}`, tokenHash(next))).toBe('replaced');
    expect(gate.check(`Bearer ${next}`, tokenHash(next))).toBe(true);
    expect(gate.check(`Bearer ${generateToken()}`, tokenHash(next))).toBe(false);
    expect(verified).toEqual([]);
    // A damaged SHA-256 form (not 32 bytes) matches nothing.
    expect(gate.check(`Bearer ${token}`, `${tokenHash(token).slice(0, -2)}`)).not.toBe(true);
  });

  it('hashes the known token once: later requests compare its bytes; a rotation forgets them', () => {
    const token = generateToken();
    let digests = 0;
    const gate = createTokenGate({
      digest: (candidate) => {
        digests++;
        return createHash('sha256').update(candidate).digest();
      },
    });
    expect(gate.check(`Bearer ${token}`, tokenHash(token))).toBe(true);
    expect(digests).toBe(1);
    for (let i = 0; i < 100; i++) expect(gate.check(`Bearer ${token}`, tokenHash(token))).toBe(true);
    expect(digests).toBe(1);
    // Another token of the same shape differs in its bytes, then in its digest: refused.
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(gate.check(`Bearer ${other}`, tokenHash(token))).toBe(false);
    expect(digests).toBe(2);
    // Rotated: the old token's bytes no longer admit it (replaced); the new token is hashed once, then known.
    const next = generateToken();
    expect(gate.check(`Bearer ${token}`, tokenHash(next))).toBe('replaced');
    expect(gate.check(`Bearer ${next}`, tokenHash(next))).toBe(true);
    expect(gate.check(`Bearer ${next}`, tokenHash(next))).toBe(true);
    expect(gate.check(`Bearer ${token}`, tokenHash(next))).toBe('replaced');
    expect(digests).toBe(5);
  });

  it('runs argon2 for an older hash until the token is known, then compares SHA-256 digests; upgrades it once', async () => {
    const token = generateToken();
    const stored = await hash(token, ARGON2_OPTIONS);
    let verifies = 0;
    const upgrades: [string, string][] = [];
    const gate = createTokenGate({
      verifyHash: async (h, t) => {
        verifies++;
        return verify(h, t);
      },
      upgraded: (h, t) => upgrades.push([h, t]),
    });
    // Before the real token has been seen, a well-formed wrong one costs one argon2 verify.
    expect(await gate.check(`Bearer ${generateToken()}`, stored)).toBe(false);
    expect(verifies).toBe(1);
    for (let i = 0; i < 50; i++) expect(await gate.check(`Bearer ${token}`, stored)).toBe(true);
    expect(verifies).toBe(2);
    expect(upgrades).toEqual([[stored, token]]); // once, with the hash argon2 verified: the caller stores the new form
    // Once it has, a hash has exactly one token: any other digest is refused without argon2.
    expect(await gate.check(`Bearer ${generateToken()}`, stored)).toBe(false);
    expect(verifies).toBe(2);
    // Malformed tokens never reach argon2.
    for (const header of ['Bearer x', `Bearer ${token}!`, `Basic ${token}`, '', `Bearer abcd${token.slice(4)}`]) {
      expect(await gate.check(header, stored)).toBe(false);
    }
    expect(await gate.check(null, stored)).toBe(false);
    expect(await gate.check(`Bearer ${token}`, null)).toBe(false);
    expect(verifies).toBe(2);
    // Rotation: the old token against the new hash is recognised as replaced, without argon2.
    const rotated = await hash(generateToken(), ARGON2_OPTIONS);
    expect(gate.check(`Bearer ${token}`, rotated)).toBe('replaced');
    expect(verifies).toBe(2);
    // The upgrade stored: the same token against its SHA-256 form is valid at once.
    expect(gate.check(`Bearer ${token}`, tokenHash(token))).toBe(true);
    expect(verifies).toBe(2);
  });

  it('a damaged hash locks the API instead of crashing it', async () => {
    const gate = createTokenGate();
    expect(await gate.check(`Bearer ${generateToken()}`, 'not-a-phc-string')).toBe(false);
    expect(await gate.check(`Bearer ${generateToken()}`, '$argon2id$v=19$m=19456,t=2,p=1$broken')).toBe(false);
  });

  it('tokens are pln_ and 64 characters from [A-Za-z0-9], and differ', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) expect(looksLikeToken(token)).toBe(true);
    const characters = new Set([...tokens].flatMap((token) => [...token.slice(4)]));
    expect(characters.size).toBe(62); // every character of the alphabet shows up in 12,800 draws
  });
});

describe('rate limiter', () => {
  it('allows `limit` calls per window, then says how long to wait, and opens a new window after 60 s', () => {
    const limiter = createRateLimiter();
    const start = 1_000_000;
    expect(limiter.take('k', 2, start)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    expect(limiter.take('k', 2, start + 500)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 60 });
    expect(limiter.take('k', 2, start + 20_200)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 40 });
    expect(limiter.take('k', 2, start + 59_999)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(limiter.take('other', 2, start + 59_999).allowed).toBe(true);
    expect(limiter.take('k', 2, start + 60_000)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it('a lower limit applies within the current window', () => {
    const limiter = createRateLimiter();
    for (let i = 0; i < 5; i++) limiter.take('k', 300, 0);
    expect(limiter.take('k', 5, 1000).allowed).toBe(false);
    expect(limiter.take('k', 10, 1000)).toMatchObject({ allowed: true, remaining: 4 });
  });
});
