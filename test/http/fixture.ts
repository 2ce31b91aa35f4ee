import { startRuntime } from '../../src/app/operations/runtime.ts';
import { switchApi } from '../../src/app/practice/api.ts';
import { addField } from '../../src/app/practice/fields.ts';
import { addClosure } from '../../src/app/practice/hours.ts';
import { SCHEDULE_DEFAULTS } from '../../src/app/practice/schedules.ts';
import { rotateToken } from '../../src/app/practice/token.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { checkContract } from '../contract.ts';
import { readAnswer } from '../helpers.ts';
import { practice } from '../practice.ts';

/** Monday 2026-06-01, 08:00 in Berlin (06:00Z). */
export const NOW = new Date('2026-06-01T06:00:00Z');

/**
 * An installation built through the use cases, with a fixed clock, and the HTTP app on it (in-process):
 * schedule 1 "Dr. Weber" (capacity 1, Mon-Fri 09:00-12:00, 14 days ahead, no notice, closed 2026-06-03) with
 * reasons 1 (30 min) and 2 (60 min); schedule 2 "Physio" (capacity 3, Mon 09:00-10:00) with reason 3 (30 min);
 * schedule 3 without reasons; and a select field `insurance` (optional).
 */
export async function apiFixture(now: Date = NOW) {
  const { file, store, ctx } = practice({
    clock: { now },
    practiceName: 'Test',
    notifyEmail: 'desk@test.example',
    schedules: [
      { name: 'Dr. Weber', daysAhead: 14, stepMinutes: 15, hours: { 'mon-fri': '09:00-12:00' } },
      { name: 'Physio', daysAhead: 14, capacity: 3, hours: { mon: '09:00-10:00' } },
      { name: 'Empty', ...SCHEDULE_DEFAULTS, hours: {} },
    ],
    reasons: [
      { name: 'Consultation', schedules: [1] },
      { name: 'Long visit', durationMinutes: 60, description: 'Take your time.', schedules: [1] },
      { name: 'Session', schedules: [2] },
    ],
  });
  // Added on the default clock: a fixture on a later clock (winter) keeps it as a past closure, which it may no longer add.
  addClosure({ ...ctx, now: () => NOW }, 1, '2026-06-03', undefined, 'training');
  addField(ctx, 'insurance', { label: 'Insurance', formType: 'select', options: ['public', 'private'] });
  switchApi(ctx, true);
  const token = await rotateToken(ctx);
  // The server's wiring, without its workers: tests that deliver start a worker with their own clock.
  const runtime = await startRuntime(store, { now: () => now });
  const app = createHttpApp({ runtime, log: () => {} });
  /** Calls the in-process app with the token; returns status, headers and parsed body. */
  const call = async (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const bearer = init.token === undefined ? token : init.token;
    if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`);
    const answer = await readAnswer(await app.request(path, { ...init, headers }));
    checkContract(init.method ?? 'GET', path, answer);
    return answer;
  };
  const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    call('/api/bookings', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { file, store, ctx, app, token, call, post };
}

/** A submission that fills every required default field. */
export const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
