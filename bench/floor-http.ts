/**
 * The floor for GET /schedules: a bare node:http server in the same Node that answers the same bytes
 * (the same body and headers) on every path. Prints its port, then serves until killed.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const { body, headers } = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  body: string;
  headers: Record<string, string>;
};
const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
