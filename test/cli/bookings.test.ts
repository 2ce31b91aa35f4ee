import { beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../src/store/bookings.ts';
import { insertCustomer } from '../../src/store/customers.ts';
import { openStore } from '../../src/store/db.ts';
import { cliJson, cliOk, initDb, refused, tempDb } from '../helpers.ts';

/** Seeds bookings directly through the store (the API that makes them is tested elsewhere). */
function seed(
  db: string,
  rows: { scheduleId: number; reasonId: number; start: string; minutes: number; reference: string; email: string }[],
) {
  const store = openStore(db);
  try {
    store.tx(() => {
      for (const row of rows) {
        const customerId = insertCustomer(store, row.email, '2026-01-01T00:00:00Z');
        const startAt = Date.parse(row.start) / 1000;
        insertBooking(store, {
          reference: row.reference,
          scheduleId: row.scheduleId,
          reasonId: row.reasonId,
          customerId,
          startAt,
          endAt: startAt + row.minutes * 60,
          submission: { first_name: 'Ada', last_name: 'Lovelace', email: row.email, note: 'second floor' },
          source: 'api',
          createdAt: '2026-01-01T00:00:00Z',
          buffers: { before: 0, after: 0 },
        });
      }
    });
  } finally {
    store.close();
  }
}

describe('planner bookings', () => {
  const db = tempDb();
  beforeAll(async () => {
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'schedule', 'add', 'Physio');
    await cliOk(db, 'reason', 'add', '1', 'Consultation', '--duration', '30');
    await cliOk(db, 'reason', 'add', '2', 'Session', '--duration', '60');
    seed(db, [
      {
        scheduleId: 1,
        reasonId: 1,
        start: '2000-06-01T08:00:00Z',
        minutes: 30,
        reference: 'PAST0001',
        email: 'old@example.com',
      },
      {
        scheduleId: 1,
        reasonId: 1,
        start: '2100-03-01T09:00:00Z',
        minutes: 30,
        reference: 'FUT00001',
        email: 'ada@example.com',
      },
      {
        scheduleId: 2,
        reasonId: 2,
        start: '2100-02-01T23:30:00Z',
        minutes: 60,
        reference: 'FUT00002',
        email: 'bob@example.com',
      },
    ]);
  });

  it('list shows upcoming bookings by default, sorted by start, with the local time', async () => {
    const list = await cliJson(db, 'bookings', 'list');
    expect(list.map((b: any) => [b.reference, b.localStart, b.start, b.scheduleName, b.reasonName])).toEqual([
      ['FUT00002', '2100-02-02 00:30', '2100-02-01T23:30:00Z', 'Physio', 'Session'],
      ['FUT00001', '2100-03-01 10:00', '2100-03-01T09:00:00Z', 'Dr. Weber', 'Consultation'],
    ]);
    const table = await cliOk(db, 'bookings', 'list');
    expect(table.split('\n')[0]).toMatch(/^ID +REFERENCE +STATUS +START \(Europe\/Berlin\)/);
    expect(table).toMatch(
      /FUT00002 +booked +2100-02-02 00:30 +60 +Physio +Session +Ada Lovelace +bob@example.com +api/,
    );
  });

  it('list --from and --schedule filter', async () => {
    const all = await cliJson(db, 'bookings', 'list', '--from', '1999-01-01');
    expect(all.map((b: any) => b.reference)).toEqual(['PAST0001', 'FUT00002', 'FUT00001']);
    const one = await cliJson(db, 'bookings', 'list', '--from', '1999-01-01', '--schedule', '1');
    expect(one.map((b: any) => b.reference)).toEqual(['PAST0001', 'FUT00001']);
    // --from is a local day: 2100-02-02 in Berlin starts at 2100-02-01T23:00Z, so FUT00002 is included.
    const local = await cliJson(db, 'bookings', 'list', '--from', '2100-02-02');
    expect(local.map((b: any) => b.reference)).toEqual(['FUT00002', 'FUT00001']);
  });

  it('show by id or reference', async () => {
    const byReference = await cliJson(db, 'bookings', 'show', 'FUT00001');
    const byId = await cliJson(db, 'bookings', 'show', String(byReference.id));
    expect(byId).toEqual(byReference);
    expect(byReference).toMatchObject({
      customerEmail: 'ada@example.com',
      submission: { note: 'second floor' },
      source: 'api',
    });
    const human = await cliOk(db, 'bookings', 'show', 'FUT00001');
    expect(human).toContain('when      2100-03-01 10:00 Europe/Berlin (2100-03-01T09:00:00Z), 30 min');
    expect(human).toContain('note      second floor');
  });

  it.each([
    [['bookings', 'show', 'NOPE'], /booking NOPE does not exist/],
    [['bookings', 'list', '--from', '2026-02-30'], /"2026-02-30" is not a calendar day/],
    [['bookings', 'list', '--schedule', '9'], /schedule 9 does not exist/],
    [['bookings', 'list', '--schedule', 'x'], /--schedule must be a whole number/],
  ])('refuses %j', async (args, message) => {
    await refused(db, args, message);
  });

  it('schedule and reason remove refuse while future bookings exist, keep the bookings with --force', async () => {
    await refused(
      db,
      ['schedule', 'remove', '2'],
      'planner: schedule 2 has 1 future booking(s); cancel them first or pass --force (the bookings are kept)',
    );
    await refused(db, ['reason', 'remove', '1'], /reason 1 has 1 future booking\(s\)/);
    await cliOk(db, 'schedule', 'remove', '2', '--force');
    expect((await cliJson(db, 'schedule', 'list')).map((s: any) => s.id)).toEqual([1]);
    const kept = await cliJson(db, 'bookings', 'show', 'FUT00002');
    expect(kept.scheduleName).toBe('Physio');
  });
});
