/**
 * `npm run bench`: the performance benchmark. Builds the installation (bench/generate.ts), starts the real
 * `planner serve`, drives it with autocannon from this process, and runs each scenario (bench/scenarios/, one file
 * each, on the shared harness bench/harness.ts) beside its floor in the same run: shared machines drift, ratios do
 * not. Prints the table (bench/table.ts), writes bench/latest.json, and with `--docs` rewrites docs/performance.md.
 * Every load run is bounded by time or count and stops by itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { generate } from './generate.ts';
import { anonymousMiB, type BenchRun, cli, log, ROOT, rssMiB, startServer, token, work } from './harness.ts';
import { bookingPage } from './scenarios/booking-page.ts';
import { bookings } from './scenarios/bookings.ts';
import { calendarSync } from './scenarios/calendar-sync.ts';
import { calendarWrites } from './scenarios/calendar-writes.ts';
import { days } from './scenarios/days.ts';
import { desk } from './scenarios/desk.ts';
import { executable } from './scenarios/executable.ts';
import { feed } from './scenarios/feed.ts';
import { firstRequest } from './scenarios/first-request.ts';
import { growth } from './scenarios/growth.ts';
import { memory } from './scenarios/memory.ts';
import { practices } from './scenarios/practices.ts';
import { replication } from './scenarios/replication.ts';
import { schedules } from './scenarios/schedules.ts';
import { series } from './scenarios/series.ts';
import { slotsAndForms } from './scenarios/slots-forms.ts';
import { startup } from './scenarios/startup.ts';
import { benchTable } from './table.ts';

const results: Record<string, any> = {};
const started = performance.now();
const now = new Date();
const db = join(work, 'bench.db');
const generated = generate({ file: db, now });
log(
  `generated ${generated.bookings} future bookings (${(generated.takenShare * 100).toFixed(0)}% of slot starts taken) in ${generated.elapsedMs.toFixed(0)} ms`,
);
results.data = generated;
await cli(db, 'api', 'limit', '1000000000');
const key = await token(db);
const auth = { authorization: `Bearer ${key}` };

// 7. Start-up, before anything else loads the machine; then the default server, on which 1. to 6. run.
await startup({ db, results });
await firstRequest({ db, key, results, generated });
const server = await startServer(db);
const api = `${server.url}/api`;
const run: BenchRun = {
  db,
  now,
  generated,
  key,
  auth,
  results,
  main: {
    server,
    api,
    // Made before the load: its URL is shown once.
    feedUrl: (await cli(db, 'feed', 'url', '2', '--url', server.url)).split('\n')[0]!,
    rss: { start: rssMiB(server.pid) },
    anonymous: { start: anonymousMiB(server.pid) },
    daysUrl: `${api}/days?schedule=1&reason=1`,
    slotsUrl: `${api}/slots?schedule=1&reason=1&day=${generated.busiestDay}`,
  },
};
await schedules(run);
run.main.rss.warm = rssMiB(server.pid);
run.main.anonymous.warm = anonymousMiB(server.pid);
for (const scenario of [
  days,
  slotsAndForms,
  feed,
  bookings,
  bookingPage,
  desk,
  memory, // stops the default server
  executable,
  replication,
  calendarSync,
  calendarWrites,
  practices,
  series,
  growth,
])
  await scenario(run);
results.machine = {
  node: process.version,
  platform: `${platform()} ${release()}`,
  cpus: `${cpus().length} × ${cpus()[0]?.model}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};
results.elapsedSeconds = (performance.now() - started) / 1000;
results.ranAt = now.toISOString();

// Kept before the table is made: a table that cannot be made still leaves the run's figures.
writeFileSync(join(ROOT, 'bench/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
const table = benchTable(results);
console.log(table);
console.log(
  `\n${results.data.bookings} future bookings, ${Math.round(results.data.takenShare * 100)}% of slot starts taken; ${results.machine.cpus}, ${results.machine.node}; ${results.elapsedSeconds.toFixed(1)} s`,
);
writeFileSync(join(ROOT, 'bench/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
if (process.argv.includes('--docs')) {
  const docs = join(ROOT, 'docs/performance.md');
  const text = readFileSync(docs, 'utf8');
  const block = `<!-- bench:start -->\nRun ${results.ranAt.slice(0, 16).replace('T', ' ')} UTC on ${results.machine.cpus}, ${results.machine.memoryGiB} GiB, ${results.machine.platform}, Node ${results.machine.node}; ${results.data.bookings} future bookings (${Math.round(results.data.takenShare * 100)}% of slot starts taken); the run took ${results.elapsedSeconds.toFixed(1)} s.\n\n${table}\n<!-- bench:end -->`;
  writeFileSync(docs, text.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, block));
  log(`updated ${docs}`);
}
process.exit(0);
