import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { warmForRequests } from '../../src/app/operations/warm.ts';
import { FAILED_ATTEMPTS_PER_MINUTE } from '../../src/http/auth-throttle.ts';
import { api, bookableDb, serve, tempDir } from '../helpers.ts';

/** A context that answers the settings' time zone and the clock, and fails the test on anything else it is asked. */
function onlyTheZone(timeZone: string | null): { ctx: AppContext; asked: string[] } {
  const asked: string[] = [];
  const ctx = new Proxy({} as AppContext, {
    get(_target, key) {
      asked.push(String(key));
      if (key === 'settings') return () => ({ timeZone });
      if (key === 'now') return () => new Date('2026-03-27T10:00:00Z'); // the weekend Europe springs forward
      throw new Error(`the warm-up asked the context for ${String(key)}`);
    },
  });
  return { ctx, asked };
}

describe('what serve does before it says serving (issue 49)', () => {
  it('runs the engine on made-up input: it asks for the time zone and the clock, nothing of the practice else', () => {
    for (const zone of ['Europe/Berlin', 'America/St_Johns', 'Pacific/Chatham', 'UTC']) {
      const { ctx, asked } = onlyTheZone(zone);
      warmForRequests(ctx);
      expect(new Set(asked)).toEqual(new Set(['settings', 'now']));
    }
    const { ctx, asked } = onlyTheZone(null); // not configured yet: nothing to warm
    warmForRequests(ctx);
    expect(asked).toEqual(['settings']);
  });

  it('its request through the HTTP path is not in the access log and counts no failure for 127.0.0.1', async () => {
    const db = join(tempDir(), 'planner.db');
    await bookableDb(db);
    const server = await serve(db, {}, ['--log', 'json']);
    const wrong = `pln_${'W'.repeat(64)}`;
    const statuses = [];
    for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++)
      statuses.push((await api(server.url, '/api/schedules', wrong)).status);
    // A warm-up counted as a failure would have made the last of these a 429.
    expect(statuses).toEqual(Array(FAILED_ATTEMPTS_PER_MINUTE).fill(401));
    expect((await api(server.url, '/api/schedules', wrong)).status).toBe(429);
    await server.stop();
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { path: string; status: number });
    expect(lines.map((line) => `${line.status} ${line.path}`)).toEqual([
      ...Array(FAILED_ATTEMPTS_PER_MINUTE).fill('401 /api/schedules'),
      '429 /api/schedules',
    ]);
    expect(server.output()).not.toContain('warm-up');
  });
});
