/**
 * A course of treatment from the CLI. `bookings add … --repeat --count [--skip-taken]` books every date or
 * none (a refusal lists each date, why and the nearest free times that day); `bookings show` lists the series;
 * `bookings cancel --series` cancels a date and the later ones with one mail. The real CLI on a real file.
 */

import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandsOf, newcomerEnv, readmeBlock } from '../docs/readme.ts';
import { berlinDay, bookableDb, cli, cliJson, cliOk, fieldArgs, ROOT, refused, tempDb } from '../helpers.ts';

const run = promisify(execFile);

const FIELDS = fieldArgs();

describe('bookings add --repeat --count (issue 40)', () => {
  const db = tempDb();
  beforeAll(async () => {
    await bookableDb(db); // every day 08:00-18:00, 30 days ahead, 30-minute reason
  });

  it('books 4 weekly dates in one go: each its own booking in one series, one confirmation and one notice', async () => {
    const first = `${berlinDay(2)} 08:00`;
    const made = await cliJson(db, 'bookings', 'add', '1', '1', first, '--repeat', '1w', '--count', '4', ...FIELDS);
    expect(made.bookings.map((b: { localStart: string }) => b.localStart)).toEqual([
      `${berlinDay(2)} 08:00`,
      `${berlinDay(9)} 08:00`,
      `${berlinDay(16)} 08:00`,
      `${berlinDay(23)} 08:00`,
    ]);
    expect(made.series.intervalDays).toBe(7);
    expect(new Set(made.bookings.map((b: { reference: string }) => b.reference)).size).toBe(4);
    expect(made.skipped).toEqual([]);
    const queue = await cliJson(db, 'mail', 'queue');
    const mails = JSON.stringify(queue);
    // One confirmation (and one notice) for the series, kept with its first date; reminders for each date.
    const show = await cliJson(db, 'bookings', 'show', made.bookings[1].reference);
    expect(show.series.dates.map((d: { id: number }) => d.id)).toEqual(made.bookings.map((b: { id: number }) => b.id));
    expect(show.series.reference).toBe(made.series.reference);
    expect(mails).toContain('ada@example.com');
    const text = await cliOk(db, 'bookings', 'show', made.bookings[1].reference);
    expect(text).toContain(`series    ${made.series.id} (${made.series.reference}), 4 dates every week:`);
    // The series' own reference names no booking: the one line says which to give instead.
    const bySeries = await cli(db, 'bookings', 'show', made.series.reference);
    expect(bySeries.stderr).toBe(
      `planner: ${made.series.reference} is a series of 4 dates, not a booking: give one of its dates, e.g. planner bookings show ${made.bookings[0].reference}\n`,
    );
    expect(bySeries.code).toBe(1);
    expect(text).toContain(
      `${berlinDay(9)} 08:00  booked     ${made.bookings[1].id} (${made.bookings[1].reference}) (this one)`,
    );
  });

  it('refuses a series with a taken date in one line naming each date, why and the nearest free times; nothing written', async () => {
    // 08:00 on day 9 is taken by the series above; day 10 is free.
    const first = `${berlinDay(9)} 08:00`;
    await refused(
      db,
      ['bookings', 'add', '1', '1', first, '--repeat', '1d', '--count', '2', ...FIELDS],
      `planner: the series is not booked: 1 of its 2 dates is not free: ${berlinDay(9)} 08:00 (it is taken by another booking; nearest free that day: 08:30, 09:00, 09:30). Nothing was booked: book the free dates with --skip-taken, or choose another time (planner slots 1 1 lists what is free).`,
    );
  });

  it('--skip-taken books the free dates and lists the skipped ones', async () => {
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${berlinDay(9)} 08:00`,
      '--repeat',
      '1d',
      '--count',
      '3',
      '--skip-taken',
      ...FIELDS,
    );
    expect(made.bookings.map((b: { localStart: string }) => b.localStart)).toEqual([
      `${berlinDay(10)} 08:00`,
      `${berlinDay(11)} 08:00`,
    ]);
    expect(made.skipped).toEqual([
      {
        slot: `${berlinDay(9)} 08:00:00`,
        why: 'taken',
        nearest: [`${berlinDay(9)} 08:30:00`, `${berlinDay(9)} 09:00:00`, `${berlinDay(9)} 09:30:00`],
      },
    ]);
  });

  it('a date beyond the look-ahead is refused with its reason', async () => {
    const result = await cli(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${berlinDay(3)} 10:00`,
      '--repeat',
      '2w',
      '--count',
      '3',
      ...FIELDS,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${berlinDay(31)} 10:00 (it is beyond the schedule's look-ahead of 30 days`);
  });

  it('bookings cancel --series cancels a date and every later one with one mail; earlier dates stay', async () => {
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${berlinDay(1)} 12:00`,
      '--repeat',
      '1w',
      '--count',
      '4',
      ...FIELDS,
    );
    const cancelled = await cliJson(
      db,
      'bookings',
      'cancel',
      made.bookings[2].reference,
      '--series',
      '--reason',
      'moved away',
    );
    expect(cancelled.map((b: { id: number }) => b.id)).toEqual([made.bookings[2].id, made.bookings[3].id]);
    const show = await cliJson(db, 'bookings', 'show', made.bookings[0].reference);
    expect(show.series.dates.map((d: { status: string }) => d.status)).toEqual([
      'booked',
      'booked',
      'cancelled',
      'cancelled',
    ]);
    // One cancellation mail for the two dates, kept with the first of them; it cancels both, one METHOD:CANCEL each.
    const handle = new DatabaseSync(db, { readOnly: true });
    const mails = handle.prepare("SELECT booking_id, body FROM outbox WHERE kind = 'cancellation'").all() as {
      booking_id: number;
      body: string;
    }[];
    handle.close();
    expect(mails.map((mail) => mail.booking_id)).toEqual([made.bookings[2].id]);
    expect(JSON.parse(mails[0]!.body).ics.match(/^METHOD:CANCEL\r\nBEGIN:VEVENT/gm)).toHaveLength(2);
    // Cancelling a booking made alone with --series is refused in one line.
    const single = await cliJson(db, 'bookings', 'add', '1', '1', `${berlinDay(4)} 15:00`, ...FIELDS);
    await refused(
      db,
      ['bookings', 'cancel', single.reference, '--series'],
      `planner: booking ${single.reference} is not part of a series: cancel it without --series`,
    );
  });

  it.each([
    [['--repeat', '1w'], 'planner: --repeat needs --count: how many dates (2 to 52)'],
    [['--count', '3'], 'planner: --count needs --repeat: the time between the dates (1w, 2w, 7d)'],
    [['--skip-taken'], 'planner: --skip-taken is for a series: give --repeat and --count too'],
    [
      ['--repeat', '90m', '--count', '3'],
      'planner: --repeat must be whole days or weeks from 1d to 52w, such as 1w, 2w or 7d (got "90m")',
    ],
    [
      ['--repeat', '53w', '--count', '3'],
      'planner: --repeat must be whole days or weeks from 1d to 52w, such as 1w, 2w or 7d (got "53w")',
    ],
    [['--repeat', '1w', '--count', '1'], 'planner: --count must be from 2 to 52 (got "1")'],
    [['--repeat', '1w', '--count', '53'], 'planner: --count must be from 2 to 52 (got "53")'],
    [['--repeat', '1w', '--count', 'six'], 'planner: --count must be a whole number (got "six")'],
  ])('refuses %j in one line, exit 1, nothing changed', async (options, line) => {
    await refused(db, ['bookings', 'add', '1', '1', `${berlinDay(5)} 10:00`, ...options, ...FIELDS], line);
  });
});

describe('README: a course of treatment (issue 40)', () => {
  it('the physiotherapy block runs as written, its dates moved together by whole weeks: 6 Tuesdays booked, then 1 of 3 with --skip-taken', async () => {
    const db = tempDb();
    await bookableDb(db);
    const env = newcomerEnv({ PLANNER_DB: db });
    const lines = commandsOf(readmeBlock('A course of treatment: series', 'sh'));
    expect(lines).toHaveLength(3);
    // Every written date moves by the same whole number of weeks: the earliest to at least two days ahead (and back
    // while a week earlier would still be, so the course stays within the look-ahead the first line sets).
    const earliest = [...lines.join('\n').matchAll(/\d{4}-\d\d-\d\d/g)].map((m) => m[0]).sort()[0]!;
    let weeks = 0;
    while (shift(earliest, weeks * 7) < berlinDay(2)) weeks++;
    while (shift(earliest, (weeks - 1) * 7) >= berlinDay(2)) weeks--;
    const moved = lines.map((line) => line.replace(/\d{4}-\d\d-\d\d/g, (day) => shift(day, weeks * 7)));
    const outputs: string[] = [];
    for (const line of moved) {
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      outputs.push(result.stdout);
    }
    const tuesday = shift('2027-01-05', weeks * 7);
    expect(new Date(`${tuesday}T12:00:00Z`).getUTCDay()).toBe(2);
    expect(outputs[1]).toContain('6 appointments every week');
    const ada = await cliJson(db, 'bookings', 'list', '--search', 'Lovelace');
    expect(ada.map((b: { localStart: string }) => b.localStart)).toEqual(
      [0, 7, 14, 21, 28, 35].map((days) => `${shift(tuesday, days)} 08:00`),
    );
    // Grace: from the fifth Tuesday, two are Ada's; the one after is free.
    expect(outputs[2]).toContain('1 of 3 dates, every week');
    expect(outputs[2]).toContain(`${shift(tuesday, 28)} 08:00  skipped: not free (taken)`);
    const grace = await cliJson(db, 'bookings', 'list', '--search', 'Hopper');
    expect(grace.map((b: { localStart: string }) => b.localStart)).toEqual([`${shift(tuesday, 42)} 08:00`]);
  });
});

/** Returns `day` (YYYY-MM-DD) moved by `days`. */
function shift(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
