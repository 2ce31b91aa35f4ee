/**
 * `npm run release`: release/planner-<version>-linux-x64.tar.gz, what an admin downloads. It holds one folder,
 * planner-<version>-linux-x64/, with the executable `planner`, `planner.service`, `README.md`, `LICENSE`, and for
 * off-site replication (issue 26) Litestream's executable `litestream` (from the devDependency
 * @flydotio/litestream-linux-x64) with its license `LICENSE.litestream`, an example `litestream.yml` and
 * `planner-litestream.service`; `LICENSE.ical.js`, the MPL-2.0 of ical.js, which the executable carries (issue 25);
 * the template units `planner@.service` and `planner-litestream@.service` for many practices on one machine
 * (issue 39); and `SHA256SUMS` (the sums of all the others). Beside the tarball: `<tarball>.sha256`, its own sum, to
 * check the download before unpacking it. `npm run release` builds the executable first (`npm run build:bin`).
 * The archive is reproducible for the same inputs: sorted names, owner root, fixed modes and times.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };

const root = resolve(import.meta.dirname, '..');
const binary = join(root, 'dist/planner');
if (!existsSync(binary)) throw new Error('dist/planner is missing: run `npm run release`, which builds it first');

const name = `planner-${packageJson.version}-linux-x64`;
const out = join(root, 'release');
const stage = join(out, name);
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
chmodSync(stage, 0o755); // not the umask's: the archive records the folder's mode

const files: [from: string, to: string, mode: number][] = [
  [binary, 'planner', 0o755],
  [join(root, 'deploy/planner.service'), 'planner.service', 0o644],
  [join(root, 'README.md'), 'README.md', 0o644],
  [join(root, 'LICENSE'), 'LICENSE', 0o644],
  [join(root, 'node_modules/@flydotio/litestream-linux-x64/litestream'), 'litestream', 0o755],
  [join(root, 'deploy/LICENSE.litestream'), 'LICENSE.litestream', 0o644],
  [join(root, 'deploy/litestream.yml'), 'litestream.yml', 0o644],
  [join(root, 'deploy/planner-litestream.service'), 'planner-litestream.service', 0o644],
  [join(root, 'node_modules/ical.js/LICENSE'), 'LICENSE.ical.js', 0o644],
  [join(root, 'deploy/planner@.service'), 'planner@.service', 0o644],
  [join(root, 'deploy/planner-litestream@.service'), 'planner-litestream@.service', 0o644],
];
const sums: string[] = [];
for (const [from, to, mode] of files) {
  copyFileSync(from, join(stage, to));
  chmodSync(join(stage, to), mode);
  sums.push(`${sha256(join(stage, to))}  ${to}`);
}
writeFileSync(join(stage, 'SHA256SUMS'), `${sums.join('\n')}\n`, { mode: 0o644 });

const tarball = join(out, `${name}.tar.gz`);
// The commit's time (or now, outside git) as every entry's time: the same commit gives the same archive.
const mtime = gitTime() ?? new Date().toISOString();
execFileSync('tar', [
  '--sort=name',
  '--owner=0',
  '--group=0',
  '--numeric-owner',
  `--mtime=${mtime}`,
  '-cf',
  `${tarball.slice(0, -3)}`,
  '-C',
  out,
  name,
]);
execFileSync('gzip', ['-n', '-f', '-9', tarball.slice(0, -3)]);
writeFileSync(`${tarball}.sha256`, `${sha256(tarball)}  ${name}.tar.gz\n`);
rmSync(stage, { recursive: true, force: true });
console.log(`Wrote ${tarball} and ${tarball}.sha256.`);

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function gitTime(): string | undefined {
  try {
    return (
      execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}
