/**
 * Logging in at the desk, in process on a clock the test holds: the password (the same answer and about the same time
 * for every failure), the code or a recovery code (each once), a new session identifier, the lockout, and the
 * session's idle and absolute ends.
 */
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { enableDesk, setDesk } from '../../src/app/desk/desk.ts';
import { choosePassword, confirmCode } from '../../src/app/desk/enrol.ts';
import { checkCode, checkPassword, endSession, openSession } from '../../src/app/desk/login.ts';
import { addStaff, removeStaff } from '../../src/app/desk/staff.ts';
import { totpCode } from '../../src/domain/second-factor.ts';
import { practice } from '../practice.ts';

const PASSWORD = 'correct horse battery';
const EMAIL = 'anna@praxis.example';

async function enrolled() {
  const p = practice();
  enableDesk(p.ctx, 'http://127.0.0.1:3000');
  const token = addStaff(p.ctx, { email: EMAIL, name: 'Anna Berg', role: 'reception' }).enrolUrl.split('/').at(-1)!;
  addStaff(p.ctx, { email: 'late@praxis.example', name: 'Not Enrolled', role: 'reception' });
  const chosen = await choosePassword(p.ctx, token, PASSWORD);
  if (chosen.step !== 'code') throw new Error('no code step');
  const secret = Secret.fromBase32(new URL(chosen.uri).searchParams.get('secret')!).bytes;
  const code = () => totpCode(secret, Math.floor(p.clock.now.getTime() / 1000));
  const done = confirmCode(p.ctx, token, code());
  if (done.step !== 'done') throw new Error('not enrolled');
  const later = (seconds: number) => {
    p.clock.now = new Date(p.clock.now.getTime() + seconds * 1000);
  };
  later(30); // the enrolment's code is used: the next one is a new step
  return { ...p, code, recovery: done.recoveryCodes, later };
}

describe('login at the desk', () => {
  it('password, then code: a session with a new identifier and its form token; the pending login is used up', async () => {
    const p = await enrolled();
    const pending = await checkPassword(p.ctx, 'Anna@Praxis.example', PASSWORD);
    expect(pending).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(openSession(p.ctx, pending!)).toBeUndefined(); // a password alone opens nothing
    const session = checkCode(p.ctx, pending!, p.code());
    expect(session).toEqual({ session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), formToken: expect.any(String) });
    expect(session!.session).not.toBe(pending);
    expect(openSession(p.ctx, session!.session)).toEqual({ staffId: 1, formToken: session!.formToken });
    expect(checkCode(p.ctx, pending!, p.code())).toBeUndefined();
    endSession(p.ctx, session!.session);
    expect(openSession(p.ctx, session!.session)).toBeUndefined();
  });

  it('the same answer for an unknown address, one not enrolled, text that is no address, and a wrong password; each after a hash', async () => {
    const p = await enrolled();
    const timed = async (email: string, password: string) => {
      const started = process.cpuUsage();
      const wall = performance.now();
      const answer = await checkPassword(p.ctx, email, password);
      return { answer, ms: performance.now() - wall, cpu: process.cpuUsage(started) };
    };
    await timed(EMAIL, 'warm the stand-in hash');
    const runs = { unknown: [] as number[], wrong: [] as number[] };
    for (let i = 0; i < 5; i++) {
      for (const [kind, email, password] of [
        ['unknown', 'nobody@praxis.example', PASSWORD],
        ['wrong', 'late@praxis.example', PASSWORD],
      ] as const) {
        const run = await timed(email, password);
        expect(run.answer, kind).toBeUndefined();
        runs[kind].push(run.ms);
      }
    }
    expect(await checkPassword(p.ctx, 'not an address', PASSWORD)).toBeUndefined();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    // Every path hashes (Argon2id takes milliseconds); a path that skipped it would answer in microseconds.
    expect(median(runs.unknown) / median(runs.wrong)).toBeGreaterThan(0.3);
    expect(median(runs.unknown) / median(runs.wrong)).toBeLessThan(3);
    expect(median(runs.unknown)).toBeGreaterThan(2);
  });

  it('a code is never accepted twice; a recovery code works once', async () => {
    const p = await enrolled();
    const first = await checkPassword(p.ctx, EMAIL, PASSWORD);
    const code = p.code();
    expect(checkCode(p.ctx, first!, code)).toBeDefined();
    const again = await checkPassword(p.ctx, EMAIL, PASSWORD);
    expect(checkCode(p.ctx, again!, code)).toBeUndefined();
    const withRecovery = await checkPassword(p.ctx, EMAIL, PASSWORD);
    expect(checkCode(p.ctx, withRecovery!, p.recovery[3]!.toUpperCase())).toBeDefined();
    const twice = await checkPassword(p.ctx, EMAIL, PASSWORD);
    expect(checkCode(p.ctx, twice!, p.recovery[3]!)).toBeUndefined();
  });

  it('five failures lock the account for 15 minutes (then 30), the right password refused meanwhile; wrong codes count too', async () => {
    const p = await enrolled();
    for (let i = 0; i < 5; i++) expect(await checkPassword(p.ctx, EMAIL, `wrong password ${i}`)).toBeUndefined();
    expect(await checkPassword(p.ctx, EMAIL, PASSWORD)).toBeUndefined();
    p.later(15 * 60 - 1);
    expect(await checkPassword(p.ctx, EMAIL, PASSWORD)).toBeUndefined();
    p.later(1);
    // Unlocked; now five wrong codes, each after a right password, lock it again, for 30 minutes.
    for (let i = 0; i < 5; i++) {
      const pending = await checkPassword(p.ctx, EMAIL, PASSWORD);
      expect(pending, `try ${i}`).toBeDefined();
      const wrong = p.code() === '000000' ? '111111' : '000000';
      expect(checkCode(p.ctx, pending!, wrong)).toBeUndefined();
    }
    expect(await checkPassword(p.ctx, EMAIL, PASSWORD)).toBeUndefined();
    p.later(30 * 60 - 1);
    expect(await checkPassword(p.ctx, EMAIL, PASSWORD)).toBeUndefined();
    p.later(1);
    const pending = await checkPassword(p.ctx, EMAIL, PASSWORD);
    expect(checkCode(p.ctx, pending!, p.code())).toBeDefined();
  });

  it('a session ends after its idle time and its whole time, and at once when its person is removed', async () => {
    const p = await enrolled();
    setDesk(p.ctx, { idle: '30m', max: '2h' });
    const login = async () => checkCode(p.ctx, (await checkPassword(p.ctx, EMAIL, PASSWORD))!, p.code())!.session;
    const idle = await login();
    p.later(30 * 60 - 1);
    expect(openSession(p.ctx, idle)).toBeDefined();
    p.later(30 * 60 - 1);
    expect(openSession(p.ctx, idle)).toBeDefined(); // seen a moment ago: still on
    p.later(30 * 60);
    expect(openSession(p.ctx, idle)).toBeUndefined();
    p.later(30);
    const whole = await login();
    for (let i = 0; i < 7; i++) {
      p.later(15 * 60);
      expect(openSession(p.ctx, whole), `after ${(i + 1) * 15} minutes`).toBeDefined();
    }
    p.later(15 * 60);
    expect(openSession(p.ctx, whole)).toBeUndefined(); // two hours after login
    p.later(30);
    const removed = await login();
    removeStaff(p.ctx, EMAIL);
    expect(openSession(p.ctx, removed)).toBeUndefined();
    expect(await checkPassword(p.ctx, EMAIL, PASSWORD)).toBeUndefined();
  });
});
