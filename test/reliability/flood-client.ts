/**
 * A separate client process for the wrong-token flood: `node flood-client.ts <url> <count> <concurrency> <addresses>`.
 * Sends `count` GET /api/schedules with random well-formed tokens, each on a new connection from one of
 * `addresses` source addresses (127.0.<a>.<b>, all on loopback), and prints the statuses it got as JSON. It says
 * `flooding` on stderr at its first answer, from when the test counts valid requests as sent under the flood.
 */

import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

const [url, countText, concurrencyText, addressesText] = process.argv.slice(2);
const { hostname, port } = new URL(url!);
const count = Number(countText);
const addresses = Number(addressesText);
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomToken = () => `pln_${[...randomBytes(64)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;

const statuses: Record<number, number> = {};
let sent = 0;
function one(): Promise<void> {
  const n = sent++;
  const localAddress =
    addresses === 1 ? '127.0.0.1' : `127.0.${1 + Math.floor((n % addresses) / 250)}.${1 + ((n % addresses) % 250)}`;
  return new Promise((resolve) => {
    const req = request(
      {
        hostname,
        port,
        path: '/api/schedules',
        agent: false,
        localAddress,
        headers: { authorization: `Bearer ${randomToken()}` },
      },
      (res) => {
        if (n === 0) process.stderr.write('flooding\n'); // the test measures from here: the flood is on
        statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', () => {
      statuses[0] = (statuses[0] ?? 0) + 1;
      resolve();
    });
    req.end();
  });
}
await Promise.all(
  Array.from({ length: Number(concurrencyText) }, async () => {
    while (sent < count) await one();
  }),
);
process.stdout.write(JSON.stringify(statuses));
