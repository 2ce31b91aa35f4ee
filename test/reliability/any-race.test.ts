/**
 * "Any practitioner" under a race (issue 40): 20 POST /api/bookings/any of one time, from two client processes at
 * once against two servers on one file, with three practitioners free then: exactly three bookings, on three
 * different practitioners, and 17 refusals (404, as a single booking's); never two on one practitioner.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, ROOT, type ServerProcess, serve, tempDb } from '../helpers.ts';

const CLIENT = join(import.meta.dirname, 'post-client.ts');

/** Starts a client process that will send `count` POST /api/bookings/any once told to go; resolves when ready. */
async function client(count: number, urls: string[], token: string, body: object) {
  const child = spawn(process.execPath, [CLIENT, String(count), ...urls], {
    cwd: ROOT,
    env: {
      ...process.env,
      PLANNER_TOKEN: token,
      PLANNER_BODY: JSON.stringify(body),
      PLANNER_PATH: '/api/bookings/any',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  while (!out.includes('ready\n')) await once(child.stdout!, 'data');
  const done = once(child, 'exit').then(() => JSON.parse(out.split('\n')[1]!) as number[]);
  return { go: () => child.stdin!.end('go\n'), done };
}

describe('any practitioner: 20 concurrent bookings of one time with three practitioners', () => {
  const db = tempDb();
  let token: string;
  let servers: ServerProcess[];
  beforeAll(async () => {
    token = await bookableDb(db, {
      schedules: [{ name: 'Dr. A' }, { name: 'Dr. B' }, { name: 'Dr. C' }],
      reasons: [{ schedules: [1, 2, 3] }],
    });
    servers = await Promise.all([serve(db, {}, ['--log', 'off']), serve(db, {}, ['--log', 'off'])]);
  });

  it('books exactly three, one per practitioner, and refuses 17 with 404', async () => {
    const urls = servers.map((server) => server.url);
    const days = (await api(urls[0]!, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const day = days[3]!;
    const slot = `${day} 10:00:00`;
    const before = await api(urls[0]!, `/api/slots/any?reason=1&day=${day}`, token);
    expect(before.body.data.find((time: { slot: string }) => time.slot === slot)).toEqual({
      slot,
      schedules: [1, 2, 3],
    });
    const body = { reason: 1, slot, submission: { first_name: 'C', last_name: '{n}', email: 'c{n}@example.com' } };
    const clients = await Promise.all([client(10, urls, token, body), client(10, urls, token, body)]);
    for (const c of clients) c.go();
    const statuses = (await Promise.all(clients.map((c) => c.done))).flat();
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 404)).toHaveLength(17);

    const file = new DatabaseSync(db, { readOnly: true });
    const rows = file
      .prepare("SELECT schedule_id AS s, reason_id AS r FROM bookings WHERE status = 'booked' ORDER BY schedule_id")
      .all();
    file.close();
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { s: 1, r: 1 },
      { s: 2, r: 1 },
      { s: 3, r: 1 },
    ]);
    const after = await api(urls[0]!, `/api/slots/any?reason=1&day=${day}`, token);
    expect(after.body.data.map((time: { slot: string }) => time.slot)).not.toContain(slot);
  });
});
