import { describe, expect, it } from 'vitest';
import { api, bookableDb, cliJson, cliOk, fieldArgs, serve, tempDb } from '../helpers.ts';

/**
 * Issue 17: GET /days comes from a cache that recomputes only the days a change touched. These are the writes it
 * must follow on a real file, each by another process than the one answering: the CLI and a second server.
 */
describe('GET /days follows every writer of the file (real servers, real CLI)', () => {
  it('a day filled by the CLI goes at the next request, comes back on a cancel, and goes again when a second server books it', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    await cliOk(db, 'hours', 'set', '1', 'mon-sun', '08:00-09:00'); // two times a day, capacity 1
    const a = await serve(db);
    const b = await serve(db);
    const days = async () => (await api(a.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const first = await days();
    const day = first[3]!;
    expect(first).toContain(day);

    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 08:00`,
      ...fieldArgs({ first_name: 'A', last_name: 'B', email: 'a@b.example' }),
    );
    expect(await days()).toContain(day); // 08:30 is still free
    await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 08:30`,
      ...fieldArgs({ first_name: 'C', last_name: 'D', email: 'c@d.example' }),
    );
    expect(await days()).toEqual(first.filter((other) => other !== day));

    await cliOk(db, 'bookings', 'cancel', made.reference, '--no-notify');
    expect(await days()).toEqual(first);

    const booked = await api(b.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: `${day} 08:00:00`,
        submission: { first_name: 'E', last_name: 'F', email: 'e@f.example' },
      }),
    });
    expect(booked.status).toBe(201);
    expect(await days()).toEqual(first.filter((other) => other !== day));
  });
});
