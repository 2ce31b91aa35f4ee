/**
 * `npm run build:bin`: makes dist/planner, one executable with Node, the CLI, the server and the argon2 addon
 * inside (@yao-pkg/pkg, SEA mode). Works offline: pkg would download a Node build, so this seeds pkg's cache with
 * the Node binary of the `node` devDependency first. Run `npm run build` before it (the bundle it packs).
 *
 * Other targets: PLANNER_TARGET=node24.21.0-linux-arm64 (or -macos-arm64) with PLANNER_TARGET_NODE=<path to that
 * platform's node binary>; the binary must match the target's Node version.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { EXECUTABLE_FLAGS } from '../src/http/heap.ts';
import { asciiOnly } from './ascii.ts';

const root = resolve(import.meta.dirname, '..');
const bundle = join(root, 'dist/planner.cjs');
if (!existsSync(bundle)) throw new Error('dist/planner.cjs is missing: run `npm run build` first');

const localNode = join(root, 'node_modules/node/bin/node');
const version = execFileSync(localNode, ['--version']).toString().trim().slice(1);
const target = process.env.PLANNER_TARGET ?? `node${version}-linux-x64`;
const [, targetVersion, os, arch] = /^node(\d+\.\d+\.\d+)-(\w+)-(\w+)$/.exec(target) ?? [];
if (!targetVersion) throw new Error(`PLANNER_TARGET "${target}" is not like node24.21.0-linux-x64`);
const nodeBinary = process.env.PLANNER_TARGET_NODE ?? localNode;

// pkg looks for ~/.pkg-cache/sea/node-v<version>-<os>-<arch>.tar.gz (+ .ok) and its extracted bin/node (+ .ok).
const cache = join(homedir(), '.pkg-cache/sea');
const name = `node-v${targetVersion}-${os === 'macos' ? 'darwin' : os}-${arch}`;
const extracted = join(cache, name, 'bin/node');
if (!existsSync(`${extracted}.ok`)) {
  mkdirSync(dirname(extracted), { recursive: true });
  copyFileSync(nodeBinary, extracted);
  chmodSync(extracted, 0o755);
  writeFileSync(`${extracted}.ok`, '');
  execFileSync('tar', ['czf', join(cache, `${name}.tar.gz`), '-C', cache, name]);
  writeFileSync(join(cache, `${name}.tar.gz.ok`), '');
  console.log(`Seeded pkg's cache with ${nodeBinary} as ${name}.`);
}

/**
 * What the executable runs first: scripts/sea-main.cjs instead of pkg's bootstrap (it says why), ASCII only. It reads
 * the archive and manifest pkg writes, so the build stops when pkg's bootstrap no longer reads them as it does.
 */
function planStart(pkgBootstrap: string): string {
  for (const expected of [
    'JSON.parse(sea.getAsset("__pkg_manifest__", "utf8"))',
    'Buffer.from(sea.getRawAsset("__pkg_archive__"))',
    'var entry = this._manifest.offsets[p];',
    'var off = entry[0];',
    'var len = entry[1];',
    'var meta = this._manifest.stats[p];',
    'var SNAPSHOT_PREFIX = "/snapshot";',
    'process.argv[1] = entrypoint2;',
  ])
    if (!pkgBootstrap.includes(expected))
      throw new Error(`pkg's SEA bootstrap changed (no \`${expected}\`): look again at scripts/sea-main.cjs`);
  return asciiOnly(readFileSync(join(root, 'scripts/sea-main.cjs'), 'utf8'), 'sea-main.cjs');
}

// A package of its own for pkg's enhanced SEA pipeline: the bundle, and the addon it requires.
const stage = join(root, 'dist/sea');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
copyFileSync(bundle, join(stage, 'planner.cjs'));
// The chunks it loads when first needed (the server, the mail transport, the calendar reader, the prompts).
for (const folder of ['chunks', 'shared'])
  cpSync(join(root, 'dist', folder), join(stage, folder), {
    recursive: true,
    filter: (path) => !path.endsWith('.mjs'),
  });
writeFileSync(
  join(stage, 'package.json'),
  JSON.stringify({ name: 'planner', version: packageJson.version, bin: 'planner.cjs', pkg: { assets: [] } }, null, 2),
);
mkdirSync(join(stage, 'node_modules/@node-rs'), { recursive: true });
for (const addon of ['argon2', `argon2-${os === 'macos' ? 'darwin' : os}-${arch}${os === 'linux' ? '-gnu' : ''}`]) {
  const source = join(root, 'node_modules/@node-rs', addon);
  if (existsSync(source))
    cpSync(source, join(stage, 'node_modules/@node-rs', addon), { recursive: true, dereference: true });
}

// The executable starts V8 with EXECUTABLE_FLAGS (Node's SEA `execArgv`). pkg's enhanced SEA pipeline writes its own
// sea-config.json and passes on no `execArgv`, so pkg runs in this process and the file gets it as it is written.
// NODE_OPTIONS still adds to them (`execArgvExtension` stays "env"); `npm run smoke:bin` checks they are in force.
const output = join(root, 'dist/planner');
const requireCjs = createRequire(import.meta.url);
const files = requireCjs('fs/promises') as {
  writeFile: (file: string, data: string) => Promise<void>;
  copyFile: (from: string, to: string) => Promise<void>;
};
const writeFile = files.writeFile;
const copyFile = files.copyFile;
let bootstrapped = false;
files.copyFile = async (from, to) => {
  if (!from.endsWith('sea-bootstrap.bundle.js')) return copyFile(from, to);
  bootstrapped = true;
  return writeFile(to, planStart(readFileSync(from, 'utf8')));
};
let configured = false;
files.writeFile = (file, data) => {
  if (!String(file).endsWith('sea-config.json')) return writeFile(file, data);
  configured = true;
  return writeFile(file, JSON.stringify({ ...JSON.parse(data), execArgv: [...EXECUTABLE_FLAGS] }));
};
const { exec } = requireCjs('@yao-pkg/pkg') as { exec: (args: string[]) => Promise<void> };
await exec(['--sea', '--targets', target, stage, '--output', output]);
files.writeFile = writeFile;
files.copyFile = copyFile;
if (!bootstrapped) throw new Error("pkg copied no SEA bootstrap: the executable would start with pkg's, not planner's");
if (!configured) throw new Error('pkg wrote no sea-config.json: the V8 flags are not in the executable');
console.log(`Built ${output} (${target}).`);
