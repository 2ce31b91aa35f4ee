import { DatabaseSync } from 'node:sqlite';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cliJson, cliOk, type ServerProcess, serve, tempDb } from '../helpers.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** Returns a free slot of the schedule from the live API (the server reads the real clock). */
async function someFreeSlot(url: string, token: string, schedule: number, reason: number, index = 0): Promise<string> {
  const days = (await api(url, `/api/days?schedule=${schedule}&reason=${reason}`, token)).body.data as string[];
  const slots = (await api(url, `/api/slots?schedule=${schedule}&reason=${reason}&day=${days[1]}`, token)).body
    .data as string[];
  return slots[index]!;
}

function book(url: string, token: string, body: unknown) {
  return api(url, '/api/bookings', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('bookings against real server processes', () => {
  const db = tempDb();
  let token: string;
  let first: ServerProcess;
  let second: ServerProcess;
  beforeAll(async () => {
    token = await bookableDb(db, {
      schedules: [{ name: 'Single' }, { name: 'Group', capacity: 3 }],
      reasons: [
        { name: 'Visit', schedules: [1] },
        { name: 'Class', schedules: [2] },
      ],
    });
    // Two servers on one file: the transaction, not the single event loop, must keep the promise.
    [first, second] = await Promise.all([serve(db), serve(db)]);
  });

  it.each([
    [1, 1, 1],
    [2, 2, 3],
  ])(
    'schedule %i (reason %i, capacity %i): 20 concurrent POSTs for one slot, exactly capacity succeed, the rest 404',
    async (schedule, reason, capacity) => {
      const slot = await someFreeSlot(first.url, token, schedule, reason);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          book(i % 2 ? first.url : second.url, token, {
            schedule,
            reason,
            slot,
            submission: { ...ADA, email: `c${schedule}-${i}@example.com` },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(capacity);
      expect(statuses.filter((status) => status === 404)).toHaveLength(20 - capacity);
      for (const answer of answers.filter((a) => a.status === 404)) expect(answer.body).toEqual({ error: 'Not Found' });
      const listed = await cliJson(db, 'bookings', 'list', '--schedule', String(schedule), '--from', slot.slice(0, 10));
      expect(listed.filter((booking: any) => booking.localStart === slot.slice(0, 16))).toHaveLength(capacity);
    },
  );

  it('answers the slot in UTC, and the booking shows at once in `planner bookings`', async () => {
    const slot = await someFreeSlot(first.url, token, 1, 1, 3);
    const answer = await book(first.url, token, {
      schedule: 1,
      reason: 1,
      slot,
      submission: { ...ADA, phone: '+49 30 1234' },
    });
    expect(answer.status).toBe(201);
    const expected = Temporal.PlainDateTime.from(slot.replace(' ', 'T'))
      .toZonedDateTime('Europe/Berlin')
      .toInstant()
      .toString();
    expect(answer.body.slot).toBe(expected.replace(/\.\d+Z$/, 'Z'));
    expect(answer.body.slot).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const shown = await cliJson(db, 'bookings', 'show', answer.body.booking_details_id);
    expect(shown).toMatchObject({
      id: answer.body.booking_id,
      customerId: answer.body.user_id,
      start: answer.body.slot,
      source: 'api',
      submission: { phone: '+49 30 1234' },
    });
    // The same e-mail, in another case, books as the same customer.
    const again = await book(second.url, token, {
      schedule: 1,
      reason: 1,
      slot: await someFreeSlot(first.url, token, 1, 1, 6),
      submission: { ...ADA, email: ' ADA@example.com' },
    });
    expect(again.body.user_id).toBe(answer.body.user_id);
  });

  it('sees CLI changes to schedules, hours and fields at its next request', async () => {
    await cliOk(db, 'schedule', 'add', 'Late addition');
    expect((await api(first.url, '/api/schedules', token)).body.data.map((s: any) => s.name)).toContain(
      'Late addition',
    );

    const day = ((await api(first.url, '/api/days?schedule=1&reason=1', token)).body.data as string[])[2]!;
    await cliOk(db, 'hours', 'set', '1', 'mon-sun', '16:00-17:00');
    const slots = (await api(first.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data;
    expect(slots).toEqual([`${day} 16:00:00`, `${day} 16:30:00`]);

    await cliOk(db, 'field', 'add', 'insurance_number', '--label', 'Insurance number', '--required');
    const form = (await api(first.url, `/api/forms?schedule=1&reason=1&slot=${day}%2016:00:00`, token)).body.data;
    expect(form.insurance_number).toEqual({
      form_type: 'textbox',
      input_type: 'text',
      label: 'Insurance number',
      required: true,
      value: '',
    });
    const missing = await book(second.url, token, { schedule: 1, reason: 1, slot: `${day} 16:00:00`, submission: ADA });
    expect(missing).toMatchObject({ status: 400, body: { error: 'Field is required', field: 'insurance_number' } });
  });
});

describe('error answers of a real server process', () => {
  it('415, 413 and 500 are JSON, nothing is written, and the server keeps serving', async () => {
    const db = tempDb();
    const token = await bookableDb(db, { schedules: [{ name: 'Single', stepMinutes: 15 }] });
    const server = await serve(db);
    const slot = await someFreeSlot(server.url, token, 1, 1);
    const body = JSON.stringify({ schedule: 1, reason: 1, slot, submission: ADA });

    const plain = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(plain).toMatchObject({ status: 415, body: { error: 'Content-Type must be application/json' } });
    const huge = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ' '.repeat(70_000) + body,
    });
    expect(huge).toMatchObject({ status: 413, body: { error: 'Body larger than 65536 bytes' } });

    // A real write failure inside the server's transaction: a trigger that fails like a full disk.
    const raw = new DatabaseSync(db, { timeout: 5000 }); // the server may hold the write lock a moment
    raw.exec(
      "CREATE TRIGGER fail_insert BEFORE INSERT ON bookings BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END",
    );
    const failed = await book(server.url, token, JSON.parse(body));
    expect(failed).toMatchObject({ status: 500, body: { error: 'The booking could not be saved' } });
    expect(
      raw.prepare('SELECT (SELECT COUNT(*) FROM bookings) AS b, (SELECT COUNT(*) FROM customers) AS c').get(),
    ).toEqual({ b: 0, c: 0 });
    raw.exec('DROP TRIGGER fail_insert');
    raw.close();
    expect((await book(server.url, token, JSON.parse(body))).status).toBe(201);
    await server.stop();
    expect(server.output()).toContain('the booking could not be saved: database or disk is full');
    expect(server.output()).not.toMatch(/\n\s+at /); // no stack trace
  });
});
