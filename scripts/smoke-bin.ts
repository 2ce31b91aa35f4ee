/**
 * `npm run smoke:bin`: drives dist/planner alone, with no Node on PATH (an empty environment, as `env -i` gives):
 * init with flags, schedule data, api enable, token new, serve on a free port, the six calls, a booking,
 * a backup taken while serving and opened as a valid database, and SIGTERM exiting 0. The harness is Node; the
 * executable never sees it. Writes its counts to dist/smoke.json for .ci/run.
 * `npm run smoke:bin -- <path>` drives another copy (CI: the one unpacked from the release tarball).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import packageJson from '../package.json' with { type: 'json' };
import { ARGON2_OPTIONS } from '../src/app/practice/token.ts';
import { EXECUTABLE_FLAGS } from '../src/http/heap.ts';

const root = resolve(import.meta.dirname, '..');
const binary = resolve(process.argv[2] ?? join(root, 'dist/planner'));
const work = mkdtempSync(join(tmpdir(), 'planner-smoke-'));
const db = join(work, 'data/planner.db');
// Nothing else: PATH is an empty folder, so there is no node (nor anything else) the executable could start.
const env = { HOME: join(work, 'home'), PATH: join(work, 'empty-bin') };
mkdirSync(env.PATH, { recursive: true });
let passed = 0;
let backupFile = '';
let failed = 0;

function check(name: string, ok: boolean, detail = ''): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(binary, args, { env, cwd: work }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

console.log(`smoke: driving ${binary}`);
try {
  const noNode = await new Promise<number>((done) =>
    spawn('/bin/sh', ['-c', 'command -v node'], { env }).on('exit', (code) => done(code ?? 1)),
  );
  check('no node on the PATH the executable gets', noNode !== 0);
  const version = await run('--version');
  check('--version', version.stdout.trim() === packageJson.version, version.stdout.trim());
  // The V8 flags built in (issue 39), as the executable's own code sees them: a preload prints process.execArgv.
  const preload = join(work, 'exec-argv.cjs');
  writeFileSync(preload, 'process.stderr.write(`execArgv ${JSON.stringify(process.execArgv)}\\n`);\n');
  const flags = await new Promise<string>((done) =>
    execFile(
      binary,
      ['--version'],
      { env: { ...env, NODE_OPTIONS: `--require ${preload}` }, cwd: work },
      (_, __, stderr) => done(stderr),
    ),
  );
  const seen = /^execArgv (.*)$/m.exec(flags)?.[1];
  check('the V8 flags built in', seen === JSON.stringify(EXECUTABLE_FLAGS), seen ?? flags.trim());
  const init = await run(
    'init',
    '--db',
    db,
    '--name',
    'Smoke Practice',
    '--timezone',
    'Europe/Berlin',
    '--notify',
    'desk@smoke.example',
  );
  check('init with flags', init.code === 0, init.stderr.trim());
  for (const args of [
    ['schedule', 'add', 'Dr. Smoke', '--days-ahead', '30', '--notice', '0'],
    ['reason', 'add', '1', 'Check-up', '--duration', '30'],
    ['hours', 'set', '1', 'mon-sun', '08:00-18:00'],
    ['api', 'enable'],
  ]) {
    const result = await run(...args, '--db', db);
    check(args.slice(0, 2).join(' '), result.code === 0, result.stderr.trim());
  }
  const tokenRun = await run('token', 'new', '--json', '--db', db);
  const token = (JSON.parse(tokenRun.stdout) as { token: string }).token;
  check('token new', /^pln_[A-Za-z0-9]{64}$/.test(token));

  const server = spawn(binary, ['serve', '--port', '0', '--db', db], {
    env,
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /serving (http:\/\/\S+)\/api/.exec(out);
      if (match) done(match[1]!);
    });
    server.stderr.on('data', (chunk) => (out += chunk));
    server.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  check('serve on a free port', true, url);
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const schedules = await call('/schedules');
  check('GET /schedules', schedules.status === 200 && schedules.body.data[0]?.name === 'Dr. Smoke');
  const reasons = await call('/reasons?schedule=1');
  check('GET /reasons', reasons.status === 200 && reasons.body.data[0]?.duration === 1800);
  const days = await call('/days?schedule=1&reason=1');
  check('GET /days', days.status === 200 && days.body.data.length > 20);
  const day = days.body.data[1] as string;
  const slots = await call(`/slots?schedule=1&reason=1&day=${day}`);
  check('GET /slots', slots.status === 200 && slots.body.data[0] === `${day} 08:00:00`);
  const forms = await call(`/forms?schedule=1&reason=1&slot=${encodeURIComponent(slots.body.data[0])}`);
  check('GET /forms', forms.status === 200 && forms.body.data.email?.input_type === 'email');
  const booking = await call('/bookings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schedule: 1,
      reason: 1,
      slot: slots.body.data[0],
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    }),
  });
  check('POST /bookings', booking.status === 201 && /Z$/.test(booking.body.slot), JSON.stringify(booking.body));

  backupFile = join(work, 'backup.db');
  const backup = await run('backup', backupFile, '--db', db);
  const copy = new DatabaseSync(backupFile, { readOnly: true });
  const integrity = (copy.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  const references = copy.prepare('SELECT reference FROM bookings').all() as { reference: string }[];
  copy.close();
  check(
    'backup while serving',
    backup.code === 0 && integrity === 'ok' && references[0]?.reference === booking.body.booking_details_id,
  );

  server.kill('SIGTERM');
  const [code] = await once(server, 'exit');
  check('SIGTERM exits 0', code === 0, String(code));
  check('served without a compile cache', !/compile cache/i.test(out) && !existsSync(join(work, 'compile-cache')));

  // Node's compile cache as the units give it (issue 49): written once the server is warm, used by the next start,
  // and a damaged one not used. Node's own debug lines say which entries it accepted.
  const cache = join(work, 'compile-cache');
  const cachedStart = async () => {
    const child = spawn(binary, ['serve', '--port', '0', '--db', db], {
      env: { ...env, NODE_COMPILE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    const base = await new Promise<string>((done, fail) => {
      const read = (chunk: Buffer) => {
        said += chunk;
        const match = /serving (http:\/\/\S+)\/api/.exec(said);
        if (match) done(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (exit) => fail(new Error(`serve exited with ${exit}: ${said}`)));
    });
    const entries = readdirSync(cache).flatMap((folder) => readdirSync(join(cache, folder)));
    const answer = await fetch(`${base}/api/slots?schedule=1&reason=1&day=${day}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await answer.text();
    child.kill('SIGTERM');
    const [exit] = await once(child, 'exit');
    return { said, entries, status: answer.status, body, exit };
  };
  const filled = await cachedStart();
  const expected = filled.body; // the day's free times, less the one booked above
  check(
    'compile cache: written by the first start, once warm',
    filled.entries.length > 20 && filled.status === 200 && filled.exit === 0,
    `${filled.entries.length} entries`,
  );
  const used = await cachedStart();
  check(
    'compile cache: in use by the next start',
    /V8 code cache for CommonJS \S+\/chunks\/server\.cjs was accepted/.test(used.said) &&
      used.status === 200 &&
      used.body === expected &&
      used.exit === 0,
  );
  for (const folder of readdirSync(cache))
    for (const entry of readdirSync(join(cache, folder))) writeFileSync(join(cache, folder, entry), 'damaged');
  const damaged = await cachedStart();
  check(
    'compile cache: a damaged one is not used, and the server serves',
    !/was accepted/.test(damaged.said) && damaged.status === 200 && damaged.body === expected && damaged.exit === 0,
  );

  // The argon2 addon loads at its first use, no longer at start (issue 49): a token an older planner stored as
  // argon2id is verified by it once, inside the executable, and kept as its SHA-256 from then on.
  const { hash } = await import('@node-rs/argon2');
  const file = new DatabaseSync(db);
  const storedToken = () =>
    (file.prepare('SELECT token_hash FROM settings').get() as { token_hash: string }).token_hash;
  file.prepare('UPDATE settings SET token_hash = ?').run(await hash(token, ARGON2_OPTIONS));
  const before = storedToken();
  const legacy = await cachedStart();
  const after = storedToken();
  file.close();
  check(
    'argon2 loads at first use: a token stored as argon2id answers, and is kept as its SHA-256',
    before.startsWith('$argon2id$') && legacy.status === 200 && legacy.body === expected && after.startsWith('sha256:'),
    `${legacy.status}, ${after.slice(0, 7)}`,
  );

  // From the release tarball: Litestream beside the executable, found by it (issue 26). A configuration naming the
  // database, with nothing replicating yet, is reported as such: the executable ran the litestream beside it.
  const litestream = join(dirname(binary), 'litestream');
  if (existsSync(litestream)) {
    const said = await new Promise<string>((done) => execFile(litestream, ['version'], (_e, out) => done(out.trim())));
    check('litestream version', said === 'v0.3.13', said);
    const config = join(work, 'litestream.yml');
    writeFileSync(
      config,
      `dbs:\n  - path: ${db}\n    replicas:\n      - type: file\n        path: ${join(work, 'replica')}\n`,
    );
    const status = await new Promise<string>((done) =>
      execFile(
        binary,
        ['status', '--db', db],
        { env: { ...env, PLANNER_LITESTREAM_CONFIG: config }, cwd: work },
        (_e, out) => done(out),
      ),
    );
    check(
      'status reads the replication with the litestream beside it',
      /replication .*holds a generation yet/.test(status),
      status.split('\n').find((line) => line.startsWith('replication')),
    );
  }

  // Installed read-only, run by a service user without a writable home (root here can act as `nobody`).
  const installed = join(work, 'opt/planner');
  mkdirSync(join(work, 'opt'));
  copyFileSync(binary, installed);
  chmodSync(installed, 0o555);
  chmodSync(join(work, 'opt'), 0o555);
  const fromReadOnly = await new Promise<string>((done) =>
    execFile(installed, ['status', '--db', db], { env, cwd: tmpdir() }, (_e, out) => done(out)),
  );
  check('runs from a read-only folder, any working directory', fromReadOnly.includes('Smoke Practice'));
  if (process.getuid?.() === 0) {
    chmodSync(work, 0o755);
    const data = join(work, 'service');
    mkdirSync(data);
    copyFileSync(backupFile, join(data, 'planner.db'));
    chownSync(data, 65534, 65534);
    chownSync(join(data, 'planner.db'), 65534, 65534);
    const asNobody = (extra: Record<string, string>, ...command: string[]) =>
      new Promise<{ code: number; stderr: string }>((done) =>
        execFile(
          '/usr/bin/setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', installed, ...command, '--db', join(data, 'planner.db')],
          { env: { ...env, HOME: join(work, 'no-such-home'), ...extra }, cwd: data },
          (error, _out, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stderr }),
        ),
      );
    // Only serve needs the argon2 addon now (the desk's passwords; the API token is a SHA-256 since issue 49).
    const homeless = await asNobody({}, 'serve', '--port', '0');
    check(
      'no writable home: serve says so in one clear error',
      homeless.code === 1 && homeless.stderr.includes('PKG_NATIVE_CACHE_PATH'),
      homeless.stderr.trim(),
    );
    const service = spawn(
      '/usr/bin/setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', installed, 'serve', '--port', '0'],
      {
        env: {
          ...env,
          HOME: join(work, 'no-such-home'),
          PLANNER_DB: join(data, 'planner.db'),
          PKG_NATIVE_CACHE_PATH: join(data, '.native'),
        },
        cwd: data,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let serviceSaid = '';
    const serving = await new Promise<boolean>((done) => {
      const read = (chunk: Buffer) => {
        serviceSaid += chunk;
        if (serviceSaid.includes('serving http')) done(true);
      };
      service.stdout.on('data', read);
      service.stderr.on('data', read);
      service.once('exit', () => done(false));
    });
    if (service.exitCode === null) {
      service.kill('SIGTERM');
      await once(service, 'exit');
    }
    check(
      'PKG_NATIVE_CACHE_PATH set: the service user serves',
      serving && existsSync(join(data, '.native')),
      serviceSaid.trim(),
    );
  }
} catch (error) {
  check('smoke run', false, (error as Error).message);
} finally {
  if (existsSync(join(work, 'opt'))) chmodSync(join(work, 'opt'), 0o755);
  rmSync(work, { recursive: true, force: true });
}
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist/smoke.json'), JSON.stringify({ passed, failed }));
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
