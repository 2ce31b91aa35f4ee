/**
 * The promise "a CLI change takes effect at the next request" (issue 29), with the server's cheaper change signal
 * (the WAL index header, store/settings-watch.ts): on ONE keep-alive connection, a setting changed by another
 * process between two requests is seen by the second, every time; by the CLI, and by a bare SQLite connection.
 */
import { Agent, request } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { bookableDb, cliOk, serve, tempDb } from '../helpers.ts';

/** GET `path` through `agent` (one socket): the status, and whether the socket was one used before. */
function get(agent: Agent, url: string, path: string, token: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a change by another process is seen at the next request on the same connection (issue 29)', () => {
  it('api disable / enable by the CLI, 6 times, and the API switch written by a bare SQLite connection, 20 times', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seen: string[] = [];
    expect((await get(agent, server.url, '/api/schedules', token)).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      await cliOk(db, 'api', 'disable');
      const off = await get(agent, server.url, '/api/schedules', token);
      await cliOk(db, 'api', 'enable');
      const on = await get(agent, server.url, '/api/schedules', token);
      seen.push(`${off.status}${off.reused ? '' : ' new socket'}`, `${on.status}${on.reused ? '' : ' new socket'}`);
    }
    expect(seen).toEqual(Array.from({ length: 3 }, () => ['503', '200']).flat());

    // Another connection's commit, with nothing else happening between it and the request (no process start-up).
    const raw = new DatabaseSync(db, { timeout: 5000 });
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      raw.exec(`UPDATE settings SET api_enabled = ${round % 2}`);
      const answer = await get(agent, server.url, '/api/schedules', token);
      expect(answer.reused).toBe(true);
      statuses.push(answer.status);
    }
    raw.close();
    expect(statuses).toEqual(Array.from({ length: 20 }, (_, round) => (round % 2 === 1 ? 200 : 503)));
    agent.destroy();
    await server.stop();
  });
});
