/**
 * Enrolment at the front desk, in process on a clock the test holds: a password by the rule, the second factor from
 * its URI, one code confirmed (computed here as an authenticator app computes it), ten recovery codes once; the link
 * used up, expired after 24 hours, replaced by a reset.
 */
import { readFileSync } from 'node:fs';
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { enableDesk } from '../../src/app/desk/desk.ts';
import { choosePassword, confirmCode, enrolmentState } from '../../src/app/desk/enrol.ts';
import { addStaff, resetStaff } from '../../src/app/desk/staff.ts';
import { totpCode } from '../../src/domain/second-factor.ts';
import { practice } from '../practice.ts';

function deskPractice() {
  const p = practice();
  enableDesk(p.ctx, 'http://127.0.0.1:3000');
  const { enrolUrl } = addStaff(p.ctx, { email: 'anna@praxis.example', name: 'Anna Berg', role: 'reception' });
  return { ...p, token: enrolUrl.split('/').at(-1)! };
}

/** The code an authenticator app shows now for the URI the page gave. */
function appCode(uri: string, at: Date): string {
  const secret = Secret.fromBase32(new URL(uri).searchParams.get('secret')!).bytes;
  return totpCode(secret, Math.floor(at.getTime() / 1000));
}

describe('enrolment at the desk', () => {
  it('password by the rule, then the second factor, one code, ten recovery codes shown once; then the link is used up', async () => {
    const p = deskPractice();
    expect(enrolmentState(p.ctx, p.token)).toEqual({
      step: 'password',
      email: 'anna@praxis.example',
      name: 'Anna Berg',
    });
    expect(await choosePassword(p.ctx, p.token, 'short')).toEqual({ step: 'password', problem: 'short' });
    expect(await choosePassword(p.ctx, p.token, 'anna@praxis.example!')).toEqual({
      step: 'password',
      problem: 'email',
    });
    const chosen = await choosePassword(p.ctx, p.token, 'correct horse battery');
    expect(chosen).toMatchObject({ step: 'code', email: 'anna@praxis.example' });
    if (chosen.step !== 'code') throw new Error('no code step');
    expect(chosen.uri).toMatch(/^otpauth:\/\/totp\/.+:anna%40praxis\.example\?/);
    expect(chosen.secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    const near = [-30, 0, 30].map((seconds) => appCode(chosen.uri, new Date(p.clock.now.getTime() + seconds * 1000)));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
    expect(confirmCode(p.ctx, p.token, wrong)).toEqual({ step: 'wrong' });
    expect(enrolmentState(p.ctx, p.token).step).toBe('code');
    const done = confirmCode(p.ctx, p.token, appCode(chosen.uri, p.clock.now));
    expect(done.step).toBe('done');
    if (done.step !== 'done') throw new Error('not done');
    expect(done.recoveryCodes).toHaveLength(10);
    expect(new Set(done.recoveryCodes).size).toBe(10);
    for (const recovery of done.recoveryCodes)
      expect(recovery).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
    // Used up: the page says the link is gone, and neither step works again.
    expect(enrolmentState(p.ctx, p.token)).toEqual({ step: 'gone' });
    expect(await choosePassword(p.ctx, p.token, 'another long password')).toEqual({ step: 'gone' });
    expect(confirmCode(p.ctx, p.token, appCode(chosen.uri, p.clock.now))).toEqual({ step: 'gone' });
    // Kept: the password's Argon2id hash, the first code's step, the recovery codes' hashes; no code in the clear.
    const row = p.store.db.prepare('SELECT password_hash, enrolled_at, totp_last_step FROM staff').get() as Record<
      string,
      unknown
    >;
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.enrolled_at).toBe(p.clock.now.toISOString());
    expect(row.totp_last_step).toBe(Math.floor(p.clock.now.getTime() / 30_000));
    expect(p.store.db.prepare('SELECT count(*) AS n FROM staff_recovery_codes').get()).toEqual({ n: 10 });
    const bytes = readFileSync(p.file).toString('latin1') + readFileSync(`${p.file}-wal`).toString('latin1');
    for (const recovery of done.recoveryCodes) expect(bytes).not.toContain(recovery.replaceAll('-', ''));
    expect(bytes).not.toContain('correct horse battery');
  });

  it('a link works for 24 hours, up to the second before', async () => {
    const p = deskPractice();
    const made = p.clock.now.getTime();
    p.clock.now = new Date(made + 24 * 3600_000 - 1000);
    expect(enrolmentState(p.ctx, p.token).step).toBe('password');
    p.clock.now = new Date(made + 24 * 3600_000);
    expect(enrolmentState(p.ctx, p.token)).toEqual({ step: 'gone' });
    expect(await choosePassword(p.ctx, p.token, 'correct horse battery')).toEqual({ step: 'gone' });
  });

  it('choosing the password again makes a new secret (the old one’s code is refused); a reset ends the old link', async () => {
    const p = deskPractice();
    const first = await choosePassword(p.ctx, p.token, 'correct horse battery');
    const second = await choosePassword(p.ctx, p.token, 'correct horse battery staple');
    if (first.step !== 'code' || second.step !== 'code') throw new Error('no code step');
    expect(second.secret).not.toBe(first.secret);
    const oldCode = appCode(first.uri, p.clock.now);
    if (oldCode !== appCode(second.uri, p.clock.now))
      expect(confirmCode(p.ctx, p.token, oldCode)).toEqual({ step: 'wrong' });
    const { enrolUrl } = resetStaff(p.ctx, 'anna@praxis.example');
    expect(enrolmentState(p.ctx, p.token)).toEqual({ step: 'gone' });
    expect(enrolmentState(p.ctx, enrolUrl.split('/').at(-1)!).step).toBe('password');
  });

  it('a token of another shape, or one never made, is gone', () => {
    const p = deskPractice();
    for (const token of ['', 'x', `${p.token}x`, 'A'.repeat(43), '../../etc/passwd'])
      expect(enrolmentState(p.ctx, token)).toEqual({ step: 'gone' });
  });
});
