import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAuthThrottle, FAILED_ATTEMPTS_PER_MINUTE } from '../../src/http/auth-throttle.ts';
import { bookableDb, cliJson, cliOk, type ServerProcess, serve, tempDb, watchOutput } from '../helpers.ts';

/** GET `path` from the source address `from` (any 127.x.y.z is loopback); resolves with status, Retry-After and ms. */
function get(
  url: string,
  path: string,
  token: string,
  from = '127.0.0.1',
): Promise<{ status: number; retryAfter?: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, localAddress: from, agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'] as string | undefined,
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends `count` valid requests one after another; returns their latencies in ms. */
async function latencies(url: string, token: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await get(url, '/api/schedules', token);
    expect(answer.status).toBe(200);
    times.push(answer.ms);
  }
  return times;
}

/** Returns the median of `values`. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The median valid request on a quiet machine, ms: the 3 ms this test allows the flood to add is set against it. */
const QUIET_MS = 0.3;

/** The CPU time (user and system, every thread: argon2 runs in libuv's pool) process `pid` has used so far, ms. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime and stime, in clock ticks of 10 ms
};
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const wrongToken = (i: number) => `pln_${String(i).padStart(64, 'x')}`;

describe('wrong-token flood', () => {
  const db = tempDb();
  let token: string;
  let server: ServerProcess;
  beforeAll(async () => {
    token = await bookableDb(db);
    await cliOk(db, 'api', 'limit', '1000000'); // the valid client's own limit is not what is measured here
    // A small heap: a server that kept something per refused request would run out of it and crash within the test.
    server = await serve(db, { NODE_OPTIONS: '--max-old-space-size=48' }, ['--log', 'off']);
    expect((await get(server.url, '/api/schedules', token)).status).toBe(200); // argon2 once, as in production
  });

  it(`throttles one address after ${FAILED_ATTEMPTS_PER_MINUTE} failed attempts (429 + Retry-After), never the valid token or other addresses`, async () => {
    const from = '127.0.9.9';
    const answers = [];
    for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE + 5; i++)
      answers.push(await get(server.url, '/api/schedules', wrongToken(i), from));
    expect(answers.slice(0, FAILED_ATTEMPTS_PER_MINUTE).every((a) => a.status === 401)).toBe(true);
    for (const answer of answers.slice(FAILED_ATTEMPTS_PER_MINUTE)) {
      expect(answer.status).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
    // The valid token from the same address still works; another address is not throttled.
    expect((await get(server.url, '/api/schedules', token, from)).status).toBe(200);
    expect((await get(server.url, '/api/schedules', wrongToken(99), '127.0.9.10')).status).toBe(401);
    // A new token, not known to the server yet, from the throttled address: checked at the next probe, accepted.
    const rotated = (await cliJson(db, 'token', 'new')).token;
    expect((await get(server.url, '/api/schedules', token, from)).status).toBe(401); // the replaced one: refused, not a guess
    expect((await get(server.url, '/api/schedules', rotated, from)).status).toBe(200);
    token = rotated;
  });

  it('thousands of random tokens from many addresses: the median valid request is not held up, memory bounded', async () => {
    const client = join(import.meta.dirname, 'flood-client.ts');
    await latencies(server.url, token, 200); // warm-up
    const before = rssMiB(server.child.pid!);

    // Six rounds, each a quiet sample of the valid client and then one taken while 4000 wrong tokens from 2000
    // addresses arrive, 8 at a time, from another process: from its first answer to its last, so that no sample
    // counted as "under the flood" is taken while the flood's process is still starting.
    //
    // What is held, and why not the p99 ratio this test once held to 2× (2.08× failed a review run): a valid request
    // takes about 0.3 ms, its p99 a few ms, set by the handful of requests the machine's scheduler happened to delay.
    // On two cores the flood's own process takes one of them, so that p99 rose 2.5 to 12 times under every flood
    // measured here once only requests sent during the flood counted (the old test's pairs passed because about 40%
    // of its "flood" sample was sent before the flood's process had started), and other work on the machine moves it
    // as much. A server starved by a flood (its event loop busy with refused requests) holds up nearly every valid
    // request: that is the median. So the bounds are on what the flood adds to the median (3 ms, more only where
    // this run's quiet median shows a slower machine) and on the server's CPU time per refused request, with a
    // margin on both sides. Measured here: 0.06 to 0.2 ms in the median round, no round over 0.8 ms, also with four
    // busy loops on the two cores; a server that spent 1 ms of its event loop on each wrong token added 8 ms, one that
    // spent 5 ms added 43 ms. The rounds are interleaved (quiet, flood, quiet, …) and the median round counts, so a
    // burst of other work during one round decides nothing.
    const rounds: {
      added: number;
      quiet: number;
      refusedCpu: number;
      counted: number;
      rss: number;
      statuses: Record<string, number>;
    }[] = [];
    const pid = server.child.pid!;
    for (let round = 0; round < 6; round++) {
      const quietCpu = cpuMs(pid);
      const quiet = await latencies(server.url, token, 300);
      // The server's CPU for a valid request, from the quiet sample: taken off what it used under the flood.
      const validCpu = (cpuMs(pid) - quietCpu) / quiet.length;
      const flood = spawn(process.execPath, [client, server.url, '4000', '8', '2000'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { output, waitFor } = watchOutput(flood, 'flood client');
      const ended = once(flood, 'exit');
      let over = false;
      void ended.then(() => (over = true));
      await waitFor(/flooding/);
      const floodCpu = cpuMs(pid);
      const under: number[] = [];
      // Bounded: the flood is 4000 requests; 5000 valid ones is more than a round ever took here.
      while (!over && under.length < 5000) {
        const answer = await get(server.url, '/api/schedules', token);
        expect(answer.status).toBe(200);
        if (!over) under.push(answer.ms);
      }
      const [code] = await ended;
      expect(code, output()).toBe(0);
      rounds.push({
        added: median(under) - median(quiet),
        quiet: median(quiet),
        refusedCpu: (cpuMs(pid) - floodCpu - under.length * validCpu) / 4000,
        counted: under.length,
        rss: rssMiB(server.child.pid!),
        statuses: JSON.parse(/\{.*\}/.exec(output())![0]),
      });
    }
    process.stderr.write(
      `token flood: rss before ${before.toFixed(1)} MiB; ` +
        rounds
          .map(
            (r) =>
              `median ${r.quiet.toFixed(2)} ms ${r.added < 0 ? '' : '+'}${r.added.toFixed(2)} ms (${r.counted} under the flood), ${r.refusedCpu.toFixed(3)} ms CPU a refused request, rss ${r.rss.toFixed(1)} MiB`,
          )
          .join('; ') +
        '\n',
    );
    for (const round of rounds) {
      expect(round.statuses).toEqual({ 401: 4000 }); // 2 per address: under the throttle
      expect(round.counted).toBeGreaterThanOrEqual(20); // enough requests under the flood for a median
    }
    // What the flood costs the server, in its CPU time (every thread): what it does per refused request, which a
    // loaded machine does not change. About 0.1 ms here (0.03 to 0.19 a round, also beside two busy loops); one
    // that spent 1 ms of its event loop, or an argon2 hash, on each wrong token would be far over.
    expect(median(rounds.map((r) => r.refusedCpu))).toBeLessThan(0.5); // ms
    // What it adds to the median valid request: at most 3 ms on a machine where that request takes its quiet
    // QUIET_MS, and as many times more as it takes longer in this run (a machine busy with other work slows the
    // valid requests' own median, quiet and flooded alike); at least the 3 ms of the quiet machine. A server held up
    // by refused requests still adds far more (8 ms for 1 ms each), whatever the load.
    const slower = Math.max(1, median(rounds.map((r) => r.quiet)) / QUIET_MS);
    expect(median(rounds.map((r) => r.added))).toBeLessThan(3 * slower); // ms
    // 24,000 refused requests in a 48 MiB heap: the server is alive and answers, its RSS peak within 64 MiB of the start.
    expect(server.child.exitCode).toBeNull();
    expect((await get(server.url, '/api/schedules', token)).status).toBe(200);
    expect(Math.max(...rounds.map((r) => r.rss)) - before).toBeLessThan(64);
  }, 120_000);

  it('remembers at most 10,000 addresses however many guess', () => {
    const throttle = createAuthThrottle();
    for (let i = 0; i < 30_000; i++) throttle.fail(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 1_000 + i);
    expect(throttle.size()).toBeLessThanOrEqual(10_000);
    // The newest addresses are the ones kept: the last one is still counted.
    expect(throttle.size()).toBeGreaterThan(0);
    for (let i = 1; i < FAILED_ATTEMPTS_PER_MINUTE; i++) throttle.fail('10.0.117.47', 40_000);
    expect(throttle.blockedFor('10.0.117.47', 40_000)).toBeGreaterThan(0);
  });
});
