import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, generateToken } from '../../src/app/practice/token.ts';
import { openStore } from '../../src/store/db.ts';
import { upgradeTokenHash } from '../../src/store/settings.ts';
import { api, bookableDb, cliOk, serve, tempDir } from '../helpers.ts';

const storedHash = (db: string) => {
  const handle = new DatabaseSync(db, { readOnly: true });
  const row = handle.prepare('SELECT token_hash, token_created_at FROM settings').get() as {
    token_hash: string;
    token_created_at: string;
  };
  handle.close();
  return row;
};
const setHash = (db: string, value: string) => {
  const handle = new DatabaseSync(db);
  handle.prepare('UPDATE settings SET token_hash = ?').run(value);
  handle.close();
};
const sha256Form = (token: string) => `sha256:${createHash('sha256').update(token).digest('base64url')}`;

describe("an older installation's argon2id token hash (issue 49)", () => {
  it('keeps working, and is replaced by the SHA-256 form the first time the server sees the token, not before', async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const argon2id = await hash(token, ARGON2_OPTIONS);
    setHash(db, argon2id); // as `planner token new` stored it before issue 49
    const created = storedHash(db).token_created_at;

    const server = await serve(db);
    // A wrong token, a malformed one and none: 401, and nothing is written.
    expect((await api(server.url, '/api/schedules', generateToken())).status).toBe(401);
    expect((await api(server.url, '/api/schedules', 'pln_short')).status).toBe(401);
    expect((await api(server.url, '/api/schedules')).status).toBe(401);
    expect(storedHash(db).token_hash).toBe(argon2id);

    expect((await api(server.url, '/api/schedules', token)).status).toBe(200);
    expect(storedHash(db)).toEqual({ token_hash: sha256Form(token), token_created_at: created });
    // The same process and a new one both take the token against the new form.
    expect((await api(server.url, '/api/schedules', token)).status).toBe(200);
    await server.stop();
    const again = await serve(db);
    expect((await api(again.url, '/api/schedules', token)).status).toBe(200);
    expect((await api(again.url, '/api/schedules', generateToken())).status).toBe(401);
    expect(again.output()).not.toContain(token.slice(4));
  });

  it('a rotation wins over an upgrade that comes after it (compare-and-set on the old hash)', async () => {
    const db = join(tempDir(), 'planner.db');
    const token = await bookableDb(db);
    const argon2id = await hash(token, ARGON2_OPTIONS);
    setHash(db, argon2id);
    await cliOk(db, 'token', 'new'); // the admin rotates while a server still holds the old hash
    const rotated = storedHash(db).token_hash;
    const store = openStore(db);
    try {
      expect(upgradeTokenHash(store, argon2id, sha256Form(token))).toBe(false);
      expect(storedHash(db).token_hash).toBe(rotated);
      setHash(db, argon2id);
      expect(upgradeTokenHash(store, argon2id, sha256Form(token))).toBe(true);
      expect(storedHash(db).token_hash).toBe(sha256Form(token));
    } finally {
      store.close();
    }
  });
});
