// GET /schedules vs bare node:http, 10 keep-alive connections, no pipelining (or PIPE=n).
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
const ROOT = '/work/main'; const BIN = `${ROOT}/bin/planner.js`;
const dir = mkdtempSync('/tmp/p29/run'); const db = `${dir}/p.db`;
const cli = (...a: string[]) => execFileSync(process.execPath, [BIN, ...a, '--db', db], { encoding: 'utf8' });
cli('init', '--name', 'Praxis', '--timezone', 'Europe/Berlin', '--notify', 'desk@example.com', '--locale', 'en', '--yes');
cli('schedule', 'add', 'Dr. A'); cli('api', 'enable'); cli('api', 'limit', '1000000000');
const token = JSON.parse(cli('token', 'new', '--json')).token;
const flags = (process.env.FLAGS ?? '').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...flags, BIN, 'serve', '--port', '0', '--log', 'off', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = ''; const url = await new Promise<string>((done) => server.stdout!.on('data', (c) => { out += c; const m = /serving (http:\/\/\S+)\/api/.exec(out); if (m) done(m[1]!); }));
const sample = await fetch(`${url}/api/schedules`, { headers: { authorization: `Bearer ${token}` } });
const headers: Record<string, string> = {}; sample.headers.forEach((v, n) => { if (!['date', 'connection', 'keep-alive', 'server-timing', 'transfer-encoding'].includes(n)) headers[n] = v; });
writeFileSync(`${dir}/s.json`, JSON.stringify({ body: await sample.text(), headers }));
const floor = spawn(process.execPath, [process.env.FLOOR ?? `${ROOT}/bench/floor-http.ts`, `${dir}/s.json`], { stdio: ['ignore', 'pipe', 'inherit'] });
const [port] = (await once(floor.stdout!, 'data')) as [Buffer];
const pipelining = Number(process.env.PIPE ?? 1);
const run = async (u: string, h: Record<string, string>, d: number) => (await autocannon({ url: u, headers: h, connections: 10, pipelining, duration: d })).requests.average;
await run(`${url}/api/schedules`, { authorization: `Bearer ${token}` }, 1); await run(`http://127.0.0.1:${String(port).trim()}/`, {}, 1);
const a: number[] = [], b: number[] = [];
for (let i = 0; i < 3; i++) { a.push(await run(`${url}/api/schedules`, { authorization: `Bearer ${token}` }, 3)); b.push(await run(`http://127.0.0.1:${String(port).trim()}/`, {}, 3)); }
const med = (x: number[]) => x.sort((p, q) => p - q)[1]!;
console.log(`pipelining ${pipelining}: planner ${Math.round(med(a))} req/s, floor ${Math.round(med(b))} req/s, ratio ${(med(a) / med(b)).toFixed(2)}`);
server.kill(); floor.kill(); process.exit(0);
