import { once } from 'node:events';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliJson, cliOk, initDb, onCleanup, serve, tempDb, tempDir } from '../helpers.ts';

async function bookOne(url: string, token: string) {
  const days = (await api(url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const slots = (await api(url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
  return api(url, '/api/bookings', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schedule: 1,
      reason: 1,
      slot: slots[0],
      submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
    }),
  });
}

describe('planner backup', () => {
  it('copies the database while the server runs; the copy is 0600, consistent and holds the booking', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const booked = await bookOne(server.url, token);
    expect(booked.status).toBe(201);
    const target = join(tempDir(), 'backup.db');
    expect(await cliOk(db, 'backup', target)).toMatch(
      /^Backed up to .*backup\.db \(\d+ KiB\)\. To restore: stop planner serve/,
    );
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const copy = new DatabaseSync(target, { readOnly: true });
    expect(copy.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(copy.prepare('SELECT reference FROM bookings').all()).toEqual([
      { reference: booked.body.booking_details_id },
    ]);
    copy.close();

    const again = await cli(db, 'backup', target);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; choose another name or pass --force/);
    expect((await cli(db, 'backup', target, '--force')).code).toBe(0);
    const bad = await cli(db, 'backup', join(tempDir(), 'no-such-dir', 'x.db'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^planner: cannot create /);
    expect((await api(server.url, '/api/schedules', token)).status).toBe(200);
  });
});

describe('planner doctor', () => {
  it('reports the state with fixes, warns about loose permissions, and proves the live Authorization header arrives', async () => {
    const db = tempDb();
    await initDb(db);
    const fresh = await cli(db, 'doctor');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/^ok +database/m);
    expect(fresh.stdout).toMatch(/^warn +api +disabled: every call answers 503/m);
    expect(fresh.stdout).toMatch(/^warn +token +none/m);
    expect(fresh.stdout).toMatch(/^warn +mail +not configured/m);

    chmodSync(db, 0o644);
    const loose = await cliJson(db, 'doctor');
    expect(loose.find((check: any) => check.name === 'permissions')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('chmod 600'),
    });
    chmodSync(db, 0o600);

    await cliOk(db, 'api', 'enable');
    const { token } = await cliJson(db, 'token', 'new');
    const server = await serve(db);
    const live = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', token);
    expect(live.stdout).toMatch(/^ok +live +.*answers 200: the Authorization header arrives/m);
    expect(live.stdout + live.stderr).not.toContain(token.slice(4));
    expect(live.stdout).toMatch(/^ok +portal +off/m);

    // The self-service page on: --url also checks that its links reach planner.
    await cliOk(db, 'portal', 'enable', '--url', server.url);
    const withPage = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', token);
    expect(withPage.stdout).toMatch(
      /^ok +portal +on at http:\/\/127\.0\.0\.1:\d+\/manage\/…, cancel or move until 24 h before/m,
    );
    expect(withPage.stdout).toMatch(/^ok +portal-live +.*\/manage\/ reaches planner/m);
    // A proxy without the /manage/ location answers its own 404 there.
    const bare = createServer((_incoming, outgoing) =>
      outgoing.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>'),
    ).listen(0, '127.0.0.1');
    await once(bare, 'listening');
    onCleanup(() => bare.close());
    await cliOk(db, 'portal', 'enable', '--url', `http://127.0.0.1:${(bare.address() as AddressInfo).port}`);
    const noRoute = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', token);
    expect(noRoute.code).toBe(1);
    expect(noRoute.stdout).toMatch(
      /^fail +portal-live +.*\/manage\/ answers 404 without planner's page: route \/manage\/ to planner in the proxy/m,
    );
    await cliOk(db, 'portal', 'disable');

    // A reverse proxy that drops the Authorization header, as some do.
    const upstream = new URL(server.url);
    const proxy = createServer((incoming, outgoing) => {
      const headers = { ...incoming.headers };
      delete headers.authorization;
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(forward);
    }).listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    onCleanup(() => proxy.close());
    const stripped = await cli(
      db,
      'doctor',
      '--url',
      `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api`,
      '--token',
      token,
    );
    expect(stripped.code).toBe(1);
    expect(stripped.stdout).toMatch(
      /^fail +live +.*answers 401 to the right token: the Authorization header does not arrive/m,
    );
    expect(stripped.stderr).toBe('planner: doctor found 1 problem(s) to fix (marked fail above)\n');

    const wrong = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', `pln_${'x'.repeat(64)}`);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/that token is not this installation's token/);
  });
});

describe('planner serve operations', () => {
  it('logs one line per request without query values or the token; --log json for machines', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const text = await serve(db);
    await api(text.url, '/api/reasons?schedule=1', token);
    await api(text.url, '/api/reasons?schedule=1', 'pln_' + 'y'.repeat(64));
    await text.stop();
    expect(text.output()).toMatch(/^\d{4}-\d\d-\d\dT\S+Z GET \/api\/reasons 200 [\d.]+ms$/m);
    expect(text.output()).toMatch(/GET \/api\/reasons 401 /);
    expect(text.output()).not.toContain('schedule=1');
    expect(text.output()).not.toContain(token.slice(4));

    // Buffered (issue 39), yet written while the server runs: within FLUSH_MS (100 ms), without a stop.
    const running = await serve(db);
    await api(running.url, '/api/schedules', token);
    await running.waitFor(/^\d{4}-\d\d-\d\dT\S+Z GET \/api\/schedules 200 [\d.]+ms$/m);
    await running.stop();

    const json = await serve(db, {}, ['--log', 'json']);
    await api(json.url, '/api/schedules', token);
    await json.stop();
    const line = json
      .output()
      .split('\n')
      .find((entry) => entry.startsWith('{'))!;
    expect(JSON.parse(line)).toEqual({
      time: expect.any(String),
      method: 'GET',
      path: '/api/schedules',
      status: 200,
      ms: expect.any(Number),
    });
  });

  it('SIGTERM with a keep-alive connection open exits 0 promptly', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    expect((await api(server.url, '/api/schedules', token, { keepalive: true })).status).toBe(200);
    const started = performance.now();
    expect(await server.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(12_000);
    expect(existsSync(`${db}-wal`)).toBe(false); // the store was closed: SQLite folded the WAL back
  });
});
