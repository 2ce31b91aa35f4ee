import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { HASH_LANES, HASH_QUEUE_MAX, HashesBusy, hashPassword, passwordMatches } from '../../src/app/desk/passwords.ts';

describe('staff passwords (Argon2id, off the event loop)', () => {
  it('hashes with Argon2id at OWASP’s settings, and verifies only the password it was made of', async () => {
    const hashed = await hashPassword('correct horse battery');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await passwordMatches(hashed, 'correct horse battery')).toBe(true);
    expect(await passwordMatches(hashed, 'correct horse batterY')).toBe(false);
    expect(await passwordMatches('not a hash', 'correct horse battery')).toBe(false);
  });

  it('a person who does not exist is checked against a stand-in hash: false, never an error', async () => {
    expect(await passwordMatches(undefined, 'anything at all')).toBe(false);
    expect(await passwordMatches(null, '')).toBe(false);
  });

  it('eight logins at once never hold the event loop: its longest delay stays far below one hash’s time', async () => {
    const hashed = await hashPassword('correct horse battery');
    const started = performance.now();
    await passwordMatches(hashed, 'correct horse battery');
    const oneHash = performance.now() - started;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 1);
    await Promise.all(Array.from({ length: 8 }, () => passwordMatches(hashed, 'wrong password here')));
    clearInterval(timer);
    delay.disable();
    // On the event loop, eight hashes would block it for eight hashes' time; off it, timers keep firing meanwhile.
    expect(ticks.length).toBeGreaterThan(3);
    expect(delay.max / 1e6).toBeLessThan(Math.max(oneHash * 2, 50));
  });

  it('hashes one at a time, the others waiting in order; beyond the queue a login is refused at once', async () => {
    const hashed = await hashPassword('correct horse battery');
    const extra = 5;
    const settled = await Promise.allSettled(
      Array.from({ length: HASH_LANES + HASH_QUEUE_MAX + extra }, () => passwordMatches(hashed, 'wrong password here')),
    );
    const refused = settled.filter((one) => one.status === 'rejected');
    expect(refused).toHaveLength(extra);
    for (const one of refused) expect((one as PromiseRejectedResult).reason).toBeInstanceOf(HashesBusy);
    expect(settled.filter((one) => one.status === 'fulfilled' && one.value === false)).toHaveLength(
      HASH_LANES + HASH_QUEUE_MAX,
    );
    expect(await passwordMatches(hashed, 'correct horse battery')).toBe(true); // the lanes are free again
  });
});
