/**
 * The systemd units of deploy/ (issue 36, item 9): how exposed `systemd-analyze security` rates them (held at what
 * the hardening reached, and said in the README), `systemd-analyze verify` on them, their paths against the README's
 * install section, and what each runs (planner serve; Litestream running planner serve and replicating over SFTP)
 * confined as the unit confines it. There is no running systemd here: test/deploy/sandbox.py applies the unit's
 * system-call filter with libseccomp (Debian's python3-seccomp), its /proc, file-system and user settings with a
 * mount namespace and setuid where the machine allows it (root), and says so when it does not.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { commandsOf, readmeBlock } from '../docs/readme.ts';
import { api, BIN, bookableDb, onCleanup, ROOT, tempDir, watchOutput } from '../helpers.ts';
import { freePort } from '../mail/smtp.ts';
import { killed, LITESTREAM, restore, startSftp } from '../replication/parts.ts';

const UNITS = ['planner.service', 'planner-litestream.service'] as const;
/** The template units of "Hosting many practices" (issue 39), each beside the unit it is hardened as. */
const TEMPLATES = {
  'planner@.service': 'planner.service',
  'planner-litestream@.service': 'planner-litestream.service',
};
const INSTANCE = 'sonne';
/** What the hardening reached (it was 3.2 OK for both before issue 36): a change that exposes more fails here. */
const MAX_EXPOSURE = 1.3;
const SANDBOX = join(import.meta.dirname, 'sandbox.py');

/** `systemd-analyze security --offline=true` of a unit: its overall exposure and the word for it. */
function exposure(unit: string): { score: number; word: string } {
  const run = spawnSync('systemd-analyze', ['security', '--offline=true', join(ROOT, 'deploy', unit)], {
    encoding: 'utf8',
  });
  const match = /Overall exposure level for \S+: (\d+\.\d) (\w+)/.exec(run.stdout);
  if (!match)
    throw new Error(`systemd-analyze security printed no exposure (${run.status}):\n${run.stdout}${run.stderr}`);
  return { score: Number(match[1]), word: match[2]! };
}

/** A unit's text, a template's with `%i` as `instance` (as systemd expands it for `name@instance.service`). */
function unitText(unit: string, instance = ''): string {
  return readFileSync(join(ROOT, 'deploy', unit), 'utf8').replaceAll('%i', instance);
}

