/**
 * The real parts of the replication tests (issue 26): Debian's OpenSSH server as an SFTP replica, started with its
 * own configuration, host key and client key in a temporary folder (key authentication only), and real Litestream
 * (the binary of the devDependency @flydotio/litestream-linux-x64) running `planner serve` under `-exec`.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { BIN, onCleanup, ROOT, tempDir, watchOutput } from '../helpers.ts';
import { freePort } from '../mail/smtp.ts';

export const LITESTREAM = join(ROOT, 'node_modules/@flydotio/litestream-linux-x64/litestream');
const SSHD = '/usr/sbin/sshd';

export interface SftpServer {
  host: string;
  user: string;
  keyPath: string;
  /** A folder on the server's side (the same machine) for a replica. */
  folder(name: string): string;
  stop(): Promise<void>;
}

/** Kills `child` with `signal` and resolves once it has exited. */
export async function killed(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill(signal);
  await exit;
}

/** Starts sshd on a free port of 127.0.0.1 with key authentication only; stopped when the test ends. */
export async function startSftp(): Promise<SftpServer> {
  const dir = tempDir();
  for (const key of ['host_key', 'client_key'])
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'planner-test', '-f', join(dir, key)]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      'LogLevel INFO',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege-separation folder (made by its init script)
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { waitFor } = watchOutput(child, 'sshd');
  await waitFor(/Server listening on 127\.0\.0\.1 port/);
  const server: SftpServer = {
    host: `127.0.0.1:${port}`,
    user: userInfo().username,
    keyPath: join(dir, 'client_key'),
    folder: (name) => join(dir, name),
    stop: () => killed(child),
  };
  onCleanup(() => server.stop());
  return server;
}

/**
 * The two replicas of the tests: an SFTP server and a folder (a second disk, a mounted share); `options` are more
 * settings of the database, `replicaOptions` of each replica (Litestream's names: `checkpoint-interval`, `retention`).
 */
export function litestreamConfig(
  db: string,
  replicas: { sftp?: SftpServer; folder?: string },
  options: Record<string, string> = {},
  replicaOptions: Record<string, string> = {},
): string {
  // As deploy/litestream.yml: the WAL is looked at every 100 ms and shipped every 900 ms, so a change reaches each
  // replica within a second of its commit.
  const lines = [
    'dbs:',
    `  - path: ${db}`,
    '    monitor-interval: 100ms',
    ...Object.entries(options).map(([name, value]) => `    ${name}: ${value}`),
    '    replicas:',
  ];
  const more = Object.entries(replicaOptions).map(([name, value]) => `        ${name}: ${value}`);
  if (replicas.sftp) {
    const { sftp } = replicas;
    lines.push(
      '      - type: sftp',
      `        host: ${sftp.host}`,
      `        user: ${sftp.user}`,
      `        key-path: ${sftp.keyPath}`,
      `        path: ${sftp.folder('replica')}`,
      '        sync-interval: 900ms',
      ...more,
    );
  }
  if (replicas.folder)
    lines.push('      - type: file', `        path: ${replicas.folder}`, '        sync-interval: 900ms', ...more);
  const file = join(tempDir(), 'litestream.yml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export interface Replicated {
  url: string;
  /** Litestream's process; `server` is the `planner serve` it runs. */
  litestream: ChildProcess;
  serverPid: number;
  output: () => string;
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
}

/** Starts `litestream replicate -exec "planner serve …"`, as deploy/planner-litestream.service does. */
export async function serveReplicated(
  db: string,
  config: string,
  env: Record<string, string> = {},
): Promise<Replicated> {
  const serveCommand = [process.execPath, BIN, 'serve', '--port', '0', '--log', 'off', '--db', db].join(' ');
  const child = spawn(LITESTREAM, ['replicate', '-config', config, '-exec', serveCommand], {
    cwd: ROOT,
    env: { ...process.env, PLANNER_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(() => killed(child, 'SIGKILL'));
  const { output, waitFor } = watchOutput(child, 'litestream');
  const url = (await waitFor(/serving (http:\/\/\S+)\/api/))[1]!;
  // Litestream's child (a Go program starts it from any of its threads: read every thread's children).
  const children = readdirSync(`/proc/${child.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${child.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/),
  );
  const serverPid = Number(
    children.find((pid) => pid !== '' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('serve')),
  );
  onCleanup(() => {
    try {
      process.kill(serverPid, 'SIGKILL');
    } catch {
      // gone already
    }
  });
  return { url, litestream: child, serverPid, output, waitFor };
}

/** Runs `litestream restore` of `db` from the replica named `replica` into `output`; returns what it printed. */
export function restore(config: string, db: string, replica: 'sftp' | 'file', output: string): string {
  const run = spawnSync(LITESTREAM, ['restore', '-config', config, '-replica', replica, '-o', output, db], {
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(
      `litestream restore from ${replica} failed (${run.status ?? run.signal}): ${run.stderr}${run.stdout}`,
    );
  return run.stdout + run.stderr;
}

/**
 * The recovery README's "Restore on a new machine" gives for an SFTP replica whose restore fails: Litestream 0.3.13
 * writes a WAL file on an SFTP server in place, so a server that dies while uploading one leaves it cut off (found by
 * the disaster test: an empty newest file, and `litestream restore` failing with "context canceled"). That file holds
 * at most the last sync interval's changes: remove it, and restore again. Returns the file removed.
 */
export function removeNewestWalFile(replicaFolder: string): string {
  const wal = readdirSync(join(replicaFolder, 'generations'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((generation) =>
      readdirSync(join(replicaFolder, 'generations', generation.name, 'wal')).map((file) =>
        join(replicaFolder, 'generations', generation.name, 'wal', file),
      ),
    );
  const newest = wal.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b)).at(-1)!;
  rmSync(newest);
  return newest;
}

/**
 * Checks a restored file's integrity: ok, or pages used by nothing and nothing else (space, no row: Litestream 0.3.13
 * restored such a file once in CI; `planner doctor` warns of it and `planner backup` compacts it). Any other finding
 * fails. Says on stderr when it saw the second.
 */
export function expectRestoredWhole(check: string, replica: string): void {
  if (check === 'ok') return;
  const lines = check.split('\n').filter((line) => line !== '*** in database main ***');
  expect(lines.length > 0 && lines.every((line) => /^Page \d+: never used$/.test(line)), `${replica}: ${check}`).toBe(
    true,
  );
  process.stderr.write(`${replica}: the restored file has ${lines.length} page(s) used by nothing (no row affected)\n`);
}
