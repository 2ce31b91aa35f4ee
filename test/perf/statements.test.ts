import type { StatementSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { generate } from '../../bench/generate.ts';
import { createContext } from '../../src/app/context.ts';
import { setMail } from '../../src/app/messages/mail.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { changeRateLimit } from '../../src/app/practice/api.ts';
import { changeSchedule } from '../../src/app/practice/schedules.ts';
import { rotateToken } from '../../src/app/practice/token.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { startOutboxWorker } from '../../src/mail/worker.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { readSettings } from '../../src/store/settings.ts';
import { tempDb } from '../helpers.ts';
import { startSmtp } from '../mail/smtp.ts';

/** Returns `store` with every statement execution counted (all, get, run, iterate, and data_version), and each SQL text prepared. */
function counting(store: Store) {
  let count = 0;
  const texts = new Set<string>();
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
    sql: (text) => {
      texts.add(text);
      return wrap(store.sql(text));
    },
    dataVersion: () => {
      count++;
      return store.dataVersion();
    },
  };
  return { store: counted, count: () => count, reset: () => (count = 0), texts };
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
      const response = await app.request('/api/days?schedule=1&reason=1', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      return { statements: count(), days: ((await response.json()) as { data: string[] }).data.length };
    };
    const year = await days();
    expect(year.days).toBeGreaterThan(250);
    expect(year.statements).toBeLessThanOrEqual(10);
    changeSchedule(
      createContext(raw, () => now),
      1,
      { daysAhead: 30 },
    );
    const month = await days();
    expect(month.days).toBeLessThan(31);
    expect(month.statements).toBe(year.statements);
    raw.close();
  });

  it('the queries on the hot paths use their indexes (EXPLAIN QUERY PLAN)', () => {
    const store = openStore(tempDb());
    const plan = (sql: string, ...params: number[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    expect(
      plan(
        "SELECT keeps_from, end_at + buffer_after FROM bookings WHERE schedule_id = ? AND keeps_from >= ? AND keeps_from < ? AND end_at + buffer_after > ? AND status = 'booked' AND id <> ? ORDER BY keeps_from",
        1,
        0,
        1,
        0,
        0,
      ),
    ).toBe('SEARCH bookings USING INDEX bookings_by_schedule_keeps (schedule_id=? AND keeps_from>? AND keeps_from<?)'); // in order: no sort step
    expect(
      plan("SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT 20", 0),
    ).toMatch(/USING (COVERING )?INDEX outbox_due/);
    expect(plan("SELECT id FROM customers WHERE email_key = 'a@b.example'")).toMatch(
      /USING (COVERING )?INDEX sqlite_autoindex_customers_1/,
    );
    expect(plan("SELECT id FROM bookings WHERE reference = 'X'")).toMatch(
      /USING (COVERING )?INDEX sqlite_autoindex_bookings_1/,
    );
    // Issue 16: a key is found by its primary key, and expired keys are forgotten by a bounded range of their age.
    expect(
      plan('SELECT fingerprint, status, body FROM idempotency_keys WHERE key = ? AND created_at >= ?', 0, 0),
    ).toMatch(/SEARCH idempotency_keys USING PRIMARY KEY \(key=\?\)/);
    const purge = plan(
      'DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT 50)',
      0,
    );
    expect(purge).toMatch(/SEARCH idempotency_keys USING (COVERING )?INDEX idempotency_keys_by_age \(created_at<\?\)/);
    expect(purge).not.toMatch(/SCAN idempotency_keys/);
    // Issue 17: the cache of free days looks at the end of the change log, then reads a range of its key.
    expect(plan('SELECT coalesce(max(id), 0) AS id FROM booking_changes')).toBe('SEARCH booking_changes'); // max() of the key: one step down the b-tree
    expect(
      plan(
        'SELECT id, schedule_id AS scheduleId, from_at AS fromAt, to_at AS toAt FROM booking_changes WHERE id > ? ORDER BY id',
        0,
      ),
    ).toBe('SEARCH booking_changes USING INTEGER PRIMARY KEY (rowid>?)');
    // Issue 40: the engine's extra hours from today on, a range of their primary key, in order (no sort step).
    expect(
      plan(
        'SELECT day, start_minute, end_minute FROM extra_hours WHERE schedule_id = ? AND day >= ? ORDER BY day, start_minute',
        1,
        0,
      ),
    ).toMatch(
      /^SEARCH extra_hours USING (COVERING )?INDEX sqlite_autoindex_extra_hours_1 \(schedule_id=\? AND day>\?\)$/,
    );
    store.close();
  });
});

