/**
 * `planner status` and `planner doctor` report the replication as Litestream itself does (issue 26): off, on with
 * each replica's position, behind (doctor fails), and a configuration whose replica holds nothing (doctor fails).
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goDurationSeconds } from '../../src/app/operations/replication.ts';
import { cliOk, cliWith, initDb, onCleanup, tempDb, tempDir, watchOutput } from '../helpers.ts';
import { killed, LITESTREAM, litestreamConfig } from './parts.ts';

/** Every file below `folder`. */
function filesBelow(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}

describe('planner status and doctor: the replication', () => {
  it.each([
    ['-872ms', -0.872],
    ['0s', 0],
    ['3.5s', 3.5],
    ['1m2s', 62],
    ['2h0m3s', 7203],
    ['10m0s', 600],
    ['1.5µs', 0.0000015],
    ['soon', undefined],
    ['', undefined],
  ])("reads litestream's lag %j as %s seconds", (text, seconds) => {
    const read = goDurationSeconds(text);
    if (seconds === undefined) expect(read).toBeUndefined();
    else expect(read).toBeCloseTo(seconds, 9);
  });

  it('a configuration litestream cannot read: doctor fails with its words', async () => {
    const db = tempDb();
    await initDb(db);
    const broken = join(tempDir(), 'litestream.yml');
    writeFileSync(broken, 'dbs: [this is not\n');
    const doctor = await cliWith(db, { env: { PLANNER_LITESTREAM_CONFIG: broken } }, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`fail  replication ${broken} cannot be read: `);
  });

  it('off: no configuration, or one that names another database; doctor passes', async () => {
    const db = tempDb();
    await initDb(db);
    const missing = join(tempDir(), 'litestream.yml');
    const status = await cliWith(db, { env: { PLANNER_LITESTREAM_CONFIG: missing } }, 'status');
    expect(status.stdout).toContain(
      `replication  off: no Litestream configuration at ${missing} (README: "Off-site replication")`,
    );
    const other = litestreamConfig(join(tempDir(), 'other.db'), { folder: join(tempDir(), 'replica') });
    const doctor = await cliWith(db, { env: { PLANNER_LITESTREAM_CONFIG: other } }, 'doctor', '--json');
    const check = JSON.parse(doctor.stdout).find((one: { name: string }) => one.name === 'replication');
    expect(check).toEqual({
      name: 'replication',
      status: 'ok',
      detail: `off: ${other} does not name ${db} (README: "Off-site replication")`,
    });
  });

  it('on: each replica with how far it is behind; behind by more than a minute, doctor fails; nothing replicated, it fails', async () => {
    const db = tempDb();
    await initDb(db);
    const replica = join(tempDir(), 'replica');
    const config = litestreamConfig(db, { folder: replica });
    const env = { PLANNER_LITESTREAM_CONFIG: config };

    // Named, but nothing replicated yet: Litestream is not running.
    const before = await cliWith(db, { env }, 'doctor');
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(
      /replication .*names this database, but its replica cannot be read: no replica of .* holds a generation yet: is litestream replicate running\?/,
    );

    const litestream = spawn(LITESTREAM, ['replicate', '-config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => killed(litestream, 'SIGKILL'));
    const { waitFor } = watchOutput(litestream, 'litestream');
    await waitFor(/snapshot written/);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await waitFor(/wal segment written[^]*wal segment written/); // the snapshot's, then the schedule's
    const on = await cliWith(db, { env }, 'status');
    expect(on.stdout).toMatch(
      new RegExp(`replication  on \\(${config}\\) · file: 0 s behind, newest change \\d+ s ago`),
    );
    const json = JSON.parse((await cliWith(db, { env }, 'status', '--json')).stdout);
    expect(json.replication).toMatchObject({
      state: 'on',
      config,
      replicas: [{ name: 'file', generation: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
    const doctor = await cliWith(db, { env }, 'doctor');
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toMatch(/ok +replication/);

    // Litestream stops; the database changes; the replica's newest segment is ten minutes old.
    await killed(litestream);
    await cliOk(db, 'schedule', 'add', 'Dr. Roth');
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    for (const file of filesBelow(replica)) utimesSync(file, tenMinutesAgo, tenMinutesAgo);
    const behind = await cliWith(db, { env }, 'doctor');
    expect(behind.code).toBe(1);
    expect(behind.stdout).toMatch(
      /fail +replication +BEHIND: file is 10 min behind the database: is litestream replicate running\? \(systemctl status planner\)/,
    );
    expect((await cliWith(db, { env }, 'status')).stdout).toMatch(/replication  BEHIND: file is 10 min behind/);
  });
});
