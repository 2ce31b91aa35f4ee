import { DatabaseSync } from 'node:sqlite';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  bookableDb,
  cli,
  cliJson,
  cliOk,
  fieldArgs,
  refused,
  type ServerProcess,
  serve,
  tempDb,
} from '../helpers.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/**
 * The .ics of each outbox message of a booking that carries one (the practice's notices carry none), parsed: kind,
 * METHOD, UID, SEQUENCE, STATUS, DTSTART (UTC).
 */
function calendars(db: string, bookingId: number) {
  const handle = new DatabaseSync(db, { readOnly: true });
  const rows = handle
    .prepare('SELECT kind, recipient, body FROM outbox WHERE booking_id = ? ORDER BY id')
    .all(bookingId) as { kind: string; recipient: string; body: string }[];
  handle.close();
  return rows.flatMap((row) => {
    const ics = JSON.parse(row.body).ics as string;
    if (!ics) return [];
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const event = calendar.getFirstSubcomponent('vevent')!;
    return {
      kind: row.kind,
      recipient: row.recipient,
      method: calendar.getFirstPropertyValue('method'),
      uid: event.getFirstPropertyValue('uid'),
      sequence: event.getFirstPropertyValue('sequence'),
      status: event.getFirstPropertyValue('status'),
      start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString().replace('.000', ''),
    };
  });
}

describe('cancel and move (src/app/bookings/lifecycle.ts): the CLI changes bookings, a real server shows the effect', () => {
  const db = tempDb();
  let token: string;
  let server: ServerProcess;
  let day: string;
  beforeAll(async () => {
    token = await bookableDb(db);
    // Two days ahead: a 24 h reminder is written for each booking (the default, 48 h, may fall before now).
    await cliOk(db, 'reminders', 'set', '24h');
    server = await serve(db, {}, ['--log', 'off']);
    day = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data[2];
  });

  const slotsOf = async () =>
    (await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[];
  const book = (slot: string, submission: Record<string, string>) =>
    api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot, submission }),
    });

  it('move refuses a taken slot and keeps id and reference; cancel frees the slot at once; the calendar keeps its UID', async () => {
    const [first, second] = await slotsOf();
    const created = await book(first!, ADA);
    expect(created.status).toBe(201);

    // Move: to a taken slot is refused and changes nothing; to a free one keeps id and reference.
    const other = await book(second!, { ...ADA, email: 'grace@example.com' });
    expect(other.status).toBe(201);
    // No hook and no mail server: nothing else writes meanwhile.
    await refused(
      db,
      ['bookings', 'move', String(created.body.booking_id), second!],
      new RegExp(`^planner: ${second} is not a free slot: it is taken by another booking\\. Next free times: .*\\n$`),
    );

    const target = (await slotsOf()).at(-1)!;
    const moved = await cliJson(db, 'bookings', 'move', created.body.booking_details_id, target);
    expect(moved).toMatchObject({
      id: created.body.booking_id,
      reference: created.body.booking_details_id,
      status: 'booked',
      sequence: 1,
      localStart: target.slice(0, 16),
    });
    const afterMove = await slotsOf();
    expect(afterMove).toContain(first); // the old time is free again
    expect(afterMove).not.toContain(target);

    // Cancel: kept as cancelled, its time free at once in GET /slots, the customer's mail written.
    const cancelled = await cliJson(
      db,
      'bookings',
      'cancel',
      String(other.body.booking_id),
      '--reason',
      'Practice closed',
    );
    expect(cancelled).toMatchObject({
      id: other.body.booking_id,
      status: 'cancelled',
      cancelReason: 'Practice closed',
      sequence: 1,
    });
    expect(await slotsOf()).toContain(second);
    // `planner status` counts it among the bookings, not among the upcoming ones.
    expect((await cliJson(db, 'status')).counts).toMatchObject({ bookings: 2, upcoming: 1 });

    // The list shows the status (cancelled ones when asked for); a cancelled booking cannot be cancelled or moved again.
    const list = await cliJson(db, 'bookings', 'list', '--from', day, '--status', 'all');
    expect(list.map((b: any) => [b.id, b.status])).toEqual(
      expect.arrayContaining([
        [created.body.booking_id, 'booked'],
        [other.body.booking_id, 'cancelled'],
      ]),
    );
    const table = await cli(db, 'bookings', 'list', '--from', day, '--status', 'all');
    expect(table.stdout).toMatch(/STATUS/);
    expect(table.stdout).toMatch(/cancelled/);
    expect((await cliOk(db, 'bookings', 'list', '--from', day)).match(/cancelled/)).toBeNull();
    expect((await cli(db, 'bookings', 'cancel', String(other.body.booking_id))).stderr).toBe(
      `planner: booking ${other.body.booking_details_id} is already cancelled\n`,
    );
    expect((await cli(db, 'bookings', 'move', String(other.body.booking_id), target)).code).toBe(1);

    // The customer's calendar: the same UID throughout; the update raises SEQUENCE, the cancellation is METHOD:CANCEL.
    const movedMail = calendars(db, created.body.booking_id);
    const uid = `${created.body.booking_details_id}@planner`;
    expect(movedMail.filter((m) => m.recipient === 'ada@example.com')).toEqual([
      {
        kind: 'confirmation',
        recipient: 'ada@example.com',
        method: 'REQUEST',
        uid,
        sequence: 0,
        status: 'CONFIRMED',
        start: created.body.slot,
      },
      // The reminder of the old time (dropped by the move), the reminder of the new one: the same event, updated.
      {
        kind: 'reminder',
        recipient: 'ada@example.com',
        method: 'REQUEST',
        uid,
        sequence: 0,
        status: 'CONFIRMED',
        start: created.body.slot,
      },
      {
        kind: 'reminder',
        recipient: 'ada@example.com',
        method: 'REQUEST',
        uid,
        sequence: 1,
        status: 'CONFIRMED',
        start: moved.start,
      },
      {
        kind: 'update',
        recipient: 'ada@example.com',
        method: 'REQUEST',
        uid,
        sequence: 1,
        status: 'CONFIRMED',
        start: moved.start,
      },
    ]);
    const cancelMail = calendars(db, other.body.booking_id).at(-1)!;
    expect(cancelMail).toEqual({
      kind: 'cancellation',
      recipient: 'grace@example.com',
      method: 'CANCEL',
      uid: `${other.body.booking_details_id}@planner`,
      sequence: 1,
      status: 'CANCELLED',
      start: other.body.slot,
    });
  });

  it('move checks the minimum notice like a new booking, and --force lifts only that', async () => {
    const slots = await slotsOf();
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slots[6]!,
      ...fieldArgs({ first_name: 'Emmy', last_name: 'Noether', email: 'emmy@example.com' }),
    );
    await cli(db, 'schedule', 'set', '1', '--notice', '20160'); // two weeks: every slot of `day` is now too soon
    try {
      const refused = await cli(db, 'bookings', 'move', String(made.id), slots[7]!);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^planner: ${slots[7]} is not a free slot: it is within the schedule's minimum notice of 20160 minutes .*; \`--force\` allows it\\.`,
        ),
      );
      const forced = await cliJson(db, 'bookings', 'move', String(made.id), slots[7]!, '--force');
      expect(forced).toMatchObject({ id: made.id, localStart: slots[7]!.slice(0, 16), sequence: 1 });
      // --force does not lift the hours: 03:00 is outside them.
      expect((await cli(db, 'bookings', 'move', String(made.id), `${day} 03:00`, '--force')).stderr).toMatch(
        new RegExp(
          `^planner: ${day} 03:00:00 is not a free slot: it is outside the opening hours \\(\\w+: 08:00-18:00;`,
        ),
      );
    } finally {
      await cli(db, 'schedule', 'set', '1', '--notice', '0');
    }
  });

  it('--no-notify changes the booking without a mail to the customer', async () => {
    const slot = (await slotsOf())[4]!;
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slot,
      ...fieldArgs({ first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' }),
    );
    await cliJson(db, 'bookings', 'cancel', made.reference, '--no-notify');
    // No cancellation mail; the reminder is dropped all the same (a cancelled booking gets no more reminders).
    const handle = new DatabaseSync(db, { readOnly: true });
    expect(
      handle
        .prepare('SELECT kind FROM outbox WHERE booking_id = ? ORDER BY id')
        .all(made.id)
        .map((row) => row.kind),
    ).toEqual(['confirmation', 'notice', 'reminder']);
    expect(
      handle.prepare("SELECT status, last_error FROM outbox WHERE booking_id = ? AND kind = 'reminder'").all(made.id),
    ).toEqual([{ status: 'dropped', last_error: 'booking cancelled' }]);
    handle.close();
  });
});
