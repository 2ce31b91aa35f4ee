/**
 * What planner knows of its replication with Litestream, for `planner status` and `planner doctor`.
 * Planner does not replicate: Litestream does, as the process that runs `planner serve` (`litestream replicate
 * -exec`, deploy/planner-litestream.service). This reads what Litestream itself reports, with its own binary:
 * `litestream databases` (does a configuration name this file?) and `litestream generations` (the replica's newest
 * position, and how far it is behind the database).
 *
 * Where the parts are: the configuration is `PLANNER_LITESTREAM_CONFIG`, else Litestream's own default
 * `/etc/litestream.yml`; the binary is `PLANNER_LITESTREAM`, else `litestream` beside the planner executable (the
 * release tarball), else the one a clone installs (node_modules), else `litestream` on the PATH.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { REPLICA_LAG_LIMIT_SECONDS, replicationVerdict } from './health.ts';

/** Litestream's own default configuration. */
export const DEFAULT_LITESTREAM_CONFIG = '/etc/litestream.yml';
/** How long one litestream command may take (an SFTP replica is listed over the network). */
const COMMAND_TIMEOUT_MS = 15_000;

/** One replica of the database, as `litestream generations` reports its newest generation. */
export interface ReplicaPosition {
  /** The replica's name in the configuration (its type when unnamed: `file`, `sftp`, `s3`). */
  name: string;
  generation: string;
  /** When the newest WAL segment in the replica was written (ISO). */
  end: string;
  /** Seconds the replica is behind the database's last change (0 or less: it has everything). */
  lagSeconds: number;
}

export type Replication =
  | { state: 'off'; config: string; reason: string }
  | { state: 'unreadable'; config: string; named: boolean; problem: string }
  | { state: 'on'; config: string; replicas: ReplicaPosition[] };

/** The litestream binary this installation uses (see the module's comment). */
export function litestreamBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PLANNER_LITESTREAM) return env.PLANNER_LITESTREAM;
  const beside = join(dirname(process.execPath), 'litestream');
  if (existsSync(beside)) return beside;
  // A clone: node_modules beside the bin/ folder of bin/planner.js, which started this process.
  const installed = join(
    dirname(process.argv[1] ?? ''),
    '..',
    'node_modules',
    '@flydotio',
    'litestream-linux-x64',
    'litestream',
  );
  if (process.argv[1] && existsSync(installed)) return installed;
  return 'litestream';
}

/** Runs litestream with `args`; resolves with its output, or rejects with its first line of error. */
function litestream(binary: string, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(binary, args, { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return done(stdout);
      const said = stderr.trim().split('\n').pop() ?? '';
      fail(
        new Error(
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? `${binary} not found: set PLANNER_LITESTREAM`
            : said || error.message,
        ),
      );
    });
  });
}

/** Reads a Go duration as litestream prints it (`-872ms`, `3.5s`, `1m2s`, `2h0m3s`) in seconds. */
export function goDurationSeconds(text: string): number | undefined {
  const match = /^(-?)((?:\d+(?:\.\d+)?(?:h|m|s|ms|µs|us|ns))+)$/.exec(text.trim());
  if (!match) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, µs: 1e-6, us: 1e-6, ns: 1e-9 };
  let seconds = 0;
  for (const [, value, name] of match[2]!.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/g))
    seconds += Number(value) * unit[name!]!;
  return match[1] ? -seconds : seconds;
}

/** The rows of a table litestream prints (a header line, then columns split by runs of spaces). */
function rows(output: string): string[][] {
  return output
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length > 1);
}

/**
 * Returns how the replication of `dbFile` stands: off (no configuration, or none that names this file), on with the
 * newest position of each replica, or unreadable (litestream could not be run or could not read a replica).
 */
export async function readReplication(dbFile: string, env: NodeJS.ProcessEnv = process.env): Promise<Replication> {
  const config = env.PLANNER_LITESTREAM_CONFIG || DEFAULT_LITESTREAM_CONFIG;
  if (!existsSync(config)) return { state: 'off', config, reason: `no Litestream configuration at ${config}` };
  const binary = litestreamBinary(env);
  const path = resolve(dbFile);
  let named = false;
  try {
    const databases = rows(await litestream(binary, ['databases', '-config', config]));
    named = databases.some(([listed]) => listed === path);
    if (!named) return { state: 'off', config, reason: `${config} does not name ${path}` };
    const generations = rows(await litestream(binary, ['generations', '-config', config, path]));
    // One row per replica and generation; the newest generation of each replica is the one it restores.
    const newest = new Map<string, ReplicaPosition>();
    for (const [name, generation, lag, , end] of generations) {
      const lagSeconds = goDurationSeconds(lag ?? '');
      if (!name || !generation || !end || lagSeconds === undefined) continue;
      const known = newest.get(name);
      if (!known || end > known.end) newest.set(name, { name, generation, end, lagSeconds });
    }
    if (newest.size === 0)
      return {
        state: 'unreadable',
        config,
        named,
        problem: `no replica of ${path} holds a generation yet: is litestream replicate running?`,
      };
    return { state: 'on', config, replicas: [...newest.values()] };
  } catch (error) {
    return { state: 'unreadable', config, named, problem: (error as Error).message };
  }
}

/** Whole seconds as a short span: `4 s`, `3 min`, `2 h`, `5 d`. */
function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

/**
 * How the replication stands, in one line, and whether `planner doctor` passes it (`replicationVerdict`,
 * app/operations/health.ts: off is a choice; an unreadable replica, or one behind, fails).
 */
export function replicationSummary(replication: Replication, nowMs: number): { ok: boolean; text: string } {
  const verdict = replicationVerdict(replication);
  const ok = verdict.health !== 'fail';
  if (replication.state === 'off') return { ok, text: `off: ${replication.reason} (README: "Off-site replication")` };
  if (replication.state === 'unreadable') {
    const what = replication.named
      ? `${replication.config} names this database, but its replica cannot be read`
      : `${replication.config} cannot be read`;
    return { ok, text: `${what}: ${replication.problem}` };
  }
  const each = replication.replicas.map(
    (replica) =>
      `${replica.name}: ${span(replica.lagSeconds)} behind, newest change ${span((nowMs - Date.parse(replica.end)) / 1000)} ago`,
  );
  if (verdict.why !== 'behind') return { ok, text: `on (${replication.config}) · ${each.join(' · ')}` };
  const behind = replication.replicas.filter((replica) => replica.lagSeconds > REPLICA_LAG_LIMIT_SECONDS);
  return {
    ok,
    text: `BEHIND: ${behind.map((replica) => `${replica.name} is ${span(replica.lagSeconds)}`).join(', ')} behind the database: is litestream replicate running? (systemctl status planner) · ${each.join(' · ')}`,
  };
}
