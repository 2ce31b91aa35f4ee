import type { StatementSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { generate } from '../../bench/generate.ts';
import { createContext } from '../../src/app/context.ts';
import { changeRateLimit } from '../../src/app/installation.ts';
import { startRuntime } from '../../src/app/runtime.ts';
import { changeSchedule } from '../../src/app/schedules.ts';
import { rotateToken } from '../../src/app/token.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';

/** Returns `store` with every statement execution counted (all, get, run, iterate, and data_version). */
function counting(store: Store) {
  let count = 0;
  const wrap = (statement: StatementSync) =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        return ['all', 'get', 'run', 'iterate'].includes(String(property))
          ? (...args: unknown[]) => {
              count++;
              return value.apply(target, args);
            }
          : value.bind(target);
      },
    });
  const counted: Store = {
    ...store,
    sql: (text) => wrap(store.sql(text)),
    dataVersion: () => {
      count++;
      return store.dataVersion();
    },
  };
  return { store: counted, count: () => count, reset: () => (count = 0) };
}

describe('the shape of GET /days (guards against per-day or per-slot queries)', () => {
  it('a year with about 50,000 bookings takes a handful of statements, the same as 30 days', async () => {
    const file = tempDb();
    const now = new Date('2026-06-01T06:00:00Z');
    const made = generate({ file, now });
    expect(made.bookings).toBeGreaterThan(45_000);
    const raw = openStore(file);
    const ctx = createContext(raw, () => now);
    changeRateLimit(ctx, 1_000_000);
    const token = await rotateToken(ctx);
    const { store, count, reset } = counting(raw);
    const app = createHttpApp({ runtime: await startRuntime(store, { now: () => now }), log: () => {} });
    const days = async () => {
      reset();
      const response = await app.request('/api/days?schedule=1&reason=1', { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      return { statements: count(), days: ((await response.json()) as { data: string[] }).data.length };
    };
    const year = await days();
    expect(year.days).toBeGreaterThan(250);
    expect(year.statements).toBeLessThanOrEqual(10);
    changeSchedule(createContext(raw, () => now), 1, { daysAhead: 30 });
    const month = await days();
    expect(month.days).toBeLessThan(31);
    expect(month.statements).toBe(year.statements);
    raw.close();
  });

  it('the queries on the hot paths use their indexes (EXPLAIN QUERY PLAN)', () => {
    const store = openStore(tempDb());
    const plan = (sql: string, ...params: number[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('; ');
    expect(
      plan('SELECT start_at, end_at FROM bookings WHERE schedule_id = ? AND start_at >= ? AND start_at < ? AND end_at > ? ORDER BY start_at', 1, 0, 1, 0),
    ).toMatch(/SEARCH bookings USING INDEX bookings_by_schedule_start \(schedule_id=\? AND start_at>\? AND start_at<\?\)/);
    expect(plan("SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT 20", 0)).toMatch(/USING (COVERING )?INDEX outbox_due/);
    expect(plan("SELECT id FROM customers WHERE email_key = 'a@b.example'")).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_customers_1/);
    expect(plan("SELECT id FROM bookings WHERE reference = 'X'")).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_bookings_1/);
    store.close();
  });
});
