import { once } from 'node:events';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cliOk, serve, tempDb } from '../helpers.ts';
import { startSmtp } from '../mail/smtp.ts';

describe('crash safety: kill -9 while a client streams bookings', () => {
  it('keeps every booking whose 201 arrived, with its customer and its mails; nothing half-written', async () => {
    const db = tempDb();
    const token = await bookableDb(db, { schedules: [{ stepMinutes: 5, capacity: 4 }] });
    const smtp = await startSmtp();
    await cliOk(db, 'mail', 'set', smtp.url, '--from', 'Practice <desk@practice.example>');

    const accepted: { booking_id: number; booking_details_id: string; user_id: number }[] = [];
    let attempts = 0;
    for (let round = 0; round < 3; round++) {
      const server = await serve(db, {}, ['--log', 'off']);
      const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
      const slots = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[round + 1]}`, token)).body
        .data as string[];
      const killAt = accepted.length + 25 + round * 10; // a different moment each round
      let killed = false;
      // Four clients stream bookings (each slot up to 4 times); the server dies under them, mid-request.
      await Promise.all(
        Array.from({ length: 4 }, async (_, client) => {
          for (let i = 0; !killed && i < 400; i++) {
            const n = attempts++;
            const response = await fetch(`${server.url}/api/bookings`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({
                schedule: 1,
                reason: 1,
                slot: slots[(i * 4 + client) % slots.length],
                submission: { first_name: 'K', last_name: `${n}`, email: `k${n}@example.com` },
              }),
            }).catch(() => undefined); // the connection dies with the server
            if (!response) break;
            if (response.status === 201) accepted.push((await response.json()) as (typeof accepted)[number]);
            else await response.arrayBuffer();
            if (!killed && accepted.length >= killAt) {
              killed = true;
              server.child.kill('SIGKILL');
            }
          }
        }),
      );
      if (server.child.exitCode === null && server.child.signalCode === null) await once(server.child, 'exit');
      expect(server.child.signalCode).toBe('SIGKILL');
    }
    expect(accepted.length).toBeGreaterThanOrEqual(25 + 35 + 45);

    const handle = new DatabaseSync(db, { readOnly: true });
    const one = (sql: string) => {
      const row = handle.prepare(sql).get();
      return row && Object.values(row)[0];
    };
    expect(one('PRAGMA integrity_check')).toBe('ok');
    expect(one('PRAGMA foreign_key_check')).toBeUndefined();
    const stored = new Map(
      (handle.prepare('SELECT id, reference, customer_id FROM bookings').all() as any[]).map((row) => [row.id, row]),
    );
    for (const booking of accepted) {
      expect(stored.get(booking.booking_id), `booking ${booking.booking_id}`).toMatchObject({
        reference: booking.booking_details_id,
        customer_id: booking.user_id,
      });
    }
    // No customer without a booking, no message without its booking, no booking without its two messages.
    expect(
      one('SELECT count(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.customer_id = c.id)'),
    ).toBe(0);
    expect(
      one(
        'SELECT count(*) FROM outbox o WHERE o.booking_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = o.booking_id)',
      ),
    ).toBe(0);
    // Reminders (of the bookings more than 48 h ahead) are not due yet: test/reliability/reminders-crash.test.ts sends them.
    expect(
      one(
        "SELECT count(*) FROM bookings b WHERE (SELECT count(*) FROM outbox o WHERE o.booking_id = b.id AND o.kind <> 'reminder' AND o.status IN ('pending', 'sent')) <> 2",
      ),
    ).toBe(0);
    expect(one('SELECT max(n) FROM (SELECT count(*) AS n FROM bookings GROUP BY start_at)')).toBeLessThanOrEqual(4);
    const messages = one("SELECT count(*) FROM outbox WHERE kind <> 'reminder'") as number;
    // A message a killed server was sending stays leased to it for 120 s, then any server takes it over.
    const leased = one(
      "SELECT count(*) FROM outbox WHERE kind <> 'reminder' AND status = 'pending' AND lease_until > unixepoch()",
    ) as number;
    expect(leased).toBeLessThanOrEqual(3); // at most one per killed server
    // Each message keeps one Message-ID across retries: <outbox-<id>-<retry_from>@practice.example>.
    const expected = (
      handle
        .prepare(
          "SELECT id, retry_from FROM outbox WHERE kind <> 'reminder' AND NOT (status = 'pending' AND lease_until > unixepoch())",
        )
        .all() as { id: number; retry_from: number }[]
    ).map((row) => `<outbox-${row.id}-${row.retry_from}@practice.example>`);
    handle.close();

    // A last start delivers what the crashes left in the outbox: every message not leased arrives (one sent just
    // before a kill may arrive twice, with the same Message-ID: at least once, as documented).
    const server = await serve(db, {}, ['--log', 'off']);
    const arrived = () => new Set(smtp.messages.map((mail) => mail.messageId));
    while (!expected.every((id) => arrived().has(id))) await smtp.received(smtp.messages.length + 1);
    await server.stop();
    expect(server.output()).not.toMatch(/could not be read/); // the outbox waiting at start is taken up cleanly
    expect(expected).toHaveLength(messages - leased);
    const after = new DatabaseSync(db, { readOnly: true });
    expect(
      after.prepare("SELECT count(*) AS n FROM outbox WHERE kind <> 'reminder' AND status <> 'sent'").get(),
    ).toEqual({ n: leased });
    after.close();
  });
});
