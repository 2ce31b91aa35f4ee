import { describe, expect, it } from 'vitest';
import {
  type AttemptOutcome,
  BASE_SECONDS,
  decideRetry,
  GIVE_UP_AFTER_SECONDS,
  MAX_DELAY_SECONDS,
  type RetryDecision,
} from '../../src/queue/retry-policy.ts';

/** A fixed clock: the item was first tried at FIRST; each case says how long ago. */
const FIRST = Date.parse('2026-06-01T06:00:00Z') / 1000;
const failed: AttemptOutcome = { delivered: false, reason: 'ECONNREFUSED' };

describe('decideRetry (fixed clock)', () => {
  const cases: {
    name: string;
    outcome: AttemptOutcome;
    attempts: number;
    after: number;
    base?: number;
    expected: RetryDecision;
  }[] = [
    { name: 'delivered: sent', outcome: { delivered: true }, attempts: 0, after: 0, expected: { kind: 'sent' } },
    {
      name: 'delivered after 48 h of failures: still sent',
      outcome: { delivered: true },
      attempts: 50,
      after: GIVE_UP_AFTER_SECONDS + 1,
      expected: { kind: 'sent' },
    },
    {
      name: 'first failure: retry after the base',
      outcome: failed,
      attempts: 0,
      after: 0,
      expected: { kind: 'retry', at: FIRST + 30, delaySeconds: 30, reason: 'ECONNREFUSED' },
    },
    {
      name: 'second failure: twice the base',
      outcome: failed,
      attempts: 1,
      after: 30,
      expected: { kind: 'retry', at: FIRST + 30 + 60, delaySeconds: 60, reason: 'ECONNREFUSED' },
    },
    {
      name: 'third failure: four times the base',
      outcome: failed,
      attempts: 2,
      after: 90,
      expected: { kind: 'retry', at: FIRST + 90 + 120, delaySeconds: 120, reason: 'ECONNREFUSED' },
    },
    {
      name: 'eighth failure: capped at an hour (30 × 128 would be 3840 s)',
      outcome: failed,
      attempts: 7,
      after: 3810,
      expected: { kind: 'retry', at: FIRST + 3810 + 3600, delaySeconds: 3600, reason: 'ECONNREFUSED' },
    },
    {
      name: 'twentieth failure: still an hour',
      outcome: failed,
      attempts: 19,
      after: 40_000,
      expected: { kind: 'retry', at: FIRST + 40_000 + 3600, delaySeconds: 3600, reason: 'ECONNREFUSED' },
    },
    {
      name: 'one second before 48 h: one more retry',
      outcome: failed,
      attempts: 50,
      after: GIVE_UP_AFTER_SECONDS - 1,
      expected: {
        kind: 'retry',
        at: FIRST + GIVE_UP_AFTER_SECONDS - 1 + 3600,
        delaySeconds: 3600,
        reason: 'ECONNREFUSED',
      },
    },
    {
      name: 'exactly 48 h after the first attempt: gives up',
      outcome: failed,
      attempts: 50,
      after: GIVE_UP_AFTER_SECONDS,
      expected: { kind: 'failed', permanent: false, reason: 'gave up after 48 hours: ECONNREFUSED' },
    },
    {
      name: 'HTTP status: retried like any failure',
      outcome: { delivered: false, reason: 'HTTP 500' },
      attempts: 0,
      after: 0,
      expected: { kind: 'retry', at: FIRST + 30, delaySeconds: 30, reason: 'HTTP 500' },
    },
    {
      name: 'SMTP 4xx: retried',
      outcome: { delivered: false, reason: '451 Try again later', smtpCode: 451 },
      attempts: 0,
      after: 0,
      expected: { kind: 'retry', at: FIRST + 30, delaySeconds: 30, reason: '451 Try again later' },
    },
    {
      name: 'SMTP 5xx: failed for good at once, with the answer',
      outcome: { delivered: false, reason: '550 Mailbox unavailable', smtpCode: 550 },
      attempts: 0,
      after: 0,
      expected: { kind: 'failed', permanent: true, reason: '550 Mailbox unavailable' },
    },
    {
      name: 'SMTP 5xx after 48 h: failed for good, not "gave up"',
      outcome: { delivered: false, reason: '554 No', smtpCode: 554 },
      attempts: 50,
      after: GIVE_UP_AFTER_SECONDS,
      expected: { kind: 'failed', permanent: true, reason: '554 No' },
    },
    {
      name: 'base from the settings',
      outcome: failed,
      attempts: 0,
      after: 0,
      base: 5,
      expected: { kind: 'retry', at: FIRST + 5, delaySeconds: 5, reason: 'ECONNREFUSED' },
    },
    {
      name: 'base from the settings, doubled',
      outcome: failed,
      attempts: 3,
      after: 35,
      base: 5,
      expected: { kind: 'retry', at: FIRST + 35 + 40, delaySeconds: 40, reason: 'ECONNREFUSED' },
    },
    {
      name: 'a fraction of a second as the base: whole seconds',
      outcome: failed,
      attempts: 0,
      after: 0,
      base: 0.2,
      expected: { kind: 'retry', at: FIRST + 1, delaySeconds: 1, reason: 'ECONNREFUSED' },
    },
    {
      name: 'a large base: still at most an hour',
      outcome: failed,
      attempts: 0,
      after: 0,
      base: 7200,
      expected: { kind: 'retry', at: FIRST + 3600, delaySeconds: 3600, reason: 'ECONNREFUSED' },
    },
  ];
  it.each(cases)('$name', ({ outcome, attempts, after, base, expected }) => {
    const settings = base === undefined ? undefined : { baseSeconds: base };
    expect(decideRetry(outcome, { attempts, retryFrom: FIRST }, FIRST + after, settings)).toEqual(expected);
  });

  it('holds the promised constants: a 30 s base, doubling up to an hour, 48 hours in all', () => {
    expect([BASE_SECONDS, MAX_DELAY_SECONDS, GIVE_UP_AFTER_SECONDS]).toEqual([30, 3600, 48 * 3600]);
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => {
      const decision = decideRetry(failed, { attempts, retryFrom: FIRST }, FIRST);
      return decision.kind === 'retry' ? decision.delaySeconds : undefined;
    });
    expect(delays).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });
});
