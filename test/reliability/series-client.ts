/**
 * A separate client process for the series race: `node series-client.ts` with the token in PLANNER_TOKEN and its
 * requests in PLANNER_REQUESTS (a JSON array of `{url, path, body}`: POST /api/series or /api/bookings). Prints
 * "ready", waits for a line on stdin, then sends every request at once and prints each answer's status and parsed
 * body as one JSON array, in the requests' order.
 */
import { once } from 'node:events';

const requests = JSON.parse(process.env.PLANNER_REQUESTS!) as { url: string; path: string; body: unknown }[];
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const answers = await Promise.all(
  requests.map(async (request) => {
    const response = await fetch(`${request.url}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.PLANNER_TOKEN}` },
      body: JSON.stringify(request.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text: the test shows it
    }
    return { status: response.status, body };
  }),
);
process.stdout.write(`${JSON.stringify(answers)}\n`);
process.exit(0);
