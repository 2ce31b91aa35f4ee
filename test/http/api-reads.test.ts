/**
 * The API's usual GET call answered on node:http itself (src/http/api-reads.ts): the same answer, byte for byte, as
 * h3 gives for it (status, body, every header but the date and the timings), the same gates and the same rate limit;
 * and every request that is not the usual call reaches h3 unchanged. Two real servers on ports, over one app: one
 * with the server's listener, one with h3's node handler alone.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { toNodeHandler } from 'h3/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { openContext, startRuntime } from '../../src/app/operations/runtime.ts';
import { changeRateLimit, switchApi } from '../../src/app/practice/api.ts';
import { rotateToken } from '../../src/app/practice/token.ts';
import { type AccessEntry, createHttpServing, type HttpServing } from '../../src/http/app.ts';
import { apiFixture, NOW } from './fixture.ts';

/** An answer as it came over the wire: status, headers in their order (lower case), body. */
interface Raw {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Sends `request` (the raw request line and headers) to `port` and reads the whole answer; the connection closes. */
async function raw(port: number, request: string): Promise<Raw> {
  const socket = connect(port, '127.0.0.1');
  socket.end(`${request}\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...fields] = head.split('\r\n');
  return {
    status: Number(statusLine.split(' ')[1]),
    headers: fields.map((field) => {
      const colon = field.indexOf(':');
      return [field.slice(0, colon).toLowerCase(), field.slice(colon + 1).trim()] as [string, string];
    }),
    body,
  };
}

/** What is left of the token's budget after `answer` (its RateLimit field). */
const remaining = (answer: Raw) => Number(/r=(\d+)/.exec(new Map(answer.headers).get('ratelimit') ?? '')?.[1]);

/** The headers that may differ between two answers to the same call, made a moment apart. */
const MOMENTARY = new Set(['date', 'server-timing', 'ratelimit']);

async function listen(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port };
}

describe('the usual GET call, answered without h3', () => {
  let f: Awaited<ReturnType<typeof apiFixture>>;
  let serving: HttpServing;
  let direct: { server: Server; port: number };
  let viaH3: { server: Server; port: number };
  const errors: string[] = [];
  const logged: AccessEntry[] = [];
  /** Requests h3 was handed (its onRequest hook). */
  let h3Requests = 0;
  let other: AppContext;
  const bearer = () => `authorization: Bearer ${f.token}`;
  /** Sends `request` to the server's listener and says whether h3 answered it. */
  const send = async (request: string) => {
    const before = h3Requests;
    const answer = await raw(direct.port, request);
    return { ...answer, byH3: h3Requests > before };
  };

  beforeAll(async () => {
    f = await apiFixture();
    // What the CLI changes, it changes from another process: the server sees other connections' writes.
    other = openContext(f.file, { mustExist: true });
    const runtime = await startRuntime(f.store, { now: () => NOW });
    serving = createHttpServing({ runtime, log: (line) => errors.push(line), accessLog: (e) => logged.push(e) });
    serving.app.config.onRequest = () => {
      h3Requests++;
    };
    direct = await listen(serving.listener);
    viaH3 = await listen(toNodeHandler(serving.app));
    // The first call with the token goes through h3 (its first comparison hashes it); from then on it is known.
    const first = await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`);
    expect([first.status, first.byH3]).toEqual([200, true]);
  });
  afterAll(() => {
    direct.server.close();
    viaH3.server.close();
  });

  const usual = [
    'GET /api/schedules',
    'HEAD /api/schedules',
    'GET /api/reasons?schedule=1',
    'GET /api/days?schedule=1&reason=1',
    'GET /api/slots?schedule=1&reason=2&day=2026-06-02',
    'GET /api/slots?schedule=1&reason=1&day=2026-06-03', // closed: an empty list
    'GET /api/forms?schedule=1&reason=1&slot=2026-06-02%2009:00:00',
    'GET /api/forms?schedule=1&reason=1&slot=2026-06-02+09:00:00',
    'GET /api/slots/any?reason=1&day=2026-06-02',
    'GET /api/reasons?schedule=99', // spec §7: a GET's unknown or malformed parameter is 404
    'GET /api/slots?schedule=1&reason=1&day=2026-13-40',
    'GET /api/days?schedule=1&schedule=2&reason=1', // a parameter twice: h3's parser makes a list, no schema takes it
    'GET /api/forms?schedule=1&reason=1&slot=%zz',
    'GET /api/schedules?unknown=1',
  ];
  it.each(usual)('%s: the same answer as h3 gives, and h3 never sees it', async (call) => {
    const mine = await send(`${call} HTTP/1.1\r\n${bearer()}`);
    const theirs = await raw(viaH3.port, `${call} HTTP/1.1\r\n${bearer()}`);
    expect(mine.byH3).toBe(false);
    expect(mine.status).toBe(theirs.status);
    expect(mine.body).toBe(theirs.body);
    // The same fields (RFC 9110 §5.3: the order of different names carries no meaning; h3 sorts a HEAD's).
    const steady = (answer: Raw) => answer.headers.filter(([name]) => !MOMENTARY.has(name)).sort();
    expect(steady(mine)).toEqual(steady(theirs));
    expect(mine.headers.map(([name]) => name).sort()).toEqual(theirs.headers.map(([name]) => name).sort());
    // The two calls counted one after the other against the one limit.
    expect(remaining(mine) - remaining(theirs)).toBe(1);
    expect(new Map(mine.headers).get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
    if (call.startsWith('HEAD')) expect(mine.body).toBe('');
    else expect(mine.body.length).toBe(Number(new Map(mine.headers).get('content-length')));
  });

  it('logs the usual call in the access log as h3 logs any other', async () => {
    logged.length = 0;
    expect((await send(`GET /api/reasons?schedule=1 HTTP/1.1\r\n${bearer()}`)).byH3).toBe(false);
    expect(logged).toEqual([
      { time: expect.any(String), method: 'GET', path: '/api/reasons', status: 200, ms: expect.any(Number) },
    ]);
    expect(new Date(logged[0]!.time).toISOString()).toBe(logged[0]!.time);
  });

  /** The name, the request, h3's status, and whether h3 counts it against the limit (it passed the token). */
  const unusual: [string, string, number, boolean][] = [
    ['no token', 'GET /api/schedules HTTP/1.1', 401, false],
    ['another token', `GET /api/schedules HTTP/1.1\r\nauthorization: Bearer ${'A'.repeat(43)}`, 401, false],
    ['the token twice', 'GET /api/schedules HTTP/1.1\r\n{bearer}\r\n{bearer}', 401, false],
    ['a trailing slash', 'GET /api/schedules/ HTTP/1.1\r\n{bearer}', 404, true],
    ['a percent-encoded path', 'GET /api/%73chedules HTTP/1.1\r\n{bearer}', 404, true],
    ['a dot segment', 'GET /api/../api/schedules HTTP/1.1\r\n{bearer}', 404, true],
    ['the absolute form', 'GET http://127.0.0.1/api/schedules HTTP/1.1\r\n{bearer}', 200, true],
    ['a query the URL parser rewrites', "GET /api/reasons?schedule=1&x='y' HTTP/1.1\r\n{bearer}", 200, true],
    ['a POST', 'POST /api/schedules HTTP/1.1\r\n{bearer}\r\ncontent-length: 0', 404, true],
    ['another path', 'GET /api/nothing HTTP/1.1\r\n{bearer}', 404, true],
    ['the OpenAPI document', 'GET /api/openapi.json HTTP/1.1', 200, false],
  ];
  it.each(unusual)(
    '%s: h3 answers (%s), and the call is counted once or not at all',
    async (_, request, status, counts) => {
      const left = async () => remaining(await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`));
      const before = await left();
      const answer = await send(request.replaceAll('{bearer}', bearer()));
      expect([answer.status, answer.byH3]).toEqual([status, true]);
      // The usual call after it counted one; the request itself one when h3 counted it, never two.
      expect(before - (await left())).toBe(counts ? 2 : 1);
    },
  );

  it('leaves a disabled API to h3 (503), and answers again once it is enabled', async () => {
    switchApi(other, false);
    const off = await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`);
    expect([off.status, JSON.parse(off.body), off.byH3]).toEqual([503, { error: 'API disabled' }, true]);
    switchApi(other, true);
    const on = await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`);
    expect([on.status, on.byH3]).toEqual([200, false]);
  });

  it('answers the 429 of a spent budget as h3 does', async () => {
    // The window so far has counted every call of this file: the limit is set to let two more through.
    const counted = 300 - remaining(await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`)); // the fixture's 300
    changeRateLimit(other, counted + 2);
    const spent = [];
    for (let i = 0; i < 2; i++) spent.push(await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`));
    expect(spent.map((answer) => [answer.status, remaining(answer), answer.byH3])).toEqual([
      [200, 1, false],
      [200, 0, false],
    ]);
    const mine = await send(`GET /api/days?schedule=1&reason=1 HTTP/1.1\r\n${bearer()}`);
    const theirs = await raw(viaH3.port, `GET /api/days?schedule=1&reason=1 HTTP/1.1\r\n${bearer()}`);
    expect([mine.status, mine.byH3, theirs.status]).toEqual([429, false, 429]);
    expect(mine.body).toBe(theirs.body);
    const without = (answer: Raw) => answer.headers.filter(([name]) => name !== 'date').sort();
    expect(without(mine)).toEqual(without(theirs));
    expect(new Map(mine.headers).has('retry-after')).toBe(true);
    changeRateLimit(other, 1_000_000);
  });

  it('answers a route that fails unexpectedly with the JSON 500, logged once, as h3 does', async () => {
    // Another process breaks the file under the server: the table of reasons is gone.
    const other = new DatabaseSync(f.file);
    other.exec('ALTER TABLE reasons RENAME TO reasons_gone');
    errors.length = 0;
    const mine = await send(`GET /api/reasons?schedule=1 HTTP/1.1\r\n${bearer()}`);
    const theirs = await raw(viaH3.port, `GET /api/reasons?schedule=1 HTTP/1.1\r\n${bearer()}`);
    other.exec('ALTER TABLE reasons_gone RENAME TO reasons');
    other.close();
    expect([mine.status, mine.byH3, theirs.status]).toEqual([500, false, 500]);
    expect(JSON.parse(mine.body)).toEqual({ error: 'Internal Server Error' });
    expect(mine.body).toBe(theirs.body);
    const without = (answer: Raw) => answer.headers.filter(([name]) => name !== 'date').sort();
    expect(without(mine)).toEqual(without(theirs));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^planner: GET \/api\/reasons failed: .*reasons/);
    expect(errors[0]).toBe(errors[1]);
    // The server goes on.
    expect((await send(`GET /api/reasons?schedule=1 HTTP/1.1\r\n${bearer()}`)).status).toBe(200);
  });

  it('fails the usual call when the settings cannot be read, as h3 does, and reads them again at the next call', async () => {
    const other = new DatabaseSync(f.file);
    other.exec('ALTER TABLE settings RENAME TO settings_gone');
    errors.length = 0;
    const mine = [];
    for (let i = 0; i < 2; i++) mine.push(await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`));
    const theirs = await raw(viaH3.port, `GET /api/schedules HTTP/1.1\r\n${bearer()}`);
    other.exec('ALTER TABLE settings_gone RENAME TO settings');
    other.close();
    // Each call fails: a read that failed is not taken for seen (the second would have had the old settings).
    expect(mine.map((answer) => [answer.status, answer.body, answer.byH3])).toEqual([
      [500, '{"error":"Internal Server Error"}', false],
      [500, '{"error":"Internal Server Error"}', false],
    ]);
    expect([theirs.status, theirs.body]).toEqual([500, mine[0]!.body]);
    const without = (answer: Raw) => answer.headers.filter(([name]) => name !== 'date').sort();
    expect(without(mine[0]!)).toEqual(without(theirs));
    expect(errors).toHaveLength(3);
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toMatch(/^planner: GET \/api\/schedules failed: .*settings/);
    expect((await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`)).status).toBe(200);
  });

  it('forgets the token at once when it is replaced: the old one goes to h3 (401), the new one from its second call', async () => {
    const old = f.token;
    expect((await send(`GET /api/schedules HTTP/1.1\r\n${bearer()}`)).byH3).toBe(false);
    const replaced = await rotateToken(other); // `planner token new`
    const calls = [];
    for (const token of [old, replaced, replaced, old])
      calls.push(await send(`GET /api/schedules HTTP/1.1\r\nauthorization: Bearer ${token}`));
    expect(calls.map((answer) => [answer.status, answer.byH3])).toEqual([
      [401, true],
      [200, true],
      [200, false],
      [401, true],
    ]);
  });
});
