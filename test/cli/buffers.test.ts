/**
 * Buffers before and after an appointment (issue 16), through the real CLI and a real server: a reason's buffers
 * keep time free around its bookings for GET /slots, POST /bookings, `bookings add` and `bookings move` alike, and
 * GET /reasons keeps the spec's fields.
 */
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliJson, cliOk, fieldArgs, refused, serve, tempDb } from '../helpers.ts';

describe('reason buffers', () => {
  it('are set and listed by the CLI, refused out of range with nothing written, and kept by every way of booking', async () => {
    const db = tempDb();
    const token = await bookableDb(db); // schedule 1: 08:00-18:00 every day, 30-minute step; reason 1: 30 minutes
    await cliOk(db, 'reminders', 'set', 'off');
    expect(
      await cliJson(
        db,
        'reason',
        'add',
        '1',
        'Treatment',
        '--duration',
        '30',
        '--buffer-before',
        '15',
        '--buffer-after',
        '30',
        '--json',
      ),
    ).toEqual({ id: 2 });
    const listed = await cliJson(db, 'reason', 'list', '1', '--json');
    expect(listed.map((r: any) => [r.id, r.bufferBeforeMinutes, r.bufferAfterMinutes])).toEqual([
      [1, 0, 0],
      [2, 15, 30],
    ]);

    for (const [args, message] of [
      [['reason', 'set', '2', '--buffer-before', '241'], /--buffer-before must be from 0 to 4h \(got "241"\)/],
      [['reason', 'set', '2', '--buffer-after', '-5'], /--buffer-after: "-5" is not a duration/],
      [
        ['reason', 'add', '1', 'X', '--duration', '30', '--buffer-after', 'soon'],
        /--buffer-after: "soon" is not a duration/,
      ],
    ] as const)
      await refused(db, [...args], message);

    const server = await serve(db);
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const day = days[2]!;
    const slots = async (reason: number) =>
      (await api(server.url, `/api/slots?schedule=1&reason=${reason}&day=${day}`, token)).body.data as string[];
    // A 10:00 treatment keeps 09:45-11:00: a 30-minute check-up can no longer start at 09:30, 10:00 or 10:30.
    const booked = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 2,
        slot: `${day} 10:00:00`,
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      }),
    });
    expect(booked.status).toBe(201);
    const checkUp = await slots(1);
    expect(checkUp).toContain(`${day} 09:00:00`);
    for (const gone of ['09:30', '10:00', '10:30']) expect(checkUp).not.toContain(`${day} ${gone}:00`);
    expect(checkUp).toContain(`${day} 11:00:00`);
    // A treatment needs its own buffers free too: 11:00 would need 10:45, which the first one keeps.
    const treatment = await slots(2);
    expect(treatment).not.toContain(`${day} 11:00:00`);
    expect(treatment).toContain(`${day} 11:30:00`);

    // The same rule for `bookings add` and `bookings move`, and for POST /bookings.
    const add = await cli(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 10:30`,
      ...fieldArgs({ first_name: 'G', last_name: 'H', email: 'g@example.com' }),
    );
    expect(add.code).toBe(1);
    expect(add.stderr).toMatch(/is not a free slot/);
    const other = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 12:00`,
      ...fieldArgs({ first_name: 'G', last_name: 'H', email: 'g@example.com' }),
      '--json',
    );
    const move = await cli(db, 'bookings', 'move', other.reference, `${day} 09:30`);
    expect(move.code).toBe(1);
    expect(move.stderr).toMatch(/is not a free slot/);
    const post = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: `${day} 10:30:00`,
        submission: { first_name: 'Ada', last_name: 'L', email: 'x@example.com' },
      }),
    });
    expect(post.status).toBe(404);

    // GET /reasons keeps the fields the spec fixes.
    expect((await api(server.url, '/api/reasons?schedule=1', token)).body.data[1]).toEqual({
      id: 2,
      name: 'Treatment',
      description: '',
      duration: 1800,
    });
  });
});
