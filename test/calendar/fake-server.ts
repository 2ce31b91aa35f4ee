/**
 * What the fakes of calendar servers share (fake-caldav.ts, fake-google.ts, fake-microsoft.ts): a request held until
 * the test releases it, and a server on a free loopback port, closed after the test file.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from '../helpers.ts';

/**
 * A request held by a fake: the fake calls `arrive()` when it comes and waits on `released`; the test awaits
 * `arrived` and calls `release()`.
 */
export function heldRequest() {
  let arrive = () => {};
  let release = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { arrived, arrive, released, release };
}

/** Listens on 127.0.0.1 at a free port, closed (its connections too) after the test file; returns its base URL. */
export async function listenLocal(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