/** The [Service] settings of a unit by name (the last value of each). */
function settingsOf(unit: string, instance?: string): Record<string, string> {
  return Object.fromEntries(
    [...unitText(unit, instance).matchAll(/^(\w+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]),
  );
}

/** The unit's Environment= settings, as name and value. */
function environmentOf(unit: string, instance?: string): [string, string][] {
  return [...unitText(unit, instance).matchAll(/^Environment=(\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]);
}

/** The unit's hardening: its settings from NoNewPrivileges= to the [Install] section. */
function hardening(unit: string): string[] {
  const text = unitText(unit);
  return text
    .slice(text.indexOf('\nNoNewPrivileges='), text.indexOf('\n[Install]'))
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
}

// Root may confine in a mount namespace and become another user, as systemd does; anyone else gets the filter only.
const asRoot = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', 'true']).status === 0;
const SERVICE_USER = 'nobody';

/** A state folder as StateDirectory= makes it (0700, the service user's), in a folder others may pass through. */
function stateFolder(): string {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  const state = join(dir, 'state');
  mkdirSync(state, { mode: 0o700 });
  return state;
}

/** Gives everything in `state` to the service user, as the unit's StateDirectory= and User= would have it. */
function handOver(state: string): void {
  if (!asRoot) return;
  const { uid, gid } = userIds(SERVICE_USER);
  chownSync(state, uid, gid);
  for (const name of readdirSync(state, { recursive: true, encoding: 'utf8' })) chownSync(join(state, name), uid, gid);
}

/** The user and group ids of a user of this machine. */
function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Starts `command` confined as `unit` confines it, with `state` as its state folder; stopped after the test file. */
function confined(unit: string, state: string, command: string[], env: Record<string, string> = {}) {
  const args = asRoot
    ? [
        '--mount',
        '--propagation',
        'private',
        '/usr/bin/python3',
        SANDBOX,
        '--mounts',
        join(ROOT, 'deploy', unit),
        state,
        SERVICE_USER,
        '--',
        ...command,
      ]
    : [SANDBOX, join(ROOT, 'deploy', unit), state, '-', '--', ...command];
  const child = spawn(asRoot ? 'unshare' : '/usr/bin/python3', args, {
    env: { ...process.env, PLANNER_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(() => killed(child, 'SIGKILL'));
  return { child, ...watchOutput(child, `${command[0]} confined by ${unit}`) };
}

/** What /proc says of a process: its seccomp mode (2: a filter) and real user id. */
function procStatus(pid: number): { seccomp: string; uid: string } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { seccomp: /^Seccomp:\s+(\d)/m.exec(status)![1]!, uid: /^Uid:\s+(\d+)/m.exec(status)![1]! };
}

/** Books the second day's first free time through the API of `url` (real server, contract-checked answers). */
async function bookOne(url: string, token: string) {
  const days = (await api(url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const slots = (await api(url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
  return api(url, '/api/bookings', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schedule: 1,
      reason: 1,
      slot: slots[0],
      submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
    }),
  });
}

describe('deploy/*.service', () => {
  if (!asRoot)
    process.stderr.write(
      'units test: not root: the system-call filter is applied, not the mounts nor the service user\n',
    );

  it(`systemd-analyze security rates each unit at most ${MAX_EXPOSURE}, as the README says`, () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const unit of [...UNITS, ...Object.keys(TEMPLATES)]) {
      const { score, word } = exposure(unit);
      process.stderr.write(`systemd-analyze security: ${unit} ${score} ${word}\n`);
      expect(score, unit).toBeLessThanOrEqual(MAX_EXPOSURE);
      expect(readme, `README.md gives ${unit}'s measured exposure`).toContain(`\`${unit}\` ${score} ${word}`);
    }
  });

  it('systemd-analyze verify finds nothing to say, in a root with the executables where the README installs them', () => {
    // verify needs the units the unit pulls in (sysinit.target, …) and the executables it starts: a copy of this
    // machine's unit folder and two stand-ins, in a root of their own, so that nothing outside it is looked at.
    const root = tempDir();
    cpSync('/usr/lib/systemd/system', join(root, 'usr/lib/systemd/system'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
    mkdirSync(join(root, 'etc/systemd/system'), { recursive: true });
    for (const program of ['planner', 'litestream'])
      writeFileSync(join(root, 'usr/local/bin', program), '#!/bin/sh\n', { mode: 0o755 });
    // A template is verified as an instance of it, with the practice's environment file where the unit reads it.
    mkdirSync(join(root, 'etc/planner'));
    writeFileSync(join(root, `etc/planner/${INSTANCE}.env`), 'PLANNER_PORT=3101\n');
    for (const unit of [...UNITS, ...Object.keys(TEMPLATES)]) {
      copyFileSync(join(ROOT, 'deploy', unit), join(root, 'etc/systemd/system', unit));
      const name = unit.replace('@.', `@${INSTANCE}.`);
      const run = spawnSync('systemd-analyze', ['verify', `--root=${root}`, name], { encoding: 'utf8' });
      expect({ unit, status: run.status, said: run.stdout + run.stderr }).toEqual({ unit, status: 0, said: '' });
    }
  });

  it("name the paths of the README's install section: the executables, the state folder it is the home of, the database", () => {
    const install = commandsOf(readmeBlock('Install on a server', 'sh')).join('\n');
    const home = /useradd --system --home-dir (\S+) /.exec(install)![1]!;
    for (const unit of UNITS) {
      const service = settingsOf(unit);
      // ProtectSystem=strict leaves only the StateDirectory= writable, and ProtectHome=yes hides /home: the home the
      // README gives the service user must be that folder, and every file the service writes must be in it.
      expect({ unit, strict: service.ProtectSystem, home: `/var/lib/${service.StateDirectory}` }).toEqual({
        unit,
        strict: 'strict',
        home,
      });
      expect(service.WorkingDirectory).toBe(home);
      const environment = readFileSync(join(ROOT, 'deploy', unit), 'utf8')
        .match(/^Environment=\w+=\S+$/gm)!
        .map((line) => line.split('=')[2]!);
      for (const path of environment.filter((value) => !value.startsWith('/etc/')))
        expect(path.startsWith(`${home}/`), `${unit}: ${path}`).toBe(true);
      for (const program of service.ExecStart!.match(/\/usr\/local\/bin\/\w+/g)!)
        expect(install + readFileSync(join(ROOT, 'deploy', unit), 'utf8')).toContain(
          `install -m 0755 ${program.split('/').at(-1)} ${program}`,
        );
    }
    const litestream = readFileSync(join(ROOT, 'deploy/litestream.yml'), 'utf8');
    expect(/^\s+- path: (\S+)$/m.exec(litestream)![1]).toBe(`${home}/planner.db`);
    expect(/key-path: (\S+)/.exec(litestream)![1]!.startsWith(`${home}/`)).toBe(true);
  });

  it('planner.service: planner serve runs confined as the unit says: argon2, node:sqlite in its state folder, listening', async () => {
    const state = stateFolder();
    const db = join(state, 'planner.db');
    const token = await bookableDb(db);
    handOver(state);
    const server = confined('planner.service', state, [process.execPath, BIN, 'serve', '--port', '0', '--db', db]);
    const url = (await server.waitFor(/serving (http:\/\/\S+)\/api/))[1]!;
    expect(procStatus(server.child.pid!).seccomp).toBe('2'); // python exec'd into planner: the filter is on it

    // argon2 (the native addon) is loaded as the server starts, a booking is written with node:sqlite.
    expect((await bookOne(url, token)).status).toBe(201);
    // SIGTERM, as systemctl stop sends it: a clean stop.
    const stopped = new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    expect(await stopped, server.output()).toBe(0);
    expect(server.output()).not.toMatch(/error|EPERM|EACCES/i);
    const handle = new DatabaseSync(db, { readOnly: true });
    expect((handle.prepare('SELECT count(*) AS n FROM bookings').get() as { n: number }).n).toBe(1);
    handle.close();
    if (asRoot) expect(statSync(db).uid).toBe(userIds(SERVICE_USER).uid); // written by the service user
  });

  it(`the templates: hardened line for line as the unit beside them; an instance's user, folder, file and port are the practice's, as README's "Hosting many practices" makes them`, () => {
    const block = readmeBlock('Hosting many practices', 'sh');
    const commands = commandsOf(block).join('\n');
    for (const [template, base] of Object.entries(TEMPLATES)) {
      expect(hardening(template), template).toEqual(hardening(base));
      const service = settingsOf(template, INSTANCE);
      const home = `/var/lib/planner/${INSTANCE}`;
      expect({
        template,
        user: service.User,
        group: service.Group,
        state: service.StateDirectory,
        mode: service.StateDirectoryMode,
        cwd: service.WorkingDirectory,
        ports: service.EnvironmentFile,
      }).toEqual({
        template,
        user: `planner-${INSTANCE}`,
        group: `planner-${INSTANCE}`,
        state: `planner/${INSTANCE}`,
        mode: '0700',
        cwd: home,
        ports: `/etc/planner/${INSTANCE}.env`,
      });
      // Every file it writes is in the practice's own folder; every file it reads in /etc is the practice's own.
      for (const [name, value] of environmentOf(template, INSTANCE))
        expect(value.startsWith(`${home}/`) || value.startsWith(`/etc/planner/${INSTANCE}`), `${name}=${value}`).toBe(
          true,
        );
      expect(service.ExecStart).toContain('/usr/local/bin/planner serve --host 127.0.0.1');
      expect(service.ExecStart).not.toContain('--port'); // the port is the practice's: PLANNER_PORT
    }
    // The README makes the user, folder, port file and CLI the instance of planner@sonne expects.
    const environment = Object.fromEntries(environmentOf('planner@.service', '$name'));
    expect(commands).toContain(`useradd --system --no-create-home --shell /usr/sbin/nologin planner-${INSTANCE}`);
    expect(commands).toContain(
      `install -d -m 0700 -o planner-${INSTANCE} -g planner-${INSTANCE} /var/lib/planner/${INSTANCE}`,
    );
    expect(commands).toMatch(new RegExp(`echo 'PLANNER_PORT=\\d+' \\| sudo tee /etc/planner/${INSTANCE}\\.env`));
    expect(commands).toContain('install -m 0644 planner@.service /etc/systemd/system/planner@.service');
    expect(commands).toContain(`sudo systemctl enable --now planner@${INSTANCE}`);
    for (const name of ['PLANNER_DB', 'PKG_NATIVE_CACHE_PATH'])
      expect(commands, name).toContain(`${name}="${environment[name]}"`);
  });

  it('planner@.service: two practices from the template at once, each confined, on its own file and port', async () => {
    const practices = await Promise.all(
      ['sonne', 'mond'].map(async (name) => {
        const state = stateFolder();
        // The unit's own environment and command, its folder here, its port file as the README writes it.
        const env = Object.fromEntries(
          environmentOf('planner@.service', name).map(([key, value]) => [
            key,
            value.replace(`/var/lib/planner/${name}`, state),
          ]),
        );
        const token = await bookableDb(env.PLANNER_DB!);
        handOver(state);
        env.PLANNER_PORT = String(await freePort());
        const command = settingsOf('planner@.service', name)
          .ExecStart!.split(' ')
          .flatMap((word) => (word === '/usr/local/bin/planner' ? [process.execPath, BIN] : [word]));
        const server = confined('planner@.service', state, command, env);
        const url = (await server.waitFor(/serving (http:\/\/\S+)\/api/))[1]!;
        return { name, db: env.PLANNER_DB!, token, server, url, cache: env.NODE_COMPILE_CACHE! };
      }),
    );
    for (const practice of practices) {
      // Node's compile cache (issue 49) is the practice's own, in its state folder, written as it starts serving.
      expect(practice.cache.startsWith(dirname(practice.db))).toBe(true);
      const [version] = readdirSync(practice.cache);
      expect(readdirSync(join(practice.cache, version!)).length, practice.name).toBeGreaterThan(20);
    }
    expect(new Set(practices.map((practice) => practice.url)).size).toBe(2);
    for (const practice of practices) {
      expect(practice.url).toBe(`http://127.0.0.1:${new URL(practice.url).port}`);
      expect((await bookOne(practice.url, practice.token)).status, practice.name).toBe(201);
      // The other practice's token is not this one's.
      const other = practices.find((each) => each !== practice)!;
      expect((await api(practice.url, '/api/schedules', other.token)).status).toBe(401);
    }
    for (const practice of practices) {
      const stopped = new Promise((resolve) => practice.server.child.once('exit', (code) => resolve(code)));
      practice.server.child.kill('SIGTERM');
      expect(await stopped, practice.server.output()).toBe(0);
      const handle = new DatabaseSync(practice.db, { readOnly: true });
      expect((handle.prepare('SELECT count(*) AS n FROM bookings').get() as { n: number }).n).toBe(1);
      handle.close();
    }
  });

  it('the confinement is in force: a call the filter leaves out fails, other processes are not seen, / is read-only', async () => {
    const state = stateFolder();
    handOver(state);
    const probe = confined('planner.service', state, [
      '/bin/sh',
      '-c',
      'renice -n 5 -p $$ >/dev/null 2>&1 && echo nice-changed || echo nice-refused; ' +
        'test -e /proc/1 && echo pid1-seen || echo pid1-hidden; ' +
        'touch /etc/planner-probe 2>/dev/null && echo etc-written || echo etc-refused; ' +
        `touch ${state}/written && echo state-written || echo state-refused; id -un`,
    ]);
    await new Promise((resolve) => probe.child.once('exit', resolve));
    const said = probe.output().split('\n').filter(Boolean);
    // setpriority is in @resources, taken out of the filter: refused with EPERM (anyone may lower their own
    // priority otherwise), and the shell goes on.
    expect(said.slice(0, 1)).toEqual(['nice-refused']);
    expect(said.at(-2)).toBe('state-written');
    if (asRoot) expect(said).toEqual(['nice-refused', 'pid1-hidden', 'etc-refused', 'state-written', SERVICE_USER]);
  });

  it('planner-litestream.service: Litestream runs planner serve confined as the unit says, and replicates over SFTP', async () => {
    const state = stateFolder();
    const db = join(state, 'planner.db');
    const token = await bookableDb(db);
    const sftp = await startSftp();
    // As the README installs it: the replica's key in the state folder, readable by the service only.
    mkdirSync(join(state, '.ssh'), { mode: 0o700 });
    const key = join(state, '.ssh', 'replica_ed25519');
    copyFileSync(sftp.keyPath, key);
    chmodSync(key, 0o600);
    const config = join(state, 'litestream.yml');
    writeFileSync(
      config,
      [
        'dbs:',
        `  - path: ${db}`,
        '    monitor-interval: 100ms',
        '    replicas:',
        '      - type: sftp',
        `        host: ${sftp.host}`,
        `        user: ${sftp.user}`,
        `        key-path: ${key}`,
        `        path: ${sftp.folder('replica')}`,
        '        sync-interval: 900ms',
        '',
      ].join('\n'),
    );
    handOver(state);
    const serveCommand = [process.execPath, BIN, 'serve', '--port', '0', '--db', db].join(' ');
    const live = confined('planner-litestream.service', state, [
      LITESTREAM,
      'replicate',
      '-config',
      config,
      '-exec',
      serveCommand,
    ]);
    const url = (await live.waitFor(/serving (http:\/\/\S+)\/api/))[1]!;
    await live.waitFor(/snapshot written.*replica=sftp/);
    expect(procStatus(live.child.pid!).seccomp).toBe('2');
    const booked = await bookOne(url, token);
    expect(booked.status).toBe(201);
    const reference = booked.body.booking_details_id as string;
    // The booking's WAL reaches the replica (Litestream says so per file written), and comes back from it.
    const shipped = (live.output().match(/wal segment written.*replica=sftp/g) ?? []).length;
    await live.waitFor(new RegExp(`(?:[\\s\\S]*?wal segment written.*replica=sftp){${shipped + 1}}`));
    const restored = join(tempDir(), 'restored.db');
    restore(config, db, 'sftp', restored);
    const handle = new DatabaseSync(restored, { readOnly: true });
    expect(handle.prepare('SELECT reference FROM bookings').all()).toEqual([{ reference }]);
    handle.close();

    // SIGTERM to Litestream: it passes it to planner, waits for it, and stops; both cleanly.
    const stopped = new Promise((resolve) => live.child.once('exit', (code) => resolve(code)));
    live.child.kill('SIGTERM');
    expect(await stopped, live.output()).toBe(0);
    expect(live.output()).not.toMatch(/EPERM|EACCES|operation not permitted|permission denied/i);
  }, 120_000); // it starts an installation, an SFTP server, Litestream and the server: 2.5 s on a quiet machine, and 30 s ran out on a loaded one (three sessions beside CI)
});
