import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundError, openSession, send } from '../../src/outbound/request.ts';

let server: Server | undefined;
afterEach(() => server?.close());

/** A server whose answer, compressed as `encoding`, is cut off halfway: the connection closes mid-body. */
async function cutOffServer(encoding: string): Promise<string> {
  const body = gzipSync(Buffer.from('BEGIN:VCALENDAR\r\n'.repeat(20_000)));
  server = createServer((_, response) => {
    response.writeHead(200, { 'content-encoding': encoding, 'content-length': String(body.length) });
    response.write(body.subarray(0, body.length >> 1), () => response.socket?.destroy());
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar`;
}

describe('outbound requests (webhooks, calendar reads and writes)', () => {
  it.each(['gzip', 'identity'])(
    'an answer (%s) cut off midway fails as a network error, not a request that never ends',
    async (encoding) => {
      const url = await cutOffServer(encoding);
      // The deadline is far beyond the test's own time-out: only the cut itself can end the request in time.
      const session = openSession(
        { url, allowInsecure: true },
        { timeoutMs: 600_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 0 },
        'planner-test',
        (next) => next,
      );
      const outcome = await send(session, 'GET', url, {}).catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(OutboundError);
      expect((outcome as OutboundError).failure).toMatchObject({ kind: 'network', code: 'ECONNRESET' });
    },
    30_000,
  );
});
