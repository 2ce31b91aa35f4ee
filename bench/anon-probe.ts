// Anonymous memory of a `planner serve` process (argv: executable or node script), idle and under 10 s of reads.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const target = process.argv[2]!;
const dir = mkdtempSync('/tmp/anon-probe');
const db = `${dir}/p.db`;
const BIN = `${import.meta.dirname}/../bin/planner.js`;
const cli = (...a: string[]) => execFileSync(process.execPath, [BIN, ...a, '--db', db], { encoding: 'utf8' });
cli(
  'init',
  '--name',
  'Praxis',
  '--timezone',
  'Europe/Berlin',
  '--notify',
  'desk@example.com',
  '--locale',
  'en',
  '--yes',
);
cli('schedule', 'add', 'Dr. A');
cli('api', 'enable');
cli('api', 'limit', '1000000000');
cli('reason', 'add', '1', 'Check-up', '--duration', '30');
cli('hours', 'set', '1', 'mon-fri', '08:00-18:00');
const token = JSON.parse(cli('token', 'new', '--json')).token;
const command = target.endsWith('.js') || target.endsWith('.cjs') ? [process.execPath, target] : [target];
const server = spawn(command[0]!, [...command.slice(1), 'serve', '--port', '0', '--log', 'off', '--db', db], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, PKG_NATIVE_CACHE_PATH: dir, NODE_OPTIONS: process.env.SERVER_OPTIONS ?? '' },
});
let out = '';
const url = await new Promise<string>((done) =>
  server.stdout!.on('data', (c) => {
    out += c;
    const m = /serving (http:\/\/\S+)\/api/.exec(out);
    if (m) done(m[1]!);
  }),
);
const anon = () =>
  Number(/^Anonymous:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.pid}/smaps_rollup`, 'utf8'))![1]) / 1024;
await new Promise((r) => setTimeout(r, 5000));
const idle = anon();
const samples: number[] = [];
const sampler = setInterval(() => samples.push(anon()), 500);
for (const path of [
  '/api/schedules',
  '/api/days?schedule=1&reason=1',
  '/api/slots?schedule=1&reason=1&day=2030-01-07',
]) {
  await autocannon({
    url: `${url}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
    duration: 4,
  });
}
clearInterval(sampler);
console.log(
  `${process.env.SERVER_OPTIONS ?? ''}\tidle ${idle.toFixed(1)} MiB\tunder reads at most ${Math.max(...samples).toFixed(1)} MiB`,
);
server.kill();
await new Promise((r) => server.on('exit', r));
process.exit(0);
