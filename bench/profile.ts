/**
 * `node bench/profile.ts [--log off] [--no-profile] [--seconds 8] [--top 40] [--path /api/schedules]
 * [--executable dist/planner]`: one server as
 * admins run it (default flags, its stdout read by bench/journal-reader.ts) on the benchmark's file, 10 keep-alive
 * connections on one call after a 2-second warm-up; prints the rate, then the functions that took the most of the
 * server's main thread (self time, from `--cpu-prof`) and where the profile is. What issue 39 used to find the cost
 * of the access log; quicker than `BENCH_SERVER_FLAGS=--cpu-prof npm run bench` when one call is in question.
 */

import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generate } from './generate.ts';

const { values } = parseArgs({
  options: {
    log: { type: 'string', default: 'text' },
    'no-profile': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '8' },
    top: { type: 'string', default: '40' },
    path: { type: 'string', default: '/api/schedules' },
    executable: { type: 'string' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/planner.js');
const work = mkdtempSync(join(tmpdir(), 'planner-profile-'));
const db = join(work, 'bench.db');
generate({ file: db, now: new Date() });
const cli = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8' });
cli('api', 'limit', '1000000000');
const token = JSON.parse(cli('token', 'new', '--json')).token as string;

const reader = spawn(process.execPath, [join(ROOT, 'bench/journal-reader.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
const profiling = values['no-profile'] ? [] : ['--cpu-prof', `--cpu-prof-dir=${work}`];
// The single executable takes the profiler's flags from NODE_OPTIONS (its own V8 flags are built in).
const command = values.executable ? [resolve(values.executable)] : [process.execPath, ...profiling, BIN];
const server = spawn(command[0]!, [...command.slice(1), 'serve', '--port', '0', '--log', values.log, '--db', db], {
  stdio: ['ignore', reader.stdin!, 'inherit'],
  env: { ...process.env, ...(values.executable ? { NODE_OPTIONS: profiling.join(' ') } : {}) },
});
const url = await new Promise<string>((done) => {
  let out = '';
  reader.stdout!.on('data', (chunk) => {
    out += chunk;
    const match = /serving (http:\/\/\S+)\/api/.exec(out);
    if (match) done(match[1]!);
  });
});
const run = (duration: number) =>
  new Promise<autocannon.Result>((done, fail) =>
    autocannon(
      { url: `${url}${values.path}`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration },
      (error, result) => (error ? fail(error) : done(result)),
    ),
  );
await run(2);
const result = await run(Number(values.seconds));
console.log(
  `${values.path}, log ${values.log}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
);
server.kill('SIGTERM');
await once(server, 'exit');
reader.stdin!.end();
if (profiling.length > 0) {
  const file = join(work, readdirSync(work).find((name) => name.endsWith('.cpuprofile'))!);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const time = selfTime.get(node.id) ?? 0;
    total += time;
    const where = node.callFrame.url.replace(/.*node_modules\//, '').replace(`file://${ROOT}/`, '');
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
  }
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`profile: ${file} (open it in Chrome's DevTools, Performance)`);
}
process.exit(0);
