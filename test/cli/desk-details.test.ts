/**
 * The front desk's details of issue 47: `bookings list --today`, `--week` (Monday to Sunday in the practice's zone,
 * across both daylight-saving changes), `--from`/`--to today`, cancelled bookings only on request; `bookings add`
 * and `add any` name the practitioner, the reason and the customer; `hours set` names the schedule of its week.
 */
import { describe, expect, it } from 'vitest';
import { listBookingsFrom } from '../../src/app/bookings/bookings.ts';
import { localToUnix } from '../../src/domain/zone.ts';
import { cancelBookingRow, insertBooking } from '../../src/store/bookings.ts';
import { insertCustomer } from '../../src/store/customers.ts';
import type { Store } from '../../src/store/db.ts';
import { berlinDay, bookableDb, cliJson, cliOk, fieldArgs, onCleanup, refused, tempDb } from '../helpers.ts';
import { practice } from '../practice.ts';

/** Inserts a booking of schedule 1 at the local Berlin time `day minute`, as the API would have stored it. */
function bookAt(store: Store, reference: string, day: string, hour: number, minute = 0): number {
  const startAt = localToUnix(day, hour * 60 + minute, 'Europe/Berlin');
  return insertBooking(store, {
    reference,
    scheduleId: 1,
    reasonId: 1,
    customerId: insertCustomer(store, `${reference.toLowerCase()}@example.com`, '2026-01-01T00:00:00Z'),
    startAt,
    endAt: startAt + 1800,
    submission: { first_name: 'Ada', last_name: reference, email: `${reference.toLowerCase()}@example.com` },
    source: 'api',
    createdAt: '2026-01-01T00:00:00Z',
    buffers: { before: 0, after: 0 },
  });
}

describe('bookings list --today and --week, on a clock the test holds', () => {
  // Around both of 2026's changes in Berlin: 29 March (a 23-hour Sunday) and 25 October (a 25-hour Sunday).
  const { store, ctx, clock } = practice({ clock: { now: new Date('2026-03-29T21:30:00Z') } }); // Sun 23:30
  onCleanup(() => store.close());
  store.tx(() => {
    bookAt(store, 'SUNBEFORE', '2026-03-22', 23, 30); // the Sunday before: last week
    bookAt(store, 'MONFIRST', '2026-03-23', 0); // Monday 00:00: the week's first minute
    bookAt(store, 'SUNLAST', '2026-03-29', 23, 30); // Sunday 23:30 (after the change): the week's last half hour
    bookAt(store, 'MONNEXT', '2026-03-30', 0); // the next Monday
    const cancelled = bookAt(store, 'SUNCANCELLED', '2026-03-29', 10);
    cancelBookingRow(store, cancelled, null, '2026-03-01T00:00:00Z');
    bookAt(store, 'OCTSAT', '2026-10-24', 12);
    bookAt(store, 'OCTSUN', '2026-10-25', 23, 30); // the 25-hour Sunday's last half hour
    bookAt(store, 'OCTMON', '2026-10-26', 0);
  });
  const references = (filter: Parameters<typeof listBookingsFrom>[1]) =>
    listBookingsFrom(ctx, filter).map((booking) => booking.customerLastName);

  it.each<[string, string, { period?: 'today' | 'week'; fromDay?: string; toDay?: string; status?: string }, string[]]>(
    [
      ['Sunday 23:30, the 23-hour day', '2026-03-29T21:30:00Z', { period: 'week' }, ['MONFIRST', 'SUNLAST']],
      ['Monday 00:00 of that week', '2026-03-22T23:00:00Z', { period: 'week' }, ['MONFIRST', 'SUNLAST']],
      ['Sunday 23:59 before it: still the week before', '2026-03-22T22:59:00Z', { period: 'week' }, ['SUNBEFORE']],
      ['Sunday 23:30', '2026-03-29T21:30:00Z', { period: 'today' }, ['SUNLAST']],
      ['with cancelled ones', '2026-03-29T21:30:00Z', { period: 'today', status: 'all' }, ['SUNCANCELLED', 'SUNLAST']],
      ['only cancelled ones', '2026-03-29T21:30:00Z', { period: 'week', status: 'cancelled' }, ['SUNCANCELLED']],
      ['--from today --to today', '2026-03-29T21:30:00Z', { fromDay: 'today', toDay: 'today' }, ['SUNLAST']],
      [
        '--to today from a day',
        '2026-03-29T21:30:00Z',
        { fromDay: '2026-03-22', toDay: 'today' },
        ['SUNBEFORE', 'MONFIRST', 'SUNLAST'],
      ],
      ['the 25-hour Sunday', '2026-10-25T22:00:00Z', { period: 'week' }, ['OCTSAT', 'OCTSUN']], // Sun 23:00 CET
      ['the Monday after it', '2026-10-25T23:00:00Z', { period: 'week' }, ['OCTMON']], // Mon 00:00 CET
    ],
  )('%s', (_, now, filter, expected) => {
    clock.now = new Date(now);
    expect(references(filter)).toEqual(expected);
  });

  it.each<[{ period?: 'today' | 'week'; fromDay?: string; toDay?: string; status?: string }, string]>([
    [{ period: 'week', fromDay: '2026-03-01' }, '--week names the days itself: leave out --from'],
    [{ period: 'today', toDay: 'today' }, '--today names the days itself: leave out --to'],
    [{ fromDay: 'tomorrow' }, '--from "tomorrow" is not a calendar day YYYY-MM-DD (or today)'],
    [{ status: 'open' }, '--status must be booked, cancelled or all (got "open")'],
  ])('refuses %j', (filter, message) => {
    clock.now = new Date('2026-03-29T21:30:00Z');
    expect(() => listBookingsFrom(ctx, filter)).toThrow(message);
  });
});

