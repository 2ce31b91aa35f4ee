/**
 * A plain HTTP server for the tests that serves `.ics` files as Google, iCloud and Outlook do: a strong ETag and a
 * Last-Modified, 304 to a matching If-None-Match. It records each request (method, path, headers, the status it
 * answered) and can be told to fail a path with a status, to hang, or to redirect. Closed after the test file.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { onCleanup } from '../helpers.ts';

export interface IcsServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Serves `body` at `path` from now on (a new ETag and Last-Modified when it changed). */
  set(path: string, body: string): void;
  /** Answers `status` at `path` from now on (until `set` again). */
  fail(path: string, status: number): void;
  /** Never answers at `path` (until `set` again). */
  hang(path: string): void;
  /** Redirects `path` to `location` with 302. */
  redirect(path: string, location: string): void;
  requests: { method: string; path: string; headers: IncomingHttpHeaders; status: number }[];
}

type Answer =
  | { body: string; etag: string; modified: string }
  | { status: number }
  | { hang: true }
  | { location: string };

export async function startIcsServer(): Promise<IcsServer> {
  const answers = new Map<string, Answer>();
  const requests: IcsServer['requests'] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const answer = answers.get(path);
    const record = (status: number) =>
      requests.push({ method: request.method ?? '', path, headers: request.headers, status });
    request.resume();
    if (!answer) return (record(404), response.writeHead(404).end());
    if ('hang' in answer) return record(0);
    if ('status' in answer) return (record(answer.status), response.writeHead(answer.status).end());
    if ('location' in answer) return (record(302), response.writeHead(302, { location: answer.location }).end());
    if (request.method !== 'GET') return (record(405), response.writeHead(405, { allow: 'GET' }).end());
    if (request.headers['if-none-match'] === answer.etag)
      return (record(304), response.writeHead(304, { etag: answer.etag }).end());
    record(200);
    response
      .writeHead(200, {
        'content-type': 'text/calendar; charset=utf-8',
        etag: answer.etag,
        'last-modified': answer.modified,
      })
      .end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    set(path, body) {
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      answers.set(path, { body, etag, modified: new Date().toUTCString() });
    },
    fail: (path, status) => answers.set(path, { status }),
    hang: (path) => answers.set(path, { hang: true }),
    redirect: (path, location) => answers.set(path, { location }),
    requests,
  };
}
