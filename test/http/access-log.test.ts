/**
 * Issue 23, finding 11: the access log showed a page link's token or a feed's secret in full for near-miss paths
 * (`/MANAGE/<token>`, `//feed/<secret>.ics`, …). A table of variants through a real server's access log, and the
 * masking rule in-process.
 */

import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loggedPath } from '../../src/http/logged-path.ts';
import { bookableDb, cliOk, serve, tempDb } from '../helpers.ts';

const TOKEN = randomBytes(32).toString('base64url');
const SECRET = randomBytes(32).toString('base64url');

/** Paths as a client may send them, each holding TOKEN or SECRET, and what the log shows. */
const VARIANTS: [string, string][] = [
  [`/manage/${TOKEN}`, '/manage/…'],
  [`/manage/${TOKEN}/cancel`, '/manage/…'],
  [`/MANAGE/${TOKEN}`, '/manage/…'],
  [`/Manage/${TOKEN}/cancel`, '/manage/…'],
  [`//manage/${TOKEN}`, '/manage/…'],
  [`///Manage//${TOKEN}/reschedule`, '/manage/…'],
  [`/%6Danage/${TOKEN}`, '/manage/…'],
  [`/manage%2F${TOKEN}`, '/manage/…'],
  [`/feed/${SECRET}.ics`, '/feed/…'],
  [`/FEED/${SECRET}.ics`, '/feed/…'],
  [`//feed/${SECRET}.ics`, '/feed/…'],
  [`/Feed/${SECRET}.ICS`, '/feed/…'],
  [`/feed/${SECRET}`, '/feed/…'],
  [`/api/${TOKEN}`, '/api/…'],
  [`/x/${SECRET}.ics/y`, '/x/…/y'],
  // `%x` is never a valid escape, whatever TOKEN begins with (`%${TOKEN}` was valid when TOKEN began with two hex digits).
  [`/api/%x${TOKEN}`, '/api/…'],
];

describe('the access log never shows a token or secret, whatever the path’s case, slashes or encoding', () => {
  it.each(VARIANTS)('%s is logged as %s', (path, logged) => {
    expect(loggedPath(path)).toBe(logged);
  });

  it('keeps the paths that hold none as they are', () => {
    for (const path of [
      '/api/schedules',
      '/api/openapi.json',
      '/',
      '/favicon.ico',
      '/api/slots',
      '/manage',
      '/feed/',
    ]) {
      expect(loggedPath(path)).toBe(path === '/manage' ? '/manage/…' : path === '/feed/' ? '/feed/…' : path);
    }
  });

  it('through a real server: every variant answered, none logged with its secret', async () => {
    const db = tempDb();
    await bookableDb(db);
    const server = await serve(db);
    await cliOk(db, 'portal', 'enable', '--url', server.url);
    const { port } = new URL(server.url);
    const statuses: number[] = [];
    for (const [path] of VARIANTS) {
      // node:http sends the path exactly as written (fetch would normalise some of them).
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          })
            .on('error', reject)
            .end();
        }),
      );
    }
    // /api: the token gate answers first; a malformed escape: 400.
    expect(statuses).toEqual(
      VARIANTS.map(([path]) => (path.startsWith('/api/%') ? 400 : path.startsWith('/api/') ? 401 : 404)),
    );
    // The log is buffered (issue 39): every line is written at the latest when the server stops.
    await server.stop();
    const log = server.output();
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(TOKEN.slice(0, 20));
    expect(log.match(/ GET \/manage\/… 404 /g)).toHaveLength(8);
    expect(log.match(/ GET \/feed\/… 404 /g)).toHaveLength(5);
  });
});

describe('the access log has one line per answer, with its status, whichever door answers or fails (issue 39)', () => {
  it('API, gates, errors, pages, feed: each request logged once, in order, with the status the client got', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    await cliOk(db, 'portal', 'enable', '--url', server.url);
    await cliOk(db, 'booking-page', 'enable');
    const { port } = new URL(server.url);
    const requests: { method: string; path: string; token?: string; body?: string }[] = [
      { method: 'GET', path: '/api/schedules', token },
      { method: 'GET', path: '/api/schedules', token: `pln_${'x'.repeat(64)}` },
      { method: 'GET', path: '/api/nothing-here', token },
      { method: 'GET', path: '/api/schedules/', token },
      { method: 'POST', path: '/api/bookings', token, body: '{not json' },
      { method: 'DELETE', path: '/api/schedules', token },
      { method: 'GET', path: '/api/%x', token },
      { method: 'GET', path: '/api/openapi.json' },
      { method: 'GET', path: '/elsewhere' },
      { method: 'GET', path: '/book/' },
      { method: 'GET', path: '/manage/unknown-link' },
      { method: 'GET', path: '/feed/unknown.ics' },
    ];
    const statuses: number[] = [];
    for (const sent of requests) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          request(
            {
              host: '127.0.0.1',
              port,
              path: sent.path,
              method: sent.method,
              headers: {
                ...(sent.token ? { authorization: `Bearer ${sent.token}` } : {}),
                ...(sent.body ? { 'content-type': 'application/json' } : {}),
              },
            },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode!));
            },
          )
            .on('error', reject)
            .end(sent.body);
        }),
      );
    }
    await server.stop();
    const lines = server
      .output()
      .split('\n')
      .map((line) => /^\S+Z (\S+) (\S+) (\d{3}) [\d.]+ms$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => `${match[1]} ${match[3]}`);
    expect(lines).toEqual(requests.map((sent, index) => `${sent.method} ${statuses[index]}`));
    // The answers logged above are of every kind: a route's, a gate's, h3's own (no route, a malformed path), a page's.
    expect(statuses).toEqual([200, 401, 404, 404, 400, 404, 400, 200, 404, 200, 404, 404]);
  });
});
