import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cli, fieldArgs, ROOT, type ServerProcess, serve, tempDb } from '../helpers.ts';

const CLIENT = join(import.meta.dirname, 'post-client.ts');

/** Starts a client process that will send `count` bookings of `slot` once told to go; resolves when it is ready. */
async function client(count: number, urls: string[], token: string, body: object) {
  const child = spawn(process.execPath, [CLIENT, String(count), ...urls], {
    cwd: ROOT,
    env: { ...process.env, PLANNER_TOKEN: token, PLANNER_BODY: JSON.stringify(body) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  while (!out.includes('ready\n')) await once(child.stdout!, 'data');
  const done = once(child, 'exit').then(() => JSON.parse(out.split('\n')[1]!) as number[]);
  return { go: () => child.stdin!.end('go\n'), done };
}

/** The most bookings of `schedule` that overlap at any instant, read from the file. */
function peakOverlap(db: string, schedule: number): number {
  const handle = new DatabaseSync(db, { readOnly: true });
  const rows = handle
    .prepare('SELECT start_at AS s, end_at AS e FROM bookings WHERE schedule_id = ?')
    .all(schedule) as { s: number; e: number }[];
  handle.close();
  const edges = rows
    .flatMap(
      (row) =>
        [
          [row.s, 1],
          [row.e, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (now += step));
  return peak;
}

describe('no double booking: client processes, two servers and the CLI at once', () => {
  const db = tempDb();
  let token: string;
  let servers: ServerProcess[];
  beforeAll(async () => {
    token = await bookableDb(db, {
      schedules: [
        { name: 'Single', stepMinutes: 15 },
        { name: 'Group', stepMinutes: 15, capacity: 3 },
      ],
      // Two reasons of different length on the single schedule: overlapping bookings, not only equal slots, compete.
      reasons: [
        { name: 'Short', durationMinutes: 30 },
        { name: 'Long', durationMinutes: 60 },
        { name: 'Class', durationMinutes: 45, schedules: [2] },
      ],
    });
    servers = await Promise.all([serve(db, {}, ['--log', 'off']), serve(db, {}, ['--log', 'off'])]);
  });

  it.each([
    [1, 1, 1, 8],
    [2, 3, 3, 9],
  ])(
    'schedule %i (capacity %i): 4 client processes x 10 POSTs and 3 `bookings add` for one slot, exactly %i succeed',
    async (schedule, capacity, expected, day) => {
      const urls = servers.map((server) => server.url);
      const days = (await api(urls[0]!, `/api/days?schedule=${schedule}&reason=${schedule === 1 ? 1 : 3}`, token)).body
        .data as string[];
      const slot = `${days[day]} 10:00:00`;
      const reasons = schedule === 1 ? [1, 2] : [3];
      const body = (reason: number) => ({
        schedule,
        reason,
        slot,
        submission: { first_name: 'C', last_name: '{n}', email: 'c{n}@example.com' },
      });
      const clients = await Promise.all(
        Array.from({ length: 4 }, (_, i) => client(10, urls, token, body(reasons[i % reasons.length]!))),
      );
      // The CLI processes start now; the clients fire as soon as all are ready (a CLI start takes longer than a POST,
      // so the CLI is mid-flight while the HTTP requests land or just after: either way each takes the same lock).
      const commands = Array.from({ length: 3 }, (_, i) =>
        cli(
          db,
          'bookings',
          'add',
          String(schedule),
          String(reasons[i % reasons.length]),
          slot,
          ...fieldArgs({ first_name: 'Cli', last_name: `N${i}`, email: `cli${schedule}${i}@example.com` }),
        ),
      );
      for (const c of clients) c.go();
      const statuses = (await Promise.all(clients.map((c) => c.done))).flat();
      const cliResults = await Promise.all(commands);
      const apiWins = statuses.filter((s) => s === 201).length;
      const cliWins = cliResults.filter((r) => r.code === 0).length;
      expect(apiWins + cliWins).toBe(expected);
      expect(statuses.filter((s) => s !== 201 && s !== 404)).toEqual([]); // the losers are 404, never 500
      for (const loser of cliResults.filter((r) => r.code !== 0))
        expect(loser.stderr).toMatch(/^planner: .* is not a free slot/);
      expect(peakOverlap(db, schedule)).toBe(capacity);
    },
  );
});
