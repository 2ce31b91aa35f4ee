import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAuthThrottle, FAILED_ATTEMPTS_PER_MINUTE } from '../../src/http/auth-throttle.ts';
import { bookableDb, cliJson, cliOk, serve, tempDb, type ServerProcess } from '../helpers.ts';

const run = promisify(execFile);

/** GET `path` from the source address `from` (any 127.x.y.z is loopback); resolves with status, Retry-After and ms. */
function get(url: string, path: string, token: string, from = '127.0.0.1'): Promise<{ status: number; retryAfter?: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, localAddress: from, agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `count` valid requests one after another; returns their 99th-percentile latency in ms. */
async function p99(url: string, token: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await get(url, '/api/schedules', token);
    expect(answer.status).toBe(200);
    times.push(answer.ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(count * 0.99) - 1]!;
}

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
    for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE + 5; i++) answers.push(await get(server.url, '/api/schedules', wrongToken(i), from));
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

  it('thousands of random tokens from many addresses: valid p99 within 2x of a quiet run, memory bounded', async () => {
    const client = join(import.meta.dirname, 'flood-client.ts');
    await p99(server.url, token, 200); // warm-up
    const before = rssMiB(server.child.pid!);

    // Six rounds of 4000 wrong tokens from 2000 addresses, 8 at a time, from another process. In the first three
    // the valid client measures its p99 twice, back to back: quiet, then under the flood. Other test files share
    // the machine, so the promise is checked on the best of the three pairs: a flood that really slowed valid
    // requests (argon2 on its path, say) fails all three. RSS rises and falls with the garbage collector.
    const rounds: { quiet?: number; p99?: number; rss: number; statuses: Record<string, number> }[] = [];
    for (let round = 0; round < 6; round++) {
      const quiet = round < 3 ? await p99(server.url, token, 500) : undefined;
      const flood = run(process.execPath, [client, server.url, '4000', '8', '2000'], { encoding: 'utf8' });
      const measured = round < 3 ? await p99(server.url, token, 500) : undefined;
      const { stdout } = await flood;
      rounds.push({ quiet, p99: measured, rss: rssMiB(server.child.pid!), statuses: JSON.parse(stdout) });
    }
    process.stderr.write(
      `token flood: rss before ${before.toFixed(1)} MiB; ` +
        rounds.map((r) => `${r.p99 === undefined ? '' : `p99 quiet ${r.quiet!.toFixed(2)} flood ${r.p99.toFixed(2)} ms `}rss ${r.rss.toFixed(1)} MiB`).join('; ') +
        '\n',
    );
    for (const round of rounds) expect(round.statuses).toEqual({ 401: 4000 }); // 2 per address: under the throttle
    expect(Math.min(...rounds.slice(0, 3).map((r) => r.p99! / r.quiet!))).toBeLessThanOrEqual(2);
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
