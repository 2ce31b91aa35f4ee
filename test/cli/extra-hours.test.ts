/**
 * Extra hours on a date (issue 40) through the real CLI: `hours extra` sets, replaces and removes a date's extra
 * hours, `hours show` lists them (text and --json), the engine offers them (`planner slots`, `bookings add`), a
 * closure wins, and every mistake is one line, exit 1, nothing changed. Days are picked from the real clock in the
 * installation's zone (Europe/Berlin).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandsOf, newcomerEnv, readmeBlock } from '../docs/readme.ts';
import { bookableDb, cli, cliJson, cliOk, fieldArgs, ROOT, refused, tempDb } from '../helpers.ts';

const run = promisify(execFile);

/** Today in Berlin, as `YYYY-MM-DD`. */
const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());

/** Returns `day` plus `count` days. */
function plusDays(day: string, count: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** Returns the first day at least `from` days after today whose weekday is `weekday` (0 Sunday … 6 Saturday). */
function nextWeekday(weekday: number, from = 2): string {
  for (let offset = from; ; offset++) {
    const day = plusDays(berlinToday(), offset);
    if (new Date(`${day}T12:00:00Z`).getUTCDay() === weekday) return day;
  }
}

const person = (first: string) =>
  fieldArgs({ first_name: first, last_name: 'Tester', email: `${first.toLowerCase()}@example.com` });

/** The free times of one day, `HH:MM`, from `planner slots --json`. */
async function timesOn(db: string, day: string): Promise<string[]> {
  const answer = await cliJson(db, 'slots', '1', '1', '--day', day, '--days', '1');
  return (answer.days[0]?.slots ?? []).map((slot: string) => slot.slice(11, 16));
}

describe('planner hours extra', () => {
  const db = tempDb();
  const saturday = nextWeekday(6);
  const monday = nextWeekday(1);
  beforeAll(async () => {
    await bookableDb(db); // schedule 1: 30 days ahead, 30-minute step; reason 1: 30 minutes
    await cliOk(db, 'hours', 'set', '1', 'mon-fri', '09:00-12:00');
    await cliOk(db, 'hours', 'set', '1', 'sat-sun', 'closed');
  }, 60_000);

  it('opens a Saturday, replaces its ranges when set again, and lists it in `hours show` (text and --json)', async () => {
    expect(await timesOn(db, saturday)).toEqual([]);
    expect(await cliOk(db, 'hours', 'extra', '1', saturday, '09:00-13:00')).toBe(
      `Extra hours of schedule 1 on sat ${saturday}: 09:00-13:00 (open that day: 09:00-13:00).\n`,
    );
    expect(await timesOn(db, saturday)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
    ]);
    // Again: the date's ranges are replaced, not added to; several ranges as `hours set` takes them.
    const replaced = await cliJson(db, 'hours', 'extra', '1', saturday, '10:00-11:00,14:00-15:00', '--json');
    expect(replaced).toEqual({
      day: saturday,
      extra: ['10:00-11:00', '14:00-15:00'],
      open: ['10:00-11:00', '14:00-15:00'],
      closure: null,
      stranded: [],
    });
    expect(await timesOn(db, saturday)).toEqual(['10:00', '10:30', '14:00', '14:30']);

    const shown = await cliJson(db, 'hours', 'show', '1');
    expect(shown).toEqual({
      mon: ['09:00-12:00'],
      tue: ['09:00-12:00'],
      wed: ['09:00-12:00'],
      thu: ['09:00-12:00'],
      fri: ['09:00-12:00'],
      sat: [],
      sun: [],
      extra: { [saturday]: ['10:00-11:00', '14:00-15:00'] },
    });
    expect(await cliOk(db, 'hours', 'show', '1')).toBe(
      'mon  09:00-12:00\ntue  09:00-12:00\nwed  09:00-12:00\nthu  09:00-12:00\nfri  09:00-12:00\nsat  closed\nsun  closed\n' +
        `sat ${saturday}  extra 10:00-11:00, 14:00-15:00\n`,
    );
  });

  it('adds to a weekday’s hours: an evening, and a range that touches the morning merges with it', async () => {
    await cliOk(db, 'hours', 'extra', '1', monday, '12:00-13:00,18:00-19:00');
    expect(await timesOn(db, monday)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '18:00',
      '18:30',
    ]);
    // The Monday a week later keeps its weekly hours only.
    expect(await timesOn(db, plusDays(monday, 7))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
    expect((await cliJson(db, 'hours', 'show', '1')).extra[monday]).toEqual(['12:00-13:00', '18:00-19:00']);
  });

  it('books on the extra date; removing its hours then lists the booking as outside the hours', async () => {
    const day = plusDays(saturday, 7);
    await cliOk(db, 'hours', 'extra', '1', day, '09:00-10:00');
    const booked = await cliJson(db, 'bookings', 'add', '1', '1', `${day} 09:30`, ...person('Ada'));
    // 09:45 is off the step; 10:00 ends after the extra hours: the refusal names that date's hours.
    const late = await cli(db, 'bookings', 'add', '1', '1', `${day} 10:00`, ...person('Bob'));
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`outside the opening hours (sat ${day} with extra hours: 09:00-10:00;`);
    const removed = await cliJson(db, 'hours', 'extra', '1', day, '--remove', '--json');
    expect(removed).toMatchObject({ day, extra: [], open: [], removed: ['09:00-10:00'], closure: null });
    expect(removed.stranded.map((item: { reference: string; why: string }) => [item.reference, item.why])).toEqual([
      [booked.reference, 'hours'],
    ]);
    expect(await timesOn(db, day)).toEqual([]);
    expect((await cliJson(db, 'hours', 'show', '1')).extra[day]).toBeUndefined();
    await cliOk(db, 'bookings', 'cancel', booked.reference, '--no-notify');
  });

  it('a closure wins: the date stays closed, and says so', async () => {
    const day = plusDays(saturday, 14);
    const closure = await cliJson(db, 'closure', 'add', '1', day, '--json');
    const text = await cliOk(db, 'hours', 'extra', '1', day, '09:00-12:00');
    expect(text).toContain(`Note: closure ${closure.id} (${day}) closes schedule 1 that day, and a closure wins`);
    expect(await timesOn(db, day)).toEqual([]);
    expect((await cliJson(db, 'hours', 'extra', '1', day, '09:00-11:00', '--json')).closure).toBe(closure.id);
    await cliOk(db, 'closure', 'remove', String(closure.id));
    expect(await timesOn(db, day)).toEqual(['09:00', '09:30', '10:00', '10:30']);
  });

  it.each([
    [
      'a date in the past',
      () => ['hours', 'extra', '1', plusDays(berlinToday(), -1), '09:00-13:00'],
      /is in the past \(today is \d{4}-\d\d-\d\d in Europe\/Berlin\)/,
    ],
    [
      'an invalid date',
      () => ['hours', 'extra', '1', '2026-02-30', '09:00-13:00'],
      /"2026-02-30" is not a calendar day YYYY-MM-DD/,
    ],
    [
      'an unknown schedule',
      () => ['hours', 'extra', '9', nextWeekday(6), '09:00-13:00'],
      /schedule 9 does not exist \(see `planner schedule list`\)/,
    ],
    [
      'an unknown schedule, removing',
      () => ['hours', 'extra', '9', nextWeekday(6), '--remove'],
      /schedule 9 does not exist/,
    ],
    [
      'removing a date without extra hours',
      () => ['hours', 'extra', '1', plusDays(nextWeekday(6), 21), '--remove'],
      /schedule 1 has no extra hours on \d{4}-\d\d-\d\d \(`planner hours show 1` lists them\)/,
    ],
    ['ranges that overlap', () => ['hours', 'extra', '1', nextWeekday(6), '09:00-12:00,11:00-13:00'], /overlap/],
    [
      'a range that ends before it starts',
      () => ['hours', 'extra', '1', nextWeekday(6), '13:00-09:00'],
      /ends before it starts/,
    ],
    [
      'closed',
      () => ['hours', 'extra', '1', nextWeekday(6), 'closed'],
      /extra hours need a time range .*--remove.*closure add/,
    ],
    [
      'no ranges and no --remove',
      () => ['hours', 'extra', '1', nextWeekday(6)],
      /give the date's ranges, e\.g\. .* or --remove/,
    ],
    [
      'both ranges and --remove',
      () => ['hours', 'extra', '1', nextWeekday(6), '09:00-10:00', '--remove'],
      /either ranges or --remove, not both/,
    ],
    ['show of an unknown schedule', () => ['hours', 'show', '9'], /schedule 9 does not exist/],
  ] as const)('refuses %s: one line, exit 1, nothing changed', async (_name, args, message) => {
    await refused(db, [...args()], message);
  });

  it('a schedule with extra hours only has free times (no "no opening hours yet")', async () => {
    await cliOk(db, 'schedule', 'add', 'Clinic', '--days-ahead', '30', '--notice', '0', '--step', '60');
    await cliOk(db, 'reason', 'add', '2', 'Check', '--duration', '60');
    const empty = await cliOk(db, 'slots', '2', '2', '--day', saturday, '--days', '1');
    expect(empty).toMatch(/has no opening hours yet/);
    await cliOk(db, 'hours', 'extra', '2', saturday, '09:00-11:00');
    const text = await cliOk(db, 'slots', '2', '2', '--day', saturday, '--days', '1');
    expect(text).not.toMatch(/no opening hours/);
    expect(text).toMatch(new RegExp(`^Sat ${saturday}  09:00 10:00$`, 'm'));
  });
});

