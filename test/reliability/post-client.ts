/**
 * A separate client process: `node post-client.ts <count> <url>...` with the token in PLANNER_TOKEN and the
 * booking body in PLANNER_BODY (`{n}` replaced by a number per request). Prints "ready", waits for a line on
 * stdin, then sends `count` POST /api/bookings (or the path in PLANNER_PATH) at once, spread over the urls, and
 * prints the statuses as JSON.
 */
import { once } from 'node:events';

const [countText, ...urls] = process.argv.slice(2);
const count = Number(countText);
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const statuses = await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    const response = await fetch(`${urls[i % urls.length]}${process.env.PLANNER_PATH ?? '/api/bookings'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.PLANNER_TOKEN}` },
      body: process.env.PLANNER_BODY!.replaceAll('{n}', `${process.pid}-${i}`),
    });
    await response.arrayBuffer();
    return response.status;
  }),
);
process.stdout.write(`${JSON.stringify(statuses)}\n`);
process.exit(0);
