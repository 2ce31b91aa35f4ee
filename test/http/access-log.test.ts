/**
 * Issue 23, finding 11: the access log showed a page link's token or a feed's secret in full for near-miss paths
 * (`/MANAGE/<token>`, `//feed/<secret>.ics`, …). A table of variants through a real server's access log, and the
 * masking rule in-process.
 */
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
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
