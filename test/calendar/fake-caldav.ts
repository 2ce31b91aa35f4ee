/**
 * The part of a CalDAV server planner writes to (issue 38), in the test process: resources with ETags, conditional PUT
 * (If-Match, If-None-Match: *, 412), GET and DELETE; `state.down` answers 503 to everything (an outage). Closed after
 * the test file.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from '../helpers.ts';

/** Starts the server; `url` is its collection, ending in `/`. */
export async function fakeCalDav() {
  const resources = new Map<string, { body: string; etag: string }>();
  const state = { down: false, etags: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
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
      if ((ifNoneMatch === '*' && now) || (ifMatch !== undefined && (!now || now.etag !== ifMatch)))
        return response.writeHead(412).end();
      const etag = `"${++state.etags}"`;
      resources.set(path, { body: Buffer.concat(chunks).toString('utf8'), etag });
      response.writeHead(now ? 204 : 201, { etag }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/`, resources, state };
}
