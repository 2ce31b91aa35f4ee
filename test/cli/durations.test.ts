/**
 * Issue 24, item 14: durations read the same everywhere (`45`, `45m`, `1h30m`, `12h`, `2d`) for --notice, --step,
 * --duration, the buffers, --cancel-until and the reminder offsets; a bare number keeps each option's unit
 * (minutes; hours for --cancel-until). Opening hours take a one-digit hour (`8:00`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliJson, cliOk, initDb, refused, tempDb } from '../helpers.ts';

describe('durations', () => {
  const db = tempDb();
  beforeAll(() => initDb(db));

  it('--notice and --step take 45, 45m, 1h30m, 12h, 2d', async () => {
    expect(await cliJson(db, 'schedule', 'add', 'Dr. Weber', '--notice', '1h30m', '--step', '1h', '--json')).toEqual({
      id: 1,
    });
    expect(await cliJson(db, 'schedule', 'set', '1')).toMatchObject({ noticeMinutes: 90, stepMinutes: 60 });
    for (const [notice, minutes] of [
      ['45', 45],
      ['45m', 45],
      ['12h', 720],
      ['2d', 2880],
      ['1d12h', 2160],
    ] as const) {
      expect(await cliJson(db, 'schedule', 'set', '1', '--notice', notice)).toMatchObject({ noticeMinutes: minutes });
    }
    expect(await cliOk(db, 'schedule', 'set', '1', '--notice', '90m', '--step', '15')).toContain(
      '90 min notice, 15 min step',
    );
  });

  it('--duration and the buffers take the same, in reason add and set', async () => {
    const added = await cliJson(
      db,
      'reason',
      'add',
      '1',
      'Treatment',
      '--duration',
      '1h30m',
      '--buffer-before',
      '15m',
      '--buffer-after',
      '1h',
    );
    const [reason] = await cliJson(db, 'reason', 'list', '1');
    expect(reason).toMatchObject({
      id: added.id,
      durationMinutes: 90,
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 60,
    });
    expect(
      await cliJson(db, 'reason', 'set', String(added.id), '--duration', '45', '--buffer-after', '4h'),
    ).toMatchObject({ durationMinutes: 45, bufferAfterMinutes: 240 });
    expect(
      await cliJson(db, 'reason', 'set', String(added.id), '--duration', '2h', '--buffer-before', '0'),
    ).toMatchObject({ durationMinutes: 120, bufferBeforeMinutes: 0 });
  });

  it('--cancel-until: a bare number counts hours, as before; 48h and 2d are the same; the help says so', async () => {
    for (const [text, hours] of [
      ['48', 48],
      ['36h', 36],
      ['2d', 48],
      ['1d12h', 36],
      ['0', 0],
    ] as const) {
      await cliOk(db, 'portal', 'enable', '--url', 'https://booking.example', '--cancel-until', text);
      expect((await cliJson(db, 'portal', 'status')).cancelUntilHours).toBe(hours);
    }
    expect((await cliOk(db, 'portal', 'enable', '--help')).replace(/\s+/g, ' ')).toContain(
      '48 (a bare number counts hours), 48h or 2d',
    );
  });

  it('reminder offsets take bare minutes and combined units', async () => {
    expect(await cliOk(db, 'reminders', 'set', '1h30m,45')).toContain(
      'Reminders go out 90m, 45m before each appointment',
    );
    expect((await cliJson(db, 'reminders', 'show')).minutes).toEqual([90, 45]);
    await cliOk(db, 'reminders', 'set', '24h');
  });

  it('opening hours take a one-digit hour: 8:00 is 08:00', async () => {
    await cliOk(db, 'hours', 'set', '1', 'mon-fri', '8:00-12:00,13:00-17:30');
    expect(await cliOk(db, 'hours', 'show', '1')).toContain('mon  08:00-12:00, 13:00-17:30');
  });

  it.each([
    [
      ['schedule', 'set', '1', '--notice', 'soon'],
      'planner: --notice: "soon" is not a duration: write 45 (minutes), 45m, 1h30m, 12h or 2d',
    ],
    [['schedule', 'set', '1', '--notice', '400d'], 'planner: --notice must be from 0 to 365d (got "400d")'],
    [['schedule', 'set', '1', '--step', '2d'], 'planner: --step must be from 1m to 1d (got "2d")'],
    [['reason', 'add', '1', 'X', '--duration', '25h'], 'planner: --duration must be from 1m to 1d (got "25h")'],
    [
      ['reason', 'add', '1', 'X', '--duration', '30', '--buffer-after', '5h'],
      'planner: --buffer-after must be from 0 to 4h (got "5h")',
    ],
    [
      ['reason', 'set', '1', '--buffer-before', '1.5h'],
      'planner: --buffer-before: "1.5h" is not a duration: write 45 (minutes), 45m, 1h30m, 12h or 2d',
    ],
    [
      ['portal', 'enable', '--url', 'https://booking.example', '--cancel-until', '90m'],
      'planner: --cancel-until is kept in whole hours (got "90m"): write e.g. 2 or 2h',
    ],
    [
      ['portal', 'enable', '--url', 'https://booking.example', '--cancel-until', 'soon'],
      'planner: --cancel-until: "soon" is not a duration: write 48 (hours), 48h, 2d or 1h30m',
    ],
    [
      ['portal', 'enable', '--url', 'https://booking.example', '--cancel-until', '366d'],
      'planner: --cancel-until must be from 0 to 365d (got "366d")',
    ],
    [
      ['reminders', 'set', '24h,1y'],
      'planner: "1y" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off',
    ],
    [['hours', 'set', '1', 'mon', '8:0-12:00'], 'planner: "8:0" is not a time HH:MM between 00:00 and 23:59'],
  ])('refuses %j in one line naming the option and the value, changing nothing', async (args, line) => {
    await refused(db, args, line);
  });
});
