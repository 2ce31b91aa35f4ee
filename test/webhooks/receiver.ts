import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readmeBlock } from '../docs/readme.ts';
import { onCleanup, tempDir } from '../helpers.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/**
 * A real HTTP receiver in the test process on 127.0.0.1 (a fixed port, so it can go down and come back).
 * Answers 2xx (or `status`) and records every request; `next(n)` resolves once `n` requests have arrived.
 */
export async function startReceiver(port = 0, status = 204) {
  const received: Received[] = [];
  const waiting: { done: () => boolean; resolve: () => void }[] = [];
  let server: Server | undefined;
  const receiver = {
    port,
    received,
    url: '',
    async up(): Promise<void> {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          received.push({ headers: req.headers, body, json: JSON.parse(body) });
          res.writeHead(status).end();
          for (const wait of [...waiting]) {
            if (wait.done()) {
              waiting.splice(waiting.indexOf(wait), 1);
              wait.resolve();
            }
          }
        });
      });
      server.listen(receiver.port, '127.0.0.1');
      await once(server, 'listening');
      receiver.port = (server.address() as { port: number }).port;
      receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
    },
    async down(): Promise<void> {
      if (!server) return;
      const closing = new Promise((resolve) => server!.close(resolve));
      server.closeAllConnections();
      await closing;
      server = undefined;
    },
    async next(count: number): Promise<Received[]> {
      return receiver.until(() => received.length >= count);
    },
    /** Resolves once `done` holds for what has arrived (checked at each arrival). */
    async until(done: () => boolean): Promise<Received[]> {
      if (!done()) await new Promise<void>((resolve) => waiting.push({ done, resolve }));
      return received;
    },
  };
  await receiver.up();
  onCleanup(() => receiver.down());
  return receiver;
}

/** Checks a `Planner-Signature` header as the README tells integrators to: true when it is valid and fresh. */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Returns the `verifyPlanner` function of the README's webhook guide, taken from the README itself (its ```js
 * block), so the tests prove that the code integrators copy works.
 */
export async function readmeVerifier(): Promise<
  (secret: string, header: string, rawBody: string, toleranceSeconds?: number) => boolean
> {
  const block = readmeBlock('Following changes: webhooks', 'js');
  if (!block.includes('export function verifyPlanner'))
    throw new Error("README.md's webhook guide has no verifyPlanner in its ```js block");
  const file = join(tempDir(), 'verify-planner.mjs');
  writeFileSync(file, block);
  return ((await import(pathToFileURL(file).href)) as { verifyPlanner: any }).verifyPlanner;
}
