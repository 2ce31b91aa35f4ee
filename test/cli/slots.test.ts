/**
 * Booking for a caller (issue 24, item 6), through the real CLI: `planner slots` lists what the engine offers (the
 * same as GET /slots), and `bookings add` / `bookings move` say why they refuse a time and offer the next three free
 * times, while the API's answer to the same time stays the spec's 404 `Not Found`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliJson, cliOk, fieldArgs, refused, serve, tempDb } from '../helpers.ts';

const customer = fieldArgs();

interface Listed {
  timeZone: string;
  days: { day: string; slots: string[] }[];
}

describe('planner slots', () => {
  const db = tempDb();
  let token = '';
  beforeAll(async () => {
    token = await bookableDb(db); // schedule 1: 08:00-18:00 every day, 30 days ahead, no notice, 30-minute step; reason 1: 30 minutes
  }, 60_000);

  it('lists the free times of each day in local time, as GET /slots offers them', async () => {
    const week = await cliJson<Listed>(db, 'slots', '1', '1');
    expect(week.timeZone).toBe('Europe/Berlin');
    expect(week.days).toHaveLength(7); // today and the six days after it
    const day = week.days[2]!.day;
    expect(week.days[2]!.slots).toHaveLength(20); // 08:00 … 17:30
    await cliOk(db, 'bookings', 'add', '1', '1', `${day} 10:00`, ...customer);

    const one = await cliJson<Listed>(db, 'slots', '1', '1', '--day', day, '--days', '1');
    expect(one.days.map((item) => item.day)).toEqual([day]);
    expect(one.days[0]!.slots).not.toContain(`${day} 10:00:00`);
    expect(one.days[0]!.slots).toHaveLength(19);
    const server = await serve(db);
    expect((await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data).toEqual(
      one.days[0]!.slots,
    );

    const text = await cliOk(db, 'slots', '1', '1', '--day', day, '--days', '2');
    const lines = text.split('\n');
    expect(lines[0]).toBe('Free times for Check-up (30 min) with Dr. Weber, in Europe/Berlin:');
    expect(lines[1]).toMatch(
      new RegExp(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${day}  08:00 08:30 09:00 09:30 10:30 11:00 .* 17:30$`),
    );
    expect(lines[2]).toMatch(/^\w{3} \d{4}-\d{2}-\d{2}  08:00 08:30 .* 17:30$/);
  }, 60_000);

  it('says which days lie before today or beyond the look-ahead', async () => {
    expect(await cliJson<Listed>(db, 'slots', '1', '1', '--day', '2100-01-01')).toMatchObject({ days: [] });
    const text = await cliOk(db, 'slots', '1', '1', '--day', '2100-01-01', '--days', '2');
    expect(text).toMatch(/Days after \d{4}-\d{2}-\d{2} are beyond the schedule's look-ahead of 30 days\./);
    expect(await cliOk(db, 'slots', '1', '1', '--day', '2000-01-01', '--days', '2')).toMatch(
      /Days before today \(\d{4}-\d{2}-\d{2}\) have no free times\./,
    );
  });

  it('on a schedule without opening hours says so once, naming the command that sets them (issue 41, item 13)', async () => {
    await cliOk(db, 'schedule', 'add', 'Dr. Neu');
    await cliOk(db, 'reason', 'add', '2', 'Check-up', '--duration', '30');
    expect(await cliOk(db, 'slots', '2', '2')).toBe(
      'Dr. Neu has no opening hours yet, so no free times: set them, e.g. planner hours set 2 mon-fri 09:00-12:00,14:00-18:00\n',
    );
    // --json stays as documented: each day, with no times.
    const week = await cliJson<Listed>(db, 'slots', '2', '2');
    expect(week.days.length).toBeGreaterThan(0);
    expect(week.days.every((day) => day.slots.length === 0)).toBe(true);
  });

  it.each([
    [['slots', '1', '1', '--day', '2026-02-30'], /^planner: --day "2026-02-30" is not a calendar day YYYY-MM-DD\n$/],
    [['slots', '1', '1', '--days', '0'], /^planner: --days must be 1 or more/],
    [['slots', '1', '1', '--days', 'many'], /^planner: --days must be a whole number/],
    [['slots', '1', '9'], /^planner: reason 9 does not exist in schedule 1/],
    [['slots', '7', '1'], /^planner: schedule 7 does not exist/],
  ])('refuses %j in one line', async (args, message) => {
    const result = await cli(db, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('bookings add and move say why a time is refused, and what is free instead', () => {
  const db = tempDb();
  let token = '';
  let days: string[] = [];
  let adaReference = '';
  let laterReference = '';
  beforeAll(async () => {
    token = await bookableDb(db, {
      schedules: [{}, { name: 'Physio', noticeMinutes: 2880 }], // schedule 2: two days' notice
      reasons: [{}, { name: 'Treatment', bufferAfterMinutes: 30 }, { name: 'Session', schedules: [2] }],
    });
    days = (await cliJson<Listed>(db, 'slots', '1', '1')).days.map((item) => item.day);
    await cliOk(db, 'closure', 'add', '1', days[4]!, '--note', 'Training');
    adaReference = (await cliJson(db, 'bookings', 'add', '1', '1', `${days[2]} 10:00`, ...customer)).reference;
    await cliOk(db, 'bookings', 'add', '1', '2', `${days[2]} 14:00`, ...customer); // keeps 14:00-15:00
    laterReference = (await cliJson(db, 'bookings', 'add', '2', '3', `${days[5]} 10:00`, ...customer)).reference;
  }, 120_000);

  /** Returns the first three free times of schedule 1, reason 1 after local `slot`, as the engine lists them. */
  async function nextThree(slot: string): Promise<string[]> {
    const listed = await cliJson<Listed>(db, 'slots', '1', '1', '--day', slot.slice(0, 10), '--days', '3');
    return listed.days
      .flatMap((item) => item.slots)
      .filter((free) => free > `${slot}:00`)
      .slice(0, 3)
      .map((free) => free.slice(0, 16));
  }

  /** Runs a refused command: exit 1, one line naming the time and why, nothing changed; returns the line. */
  async function refusedLine(args: string[], slot: string, why: RegExp): Promise<string> {
    const line = await refused(db, args, new RegExp(`^planner: ${slot}:00 is not a free slot: `));
    expect(line).toMatch(why);
    return line;
  }

  it.each([
    [
      'outside the hours',
      2,
      '07:00',
      /: it is outside the opening hours \((mon|tue|wed|thu|fri|sat|sun): 08:00-18:00; a 30-minute appointment must fit wholly inside\)\./,
    ],
    ['partly outside the hours', 2, '17:45', /: it is outside the opening hours/],
    ['a closure', 4, '10:00', /: schedule 1 is closed that day \(closure 1, \d{4}-\d{2}-\d{2}: Training\)\./],
    [
      'off the step grid',
      2,
      '10:15',
      /: it is off the schedule's 30-minute step: times start every 30 minutes from the opening/,
    ],
    ['taken', 2, '10:00', /: it is taken by another booking\./],
    ['a buffer', 2, '14:30', /: it would overlap the time another booking keeps free around it \(its buffer\)\./],
  ])(
    'bookings add: %s',
    async (_name, index, time, why) => {
      const slot = `${days[index]} ${time}`;
      const line = await refusedLine(['bookings', 'add', '1', '1', slot, ...customer], slot, why);
      const next = await nextThree(slot);
      expect(next).toHaveLength(3);
      expect(line).toContain(
        `. Next free times: ${next.join(', ')} (more: planner slots 1 1 --day ${next[0]!.slice(0, 10)}).`,
      );
    },
    60_000,
  );

  it('bookings add: in the past, within the notice, beyond the look-ahead', async () => {
    const past = await refusedLine(
      ['bookings', 'add', '1', '1', '2000-01-03 10:00', ...customer],
      '2000-01-03 10:00',
      /: it is in the past \(now: \d{4}-\d{2}-\d{2} \d{2}:\d{2} Europe\/Berlin\)\./,
    );
    expect(past).toMatch(/Next free times: (\d{4}-\d{2}-\d{2} \d{2}:\d{2}(, )?){3} \(more: planner slots 1 1 --day /);
    const soon = `${days[1]} 10:00`; // tomorrow: within two days' notice whenever the test runs
    const notice = await refusedLine(
      ['bookings', 'add', '2', '3', soon, ...customer],
      soon,
      /: it is within the schedule's minimum notice of 2880 minutes \(the earliest start is \d{4}-\d{2}-\d{2} \d{2}:\d{2}\)\./,
    );
    expect(notice).not.toMatch(/--force/); // only a move may skip the notice
    expect(notice).toMatch(/Next free times: .* \(more: planner slots 2 3 --day /);
    await refusedLine(
      ['bookings', 'add', '1', '1', '2100-01-04 10:00', ...customer],
      '2100-01-04 10:00',
      /: it is beyond the schedule's look-ahead of 30 days \(the last bookable day is \d{4}-\d{2}-\d{2}\)\. No free time after it within the look-ahead \(planner slots 1 1 lists what is free\)\.$/,
    );
  }, 60_000);

  it('bookings move: the same reasons, the booking itself not counted; --force skips only the notice', async () => {
    const buffer = `${days[2]} 14:30`;
    await refusedLine(
      ['bookings', 'move', adaReference, buffer],
      buffer,
      /: it would overlap the time another booking keeps free around it/,
    );
    const taken = `${days[2]} 14:00`;
    const line = await refusedLine(
      ['bookings', 'move', adaReference, taken],
      taken,
      /: it is taken by another booking\./,
    );
    // Ada's own 10:00 is free for her move; the engine's next times after 14:00 skip the buffer until 15:00.
    expect(line).toContain(`Next free times: ${days[2]} 15:00, ${days[2]} 15:30, ${days[2]} 16:00`);
    const soon = `${days[1]} 10:00`;
    await refusedLine(
      ['bookings', 'move', laterReference, soon],
      soon,
      /: it is within the schedule's minimum notice of 2880 minutes .*; `--force` allows it\./,
    );
    const moved = await cliJson(db, 'bookings', 'move', laterReference, soon, '--force');
    expect(moved.localStart).toBe(soon);
  }, 60_000);

  it('the API still answers the spec’s 404 Not Found for a refused time', async () => {
    const server = await serve(db);
    const post = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: `${days[2]} 10:00:00`,
        submission: { first_name: 'A', last_name: 'B', email: 'a@b.example' },
      }),
    });
    expect([post.status, post.body]).toEqual([404, { error: 'Not Found' }]);
    const forms = await api(server.url, `/api/forms?schedule=1&reason=1&slot=${days[2]}%2010:15:00`, token);
    expect([forms.status, forms.body]).toEqual([404, { error: 'Not Found' }]);
  });
});
