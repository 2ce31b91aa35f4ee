/**
 * Closures and hour changes that strand booked customers (issue 24, item 5), through the real CLI: the change is made,
 * and the upcoming bookings it leaves outside the hours are listed with the commands that fix them; `closure add
 * --all-schedules` closes every schedule at once; a closure wholly in the past is refused with nothing changed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookableDb, cliJson, cliOk, fieldArgs, refused, tempDb } from '../helpers.ts';

const person = (first: string, phone = '') =>
  fieldArgs({
    first_name: first,
    last_name: 'Tester',
    email: `${first.toLowerCase()}@example.com`,
    ...(phone ? { phone } : {}),
  });

describe('closures and hours that strand booked customers', () => {
  const db = tempDb();
  let days: string[] = [];
  const ref: Record<string, string> = {};
  beforeAll(async () => {
    // Schedules 1 and 2: 08:00-18:00 every day, 30 days ahead, 30-minute step; reasons 1 and 2 of 30 minutes.
    await bookableDb(db, {
      schedules: [{}, { name: 'Physio' }],
      reasons: [{}, { name: 'Session', schedules: [2] }],
    });
    days = (await cliJson(db, 'slots', '1', '1')).days.map((item: { day: string }) => item.day);
    const book = async (name: string, args: string[]) =>
      (ref[name] = (await cliJson(db, 'bookings', 'add', ...args)).reference);
    await book('ada', ['1', '1', `${days[3]} 09:00`, ...person('Ada', '+49 30 1234567')]);
    await book('bob', ['1', '1', `${days[3]} 16:00`, ...person('Bob')]);
    await book('cleo', ['2', '2', `${days[3]} 10:00`, ...person('Cleo')]);
    await book('dan', ['1', '1', `${days[3]} 11:00`, ...person('Dan')]);
    await cliOk(db, 'bookings', 'cancel', ref.dan!, '--no-notify'); // cancelled: never listed
  }, 120_000);

  it('closure add makes the closure and lists the upcoming bookings on its days, with the commands that fix them', async () => {
    const added = await cliJson(db, 'closure', 'add', '1', days[3]!, '--note', 'Training');
    expect(
      added.stranded.map((item: any) => [
        item.reference,
        item.why,
        item.localStart,
        item.customerName,
        item.phone,
        item.scheduleId,
      ]),
    ).toEqual([
      [ref.ada, 'closure', `${days[3]} 09:00`, 'Ada Tester', '+49 30 1234567', 1],
      [ref.bob, 'closure', `${days[3]} 16:00`, 'Bob Tester', '', 1],
    ]);
    expect(added.stranded[0]).toMatchObject({
      timeZone: 'Europe/Berlin',
      customerEmail: 'ada@example.com',
      reasonId: 1,
      fix: {
        slots: 'planner slots 1 1',
        move: `planner bookings move ${ref.ada} "YYYY-MM-DD HH:MM"`,
        cancel: `planner bookings cancel ${ref.ada}`,
      },
    });
    // The change was made all the same.
    expect((await cliJson(db, 'closure', 'list', '1')).map((c: any) => [c.id, c.fromDay, c.note])).toEqual([
      [added.id, days[3], 'Training'],
    ]);
    await cliOk(db, 'closure', 'remove', String(added.id));
    // Nothing stranded, nothing said.
    const quiet = await cliOk(db, 'closure', 'add', '1', days[5]!);
    const [, quietId] = new RegExp(`^Added closure (\\d+): schedule 1 closed ${days[5]}\\.\\n$`).exec(quiet) ?? [];
    expect(quietId, quiet).toBeDefined();
    await cliOk(db, 'closure', 'remove', quietId!);
  }, 60_000);

  it('hours set lists the bookings no longer wholly inside the hours, partly outside included', async () => {
    const narrow = await cliJson(db, 'hours', 'set', '1', 'mon-sun', '08:00-09:15');
    expect(narrow.mon).toEqual(['08:00-09:15']);
    expect(narrow.stranded.map((item: any) => [item.reference, item.why])).toEqual([
      [ref.ada, 'hours'], // 09:00-09:30 ends after 09:15
      [ref.bob, 'hours'],
    ]);
    const text = await cliOk(db, 'hours', 'set', '1', 'mon-sun', '08:00-09:30');
    const lines = text.split('\n');
    expect(lines.slice(0, 8)).toEqual([
      'Weekly hours of Dr. Weber (schedule 1):',
      'mon  08:00-09:30',
      'tue  08:00-09:30',
      'wed  08:00-09:30',
      'thu  08:00-09:30',
      'fri  08:00-09:30',
      'sat  08:00-09:30',
      'sun  08:00-09:30',
    ]);
    expect(lines[8]).toBe(
      'Warning: 1 upcoming booking is outside the opening hours or on a closed day. It stays booked and the customer has not been told:',
    );
    expect(lines[9]).toMatch(/^REFERENCE +START \(Europe\/Berlin\) +WHY +SCHEDULE +REASON +CUSTOMER +PHONE$/);
    expect(lines[10]).toMatch(
      new RegExp(`^${ref.bob} +${days[3]} 16:00 +outside hours +Dr\\. Weber \\(1\\) +Check-up \\(1\\) +Bob Tester$`),
    );
    expect(lines[11]).toBe('Move it to a free time, or cancel it:');
    expect(lines[12]).toBe(
      `  planner slots 1 1, then planner bookings move ${ref.bob} "YYYY-MM-DD HH:MM"   or   planner bookings cancel ${ref.bob}`,
    );
    expect(lines.slice(13)).toEqual(['']);
    const open = await cliJson(db, 'hours', 'set', '1', 'mon-sun', '08:00-18:00');
    expect(open.stranded).toEqual([]);
  }, 60_000);

  it('closure add --all-schedules closes every schedule in one change and lists the bookings of all', async () => {
    const added = await cliJson(db, 'closure', 'add', '--all-schedules', days[3]!, days[4]!, '--note', 'Christmas');
    expect(added.closures.map((c: any) => c.scheduleId)).toEqual([1, 2]);
    expect(added.stranded.map((item: any) => [item.reference, item.scheduleId, item.why])).toEqual([
      [ref.ada, 1, 'closure'],
      [ref.cleo, 2, 'closure'],
      [ref.bob, 1, 'closure'],
    ]);
    for (const schedule of ['1', '2']) {
      expect((await cliJson(db, 'closure', 'list', schedule)).map((c: any) => [c.fromDay, c.toDay, c.note])).toEqual([
        [days[3], days[4], 'Christmas'],
      ]);
    }
    const text = await cliOk(db, 'closure', 'add', '--all-schedules', days[6]!);
    expect(text).toMatch(
      new RegExp(
        `^Added closure \\d+: schedule 1 closed ${days[6]}\\.\\nAdded closure \\d+: schedule 2 closed ${days[6]}\\.\\n`,
      ),
    );
    // Those still to fix are listed again, whichever change left them outside: the list is what remains to do.
    expect(text).toContain('Warning: 3 upcoming bookings are outside the opening hours or on a closed day.');
    expect(text).toMatch(
      new RegExp(`\\n${ref.cleo} +${days[3]} 10:00 +closed +Physio \\(2\\) +Session \\(2\\) +Cleo Tester\\n`),
    );
  }, 60_000);

  it('a closure wholly in the past is refused; one that ends today is not', async () => {
    await refused(
      db,
      ['closure', 'add', '1', '2000-01-01'],
      /^planner: 2000-01-01 lies wholly in the past \(today is \d{4}-\d{2}-\d{2} in Europe\/Berlin\): a closure must end today or later\n$/,
    );
    await refused(
      db,
      ['closure', 'add', '--all-schedules', '2000-01-01', '2000-01-31'],
      /^planner: 2000-01-01 to 2000-01-31 lies wholly in the past/,
    );
    const today = days[0]!;
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await refused(db, ['closure', 'add', '1', '2000-01-01', yesterday], /lies wholly in the past/);
    const until = await cliJson(db, 'closure', 'add', '1', '2000-01-01', today);
    expect(until.id).toBeGreaterThan(0);
  }, 60_000);

  it.each([
    [
      ['closure', 'add', '--all-schedules', '1', '2030-12-24'],
      /^planner: with --all-schedules give only the days: `planner closure add --all-schedules <from-day> \[to-day\]`\n$/,
    ],
    [['closure', 'add', '--all-schedules'], /^planner: with --all-schedules give only the days/],
    [['closure', 'add'], /^planner: give the schedule and the day/],
    [
      ['closure', 'add', '1'],
      /^planner: give the schedule and the day: `planner closure add <schedule-id> <from-day> \[to-day\]`/,
    ],
    [['closure', 'add', '--all-schedules', '2030-02-30'], /"2030-02-30" is not a calendar day/],
  ])('closure add refuses %j', async (args, message) => {
    await refused(db, args, message);
  });
});
