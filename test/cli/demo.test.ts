import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { api, cli, cliJson, onCleanup, refused, serve, tempDb } from '../helpers.ts';

describe('planner demo', () => {
  it('creates a demo installation with the API on, prints a token and the six calls, and never overwrites', async () => {
    const db = tempDb();
    const result = await cli(db, 'demo');
    expect(result.code).toBe(0);
    const token = /API token \(shown once\): (pln_[A-Za-z0-9]{64})/.exec(result.stdout)?.[1];
    expect(token).toBeDefined();
    for (const path of [
      '/api/schedules',
      '/api/reasons?',
      '/api/days?',
      '/api/slots?',
      '/api/forms?',
      '/api/bookings',
    ]) {
      expect(result.stdout).toContain(path);
    }
    const status = await cliJson(db, 'status');
    expect(status).toMatchObject({
      configured: true,
      api: { enabled: true, tokenPresent: true },
      counts: { schedules: 2, reasons: 5, fields: 4 },
    });
    const hours = await cliJson(db, 'hours', 'show', '1');
    expect(hours.mon).toEqual(['08:00-12:00', '14:00-18:00']);

    await refused(db, ['demo'], /already exists .* never overwrites/);

    // The token it printed opens the API of a running server.
    const server = await serve(db);
    const answer = await api(server.url, '/api/nothing-here', token);
    expect(answer.status).toBe(404);
    expect((await api(server.url, '/api/nothing-here', 'pln_' + 'x'.repeat(64))).status).toBe(401);
  });

  it('--serve on a port in use says so in one line naming --port, exits 1, and creates nothing', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    onCleanup(() => new Promise((resolve) => taken.close(resolve)));
    const port = (taken.address() as { port: number }).port;
    const db = tempDb();
    const result = await cli(db, 'demo', '--serve', '--port', String(port));
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `planner: port ${port} on 127.0.0.1 is in use: stop the other server or pass --port <n>\n`,
    );
    expect(existsSync(db)).toBe(false);
  });
});
