/**
 * Safe retries of POST /bookings (issue 16), with real `planner serve` processes on one file: a connection cut after
 * the request was sent, twenty requests with one key at once over two servers, a replay after a restart, another
 * body under the key; and a property over random interleavings, in-process.
 */

import { DatabaseSync } from 'node:sqlite';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cliOk, rawSocket, serve, tempDb } from '../helpers.ts';
import { ADA, apiFixture } from '../http/fixture.ts';

const one = (db: string, sql: string) => {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    return Object.values(handle.prepare(sql).get()!)[0];
  } finally {
    handle.close();
  }
};

async function installation() {
  const db = tempDb();
  const token = await bookableDb(db);
  await cliOk(db, 'reminders', 'set', 'off');
  const server = await serve(db);
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const slots = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
  const post = (url: string, slot: string, key: string, submission: Record<string, unknown> = ADA) =>
    api(url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ schedule: 1, reason: 1, slot, submission }),
    });
  return { db, token, server, slots, post };
}

describe('POST /bookings with an Idempotency-Key, real processes', () => {
  it('the connection cut after the request was sent: the retry gets the first 201; one booking, one pair of mails', async () => {
    const { db, token, server, slots, post } = await installation();
    const body = JSON.stringify({ schedule: 1, reason: 1, slot: slots[0], submission: ADA });
    const socket = await rawSocket(server.url);
    const firstByte = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(
      `POST /api/bookings HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\n` +
        `idempotency-key: cut-1\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await firstByte; // the answer starts to arrive: the client goes away without reading it
    socket.destroy();
    expect(one(db, 'SELECT count(*) FROM bookings')).toBe(1);
    const retry = await post(server.url, slots[0]!, 'cut-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.booking_id).toBe(one(db, 'SELECT id FROM bookings'));
    expect(one(db, 'SELECT count(*) FROM bookings')).toBe(1);
    expect(one(db, 'SELECT count(*) FROM outbox')).toBe(2);

    // After a restart the key still answers; with another body it is refused.
    await server.stop();
    const again = await serve(db);
    const replay = await post(again.url, slots[0]!, 'cut-1');
    expect(replay).toMatchObject({ status: 201, body: retry.body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await post(again.url, slots[1]!, 'cut-1');
    expect(other).toMatchObject({ status: 400, body: { error: 'Idempotency-Key reused with a different request' } });
    expect(one(db, 'SELECT count(*) FROM bookings')).toBe(1);
  });

  it('20 requests with one key at the same moment over two servers: one booking, and all twenty get its 201', async () => {
    const { db, server, slots, post } = await installation();
    const second = await serve(db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => post(n % 2 ? second.url : server.url, slots[2]!, 'twenty')),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((answer) => answer.body.booking_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(one(db, 'SELECT count(*) FROM bookings')).toBe(1);
    expect(one(db, 'SELECT count(*) FROM outbox')).toBe(2);
  });
});

describe('any interleaving of retries and distinct keys (in-process, fast-check)', () => {
  /** A request: which key (of 4) and which body (of 3: two slots, or a submission missing a field). */
  const request = fc.record({ key: fc.integer({ min: 0, max: 3 }), body: fc.integer({ min: 0, max: 2 }) });

  test.prop([fc.array(fc.array(request, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 })], {
    numRuns: 40,
  })('never more bookings than distinct keys, and a key answers one way only', async (batches) => {
    const f = await apiFixture();
    const bodies = [
      { schedule: 1, reason: 1, slot: '2026-06-02 09:00:00', submission: ADA },
      { schedule: 1, reason: 1, slot: '2026-06-02 09:30:00', submission: ADA },
      { schedule: 1, reason: 1, slot: '2026-06-02 10:00:00', submission: { first_name: 'Ada' } },
    ];
    const first = new Map<number, { status: number; body: unknown; text: string }>();
    for (const batch of batches) {
      // Each batch at once: the requests race for the write lock.
      const answers = await Promise.all(
        batch.map(({ key, body }) =>
          f.call('/api/bookings', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': `key-${key}` },
            body: JSON.stringify(bodies[body]),
          }),
        ),
      );
      batch.forEach(({ key }, n) => {
        const answer = answers[n]!;
        const seen = first.get(key);
        if (answer.status === 400 && answer.body.error === 'Idempotency-Key reused with a different request') return;
        if (seen)
          expect({ status: answer.status, body: answer.body }).toEqual({ status: seen.status, body: seen.body });
        else first.set(key, answer);
      });
    }
    const bookings = (f.store.db.prepare('SELECT count(*) AS n FROM bookings').get() as { n: number }).n;
    expect(bookings).toBeLessThanOrEqual(first.size);
    expect(bookings).toBe([...first.values()].filter((answer) => answer.status === 201).length);
    f.store.close();
  });
});
