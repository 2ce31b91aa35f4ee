/**
 * The part of a CalDAV server planner writes to (issue 38), in the test process: resources with ETags, conditional PUT
 * (If-Match, If-None-Match: *, 412), GET and DELETE; `state.down` answers 503 to everything (an outage). Closed after
 * the test file.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onCleanup } from '../helpers.ts';
import { heldRequest } from './fake-server.ts';

/**
 * Starts the server; `url` is its collection, ending in `/`. `etag` makes the n-th ETag (default `"n"`); its text is
 * bytes as Node reads and writes a header, one character a byte (Latin-1), so obs-text (RFC 9110 §5.5) can be given.
 */
export async function fakeCalDav(options: { etag?: (n: number) => string } = {}) {
  const etagOf = options.etag ?? ((n: number) => `"${n}"`);
  const resources = new Map<string, { body: string; etag: string }>();
  /** `refused`: the 412s answered; `puts`: the PUTs taken; `dropAfterPut`: a PUT is stored, then its connection cut. */
  const state = { down: false, etags: 0, refused: 0, puts: 0, dropAfterPut: false };
  const fake = {
    url: '',
    resources,
    state,
    /** Called with each request as it comes (to see its headers). */
    onRequest: (_request: IncomingMessage) => {},
    /**
     * Holds the next request to `path` (e.g. `/cal/planner-….ics`) unanswered until `release()`: `arrived` resolves
     * when it comes.
     */
    hold(path: string) {
      const { arrived, arrive, released, release } = heldRequest();
      holds.set(path, { arrive, released });
      return { arrived, release };
    },
  };
  const holds = new Map<string, { arrive: () => void; released: Promise<void> }>();
  const server = createServer((request, response) => {
    fake.onRequest(request);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const held = holds.get(request.url ?? '');
      if (held) {
        holds.delete(request.url ?? '');
        held.arrive();
        await held.released;
      }
      if (state.down) return response.writeHead(503).end();
      const path = request.url ?? '';
      const now = resources.get(path);
      const ifMatch = request.headers['if-match'];
      const ifNoneMatch = request.headers['if-none-match'];
      if (request.method === 'GET')
        return now ? response.writeHead(200, { etag: now.etag }).end(now.body) : response.writeHead(404).end();
      if (request.method === 'DELETE')
        return resources.delete(path) ? response.writeHead(204).end() : response.writeHead(404).end();
      if (request.method !== 'PUT') return response.writeHead(405).end();
      if ((ifNoneMatch === '*' && now) || (ifMatch !== undefined && (!now || now.etag !== ifMatch))) {
        state.refused++;
        return response.writeHead(412).end();
      }
      const etag = etagOf(++state.etags);
      state.puts++;
      resources.set(path, { body: Buffer.concat(chunks).toString('utf8'), etag });
      if (state.dropAfterPut) return request.socket.destroy();
      response.writeHead(now ? 204 : 201, { etag }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => server.close());
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/`;
  return fake;
}

/**
 * A calendar server that hangs: it takes each connection and reads the request, and never answers (a server whose
 * disk or backend stalls). `requests` counts the requests received; the connections are closed after the test file.
 */
export async function hangingCalDav() {
  const state = { requests: 0 };
  const held = new Set<Socket>();
  const server = createServer((request) => {
    state.requests++;
    request.resume();
  });
  server.on('connection', (socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = () => {
    for (const socket of held) socket.destroy();
    server.close();
  };
  onCleanup(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/`, state, close };
}
