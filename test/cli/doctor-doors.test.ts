/**
 * `planner doctor --url` checks every door that is on through the reverse proxy (issue 36, item 12): a proxy that
 * routes the API and the self-service page but not the booking page or the feed (the README's snippets before) made
 * the booking page unreachable while doctor said ok. The front desk (issue 46) is checked the same way, at its own
 * address, by its login page.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bookableDb, cli, cliOk, onCleanup, serve, tempDb } from '../helpers.ts';

/**
 * Starts a reverse proxy in front of `upstream` that forwards only the paths under `prefixes` (headers and all, as
 * the README's snippets do) and answers anything else with its own 404 page, as nginx does for a location it lacks.
 */
async function prefixProxy(upstream: string, prefixes: string[]): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    if (!prefixes.some((prefix) => incoming.url!.startsWith(prefix))) {
      outgoing.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
      return;
    }
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => new Promise((done) => server.close(done)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('planner doctor --url checks each door that is on', () => {
  it('fails with one clear line for the booking page, the feed and the desk when the proxy does not route them, ok when it does', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const partial = await prefixProxy(server.url, ['/api/', '/manage/']);
    const full = await prefixProxy(server.url, ['/api/', '/manage/', '/book/', '/feed/', '/desk/']);

    // The public address is the proxy's, as in production; every door on.
    await cliOk(db, 'portal', 'enable', '--url', partial.url);
    await cliOk(db, 'booking-page', 'enable');
    await cliOk(db, 'feed', 'url', '1');
    await cliOk(db, 'desk', 'enable', '--url', partial.url);
    const broken = await cli(db, 'doctor', '--url', `${partial.url}/api`, '--token', token);
    process.stderr.write(`doctor through a proxy without /book/, /feed/ and /desk/:\n${broken.stdout}${broken.stderr}`);
    expect(broken.stdout).toMatch(/^ok +live +.*answers 200: the Authorization header arrives/m);
    expect(broken.stdout).toMatch(/^ok +portal-live +.*\/manage\/ reaches planner/m);
    expect(broken.stdout).toMatch(
      /^fail +book-live +http:\/\/127\.0\.0\.1:\d+\/book\/ answers 404 without planner's page: route \/book\/ to planner in the proxy \(README: "Reverse proxy"\); until then customers cannot book online$/m,
    );
    expect(broken.stdout).toMatch(
      /^fail +feed-live +http:\/\/127\.0\.0\.1:\d+\/feed\/ answers 404 without planner's page: route \/feed\/ to planner in the proxy/m,
    );
    expect(broken.stdout).toMatch(
      /^fail +desk-live +http:\/\/127\.0\.0\.1:\d+\/desk\/ answers 404 without planner's page: route \/desk\/ to planner in the proxy \(README: "Reverse proxy"\); until then staff cannot log in at the front desk$/m,
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe('planner: doctor found 3 problem(s) to fix (marked fail above)\n');

    // Through a proxy that routes every door: each one is checked, and doctor is content.
    await cliOk(db, 'portal', 'enable', '--url', full.url);
    await cliOk(db, 'desk', 'enable', '--url', full.url);
    const good = await cli(db, 'doctor', '--url', `${full.url}/api`, '--token', token);
    for (const [name, door] of [
      ['portal-live', 'manage'],
      ['book-live', 'book'],
      ['feed-live', 'feed'],
      ['desk-live', 'desk'],
    ]) {
      expect(good.stdout).toMatch(
        new RegExp(`^ok +${name} +http://127\\.0\\.0\\.1:\\d+/${door}/ reaches planner`, 'm'),
      );
    }
    expect(good.code).toBe(0);

    // A door that is off is not called: the booking page and the desk off, the proxy without /book/ and /desk/ is no
    // problem.
    await cliOk(db, 'booking-page', 'disable');
    await cliOk(db, 'desk', 'disable');
    await cliOk(db, 'portal', 'enable', '--url', partial.url);
    const pageOff = await cli(db, 'doctor', '--url', `${partial.url}/api`, '--token', token);
    expect(pageOff.stdout).toMatch(/^ok +book +booking page off/m);
    expect(pageOff.stdout).not.toMatch(/book-live|desk-live/);
    expect(pageOff.stdout).toMatch(/^fail +feed-live /m);
    expect(pageOff.code).toBe(1);
  });

  it("checks the feed at the API's public address when the self-service page is off, the desk at its own, and names a booking page that is on but not served", async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const partial = await prefixProxy(server.url, ['/api/']);
    await cliOk(db, 'portal', 'enable', '--url', partial.url);
    await cliOk(db, 'booking-page', 'enable');
    await cliOk(db, 'feed', 'url', '1');
    await cliOk(db, 'portal', 'disable');
    // The desk at another address than the API's, a proxy that routes only /desk/: checked there, not at --url's.
    const desk = await prefixProxy(server.url, ['/desk/']);
    await cliOk(db, 'desk', 'enable', '--url', desk.url);
    const result = await cli(db, 'doctor', '--url', `${partial.url}/api`, '--token', token);
    expect(result.stdout).toMatch(
      /^fail +book +the booking page is on but not served: it lives at the self-service page's address, which is off/m,
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `^fail +feed-live +${partial.url.replace(/\./g, '\\.')}/feed/ answers 404 without planner's page`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `^ok +desk-live +${desk.url.replace(/\./g, '\\.')}/desk/ reaches planner: staff can log in at the front desk$`,
        'm',
      ),
    );
    expect(result.code).toBe(1);
  });
});
