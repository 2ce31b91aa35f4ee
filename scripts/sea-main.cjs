'use strict';
/**
 * Where the single executable starts (Node's SEA `main`), written into it by scripts/build-bin.ts in place of pkg's
 * own bootstrap. pkg packs the files (dist/planner.cjs, its chunks and the argon2 addon) into two SEA assets: an
 * archive of their bytes and a manifest of where each one is. pkg's bootstrap serves them through a whole virtual
 * file system (its own polyfill of 380 KB, patches of `fs`, `child_process` and `worker_threads`), which planner
 * does not need: it reads no file of its own at run time and starts no worker or copy of itself. This start only
 * teaches Node's CommonJS loader to find and read those files in the archive, and to load the addon from a copy on
 * disk (a native library cannot load from memory). Idle, that is 1 MiB less of the server's anonymous memory
 * (issue 49; docs/performance.md).
 *
 * The archive is read where the executable is mapped (`getRawAsset`: no copy). Each module is compiled by Node's
 * own `Module.prototype._compile`, so NODE_COMPILE_CACHE serves it as it serves `node dist/planner.cjs`.
 * The addon is copied, as pkg's bootstrap copied it, to `$PKG_NATIVE_CACHE_PATH/pkg/<its SHA-256>/` (default
 * `~/.cache`): the units set that variable; a copy that differs from the one inside is written again.
 */
const sea = require('node:sea');
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { homedir } = require('node:os');

const manifest = JSON.parse(sea.getAsset('__pkg_manifest__', 'utf8'));
if (manifest.compression || manifest.entryIsESM)
  throw new Error('planner: this executable was packed compressed or as ESM, which its start cannot read');
const archive = Buffer.from(sea.getRawAsset('__pkg_archive__'));
const ROOT = '/snapshot';
const inside = (file) => typeof file === 'string' && file.startsWith(`${ROOT}/`);
const isFile = (file) => inside(file) && manifest.stats[file.slice(ROOT.length)]?.isFile === true;

function bytes(file) {
  const [offset, length] = manifest.offsets[file.slice(ROOT.length)];
  return archive.subarray(offset, offset + length);
}

/** `base` as a file, with one of the extensions require() tries. */
function asFile(base) {
  for (const extension of ['', '.js', '.cjs', '.json', '.node']) if (isFile(base + extension)) return base + extension;
  return undefined;
}

/** `folder` as a package: its package.json's `main`, else its index.js. */
function asFolder(folder) {
  const description = `${folder}/package.json`;
  const main = isFile(description) ? JSON.parse(bytes(description).toString('utf8')).main : undefined;
  const entry = main && path.posix.join(folder, main);
  return (entry && (asFile(entry) ?? asFile(`${entry}/index`))) || asFile(`${folder}/index`);
}

/** Where `request` from `parent` is inside the archive, or undefined (require() then throws MODULE_NOT_FOUND). */
function find(request, parent) {
  if (request.startsWith('/') || request.startsWith('./') || request.startsWith('../')) {
    const base = request.startsWith('/') ? request : path.posix.resolve(path.posix.dirname(parent), request);
    return asFile(base) ?? asFolder(base);
  }
  for (let folder = path.posix.dirname(parent); inside(folder); folder = path.posix.dirname(folder)) {
    if (path.posix.basename(folder) === 'node_modules') continue;
    const base = `${folder}/node_modules/${request}`;
    const found = asFile(base) ?? asFolder(base);
    if (found) return found;
  }
  return undefined;
}

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, isMain, options) {
  const from = parent?.filename;
  if (inside(request) || (inside(from) && !Module.isBuiltin(request))) {
    const found = find(request, from ?? ROOT);
    if (found) return found;
    const error = new Error(`Cannot find module '${request}'${from ? ` required from ${from}` : ''}`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, parent, isMain, options);
};

for (const extension of ['.js', '.cjs']) {
  const load = Module._extensions[extension];
  if (!load) continue;
  Module._extensions[extension] = function (module, filename) {
    if (!inside(filename)) return load.call(this, module, filename);
    module._compile(bytes(filename).toString('utf8'), filename, 'commonjs');
  };
}
const loadJson = Module._extensions['.json'];
Module._extensions['.json'] = function (module, filename) {
  if (!inside(filename)) return loadJson.call(this, module, filename);
  module.exports = JSON.parse(bytes(filename).toString('utf8'));
};
const loadNative = Module._extensions['.node'];
Module._extensions['.node'] = function (module, filename) {
  return loadNative.call(this, module, inside(filename) ? onDisk(filename) : filename);
};

/** The addon `filename` copied out of the archive (written again when missing or different). */
function onDisk(filename) {
  const content = bytes(filename);
  const hash = createHash('sha256').update(content).digest('hex');
  const base = process.env.PKG_NATIVE_CACHE_PATH || path.join(homedir(), '.cache');
  const folder = path.join(base, 'pkg', hash);
  const file = path.join(folder, path.basename(filename));
  let same = false;
  try {
    same = createHash('sha256').update(fs.readFileSync(file)).digest('hex') === hash;
  } catch {
    // not there yet
  }
  if (!same) {
    fs.mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, content);
    fs.renameSync(partial, file); // whole or not at all, also when two processes start at once
  }
  return file;
}

process.argv[1] = manifest.entrypoint;
Module._load(manifest.entrypoint, null, true);
