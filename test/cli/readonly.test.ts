/**
 * Opening a database never writes to it unless the command writes (issue 18, finding 4): a file from a newer
 * planner stays byte-identical, an empty file stays empty, and the commands that only look work on a file this
 * user may only read.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/migrations.ts';
import { BIN, type CliResult, cli, cliOk, initDb, onCleanup, ROOT, tempDb, tempDir } from '../helpers.ts';

const run = promisify(execFile);

/** `cmp` says two files are the same byte for byte (exit 0). */
async function sameBytes(a: string, b: string): Promise<boolean> {
  return run('cmp', [a, b]).then(
    () => true,
    () => false,
  );
}

const isRoot = process.getuid?.() === 0;

/**
 * Runs the CLI as someone who may only read `dir`: as root, without the capabilities that let root ignore file
 * modes (the files then belong to `nobody`); as anyone else, on files and a folder made read-only.
 */
function reader(dir: string) {
  if (isRoot) {
    const nobody = 65534;
    for (const name of ['', 'planner.db']) chownSync(join(dir, name), nobody, nobody);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'planner.db'), 0o644);
  } else {
    chmodSync(join(dir, 'planner.db'), 0o444);
    chmodSync(dir, 0o555);
  }
  return (...args: string[]): Promise<CliResult> => {
    const [command, prefix] = isRoot
      ? ['setpriv', ['--bounding-set=-dac_override,-dac_read_search,-fowner', '--', process.execPath]]
      : [process.execPath, []];
    return new Promise((resolve) =>
      execFile(
        command,
        [...prefix, BIN, ...args, '--db', join(dir, 'planner.db')],
        { cwd: ROOT, env: { ...process.env, PLANNER_DB: '' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  };
}

describe('opening a database writes nothing a command does not write', () => {
  it('refuses a file from a newer planner and leaves it byte for byte as it was, for reading and writing commands', async () => {
    const db = tempDb();
    await initDb(db);
    const raw = new DatabaseSync(db);
    raw.exec(`PRAGMA journal_mode = DELETE; PRAGMA user_version = ${migrations.length + 1}`); // as a newer planner might leave it
    raw.close();
    const original = `${db}.original`;
    copyFileSync(db, original);
    for (const args of [
      ['status'],
      ['schedule', 'list'],
      ['doctor'],
      ['backup', join(tempDir(), 'copy.db')],
      ['schedule', 'add', 'Dr. New'],
      ['api', 'enable'],
    ]) {
      const result = await cli(db, ...args);
      expect([args.join(' '), result.code]).toEqual([args.join(' '), 1]);
      expect(result.stderr).toBe(
        `planner: database ${db} has schema version ${migrations.length + 1}, newer than this planner understands (${migrations.length}): use a newer planner\n`,
      );
      expect(await sameBytes(db, original), args.join(' ')).toBe(true);
      expect(existsSync(`${db}-wal`)).toBe(false);
    }
  });

  it('leaves an empty file empty: status says there is no installation, a list says what the file is', async () => {
    const db = tempDb();
    mkdirSync(join(db, '..'), { recursive: true });
    await run('touch', [db]);
    expect(await cli(db, 'status')).toEqual({
      code: 1,
      stdout: '',
      stderr: `planner: no installation at ${db} (the file is empty): start with planner init (or pass --db <file>)\n`,
    });
    const list = await cli(db, 'schedule', 'list');
    expect(list).toMatchObject({
      code: 1,
      stderr: `planner: ${db} is empty, not a planner database: run \`planner init\` (or pass --db <file>)\n`,
    });
    expect(statSync(db).size).toBe(0);
  });

  it('status, lists, doctor and backup work on a file this user may only read, and change nothing', async () => {
    const dir = tempDir();
    const db = join(dir, 'planner.db');
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'hours', 'set', '1', 'mon-fri', '09:00-17:00');
    expect(existsSync(`${db}-wal`)).toBe(false); // the last connection checkpointed and removed it
    const before = readFileSync(db);
    const asReader = reader(dir);
    const backups = tempDir();
    chmodSync(backups, 0o777);

    const status = await asReader('status', '--json');
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toMatchObject({ configured: true, counts: { schedules: 1 } });
    expect(JSON.parse((await asReader('schedule', 'list', '--json')).stdout)).toMatchObject([
      { id: 1, name: 'Dr. Weber' },
    ]);
    expect(JSON.parse((await asReader('hours', 'show', '1', '--json')).stdout).mon).toEqual(['09:00-17:00']);
    const doctor = await asReader('doctor', '--json');
    expect(doctor.stderr).toBe('planner: doctor found 1 problem(s) to fix (marked fail above)\n'); // the file is not writable: true
    expect(JSON.parse(doctor.stdout)).toContainEqual(
      expect.objectContaining({
        name: 'database',
        status: 'fail',
        detail: expect.stringMatching(/not writable by this user/),
      }),
    );
    const backup = await asReader('backup', join(backups, 'copy.db'));
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(
      new DatabaseSync(join(backups, 'copy.db'), { readOnly: true }).prepare('SELECT name FROM schedules').all(),
    ).toEqual([{ name: 'Dr. Weber' }]);

    // A writing command says why it cannot, in one line, and writes nothing.
    const write = await asReader('schedule', 'add', 'Dr. Other');
    expect(write.code).toBe(1);
    expect(write.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(`${db}-wal`) || existsSync(`${db}-shm`)).toBe(false);
  });

  it('refuses to read a file in use that it cannot share (no immutable reading beside a live -shm), in one line', async () => {
    const dir = tempDir();
    const db = join(dir, 'planner.db');
    await initDb(db);
    // A live writer, as `planner serve` is: WAL mode, -wal and -shm beside the file, the connection open.
    const writer = new DatabaseSync(db);
    onCleanup(() => writer.close());
    writer.exec("PRAGMA journal_mode = WAL; UPDATE settings SET practice_name = 'Live' WHERE id = 1");
    expect(existsSync(`${db}-shm`)).toBe(true);
    const asReader = reader(dir);
    chmodSync(`${db}-shm`, 0o000); // this reader cannot share the writer's memory index
    const status = await asReader('status');
    expect(status).toMatchObject({ code: 1, stdout: '' });
    expect(status.stderr).toMatch(
      new RegExp(
        `^planner: cannot read ${db.replaceAll('.', '\\.')} while it is in use \\(.*\\): run this command as the file's owner, or when planner serve is stopped\\n$`,
      ),
    );
  });
});

/**
 * Runs the CLI as another user than the file's owner: as root (the tests' usual user, whom no file mode stops from
 * reading) as `nobody` through setpriv, with no capability left; as anyone else, as that user, whom mode 000 stops.
 */
function asOtherUser(db: string) {
  const [command, prefix] = isRoot
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath]]
    : [process.execPath, []];
  return (...args: string[]): Promise<CliResult> =>
    new Promise((resolve) =>
      execFile(
        command,
        [...prefix, BIN, ...args, '--db', db],
        { cwd: ROOT, env: { ...process.env, PLANNER_DB: '' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
}

describe('hosting many practices: a file this user may not read', () => {
  // The user the refused commands run as, as planner names it.
  const user = isRoot ? 'nobody (uid 65534)' : `${userInfo().username} (uid ${process.getuid?.()})`;
  const name = user.split(' ')[0];

  it.each([
    ['the file is mode 000', 0o755, ''],
    ['its folder is closed (mode 000)', 0o000, ' (a folder on its way is closed to this user)'],
  ])(
    '%s: "permission denied", naming the file and the user, for every command and serve; nothing changed',
    async (_, folderMode, why) => {
      const dir = tempDir();
      const db = join(dir, 'planner.db');
      await initDb(db);
      const before = readFileSync(db);
      chmodSync(dir, folderMode);
      if (folderMode === 0o755) chmodSync(db, 0o000);
      onCleanup(() => chmodSync(dir, 0o700));
      const other = asOtherUser(db);
      const line = `planner: permission denied: ${user} may not read ${db}${why}: run planner as the user who owns it (e.g. sudo -u <owner> planner …), or give ${name} read access\n`;
      for (const args of [
        ['status'],
        ['status', '--json'],
        ['schedule', 'list'],
        ['schedule', 'add', 'Dr. X'],
        ['doctor'],
        ['serve', '--port', '0'],
      ]) {
        const result = await other(...args);
        expect({ args, ...result }).toEqual({ args, code: 1, stdout: '', stderr: line });
      }
      chmodSync(dir, 0o700);
      chmodSync(db, 0o600);
      expect(readFileSync(db).equals(before)).toBe(true);
      expect(existsSync(`${db}-wal`) || existsSync(`${db}-shm`)).toBe(false);
    },
  );
});
