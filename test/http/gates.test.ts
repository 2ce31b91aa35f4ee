import { describe, expect, it } from 'vitest';
import { FAILED_ATTEMPTS_PER_MINUTE } from '../../src/http/auth-throttle.ts';
import { api, cli, cliJson, cliOk, initDb, serve, tempDb } from '../helpers.ts';
import { expectThrottled } from './throttled.ts';

const PASSES = '/api/not-a-call'; // behind every gate, then 404: shows the gates let the request through

/**
 * Asserts the one shape of every 401: the spec's body exactly, `WWW-Authenticate: Bearer` (RFC 9110 §11.6.1), and
 * no rate-limit fields (answered before the token, and so its window, is known).
 */
function expectUnauthorized(answer: Awaited<ReturnType<typeof api>>, name: string): void {
  expect(answer.status, name).toBe(401);
  expect(answer.text, name).toBe('{"error":"Unauthorized"}'); // the spec's body, byte for byte
  expect(answer.headers.get('www-authenticate'), name).toBe('Bearer');
  expect(answer.headers.get('ratelimit'), name).toBeNull();
  expect(answer.headers.get('ratelimit-policy'), name).toBeNull();
}

describe('serve: the gates in the spec order (not configured, disabled, token, rate limit)', () => {
  it('follows the installation through init, api enable and token new without a restart', async () => {
    const db = tempDb();
    const server = await serve(db);
    expect(server.output()).toContain('not configured yet');

    for (const [method, path] of [
      ['GET', '/api/schedules'],
      ['POST', '/api/bookings'],
      ['GET', '/api'],
    ] as const) {
      const answer = await api(server.url, path, 'pln_' + 'a'.repeat(64), { method });
      expect(answer.status, `${method} ${path}`).toBe(503);
      expect(answer.body).toEqual({ error: 'Not configured' });
    }
    expect((await api(server.url, '/elsewhere')).status).toBe(404);
    // The background workers wait for init quietly (the calendar writes' alert check once logged a failure here).
    expect(server.output()).not.toContain('could not be read');

    await initDb(db);
    const disabled = await api(server.url, '/api/schedules');
    expect(disabled.status).toBe(503);
    expect(disabled.body).toEqual({ error: 'API disabled' });

    await cliOk(db, 'api', 'enable');
    expectUnauthorized(await api(server.url, '/api/schedules'), 'no token');

    const { token } = await cliJson(db, 'token', 'new');
    const through = await api(server.url, PASSES, token);
    expect(through.status).toBe(404);
    expect(through.body).toEqual({ error: 'Not Found' });

    await cliOk(db, 'api', 'disable');
    const off = await api(server.url, PASSES, token);
    expect(off.status).toBe(503);
    expect(off.body).toEqual({ error: 'API disabled' });
    await cliOk(db, 'api', 'enable');
    expect((await api(server.url, PASSES, token)).status).toBe(404);

    expect(await server.stop()).toBe(0);
  });
});

describe('serve: tokens', () => {
  it('answers 401 for every kind of missing or wrong token, and rotation takes effect at once', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    const { token } = await cliJson(db, 'token', 'new');
    const server = await serve(db);

    const wrong: [string, Record<string, string>][] = [
      ['no header', {}],
      ['empty', { authorization: '' }],
      ['basic scheme', { authorization: `Basic ${token}` }],
      ['no scheme', { authorization: token }],
      ['wrong prefix', { authorization: `Bearer abc_${token.slice(4)}` }],
      ['too short', { authorization: `Bearer ${token.slice(0, -1)}` }],
      ['too long', { authorization: `Bearer ${token}x` }],
      ['bad character', { authorization: `Bearer ${token.slice(0, -1)}!` }],
      ['right shape, wrong token', { authorization: `Bearer pln_${'Z'.repeat(64)}` }],
      ['two tokens', { authorization: `Bearer ${token} ${token}` }],
    ];
    // Each kind on another call in turn (one call each: 20 failures would trip the throttle of failed tokens);
    // the documented calls are also contract-checked, where WWW-Authenticate is a required header of the 401.
    const calls: [string, RequestInit][] = [
      [PASSES, {}],
      ['/api/days?schedule=1&reason=1', {}],
      ['/api/bookings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [index, [name, headers]] of wrong.entries()) {
      const [path, init] = calls[index % calls.length]!;
      expectUnauthorized(
        await api(server.url, path, undefined, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), ...headers },
        }),
        `${name}, ${path}`,
      );
    }
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect((await api(server.url, PASSES, undefined, { headers: { authorization: `bearer ${token}` } })).status).toBe(
      404,
    );

    // Rotation while the server runs: the old token (already recognised and cached) stops at once.
    expect((await api(server.url, PASSES, token)).status).toBe(404);
    const { token: next } = await cliJson(db, 'token', 'new');
    expectUnauthorized(await api(server.url, PASSES, token), 'replaced token');
    expect((await api(server.url, PASSES, next)).status).toBe(404);

    // Nothing about the token reaches the server's output.
    await server.stop();
    expect(server.output()).not.toContain(token.slice(4));
    expect(server.output()).not.toContain(next.slice(4));
  });
});

