/**
 * The load of the benchmark's section 12 (issue 39), in a process of its own: every practice, at once, takes a steady
 * `readsPerSecond` GET /slots (a day of its look-ahead each time, its two schedules in turn) and `bookingsPerSecond`
 * POST /bookings, for `seconds`. Plain `node:http` on keep-alive connections (two a practice): a request is sent at
 * its time whatever the answers before it, and its latency is counted from that time, so a server that falls behind
 * shows in the figures rather than slowing the load. Reads its task as JSON on argv[2]; writes each practice's
 * figures as JSON on stdout, with how late this process's own timer ran (a load generator that cannot keep up says so).
 */
import { Agent, request } from 'node:http';

interface Task {
  bases: string[];
  token: string;
  days: string[];
  free: string[];
  seconds: number;
  readsPerSecond: number;
  bookingsPerSecond: number;
}

const task = JSON.parse(process.argv[2]!) as Task;
const TIMEOUT_MS = 30_000;

/** Sends one request; resolves with its status (0: no answer) once the answer is read. */
function send(agent: Agent, url: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(
      url,
      {
        agent,
        method,
        timeout: TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${task.token}`,
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
        answer.on('error', () => resolve(0));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy());
    outgoing.on('error', () => resolve(0));
    outgoing.end(body);
  });
}

interface Figures {
  reads: number[];
  readErrors: number;
  booked: number;
  bookingErrors: number;
}

const figures: Figures[] = task.bases.map(() => ({ reads: [], readErrors: 0, booked: 0, bookingErrors: 0 }));
const agents = task.bases.map(() => new Agent({ keepAlive: true, maxSockets: 2 }));
const pending: Promise<void>[] = [];
const begun = performance.now();
const end = begun + task.seconds * 1000;
const readEvery = 1000 / task.readsPerSecond;
const bookEvery = 1000 / task.bookingsPerSecond;
// Each practice's requests start at its own offset within the first interval, so the 50 do not send in step.
const next = task.bases.map((_, index) => ({
  read: begun + (index / task.bases.length) * readEvery,
  book: begun + (index / task.bases.length) * bookEvery,
  reads: 0,
  bookings: 0,
}));
let lateMs = 0;

await new Promise<void>((finished) => {
  const tick = () => {
    const now = performance.now();
    if (now >= end) {
      finished();
      return;
    }
    next.forEach((due, index) => {
      const base = task.bases[index]!;
      const mine = figures[index]!;
      while (due.read <= now) {
        lateMs = Math.max(lateMs, now - due.read);
        const at = due.read;
        const schedule = (due.reads % 2) + 1;
        const day = task.days[due.reads % task.days.length];
        due.reads++;
        due.read += readEvery;
        pending.push(
          send(
            agents[index]!,
            `${base}/slots?schedule=${schedule}&reason=${(schedule - 1) * 4 + 1}&day=${day}`,
            'GET',
          ).then((status) => {
            if (status === 200) mine.reads.push(performance.now() - at);
            else mine.readErrors++;
          }),
        );
      }
      while (due.book <= now) {
        const slot = task.free[due.bookings % task.free.length];
        const body = JSON.stringify({
          schedule: 1,
          reason: 1,
          slot,
          submission: { first_name: 'Host', last_name: `P${index}`, email: `p${index}-${due.bookings}@bench.example` },
        });
        due.bookings++;
        due.book += bookEvery;
        pending.push(
          send(agents[index]!, `${base}/bookings`, 'POST', body).then((status) => {
            if (status === 201) mine.booked++;
            else mine.bookingErrors++;
          }),
        );
      }
    });
    setTimeout(tick, 5);
  };
  tick();
});
await Promise.all(pending);
for (const agent of agents) agent.destroy();
process.stdout.write(`${JSON.stringify({ lateMs, practices: figures })}\n`);
