import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTokenGate } from '../../src/http/token-gate.ts';
import { api, BIN, bookableDb, cli, cliOk, ROOT, serve, tempDir } from '../helpers.ts';

const run = promisify(execFile);

describe('secrets', () => {
  it('the token appears nowhere but in the output of `token new`: not in logs, errors, status, doctor or the files', async () => {
    const dir = tempDir();
    const db = join(dir, 'planner.db');
    const token = await bookableDb(db);
    const wrong = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    const seen: string[] = [];
    const server = await serve(db, {}, ['--log', 'json']);

    // Valid and wrong tokens, a bad booking, a good booking, an unknown path: every kind of log line.
    seen.push(JSON.stringify(await api(server.url, '/api/schedules', token)));
    seen.push(JSON.stringify(await api(server.url, '/api/schedules', wrong)));
    seen.push(JSON.stringify(await api(server.url, `/api/days?schedule=1&reason=1&token=${token}`, token)));
    const day = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data[1];
    const slot = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data[0];
    const post = (body: unknown) =>
      api(server.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    seen.push(JSON.stringify(await post({ schedule: 1, reason: 1, slot, submission: { first_name: token } })));
    seen.push(
      JSON.stringify(
        await post({
          schedule: 1,
          reason: 1,
          slot,
          submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
        }),
      ),
    );
    seen.push(JSON.stringify(await api(server.url, '/api/nothing', token)));

    // The admin's views, and doctor calling the live server with the token.
    for (const args of [['status'], ['status', '--json'], ['doctor'], ['doctor', '--json'], ['api', 'status']]) {
      const result = await cli(db, ...args);
      seen.push(result.stdout, result.stderr);
    }
    const doctor = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', token);
    seen.push(doctor.stdout, doctor.stderr);
    expect(doctor.stdout).toMatch(/token/i);
    const viaEnv = await run(process.execPath, [BIN, 'doctor', '--url', `${server.url}/api`, '--db', db], {
      cwd: ROOT,
      env: { ...process.env, PLANNER_TOKEN: wrong },
    }).catch((e) => e);
    seen.push(viaEnv.stdout, viaEnv.stderr);

    expect(await server.stop()).toBe(0);
    seen.push(server.output());
    expect(server.output()).toContain('/api/schedules'); // the log was written…
    for (const text of seen) {
      expect(text).not.toContain(token); // …and holds no token, nor the tail of one
      expect(text).not.toContain(token.slice(4));
      expect(text).not.toContain(wrong.slice(4));
    }

    // The database, its WAL and shared memory, byte for byte (a checkpoint must not matter: read them all).
    const files = readdirSync(dir).filter((name) => name.startsWith('planner.db'));
    expect(files).toContain('planner.db');
    for (const name of files) expect(readFileSync(join(dir, name)).includes(Buffer.from(token.slice(4)))).toBe(false);
  });

  it("stores only the token's SHA-256 (the token has 381 bits: NIST SP 800-63B §5.1.2.2 asks no more)", async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const handle = new DatabaseSync(db, { readOnly: true });
    const { token_hash: hash } = handle.prepare('SELECT token_hash FROM settings').get() as { token_hash: string };
    handle.close();
    expect(hash).toBe(`sha256:${createHash('sha256').update(token).digest('base64url')}`);
  });

  it('creates the database, its -wal and -shm with mode 0600 even under umask 000', async () => {
    const dir = tempDir();
    const db = join(dir, 'planner.db');
    const shell = (args: string) =>
      run('sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" ${args} --db "${db}"`], {
        cwd: ROOT,
        env: { ...process.env, PLANNER_DB: '' },
      });
    await shell("init --name Modes --timezone Europe/Berlin --notify 'desk@modes.example'");
    await cliOk(db, 'schedule', 'add', 'A');
    // A reader holds the file open so the WAL and shared memory stay on disk to be looked at.
    const reader = new DatabaseSync(db, { readOnly: true });
    reader.prepare('SELECT count(*) FROM schedules').get();
    await shell('api enable');
    for (const name of ['planner.db', 'planner.db-wal', 'planner.db-shm']) {
      expect(existsSync(join(dir, name)), name).toBe(true);
      expect((statSync(join(dir, name)).mode & 0o777).toString(8), name).toBe('600');
    }
    reader.close();
  });

  it('creates the folders of a new database with mode 0700 under umask 000, and leaves a folder it did not create as it was', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755); // a folder the admin made: planner does not change it
    const db = join(dir, 'state', 'planner', 'planner.db');
    await run(
      'sh',
      [
        '-c',
        `umask 000; exec "${process.execPath}" "${BIN}" init --name Modes --timezone Europe/Berlin --notify 'desk@modes.example' --db "${db}"`,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, PLANNER_DB: '' },
      },
    );
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    // Anyone able to write a folder on the path could swap the database or its WAL.
    expect({
      state: mode(join(dir, 'state')),
      planner: mode(join(dir, 'state', 'planner')),
      db: mode(db),
      parent: mode(dir),
    }).toEqual({
      state: '700',
      planner: '700',
      db: '600',
      parent: '755',
    });
  });

  it('once the token is known, refuses wrong tokens of every shape by a constant-time digest compare, without argon2', async () => {
    let argon2Runs = 0;
    const token = `pln_${'A'.repeat(64)}`;
    const gate = createTokenGate({
      verifyHash: async (_hash, candidate) => {
        argon2Runs++;
        return candidate === token;
      },
    });
    expect(await gate.check(`Bearer ${token}`, 'hash-1')).toBe(true);
    expect(argon2Runs).toBe(1);
    // Wrong at the first, a middle and the last character: each compared in constant time, with the known token's
    // bytes, then as a 32-byte SHA-256 digest.
    for (const wrong of [
      `pln_B${'A'.repeat(63)}`,
      `pln_${'A'.repeat(31)}B${'A'.repeat(32)}`,
      `pln_${'A'.repeat(63)}B`,
    ]) {
      expect(gate.check(`Bearer ${wrong}`, 'hash-1')).toBe(false); // a boolean at once: no argon2 promise
    }
    expect(gate.check(`Bearer ${token}`, 'hash-1')).toBe(true);
    expect(argon2Runs).toBe(1);
    // Not well-formed: refused before any hashing.
    for (const junk of ['Bearer', 'Basic abc', `Bearer ${token}x`, `Bearer pln-${'A'.repeat(64)}`])
      expect(gate.check(junk, 'hash-1')).toBe(false);
    // Rotated (a new hash): the old token is recognised as replaced, without argon2; the new one needs argon2 once.
    expect(gate.check(`Bearer ${token}`, 'hash-2')).toBe('replaced');
    expect(argon2Runs).toBe(1);
    expect(await gate.check(`Bearer pln_${'C'.repeat(64)}`, 'hash-2')).toBe(false);
    expect(argon2Runs).toBe(2);
  });
});
