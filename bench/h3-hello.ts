// An h3 "hello" route answering the same bytes as the floor, served as planner serves (node:http + toNodeHandler, FastResponse).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { FastResponse } from 'srvx/node';

const { body, headers } = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  body: string;
  headers: Record<string, string>;
};
const app = new H3().get('/**', () => new FastResponse(body, { status: 200, headers }));
const server = createServer(toNodeHandler(app));
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