/**
 * Asserts the one shape of every 429 (src/http/errors.ts tooManyRequests): the spec's body, and the headers every
 * door's 429 has (test/http/throttled.ts).
 */
function expectTooManyRequests(answer: Awaited<ReturnType<typeof api>>, policy: string, limit: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ error: 'Too Many Requests' });
  expectThrottled(answer.headers, policy, limit);
  expect(answer.headers.get('cache-control')).toBe('no-store');
}

describe('serve: rate limit and headers', () => {
  it('counts every authenticated call, answers 429 with Retry-After, and a new token starts fresh', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    await cliOk(db, 'api', 'limit', '3');
    const { token } = await cliJson(db, 'token', 'new');
    const server = await serve(db);

    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api(server.url, PASSES, token);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      remaining.push(answer.headers.get('ratelimit')!.replace(/;t=\d+$/, ''));
    }
    expect(remaining).toEqual(['"default";r=2', '"default";r=1', '"default";r=0']);

    expectTooManyRequests(await api(server.url, PASSES, token), 'default', 3);

    // Unauthenticated calls are not counted against the token and get 401, not 429.
    expect((await api(server.url, PASSES)).status).toBe(401);

    // A raised limit applies at the next request.
    await cliOk(db, 'api', 'limit', '5');
    expect((await api(server.url, PASSES, token)).status).toBe(404);

    const { token: fresh } = await cliJson(db, 'token', 'new');
    const answer = await api(server.url, PASSES, fresh);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=4;t=\d+$/);
  });

  it('answers the throttle of failed tokens with the same 429 headers: Retry-After and its own rate-limit fields', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    await cliJson(db, 'token', 'new');
    const server = await serve(db);
    const wrong = (i: number) => `pln_${String(i).padStart(64, 'w')}`;
    for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++)
      expect((await api(server.url, PASSES, wrong(i))).status).toBe(401);
    const throttled = await api(server.url, '/api/schedules', wrong(FAILED_ATTEMPTS_PER_MINUTE)); // contract-checked
    expectTooManyRequests(throttled, 'failed-token', FAILED_ATTEMPTS_PER_MINUTE);
  });

  it('counts failed tokens by the X-Forwarded-For of a trusted proxy only (issue 23, finding 6)', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    await cliJson(db, 'token', 'new');
    const server = await serve(db);
    const wrong = (i: number, forwarded: string) =>
      api(server.url, PASSES, `pln_${String(i).padStart(64, 'w')}`, { headers: { 'x-forwarded-for': forwarded } });
    // Trusted: each client behind the proxy has its own count.
    await cliOk(db, 'proxy', 'set', '127.0.0.1');
    for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) expect((await wrong(i, '198.51.100.1')).status).toBe(401);
    expect((await wrong(20, '198.51.100.1')).status).toBe(429);
    expect((await wrong(21, '198.51.100.2')).status).toBe(401);
    // Not trusted (the default): the header is ignored, the peer counts.
    await cliOk(db, 'proxy', 'set', 'none');
    for (let i = 22; i < 22 + FAILED_ATTEMPTS_PER_MINUTE; i++)
      expect((await wrong(i, `198.51.100.${i}`)).status).toBe(401);
    expect((await wrong(99, '198.51.100.99')).status).toBe(429);
  });

  it('sends no CORS headers (also on OPTIONS) and Cache-Control: no-store on API answers', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'api', 'enable');
    const { token } = await cliJson(db, 'token', 'new');
    const server = await serve(db);
    const answers = [
      await api(server.url, PASSES, token, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      }),
      await api(server.url, PASSES, token, { headers: { origin: 'https://evil.example' } }),
      await api(server.url, PASSES, undefined, { headers: { origin: 'https://evil.example' } }),
    ];
    for (const answer of answers) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});

describe('serve: start and stop', () => {
  it('refuses a port in use with one clear line, and exits 0 on SIGTERM', async () => {
    const db = tempDb();
    const server = await serve(db);
    const port = new URL(server.url).port;
    const clash = await cli(db, 'serve', '--port', port);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toBe(
      `planner: port ${port} on 127.0.0.1 is in use: stop the other server or pass --port <n>\n`,
    );
    expect(await server.stop()).toBe(0);
  });

  it('refuses a bad port', async () => {
    const result = await cli(tempDb(), 'serve', '--port', '70000');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('planner: --port must be from 0 to 65535 (got 70000)\n');
  });
});
