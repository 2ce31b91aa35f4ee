import { join } from 'node:path';
import { generate } from '../generate.ts';
import {
  type BenchRun,
  cli,
  median,
  serverTime,
  shiftMinutes,
  startServer,
  token,
  wallTime,
  work,
} from '../harness.ts';

/**
 * 13. A course of treatment (issue 40), on a practice of 10 schedules a tenth full (bench/generate.ts, fill 0.1,
 * 120 days ahead): POST /series of 10 weekly dates (every date checked, all booked in one transaction, one mail),
 * server time, beside POST /bookings of one date on the same file and schedule. The dates are chosen free from
 * GET /slots first, so each series books all ten.
 */
export async function series(run: BenchRun): Promise<void> {
  const { now, results } = run;
  const file = join(work, 'series.db');
  generate({ file, now, schedules: 10, daysAhead: 120, fill: 0.1 });
  await cli(file, 'api', 'limit', '1000000000');
  const seriesKey = await token(file);
  const seriesServer = await startServer(file);
  const seriesApi = `${seriesServer.url}/api`;
  const get = async (path: string) =>
    (await (await fetch(`${seriesApi}${path}`, { headers: { authorization: `Bearer ${seriesKey}` } })).json()) as {
      data: string[];
    };
  // Schedule 1, reason 2 (30 minutes): the free times of the next 90 days, read once.
  const days = (await get('/days?schedule=1&reason=2')).data.slice(0, 90);
  const free = new Set<string>();
  for (const day of days) for (const slot of (await get(`/slots?schedule=1&reason=2&day=${day}`)).data) free.add(slot);
  const weekly = (slot: string) =>
    Array.from({ length: 10 }, (_, k) => {
      const date = new Date(`${slot.slice(0, 10)}T12:00:00Z`);
      date.setUTCDate(date.getUTCDate() + 7 * k);
      return `${date.toISOString().slice(0, 10)}${slot.slice(10)}`;
    });
  // Starts whose ten weekly dates are all free, none sharing a date (or the half hour after it) with another.
  const used = new Set<string>();
  const clear = (slot: string) => free.has(slot) && !used.has(slot);
  const starts: string[] = [];
  for (const slot of [...free].sort()) {
    if (starts.length === 15 || slot.slice(0, 10) > days[27]!) break;
    const dates = weekly(slot);
    if (!dates.every(clear)) continue;
    starts.push(slot);
    for (const date of dates) for (const minute of [-15, 0, 15]) used.add(shiftMinutes(date, minute));
  }
  const singles: string[] = [];
  for (const slot of [...free].sort()) {
    if (singles.length === 15) break;
    if (!clear(slot)) continue;
    singles.push(slot);
    for (const minute of [-15, 0, 15]) used.add(shiftMinutes(slot, minute));
  }
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${seriesApi}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seriesKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { bookings?: unknown[] };
    if (response.status !== 201) throw new Error(`section 13: ${path} answered ${response.status}`);
    return { ms: Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]), answer };
  };
  const submission = (n: number) => ({
    first_name: 'Course',
    last_name: `Client ${n}`,
    email: `course${n}@bench.example`,
  });
  const seriesMs: number[] = [];
  for (const [n, slot] of starts.entries()) {
    const made = await post('/series', {
      schedule: 1,
      reason: 2,
      slot,
      repeat: '1w',
      count: 10,
      submission: submission(n),
    });
    if (made.answer.bookings?.length !== 10) throw new Error('section 13: a series did not book its ten dates');
    seriesMs.push(made.ms);
  }
  const singleMs: number[] = [];
  for (const [n, slot] of singles.entries())
    singleMs.push((await post('/bookings', { schedule: 1, reason: 2, slot, submission: submission(100 + n) })).ms);
  // `slots any` over the 10 schedules for 30 days (issue 40): one reason offered by all ten, as an admin runs the
  // command (a process each time, wall time) and as GET /slots/any answers a day (server time), each beside the same
  // for one schedule.
  await cli(file, 'reason', 'add', '1,2,3,4,5,6,7,8,9,10', 'Check-up', '--duration', '30');
  const shared = (JSON.parse(await cli(file, 'reason', 'list', '1', '--json')) as { id: number; name: string }[]).find(
    (reason) => reason.name === 'Check-up',
  )!.id;
  const anyCliMs = await wallTime(['slots', 'any', String(shared), '--days', '30', '--db', file]);
  const oneCliMs = await wallTime(['slots', '1', String(shared), '--days', '30', '--db', file]);
  const anyDays = days.slice(0, 30);
  const anyServer: number[] = [];
  const oneServer: number[] = [];
  for (const day of anyDays) {
    anyServer.push(await serverTime(`${seriesApi}/slots/any?reason=${shared}&day=${day}`, seriesKey, 5));
    oneServer.push(await serverTime(`${seriesApi}/slots?schedule=1&reason=${shared}&day=${day}`, seriesKey, 5));
  }
  results.slotsAny = {
    schedules: 10,
    days: 30,
    cliMs: anyCliMs,
    oneScheduleCliMs: oneCliMs,
    serverMs: median(anyServer),
    oneScheduleServerMs: median(oneServer),
    target: 'ten schedules: at most 10 times one schedule',
  };
  await seriesServer.stop();
  results.series = {
    series: starts.length,
    seriesMs: median(seriesMs),
    singleMs: median(singleMs),
    perDateMs: median(seriesMs) / 10,
    target: 'checking and booking 10 dates: at most 10 single bookings',
  };
}