describe('README: extra hours on a date', () => {
  it('the Saturday clinic block runs as written (its dates moved to the same weekday ahead), and opens that Saturday', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'hours', 'set', '1', 'sat-sun', 'closed');
    const env = newcomerEnv({ PLANNER_DB: db });
    const lines = commandsOf(readmeBlock('Extra hours on a date', 'sh'));
    const written = [...new Set(lines.join('\n').match(/\d{4}-\d\d-\d\d/g) ?? [])];
    expect(written.length).toBeGreaterThan(0);
    // Each written date moves by whole weeks to the first such weekday at least two days ahead.
    const moved = new Map<string, string>();
    for (const day of written) {
      let ahead = day;
      while (ahead < plusDays(berlinToday(), 2)) ahead = plusDays(ahead, 7);
      while (plusDays(ahead, -7) >= plusDays(berlinToday(), 2)) ahead = plusDays(ahead, -7);
      moved.set(day, ahead);
    }
    for (const written of lines) {
      const line = written.replace(/\d{4}-\d\d-\d\d/g, (day) => moved.get(day)!);
      await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
    }
    const clinic = moved.get('2026-12-05')!;
    expect(new Date(`${clinic}T12:00:00Z`).getUTCDay()).toBe(6);
    expect((await cliJson(db, 'hours', 'show', '1')).extra).toEqual({ [clinic]: ['09:00-13:00'] });
    expect(await timesOn(db, clinic)).toContain('09:00');
  });
});
