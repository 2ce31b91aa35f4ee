import { describe, expect, it } from 'vitest';
import { formatLocal } from '../../src/domain/dates.ts';
import { berlinDay, bookableDb, cli, cliJson, cliOk, fieldArgs, initDb, refused, tempDb } from '../helpers.ts';

describe('planner reminders (CLI subprocess)', () => {
  it('a new installation reminds 2d (48 h) ahead; set takes m, h, d or off; show prints them', async () => {
    const db = tempDb();
    await initDb(db);
    expect(await cliJson(db, 'reminders', 'show')).toEqual({ offsets: '2d', minutes: [2880], scheduled: 0 });
    expect(await cliOk(db, 'reminders', 'set', '2h,1d,90m')).toBe(
      'Reminders go out 24h, 2h, 90m before each appointment booked or moved from now on.\n' +
        '0 reminder(s) already scheduled keep their times (existing bookings are not rescheduled).\n',
    );
    expect(await cliOk(db, 'reminders', 'show')).toBe(
      'offsets    24h,2h,90m\nscheduled  0 reminder(s) not yet due (planner mail queue lists them)\n',
    );
    // What was meant, not a sum of minutes (issue 41, item 13): 35h50m is 1d11h50m, never 2150m.
    expect(await cliOk(db, 'reminders', 'set', '2d,35h50m')).toMatch(
      /^Reminders go out 2d, 1d11h50m before each appointment booked or moved from now on\.\n/,
    );
    expect(await cliJson(db, 'reminders', 'show')).toMatchObject({ offsets: '2d,1d11h50m', minutes: [2880, 2150] });
    expect(await cliOk(db, 'reminders', 'set', 'off')).toMatch(
      /^Reminders are off for bookings made or moved from now on\.\n/,
    );
    expect(await cliJson(db, 'reminders', 'show')).toEqual({ offsets: 'off', minutes: [], scheduled: 0 });
    expect((await cli(db, 'reminders', 'set', '--help')).stdout).toMatch(/existing bookings are\s+NOT rescheduled/);
  });

  it.each([
    ['45d', '"45d" is out of range: each offset is from 1m to 30d'],
    ['0m', '"0m" is out of range: each offset is from 1m to 30d'],
    ['2h,120m', '"120m" is given twice (2h)'],
    ['soon', '"soon" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off'],
    ['1d,2d,3d,4d,5d,6d', 'at most 5 offsets, not 6'],
  ])('refuses %j with one line, exit 1, nothing changed', async (value, message) => {
    const db = tempDb();
    await initDb(db);
    await refused(db, ['reminders', 'set', value], `planner: ${message}`);
  });

  it('mail queue shows the scheduled reminders apart from the waiting mail; a change of offsets keeps them', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'reminders', 'set', '24h,2h');
    const booked = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${berlinDay(3)} 10:00`,
      ...fieldArgs({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
      '--json',
    );
    const queue = await cliJson<any[]>(db, 'mail', 'queue');
    expect(queue.map((e) => [e.section, e.kind, e.status])).toEqual([
      ['waiting', 'confirmation', 'pending'],
      ['waiting', 'notice', 'pending'],
      ['scheduled', 'reminder', 'pending'],
      ['scheduled', 'reminder', 'pending'],
    ]);
    // Due 24 and 2 real hours before the start, shown in local time (a daylight-saving change may lie between).
    const before = (hours: number) =>
      formatLocal(new Date(Date.parse(booked.start) - hours * 3_600_000), 'Europe/Berlin');
    expect(queue.slice(2).map((e) => [e.bookingReference, e.dueLocal])).toEqual([
      [booked.reference, before(24)],
      [booked.reference, before(2)],
    ]);
    // `bookings show` lists the booking's reminders.
    expect((await cliJson(db, 'bookings', 'show', booked.reference)).reminders).toEqual([
      { dueLocal: before(24), status: 'pending', reason: null },
      { dueLocal: before(2), status: 'pending', reason: null },
    ]);
    expect(await cliOk(db, 'bookings', 'show', booked.reference)).toContain(
      `  reminder  ${before(24)} Europe/Berlin: pending\n  reminder  ${before(2)} Europe/Berlin: pending\n`,
    );
    const table = await cliOk(db, 'mail', 'queue');
    const [waiting, scheduled] = table.split('\n\n');
    expect(waiting).toMatch(/^ID +KIND +TO +STATUS/);
    expect(waiting).toMatch(/confirmation/);
    expect(waiting).not.toMatch(/reminder/);
    expect(scheduled!.split('\n')[0]).toBe('Scheduled reminders (2), sent at their time:');
    expect(
      scheduled!
        .split('\n')
        .slice(1, 4)
        .map((line) => line.split(/ {2,}/).slice(1, 3)),
    ).toEqual([
      ['DUE (Europe/Berlin)', 'BOOKING'],
      [before(24), booked.reference],
      [before(2), booked.reference],
    ]);
    // A change of offsets: the two scheduled keep their times; status counts them apart from the waiting mail.
    // What was meant, not a sum of minutes (issue 41, item 13): 35h50m is 1d11h50m, never 2150m.
    expect(await cliOk(db, 'reminders', 'set', '2d,35h50m')).toMatch(
      /^Reminders go out 2d, 1d11h50m before each appointment booked or moved from now on\.\n/,
    );
    expect(await cliJson(db, 'reminders', 'show')).toMatchObject({ offsets: '2d,1d11h50m', minutes: [2880, 2150] });
    expect(await cliOk(db, 'reminders', 'set', 'off')).toMatch(/\n2 reminder\(s\) already scheduled keep their times/);
    expect((await cliJson(db, 'mail', 'queue')).filter((e: any) => e.section === 'scheduled')).toHaveLength(2);
    expect((await cliJson(db, 'status')).mail).toMatchObject({ pending: 2, scheduled: 2, failed: 0 });
    // Cancelled: no more reminders; `bookings show` says why, `mail queue` no longer lists them.
    await cliOk(db, 'bookings', 'cancel', booked.reference, '--no-notify');
    expect(
      (await cliJson(db, 'bookings', 'show', booked.reference)).reminders.map((r: any) => [r.status, r.reason]),
    ).toEqual([
      ['dropped', 'booking cancelled'],
      ['dropped', 'booking cancelled'],
    ]);
    expect((await cliJson(db, 'mail', 'queue')).map((e: any) => e.section)).toEqual(['waiting', 'waiting']);
  });

  it("reminders set and portal enable warn when a reminder would arrive after the page's deadline (issue 24, item 3); the defaults work together", async () => {
    const db = tempDb();
    await initDb(db);
    // The defaults: a 48 h reminder, changes on the page until 24 h before: no warning.
    const enabled = await cli(db, 'portal', 'enable', '--url', 'https://booking.example');
    expect([enabled.code, enabled.stderr]).toEqual([0, '']);
    // A 24 h reminder arrives as the deadline passes.
    const late = await cli(db, 'reminders', 'set', '24h,2h');
    expect(late.code).toBe(0);
    expect(late.stdout).toMatch(/^Reminders go out 24h, 2h before/);
    expect(late.stderr).toBe(
      "planner: warning: the 24h and 2h reminders arrive when the page no longer allows changes (until 24 h before the start), so they give the practice's phone number instead of the link: remind earlier (e.g. planner reminders set 48h) or allow changes until later (e.g. planner portal enable --cancel-until 1)\n",
    );
    // portal enable --cancel-until says the same of the reminders as they are; a deadline before both is quiet.
    const still = await cli(db, 'portal', 'enable', '--cancel-until', '12');
    expect(still.stderr).toBe(
      "planner: warning: the 2h reminder arrives when the page no longer allows changes (until 12 h before the start), so it gives the practice's phone number instead of the link: remind earlier (e.g. planner reminders set 36h) or allow changes until later (e.g. planner portal enable --cancel-until 1)\n",
    );
    // doctor says the same while it holds.
    expect((await cli(db, 'doctor')).stdout).toMatch(
      /^warn +reminders +the 2h reminder arrives when the page no longer allows changes \(until 12 h before the start\)/m,
    );
    expect((await cli(db, 'portal', 'enable', '--cancel-until', '1')).stderr).toBe('');
    expect((await cli(db, 'doctor')).stdout).not.toMatch(/^warn +reminders/m);
    // Without the page, no deadline: no warning.
    await cliOk(db, 'portal', 'disable');
    expect((await cli(db, 'reminders', 'set', '1h')).stderr).toBe('');
  }, 120_000); // twelve CLI runs

  it('portal enable --cancel-until works without --url once a URL is set (issue 24, item 16); the first time it asks for one', async () => {
    const db = tempDb();
    await initDb(db);
    await refused(
      db,
      ['portal', 'enable', '--cancel-until', '12'],
      'planner: give the public address the first time: planner portal enable --url https://booking.praxis.example',
    );
    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.example', '--reschedule', 'off');
    expect(await cliOk(db, 'portal', 'enable', '--cancel-until', '12')).toMatch(
      /^Self-service page enabled at https:\/\/booking\.example\/manage\/…: customers may cancel until 12 h before the start\.$/m,
    );
    expect(await cliJson(db, 'portal', 'status')).toEqual({
      enabled: true,
      url: 'https://booking.example',
      cancelUntilHours: 12,
      reschedule: false,
    });
  }, 60_000);
});
