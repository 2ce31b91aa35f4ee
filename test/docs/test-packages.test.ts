/**
 * The README's test line on a fresh machine: its first command, scripts/test-packages.sh, installs the system packages
 * the tests need (as root, with apt-get), or stops in its first second with one line naming what is missing and the
 * one command that installs it all; `npm test` checks the same and never installs. Run here on made-up machines: a
 * folder stands for the file system (TEST_PACKAGES_ROOT), another for PATH, with an `apt-get` that "installs" by
 * writing what each package brings where the tests look for it, and an `npm` that only notes it was called.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.ts';

/** Each package the tests need, and what it brings where they look for it: a command on PATH, or a file. */
const BRINGS: Record<string, { command: string } | { file: string }> = {
  bsdutils: { command: 'script' },
  curl: { command: 'curl' },
  chromium: { file: 'usr/bin/chromium' },
  'fonts-dejavu-core': { file: 'usr/share/fonts/truetype/dejavu/DejaVuSans.ttf' },
  'openssh-server': { file: 'usr/sbin/sshd' },
  radicale: { file: 'usr/bin/radicale' },
  'nginx-light': { file: 'usr/sbin/nginx' },
  caddy: { file: 'usr/bin/caddy' },
  apache2: { file: 'usr/sbin/apache2' },
  systemd: { command: 'systemd-analyze' },
  // The probe runs `python3 -c 'import seccomp'`: this python3 says yes.
  'python3-seccomp': { file: 'usr/bin/python3' },
};
const ALL = Object.keys(BRINGS);