describe('the shape of the reminder sender (guards against a scan of the bookings or the outbox)', () => {
  it('at about 50,000 bookings with a reminder each, a worker pass takes one query plus two statements per reminder sent', async () => {
    const file = tempDb();
    const now = new Date('2026-06-01T06:00:00Z'); // 08:00 in Berlin: the reminders of tomorrow's 08:00 are due
    const made = generate({ file, now, reminders: true });
    expect(made.bookings).toBeGreaterThan(45_000);
    const raw = openStore(file);
    const smtp = await startSmtp();
    setMail(
      createContext(raw, () => now),
      smtp.url,
      'desk@bench.example',
    );
    const nowAt = Math.floor(now.getTime() / 1000);
    const scheduled = (
      raw.db.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'reminder' AND status = 'pending'").get() as {
        n: number;
      }
    ).n;
    expect(scheduled).toBe(made.bookings);
    const due = (
      raw.db
        .prepare("SELECT count(*) AS n FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?")
        .get(nowAt) as { n: number }
    ).n;
    expect(due).toBeGreaterThan(0);
    expect(due).toBeLessThan(20); // one batch

    const { store, count, reset, texts } = counting(raw);
    const settings = readSettings(raw); // read once here: the pass's own statements are counted
    const clock = { ms: now.getTime() - 3_600_000 }; // an hour before: nothing due (the worker's first pass)
    const worker = startOutboxWorker({
      store,
      settings: () => settings,
      log: () => {},
      nowMs: () => clock.ms,
      pollMs: 60_000,
    });
    await new Promise((resolve) => setImmediate(resolve)); // the worker's own first pass is queued with setImmediate
    await worker.flush();
    clock.ms = now.getTime();
    reset();
    await worker.flush();
    const sending = count();
    await smtp.received(due);
    reset();
    await worker.flush();
    const idle = count();
    // A minute later, the next of tomorrow's appointments (08:15 and so on) are not due yet: still one query.
    clock.ms += 60_000;
    reset();
    await worker.flush();
    const later = count();
    await worker.stop();
    // The due query, then per reminder: claim, mark sent, and the scrub of a message of an erased booking (one
    // UPDATE by primary key, in the marking transaction since issue 37; a trigger ran it before).
    expect({ due, sending, idle, later }).toEqual({ due, sending: 1 + 3 * due, idle: 1, later: 1 });
    console.log(
      `reminders: ${scheduled} scheduled at ${made.bookings} bookings; a pass sending ${due} took ${sending} statements, an idle pass ${idle}`,
    );

    // The scrub reads the booking by its primary key and updates the message by its own: no SCAN either.
    const scrubSql = [...texts].find((text) => text.includes("recipient != '"))!;
    const scrubPlan = (raw.db.prepare(`EXPLAIN QUERY PLAN ${scrubSql}`).all(1) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
    expect(scrubPlan).not.toMatch(/SCAN/);

    // The due query: a range of outbox_due, and each message's booking by its primary key; no SCAN at all.
    const dueSql = [...texts].find((text) => text.includes('LEFT JOIN bookings'))!;
    const plan = (raw.db.prepare(`EXPLAIN QUERY PLAN ${dueSql}`).all(nowAt, nowAt, 20) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
    expect(plan).toMatch(/SEARCH o USING INDEX outbox_due \(status=\? AND next_attempt_at<\?\)/);
    expect(plan).toMatch(/SEARCH b USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan).not.toMatch(/SCAN/);
    raw.close();
  }, 120_000);
});