describe('the front desk on the real CLI', () => {
  it('bookings list --today, --week and --from today agree with the days they name; cancelled ones on request', async () => {
    const db = tempDb();
    await bookableDb(db, { schedules: [{ daysAhead: 14 }] });
    const tomorrow = berlinDay(1);
    const later = berlinDay(10);
    for (const [slot, email] of [
      [`${tomorrow} 09:00`, 'ada@example.com'],
      [`${tomorrow} 10:00`, 'bob@example.com'],
      [`${later} 09:00`, 'cleo@example.com'],
    ] as const)
      await cliOk(db, 'bookings', 'add', '1', '1', slot, ...fieldArgs({ first_name: 'A', last_name: 'B', email }));
    await cliOk(db, 'bookings', 'cancel', '2', '--no-notify');
    const ids = async (...args: string[]) =>
      (await cliJson(db, 'bookings', 'list', ...args)).map((booking: { id: number }) => booking.id);
    // Tomorrow is in this week unless today is Sunday; ten days on never is.
    const sunday = new Date(`${berlinDay(0)}T12:00:00Z`).getUTCDay() === 0;
    expect(await ids('--week')).toEqual(sunday ? [] : [1]);
    expect(await ids('--week', '--status', 'all')).toEqual(sunday ? [] : [1, 2]);
    expect(await ids('--today')).toEqual([]);
    expect(await ids('--from', 'today')).toEqual([1, 3]);
    expect(await ids('--from', 'today', '--to', tomorrow, '--status', 'all')).toEqual([1, 2]);
    expect(await ids('--status', 'cancelled')).toEqual([2]);
    // The table shows what --json lists: the cancelled one only when asked for.
    expect(await cliOk(db, 'bookings', 'list')).not.toContain('cancelled');
    expect(await cliOk(db, 'bookings', 'list', '--status', 'all')).toMatch(/^2 +\w+ +cancelled /m);
    expect(await cliOk(db, 'bookings', 'list', '--today')).toBe('No bookings match.\n');
    await refused(db, ['bookings', 'list', '--today', '--week'], 'planner: give --today or --week, not both');
    await refused(
      db,
      ['bookings', 'list', '--week', '--to', later],
      'planner: --week names the days itself: leave out --to',
    );
  });

  it('bookings add and add any name the practitioner, the reason and the customer', async () => {
    const db = tempDb();
    await bookableDb(db, {
      schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }],
      reasons: [{ name: 'Back pain', schedules: [1, 2] }],
    });
    const day = berlinDay(2);
    const ada = fieldArgs({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(await cliOk(db, 'bookings', 'add', '2', '1', `${day} 09:00`, ...ada)).toMatch(
      new RegExp(
        `^Booked 1 \\(\\w{16}\\) with Dr\\. Roth \\(schedule 2\\) for ${day} 09:00 Europe/Berlin: Back pain \\(reason 1\\), Ada Lovelace\\. Its e-mails are in the outbox\\.\\n$`,
      ),
    );
    const grace = fieldArgs({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    expect(await cliOk(db, 'bookings', 'add', 'any', '1', `${day} 09:00`, ...grace)).toMatch(
      new RegExp(
        `^Booked 2 \\(\\w{16}\\) with Dr\\. Weber \\(schedule 1\\) for ${day} 09:00 Europe/Berlin: Back pain \\(reason 1\\), Grace Hopper\\. `,
      ),
    );
    const json = await cliJson(db, 'bookings', 'add', '1', '1', `${day} 10:00`, ...ada, '--json');
    expect(json).toMatchObject({
      id: 3,
      customerName: 'Ada Lovelace',
      schedule: { id: 1, name: 'Dr. Weber' },
      reason: { id: 1, name: 'Back pain' },
    });
  });

  it('hours set names the schedule whose week it prints', async () => {
    const db = tempDb();
    await bookableDb(db, { schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }] });
    expect(await cliOk(db, 'hours', 'set', '2', 'sat-sun', 'closed')).toMatch(
      /^Weekly hours of Dr\. Roth \(schedule 2\):\nmon {2}08:00-18:00\n(?:.*\n){4}sat {2}closed\nsun {2}closed\n$/,
    );
  });
});
