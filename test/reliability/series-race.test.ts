/**
 * The series race (issue 40): 20 clients in four processes, over two servers on one file, send at once overlapping
 * series (POST /api/series: various first dates, intervals, counts and lengths over a few times) and single
 * bookings (POST /api/bookings) of the same times. Afterwards, read from the file: no time is booked twice
 * (capacity 1), every series is whole (its `count` bookings under one series) or absent (its request got a 404 and
 * nothing of it exists), every 201 is what is stored, and the only answers are 201 and 404. Three series from the
 * CLI join the race (another process on the file): whole or refused with nothing written.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { localToUnix } from '../../src/domain/zone.ts';
import { api, bookableDb, cli, fieldArgs, ROOT, serve, tempDb } from '../helpers.ts';

const CLIENT = join(import.meta.dirname, 'series-client.ts');

interface Answer {
  status: number;
  body: any;
}
interface Request {
  url: string;
  path: '/api/series' | '/api/bookings';
  body: Record<string, any>;
}

/** Starts a client process that sends `requests` at once when told to go; resolves when it is ready. */
async function client(token: string, requests: Request[]) {
  const child = spawn(process.execPath, [CLIENT], {
    cwd: ROOT,
    env: { ...process.env, PLANNER_TOKEN: token, PLANNER_REQUESTS: JSON.stringify(requests) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  while (!out.includes('ready\n')) await once(child.stdout!, 'data');
  const done = once(child, 'exit').then(() => JSON.parse(out.split('\n')[1]!) as Answer[]);
  return { go: () => child.stdin!.end('go\n'), done };
}

/** Returns the day `offset` days after `day` (YYYY-MM-DD). */
const dayAfter = (day: string, offset: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

const MINUTES = { 1: 30, 2: 60 } as const;

/**
 * The orders, as offsets from the first day: series (first day, time, reason, days between, count, skip_taken) and
 * single bookings. They collide on purpose: s1 and s2 share two dates (at most one of them can be booked), s3
 * (an hour long, weekly) meets s1, s4, s7 and s9; singles sit on dates of nearly every series.
 */
const SERIES = [
  { day: 0, time: '09:00', reason: 1, every: '1d', days: 1, count: 5 },
  { day: 2, time: '09:00', reason: 1, every: '1d', days: 1, count: 4 },
  { day: 0, time: '09:00', reason: 2, every: '1w', days: 7, count: 6 },
  { day: 7, time: '09:30', reason: 1, every: '7d', days: 7, count: 4 },
  { day: 1, time: '10:00', reason: 2, every: '2d', days: 2, count: 6 },
  { day: 3, time: '10:00', reason: 1, every: '2', days: 2, count: 5 },
  { day: 14, time: '09:00', reason: 1, every: '1w', days: 7, count: 3 },
  { day: 4, time: '09:30', reason: 2, every: '1d', days: 1, count: 3 },
  { day: 5, time: '09:00', reason: 1, every: '3d', days: 3, count: 4 },
  { day: 9, time: '10:00', reason: 1, every: '1w', days: 7, count: 2 },
  { day: 0, time: '09:00', reason: 1, every: '1d', days: 1, count: 6, skip: true },
  { day: 7, time: '10:00', reason: 2, every: '1w', days: 7, count: 3, skip: true },
] as const;
/**
 * Three series booked from the CLI at the same time (reason 1), other processes on the file: the first meets s1, s2,
 * s11 and a single; the other two share two dates that no other order asks for, so exactly one of them is booked.
 */
const CLI_SERIES = [
  { day: 1, time: '09:00', every: '1d', days: 1, count: 4 },
  { day: 8, time: '11:00', every: '1w', days: 7, count: 3 },
  { day: 15, time: '11:00', every: '1w', days: 7, count: 2 },
] as const;
const SINGLES = [
  { day: 0, time: '09:00', reason: 1 },
  { day: 2, time: '09:00', reason: 1 },
  { day: 7, time: '09:30', reason: 1 },
  { day: 5, time: '10:00', reason: 2 },
  { day: 14, time: '09:00', reason: 1 },
  { day: 9, time: '10:00', reason: 1 },
  { day: 3, time: '10:00', reason: 1 },
  { day: 21, time: '09:30', reason: 2 },
] as const;

it('20 clients book overlapping series and single bookings at once: no time twice, each series whole or absent', async () => {
  const db = tempDb();
  const token = await bookableDb(db, {
    schedules: [{ name: 'Physio', daysAhead: 60 }],
    reasons: [
      { name: 'Session', durationMinutes: 30 },
      { name: 'Long session', durationMinutes: 60 },
    ],
  });
  const servers = await Promise.all([serve(db, {}, ['--log', 'off']), serve(db, {}, ['--log', 'off'])]);
  // The first day: tomorrow or later on the real clock (every day is open, so the others follow it).
  const days = (await api(servers[0]!.url, '/api/days?schedule=1&reason=2', token)).body.data as string[];
  const first = days[1]!;
  expect(days).toContain(dayAfter(first, 35)); // the last date any order asks for is within the look-ahead

  /** Every order, with the local slots it asks for (`YYYY-MM-DD HH:MM:SS`) and its customer's own e-mail. */
  const orders = [
    ...SERIES.map((one, index) => ({
      kind: 'series' as const,
      email: `series${index}@example.com`,
      reason: one.reason,
      count: one.count,
      skip: 'skip' in one,
      slots: Array.from({ length: one.count }, (_, n) => `${dayAfter(first, one.day + n * one.days)} ${one.time}:00`),
      body: {
        schedule: 1,
        reason: one.reason,
        slot: `${dayAfter(first, one.day)} ${one.time}:00`,
        repeat: one.every,
        count: one.count,
        ...('skip' in one ? { skip_taken: true } : {}),
        submission: { first_name: 'S', last_name: String(index), email: `series${index}@example.com` },
      },
    })),
    ...SINGLES.map((one, index) => ({
      kind: 'single' as const,
      email: `single${index}@example.com`,
      reason: one.reason,
      count: 1,
      skip: false,
      slots: [`${dayAfter(first, one.day)} ${one.time}:00`],
      body: {
        schedule: 1,
        reason: one.reason,
        slot: `${dayAfter(first, one.day)} ${one.time}:00`,
        submission: { first_name: 'B', last_name: String(index), email: `single${index}@example.com` },
      },
    })),
  ];
  expect(orders).toHaveLength(20);
  // Four processes of five clients each, half to each server; series and singles alternate while both last.
  const interleaved = [...SINGLES.keys()].flatMap((n) => [n, SERIES.length + n]);
  interleaved.push(...[...SERIES.keys()].slice(SINGLES.length));
  const groups = [0, 1, 2, 3].map((g) => interleaved.filter((_, position) => position % 4 === g));
  const clients = await Promise.all(
    groups.map((group) =>
      client(
        token,
        group.map((n, position) => ({
          url: servers[position % 2]!.url,
          path: orders[n]!.kind === 'series' ? '/api/series' : '/api/bookings',
          body: orders[n]!.body,
        })),
      ),
    ),
  );
  // Besides the 20 clients, three series from the CLI: another process writing to the file under the same lock (a CLI
  // start takes longer than a POST, so it lands while the requests do or just after).
  const commands = CLI_SERIES.map((one, index) =>
    cli(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${dayAfter(first, one.day)} ${one.time}`,
      '--repeat',
      one.every,
      '--count',
      String(one.count),
      ...fieldArgs({ first_name: 'C', last_name: `${index}`, email: `cli${index}@example.com` }),
      '--json',
    ),
  );
  for (const c of clients) c.go();
  const results = await Promise.all(clients.map((c) => c.done));
  const cliResults = await Promise.all(commands);
  const answers = new Map<number, Answer>();
  groups.forEach((group, g) => group.forEach((n, position) => answers.set(n, results[g]![position]!)));
  expect(answers.size).toBe(20);
  expect(
    [...answers.values()].filter((answer) => answer.status !== 201 && answer.status !== 404),
    'only 201 and 404, never a 500 or 409',
  ).toEqual([]);

  // What is stored: every booking with its series' reference and its customer's e-mail.
  const handle = new DatabaseSync(db, { readOnly: true });
  const rows = handle
    .prepare(
      `SELECT b.id, b.reference, b.customer_id, b.start_at, b.end_at, b.status, s.reference AS series, c.email
       FROM bookings b LEFT JOIN series s ON s.id = b.series_id JOIN customers c ON c.id = b.customer_id
       ORDER BY b.start_at`,
    )
    .all() as {
    id: number;
    reference: string;
    customer_id: number;
    start_at: number;
    end_at: number;
    status: string;
    series: string | null;
    email: string;
  }[];
  const seriesCount = (handle.prepare('SELECT count(*) AS n FROM series').get() as { n: number }).n;
  handle.close();
  expect(rows.every((row) => row.status === 'booked')).toBe(true);

  // No time booked twice: at most one booking at any instant (capacity 1).
  const edges = rows
    .flatMap((row) => [
      [row.start_at, 1],
      [row.end_at, -1],
    ])
    .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let open = 0;
  for (const [, step] of edges) expect((open += step!)).toBeLessThanOrEqual(1);

  const unix = (slot: string) =>
    localToUnix(slot.slice(0, 10), Number(slot.slice(11, 13)) * 60 + Number(slot.slice(14, 16)), 'Europe/Berlin');
  const utcText = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const asAnswered = (row: (typeof rows)[number]) => ({
    booking_id: row.id,
    booking_details_id: row.reference,
    user_id: row.customer_id,
    slot: utcText(row.start_at),
  });
  /** Whether another order's booking holds (part of) the `minutes` from local `slot`. */
  const heldByOther = (slot: string, minutes: number, email: string) =>
    rows.some((row) => row.email !== email && row.start_at < unix(slot) + minutes * 60 && row.end_at > unix(slot));

  let booked = 0;
  const outcome = { series201: 0, series404: 0, single201: 0, single404: 0 };
  orders.forEach((one, n) => {
    const answer = answers.get(n)!;
    const own = rows.filter((row) => row.email === one.email);
    const minutes = MINUTES[one.reason];
    if (answer.status === 404) {
      // Absent: nothing of it exists, and each date it names was held by another order.
      expect(own, `${one.kind} ${n} was refused, yet booked`).toEqual([]);
      if (one.kind === 'series') {
        outcome.series404++;
        expect(Object.keys(answer.body)).toEqual(['error', 'dates']);
        expect(answer.body.error).toBe('Not Found');
        expect(answer.body.dates.length).toBeGreaterThan(0);
        for (const date of answer.body.dates) {
          expect(one.slots).toContain(date.slot);
          expect(date.why).toBe('taken');
          expect(heldByOther(date.slot, minutes, one.email), `${date.slot} of series ${n} is free`).toBe(true);
        }
        if (!one.skip) expect(one.slots.some((slot) => heldByOther(slot, minutes, one.email))).toBe(true);
        else expect(one.slots.every((slot) => heldByOther(slot, minutes, one.email))).toBe(true);
      } else {
        outcome.single404++;
        expect(answer.body).toEqual({ error: 'Not Found' });
        expect(heldByOther(one.slots[0]!, minutes, one.email)).toBe(true);
      }
      return;
    }
    expect(answer.status).toBe(201);
    booked += own.length;
    if (one.kind === 'single') {
      outcome.single201++;
      expect(own).toHaveLength(1);
      expect(own[0]!.series).toBeNull();
      expect(answer.body).toEqual(asAnswered(own[0]!));
      expect(own[0]!.start_at).toBe(unix(one.slots[0]!));
      return;
    }
    outcome.series201++;
    // Whole: every date booked under one series (with skip_taken: the free ones, the others listed as skipped).
    expect(answer.body.series_id).toMatch(/^[2-9A-HJ-NP-Z]{16}$/);
    expect(answer.body.bookings).toEqual(own.map(asAnswered));
    expect(own.every((row) => row.series === answer.body.series_id)).toBe(true);
    const skipped = (answer.body.skipped as { slot: string; why: string }[]).map((date) => date.slot);
    if (!one.skip) expect(skipped).toEqual([]);
    expect(own.length + skipped.length).toBe(one.count);
    expect([...own.map((row) => row.start_at), ...skipped.map(unix)].sort()).toEqual(one.slots.map(unix).sort());
    for (const slot of skipped) expect(heldByOther(slot, minutes, one.email), `${slot} skipped but free`).toBe(true);
  });
  expect(
    cliResults
      .slice(1)
      .map((result) => result.code)
      .sort(),
  ).toEqual([0, 1]);
  let cliBooked = 0;
  CLI_SERIES.forEach((one, index) => {
    const result = cliResults[index]!;
    const own = rows.filter((row) => row.email === `cli${index}@example.com`);
    if (result.code !== 0) {
      expect(result.stderr).toMatch(/^planner: the series is not booked: /);
      expect(own, `CLI series ${index} was refused, yet booked`).toEqual([]);
      return;
    }
    cliBooked++;
    booked += own.length;
    const made = JSON.parse(result.stdout);
    expect(own.map((row) => row.start_at)).toEqual(
      Array.from({ length: one.count }, (_, n) => unix(`${dayAfter(first, one.day + n * one.days)} ${one.time}:00`)),
    );
    expect(made.bookings.map((booking: { reference: string }) => booking.reference)).toEqual(
      own.map((row) => row.reference),
    );
    expect(own.every((row) => row.series === made.series.reference)).toBe(true);
  });
  // Nothing but what was answered 201 (or printed by the CLI) is stored; one series row for each series booked.
  expect(rows).toHaveLength(booked);
  expect(seriesCount).toBe(outcome.series201 + cliBooked);
  expect(new Set(rows.flatMap((row) => (row.series ? [row.series] : []))).size).toBe(outcome.series201 + cliBooked);
  // The race had winners and losers: s1 and s2 share dates, and the last series' second date (an hour from 10:00
  // two weeks after its first) is asked for by no other order, so it is booked whatever the order of arrival.
  expect(outcome.series201).toBeGreaterThan(0);
  expect(outcome.series404).toBeGreaterThan(0);
  expect(outcome.series201 + outcome.series404 + outcome.single201 + outcome.single404).toBe(20);
}, 60_000);
