/**
 * POST /bookings with an Idempotency-Key (issue 16), in-process with a clock the test moves: a repeat gets the first
 * answer (no second booking, mail or webhook event), another body with the key a 400, refusals are kept and a 500
 * is not, and a key expires after 24 hours. Real processes: test/reliability/idempotency.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { addWebhook } from '../../src/app/messages/webhooks.ts';
import { ADA, apiFixture } from './fixture.ts';

const SLOT = '2026-06-02 09:00:00';
const order = (slot = SLOT, submission: Record<string, unknown> = ADA) => ({
  schedule: 1,
  reason: 1,
  slot,
  submission,
});

async function fixture() {
  const now = new Date('2026-06-01T06:00:00Z');
  const f = await apiFixture(now);
  addWebhook(f.ctx, 'https://hooks.example/planner', { includeCustomer: false, allowInsecure: false });
  const count = (table: string) => (f.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const post = (body: unknown, key?: string) =>
    f.call('/api/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { ...f, now, count, post };
}

describe('POST /bookings with an Idempotency-Key', () => {
  it('a repeat with the same key and body gets the first 201 again, marked replayed: one booking, one pair of mails, one event', async () => {
    const f = await fixture();
    const first = await f.post(order(), 'order-4711');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const counts = {
      bookings: f.count('bookings'),
      outbox: f.count('outbox'),
      deliveries: f.count('webhook_deliveries'),
    };
    expect(counts).toEqual({ bookings: 1, outbox: 2, deliveries: 1 }); // confirmation and notice (25 h ahead: inside the default 48 h reminder's window)
    const again = await f.post(order(), 'order-4711');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect({
      bookings: f.count('bookings'),
      outbox: f.count('outbox'),
      deliveries: f.count('webhook_deliveries'),
    }).toEqual(counts);
  });

  it('the same key with another body: 400, nothing written; a malformed key: 400 before anything is read', async () => {
    const f = await fixture();
    await f.post(order(), 'k1');
    const other = await f.post(order('2026-06-02 09:30:00'), 'k1');
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'Idempotency-Key reused with a different request' });
    expect(f.count('bookings')).toBe(1);
    for (const bad of ['', 'a'.repeat(256), 'with space', 'tab\there', 'ümlaut']) {
      const answer = await f
        .call('/api/bookings', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': bad },
          body: JSON.stringify(order('2026-06-02 10:00:00')),
        })
        .catch(() => undefined); // a header value that fetch itself refuses (a tab) is never sent
      if (answer) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });
      }
    }
    expect((await f.post(order('2026-06-02 10:00:00'), 'a'.repeat(255))).status).toBe(201);
    expect(f.count('bookings')).toBe(2);
  });

  it('a 404 or 400 of the booking is kept for its key; without a key nothing changes', async () => {
    const f = await fixture();
    expect((await f.post(order(), 'first')).status).toBe(201);
    const taken = await f.post(order(SLOT, { ...ADA, email: 'grace@example.com' }), 'second');
    expect(taken.status).toBe(404);
    const missing = await f.post(order('2026-06-02 11:00:00', { first_name: 'Ada' }), 'third');
    expect(missing).toMatchObject({ status: 400, body: { error: 'Field is required', field: 'last_name' } });
    // The slot is free again (the first booking is cancelled), but the key keeps its answer.
    f.store.db.exec("UPDATE bookings SET status = 'cancelled'");
    const again = await f.post(order(SLOT, { ...ADA, email: 'grace@example.com' }), 'second');
    expect(again).toMatchObject({ status: 404, body: taken.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(
      (await f.post(order('2026-06-02 11:00:00', { first_name: 'Ada' }), 'third')).headers.get('idempotent-replayed'),
    ).toBe('true');
    // Without a key: booked now that the slot is free.
    expect((await f.post(order(SLOT, { ...ADA, email: 'grace@example.com' }))).status).toBe(201);
    expect(f.count('idempotency_keys')).toBe(3);
  });

  it('a 500 is not kept: a retry after a storage fault books', async () => {
    const f = await fixture();
    f.store.db.exec(
      "CREATE TRIGGER full BEFORE INSERT ON bookings BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    const failed = await f.post(order(), 'retry-me');
    expect(failed).toMatchObject({ status: 500, body: { error: 'The booking could not be saved' } });
    expect(f.count('idempotency_keys')).toBe(0);
    f.store.db.exec('DROP TRIGGER full');
    const retried = await f.post(order(), 'retry-me');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a key lives 24 hours; expired keys are forgotten a few at a time as new ones are kept', async () => {
    const f = await fixture();
    const first = await f.post(order(), 'daily');
    f.now.setTime(f.now.getTime() + 24 * 3600 * 1000); // exactly 24 h later: still the same answer
    expect((await f.post(order(), 'daily')).body).toEqual(first.body);
    f.now.setTime(f.now.getTime() + 1000); // a second more: a new request
    f.store.db.exec("UPDATE bookings SET status = 'cancelled'");
    const anew = await f.post(order(), 'daily');
    expect(anew.status).toBe(201);
    expect(anew.body.booking_id).not.toBe(first.body.booking_id);
    expect(anew.headers.get('idempotent-replayed')).toBeNull();
    // 60 old keys: each new key forgets up to 50 of them (an index range, no scan).
    const old = f.store.db.prepare("INSERT INTO idempotency_keys VALUES (?, 'x', 404, '{}', 1)");
    for (let n = 0; n < 60; n++) old.run(`old-${n}`);
    await f.post(order('2026-06-02 10:00:00'), 'fresh');
    expect(f.count('idempotency_keys')).toBe(12); // daily, fresh, and 10 of the 60 old ones
  });
});
