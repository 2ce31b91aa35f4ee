import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, serve, tempDir } from '../helpers.ts';

/** Node's entries in a cache folder: the one folder Node made for this Node version and V8 flags. */
function entries(cache: string): { folder: string; names: string[] } {
  const [version] = readdirSync(cache).filter((name) => name.startsWith(`${process.version}-`));
  const folder = join(cache, version!);
  return { folder, names: readdirSync(folder).filter((name) => /^[0-9a-f]{8}$/.test(name)) };
}

/** Starts `planner serve` with the units' NODE_COMPILE_CACHE (and Node's debug lines of it), asks GET /schedules. */
async function started(db: string, token: string, cache: string) {
  const server = await serve(db, { NODE_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
  const answer = await api(server.url, '/api/schedules', token);
  return { server, answer };
}

describe('the compile cache of planner serve (issue 49)', () => {
  it('is written when the server says serving, read by the next start, and one that is damaged, stale or of another Node is not used', async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const cache = join(tempDir(), 'state', '.compile-cache'); // missing: Node makes it

    // Missing: made, and written at start (after the warm-up), not only at exit.
    const first = await started(db, token, cache);
    expect(first.answer.status).toBe(200);
    const written = entries(cache);
    expect(written.names.length).toBeGreaterThan(20);
    const expected = first.answer.body;
    await first.server.stop();

    // In use: the next start takes the compiled code of the server's modules.
    const second = await started(db, token, cache);
    expect(second.answer).toMatchObject({ status: 200, body: expected });
    expect(second.server.output()).toMatch(/V8 code cache for \S+ \S+src\/http\/server\.ts was accepted/);
    await second.server.stop();

    // Damaged (bytes changed, one cut short), stale (an entry holding another file's code) and another Node's
    // folder: the server starts and answers as before, and the entries it used are written anew.
    const { folder, names } = written;
    const [cut, swapped, other, ...rest] = names;
    writeFileSync(join(folder, cut!), readFileSync(join(folder, cut!)).subarray(0, 40));
    writeFileSync(join(folder, swapped!), readFileSync(join(folder, other!)));
    for (const name of rest) {
      const bytes = readFileSync(join(folder, name));
      bytes.fill(0x5a, Math.floor(bytes.length / 2));
      writeFileSync(join(folder, name), bytes);
    }
    mkdirSync(join(cache, 'v0.0.1-x64-00000000-0'));
    writeFileSync(join(cache, 'v0.0.1-x64-00000000-0', '0badc0de'), 'not a cache');
    const damaged = await started(db, token, cache);
    expect(damaged.answer).toMatchObject({ status: 200, body: expected });
    expect(damaged.server.output()).toMatch(/rejected|mismatch|failed/i);
    await damaged.server.stop();
    const again = await started(db, token, cache);
    expect(again.answer).toMatchObject({ status: 200, body: expected });
    expect(again.server.output()).toMatch(/V8 code cache for \S+ \S+src\/http\/server\.ts was accepted/);
    await again.server.stop();
    expect(readFileSync(join(cache, 'v0.0.1-x64-00000000-0', '0badc0de'), 'utf8')).toBe('not a cache');
  });

  it('a folder that cannot be made leaves the cache off, and the server serves', async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const { server, answer } = await started(db, token, join(file, '.compile-cache')); // its parent is a file
    expect(answer.status).toBe(200);
    await server.stop();
  });

  it("earlier builds' entries piled up past 1,000 are removed at start, and the next start writes this build's again", async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const cache = join(tempDir(), '.compile-cache');
    const first = await started(db, token, cache);
    await first.server.stop();
    const { folder, names } = entries(cache);
    const old = Array.from({ length: 1_100 }, (_, index) => (0xa0000000 + index).toString(16));
    for (const name of old) writeFileSync(join(folder, name), 'an entry of an earlier build');
    const { server, answer } = await started(db, token, cache);
    expect(answer.status).toBe(200);
    expect(entries(cache).names.filter((name) => old.includes(name))).toEqual([]);
    await server.stop();
    const next = await started(db, token, cache);
    expect(next.answer.status).toBe(200);
    expect(entries(cache).names.length).toBeGreaterThanOrEqual(names.length - 5);
    await next.server.stop();
  });
});
