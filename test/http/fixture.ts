import { createContext, type AppContext } from '../../src/app/context.ts';
import { addField } from '../../src/app/practice/fields.ts';
import { addClosure, setHours } from '../../src/app/practice/hours.ts';
import { switchApi } from '../../src/app/practice/api.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason } from '../../src/app/practice/reasons.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { rotateToken } from '../../src/app/practice/token.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { checkContract } from '../contract.ts';
import { readAnswer, tempDb } from '../helpers.ts';

/** Monday 2026-06-01, 08:00 in Berlin (06:00Z). */
export const NOW = new Date('2026-06-01T06:00:00Z');

/**
 * An installation built through the use cases, with a fixed clock, and the HTTP app on it (in-process):
 * schedule 1 "Dr. Weber" (capacity 1, Mon-Fri 09:00-12:00, 14 days ahead, no notice, closed 2026-06-03) with
 * reasons 1 (30 min) and 2 (60 min); schedule 2 "Physio" (capacity 3, Mon 09:00-10:00) with reason 3 (30 min);
 * schedule 3 without reasons; and a select field `insurance` (optional).
 */
export async function apiFixture(now: Date = NOW) {
  const file = tempDb();
  const store = openStore(file);
  const ctx: AppContext = createContext(store, () => now);
  initInstallation(ctx, {
    practiceName: 'Test',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@test.example',
    locale: 'en',
  });
  const weber = addSchedule(ctx, { name: 'Dr. Weber', daysAhead: 14, noticeMinutes: 0, stepMinutes: 15, capacity: 1 });
  addReason(ctx, weber, { name: 'Consultation', durationMinutes: 30 });
  addReason(ctx, weber, { name: 'Long visit', durationMinutes: 60, description: 'Take your time.' });
  setHours(ctx, weber, 'mon-fri', '09:00-12:00');
  // Added on the default clock: a fixture on a later clock (winter) keeps it as a past closure, which it may no longer add.
  addClosure({ ...ctx, now: () => NOW }, weber, '2026-06-03', undefined, 'training');
  const physio = addSchedule(ctx, { name: 'Physio', daysAhead: 14, noticeMinutes: 0, stepMinutes: 30, capacity: 3 });
  addReason(ctx, physio, { name: 'Session', durationMinutes: 30 });
  setHours(ctx, physio, 'mon', '09:00-10:00');
  addSchedule(ctx, { name: 'Empty' });
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