/** The README's test line, found as .ci/run finds it: the quick start's line marked `# the whole test suite`. */
function readmeTestLine(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const quickStart = readme.slice(
    readme.indexOf('## Quick start'),
    readme.indexOf('\n## ', readme.indexOf('## Quick start')),
  );
  const line = quickStart.split('\n').find((text) => text.includes('# the whole test suite'));
  expect(line, 'the quick start has a test line').toBeDefined();
  return line!.replace(/ *#.*/, '');
}

const STUB = '#!/bin/sh\nexit 0\n';

interface Machine {
  root: string;
  bin: string;
  log: string;
  /** Runs `command` with bash in the repository, on this machine; its output, exit code and time, and what it called. */
  run(command: string): { code: number | null; stdout: string; stderr: string; ms: number; calls: string[] };
}

/**
 * A made-up machine: the packages in `has` present, apt-get (unless `aptGet` is false) and sudo (when `sudo`), `id -u`
 * answering `uid`. Its bash, chmod and rm are the real ones (Debian has them always).
 */
function machine(options: {
  has?: string[];
  uid: number;
  aptGet?: 'installs' | 'fails to install' | false;
  sudo?: boolean;
}): Machine {
  const folder = tempDir();
  const root = join(folder, 'root');
  const bin = join(folder, 'bin');
  const log = join(folder, 'calls.log');
  mkdirSync(join(root, 'usr/sbin'), { recursive: true });
  mkdirSync(bin);
  writeFileSync(log, '');
  const executable = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    chmodSync(path, 0o755);
  };
  const place = (pkg: string) => {
    const brings = BRINGS[pkg]!;
    executable('command' in brings ? join(bin, brings.command) : join(root, brings.file), STUB);
  };
  for (const pkg of options.has ?? []) place(pkg);
  for (const tool of ['bash', 'chmod', 'rm']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  executable(join(bin, 'id'), `#!/bin/sh\necho ${options.uid}\n`);
  executable(join(bin, 'npm'), `#!/bin/sh\necho "npm $*" >> ${log}\n`);
  if (options.sudo) executable(join(bin, 'sudo'), STUB);
  if (options.aptGet) {
    const installs =
      options.aptGet === 'installs'
        ? ALL.map((pkg) => {
            const brings = BRINGS[pkg]!;
            const path = 'command' in brings ? join(bin, brings.command) : join(root, brings.file);
            return `    ${pkg}) /usr/bin/mkdir -p ${dirname(path)} && printf '${STUB.replace(/\n/g, '\\n')}' > ${path} && /usr/bin/chmod 755 ${path} ;;`;
          }).join('\n')
        : '';
    executable(
      join(bin, 'apt-get'),
      `#!/bin/bash
# Notes the call, and whether services would start (policy-rc.d in place), then "installs" what it is given.
policy=no; [[ -x ${root}/usr/sbin/policy-rc.d ]] && policy=yes
echo "apt-get $* (DEBIAN_FRONTEND=$DEBIAN_FRONTEND, policy-rc.d $policy)" >> ${log}
[[ $1 == install ]] || exit 0
for pkg in "$@"; do
  case $pkg in
${installs}
  esac
done
`,
    );
  }
  return {
    root,
    bin,
    log,
    run(command) {
      const started = performance.now();
      const result = spawnSync('/usr/bin/bash', ['-c', command], {
        cwd: ROOT,
        env: { PATH: bin, TEST_PACKAGES_ROOT: root },
        encoding: 'utf8',
        // stdin not a socket: Debian's bash reads ~/.bashrc when its stdin is one (it takes itself for sshd's shell).
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return {
        code: result.status,
        stdout: result.stdout,
        stderr: result.stderr,
        ms: performance.now() - started,
        calls: readFileSync(log, 'utf8').split('\n').filter(Boolean),
      };
    },
  };
}

const lacks = (packages: string[]) => `planner's tests need Debian packages this machine lacks (${packages.join(' ')})`;

describe('the system packages the tests need (scripts/test-packages.sh)', () => {
  it('on this machine, which runs the tests: says nothing', () => {
    const result = spawnSync('bash', ['scripts/test-packages.sh'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('the README’s test line, not root, on a machine without them: one line in its first second, naming the one command', () => {
    const bare = machine({ uid: 1000, aptGet: 'installs', sudo: true });
    const result = bare.run(readmeTestLine());
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr, calls: result.calls }).toEqual({
      code: 1,
      stdout: '',
      stderr: `${lacks(ALL)}: to install them all, run  sudo bash scripts/test-packages.sh --install\n`,
      calls: [],
    });
    expect(result.ms).toBeLessThan(1000);
    // Without sudo, su.
    const noSudo = machine({ uid: 1000, aptGet: 'installs' }).run(readmeTestLine());
    expect(noSudo.stderr).toBe(
      `${lacks(ALL)}: to install them all, run  su -c 'bash scripts/test-packages.sh --install'\n`,
    );
  });

  it('the README’s test line, as root, on a machine without them: installs exactly those, no service started, then npm ci && npm test', () => {
    const bare = machine({ uid: 0, has: ['curl', 'bsdutils'], aptGet: 'installs' });
    const result = bare.run(readmeTestLine());
    const missing = ALL.filter((pkg) => pkg !== 'curl' && pkg !== 'bsdutils');
    expect({ code: result.code, calls: result.calls }).toEqual({
      code: 0,
      calls: [
        'apt-get update -qq (DEBIAN_FRONTEND=noninteractive, policy-rc.d yes)',
        `apt-get install -y -qq ${missing.join(' ')} (DEBIAN_FRONTEND=noninteractive, policy-rc.d yes)`,
        'npm ci',
        'npm test',
      ],
    });
    expect(result.stderr).toBe(`installing what the tests need: ${missing.join(' ')}\n`);
    // The switch that kept services stopped is gone again; a second run finds everything and says nothing.
    expect(existsSync(join(bare.root, 'usr/sbin/policy-rc.d'))).toBe(false);
    const again = bare.run('bash scripts/test-packages.sh --install');
    expect({ code: again.code, stdout: again.stdout, stderr: again.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('npm test, on a machine without some of them: never installs, names exactly those and the one command', () => {
    const test = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test as string;
    expect(test).toMatch(/^bash scripts\/test-packages\.sh && /);
    const some = machine({
      uid: 0,
      has: ALL.filter((pkg) => pkg !== 'nginx-light' && pkg !== 'python3-seccomp'),
      aptGet: 'installs',
    });
    const result = some.run(test);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr, calls: result.calls }).toEqual({
      code: 1,
      stdout: '',
      stderr: `${lacks(['nginx-light', 'python3-seccomp'])}: to install them all, run  bash scripts/test-packages.sh --install\n`,
      calls: [],
    });
    expect(result.ms).toBeLessThan(1000);
  });

  it('a machine with everything passes silently; one without apt-get, or whose apt-get installs nothing, says so in one line', () => {
    const complete = machine({ uid: 1000, has: ALL });
    for (const command of ['bash scripts/test-packages.sh', 'bash scripts/test-packages.sh --install']) {
      const result = complete.run(command);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      });
    }
    const noApt = machine({ uid: 0, has: ALL.filter((pkg) => pkg !== 'caddy'), aptGet: false }).run(
      'bash scripts/test-packages.sh --install',
    );
    expect({ code: noApt.code, stderr: noApt.stderr }).toEqual({
      code: 1,
      stderr: `${lacks(['caddy'])}: there is no apt-get here, so install them (or what your system calls them) by hand\n`,
    });
    const stillMissing = machine({ uid: 0, has: ALL.filter((pkg) => pkg !== 'caddy'), aptGet: 'fails to install' }).run(
      'bash scripts/test-packages.sh --install',
    );
    expect({ code: stillMissing.code, stderr: stillMissing.stderr }).toEqual({
      code: 1,
      stderr:
        'installing what the tests need: caddy\napt-get installed, but the tests still lack caddy: see scripts/test-packages.sh for where each is looked for\n',
    });
  });
});

describe('the list is said where CI runs it', () => {
  it('.ci/run names each package scripts/test-packages.sh installs, and no other', () => {
    const script = readFileSync(join(ROOT, 'scripts/test-packages.sh'), 'utf8');
    const probed = [...script.matchAll(/^ {2}probe (\S+) /gm)].map((match) => match[1]);
    expect(probed).toEqual(ALL);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').replace(/\n#\s+/g, ' ');
    expect(/why each: ([^;)]+)\);/.exec(ci)?.[1]?.split(', ')).toEqual(probed);
  });
});
