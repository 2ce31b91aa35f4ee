import ICAL from 'ical.js';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliJson, serve, snapshot, tempDb, type ServerProcess } from '../helpers.ts';
import { readmeVerifier, startReceiver, verifySignature } from './receiver.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** The .ics of each outbox message of a booking, parsed: kind, METHOD, UID, SEQUENCE, STATUS, DTSTART (UTC). */
function calendars(db: string, bookingId: number) {
  const handle = new DatabaseSync(db, { readOnly: true });
  const rows = handle.prepare('SELECT kind, recipient, body FROM outbox WHERE booking_id = ? ORDER BY id').all(bookingId) as { kind: string; recipient: string; body: string }[];
  handle.close();
  return rows.map((row) => {
    const calendar = new ICAL.Component(ICAL.parse(JSON.parse(row.body).ics));
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

describe('booking life cycle and webhooks, against a real server and a real receiver', () => {
  const db = tempDb();
  let token: string;
  let server: ServerProcess;
  let secret: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let day: string;
  beforeAll(async () => {
    token = await bookableDb(db);
    receiver = await startReceiver();
    const added = await cliJson(db, 'webhook', 'add', receiver.url, '--allow-insecure');
    secret = added.secret;
    expect(added).toEqual({ id: 1, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
    server = await serve(db, { PLANNER_WEBHOOK_RETRY_SECONDS: '1' }, ['--log', 'off']);
    day = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data[2];
  });

  const slotsOf = async () => (await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[];

  it('created, changed and cancelled arrive signed, with stable ids; cancel frees the slot at once; move refuses a taken slot', async () => {
    const [first, second] = await slotsOf();
    const created = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: first, submission: ADA }),
    });
    expect(created.status).toBe(201);
    const [createdEvent] = await receiver.next(1);
    expect(createdEvent!.headers['planner-event']).toBe('booking.created');
    expect(verifySignature(secret, createdEvent!.headers['planner-signature'] as string, createdEvent!.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifySignature(`${secret}x`, createdEvent!.headers['planner-signature'] as string, createdEvent!.body, Math.floor(Date.now() / 1000))).toBe(false);
    expect(createdEvent!.json).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'booking.created',
      created_at: expect.any(String),
      data: { booking_id: created.body.booking_id, booking_details_id: created.body.booking_details_id, user_id: created.body.user_id, schedule: 1, reason: 1, slot: created.body.slot, status: 'booked' },
    });
    expect(createdEvent!.headers['planner-event-id']).toBe(createdEvent!.json.id);
    // The README's 10 lines accept it, and refuse a changed body or another secret.
    const verifyPlanner = await readmeVerifier();
    const header = createdEvent!.headers['planner-signature'] as string;
    expect(verifyPlanner(secret, header, createdEvent!.body)).toBe(true);
    expect(verifyPlanner(secret, header, createdEvent!.body.replace('"booked"', '"cancelled"'))).toBe(false);
    expect(verifyPlanner(`${secret}x`, header, createdEvent!.body)).toBe(false);
    expect(verifyPlanner(secret, header.replace(/t=\d+/, 't=1000000000'), createdEvent!.body)).toBe(false); // replayed: too old

    // Move: to a taken slot is refused and changes nothing; to a free one keeps id and reference.
    const other = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: second, submission: { ...ADA, email: 'grace@example.com' } }),
    });
    await receiver.next(2);
    // What the refusal could have written (the server's worker updates delivery rows meanwhile, so not those).
    const written = () => {
      const { bookings, customers, outbox, webhook_deliveries: deliveries } = snapshot(db);
      return { bookings, customers, outbox, deliveries: deliveries!.length };
    };
    const before = written();
    const refused = await cli(db, 'bookings', 'move', String(created.body.booking_id), second!);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toBe(`planner: ${second} is not a free slot\n`);
    expect(written()).toEqual(before);

    const target = (await slotsOf()).at(-1)!;
    const moved = await cliJson(db, 'bookings', 'move', created.body.booking_details_id, target);
    expect(moved).toMatchObject({ id: created.body.booking_id, reference: created.body.booking_details_id, status: 'booked', sequence: 1, localStart: target.slice(0, 16) });
    const [, , changed] = await receiver.next(3);
    expect(changed!.json).toMatchObject({ type: 'booking.changed', data: { booking_id: created.body.booking_id, previous_slot: created.body.slot, slot: moved.start, status: 'booked' } });
    expect(verifySignature(secret, changed!.headers['planner-signature'] as string, changed!.body, Math.floor(Date.now() / 1000))).toBe(true);
    const afterMove = await slotsOf();
    expect(afterMove).toContain(first); // the old time is free again
    expect(afterMove).not.toContain(target);

    // Cancel: kept as cancelled, its time free at once in GET /slots, the event and the customer's mail written.
    const cancelled = await cliJson(db, 'bookings', 'cancel', String(other.body.booking_id), '--reason', 'Practice closed');
    expect(cancelled).toMatchObject({ id: other.body.booking_id, status: 'cancelled', cancelReason: 'Practice closed', sequence: 1 });
    expect(await slotsOf()).toContain(second);
    const [, , , gone] = await receiver.next(4);
    expect(gone!.json).toMatchObject({ type: 'booking.cancelled', data: { booking_id: other.body.booking_id, slot: other.body.slot, status: 'cancelled' } });
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(4);

    // The list shows the status; a cancelled booking cannot be cancelled or moved again.
    const list = await cliJson(db, 'bookings', 'list', '--from', day);
    expect(list.map((b: any) => [b.id, b.status])).toEqual(expect.arrayContaining([[created.body.booking_id, 'booked'], [other.body.booking_id, 'cancelled']]));
    const table = await cli(db, 'bookings', 'list', '--from', day);
    expect(table.stdout).toMatch(/STATUS/);
    expect(table.stdout).toMatch(/cancelled/);
    expect((await cli(db, 'bookings', 'cancel', String(other.body.booking_id))).stderr).toBe(`planner: booking ${other.body.booking_details_id} is already cancelled\n`);
    expect((await cli(db, 'bookings', 'move', String(other.body.booking_id), target)).code).toBe(1);

    // The customer's calendar: the same UID throughout; the update raises SEQUENCE, the cancellation is METHOD:CANCEL.
    const movedMail = calendars(db, created.body.booking_id);
    const uid = `${created.body.booking_details_id}@planner`;
    expect(movedMail.filter((m) => m.recipient === 'ada@example.com')).toEqual([
      { kind: 'confirmation', recipient: 'ada@example.com', method: 'REQUEST', uid, sequence: 0, status: 'CONFIRMED', start: created.body.slot },
      { kind: 'update', recipient: 'ada@example.com', method: 'REQUEST', uid, sequence: 1, status: 'CONFIRMED', start: moved.start },
    ]);
    const cancelMail = calendars(db, other.body.booking_id).at(-1)!;
    expect(cancelMail).toEqual({ kind: 'cancellation', recipient: 'grace@example.com', method: 'CANCEL', uid: `${other.body.booking_details_id}@planner`, sequence: 1, status: 'CANCELLED', start: other.body.slot });
  });

  it('move checks the minimum notice like a new booking, and --force lifts only that', async () => {
    const slots = await slotsOf();
    const made = await cliJson(db, 'bookings', 'add', '1', '1', slots[6]!, '--field', 'first_name=Emmy', '--field', 'last_name=Noether', '--field', 'email=emmy@example.com');
    await cli(db, 'schedule', 'set', '1', '--notice', '20160'); // two weeks: every slot of `day` is now too soon
    try {
      const refused = await cli(db, 'bookings', 'move', String(made.id), slots[7]!);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`planner: ${slots[7]} is not a free slot\n`);
      const forced = await cliJson(db, 'bookings', 'move', String(made.id), slots[7]!, '--force');
      expect(forced).toMatchObject({ id: made.id, localStart: slots[7]!.slice(0, 16), sequence: 1 });
      // --force does not lift the hours: 03:00 is outside them.
      expect((await cli(db, 'bookings', 'move', String(made.id), `${day} 03:00`, '--force')).stderr).toBe(`planner: ${day} 03:00:00 is not a free slot\n`);
    } finally {
      await cli(db, 'schedule', 'set', '1', '--notice', '0');
    }
  });

  it('--no-notify changes the booking without a mail to the customer, but the webhook still hears of it', async () => {
    const slot = (await slotsOf())[4]!;
    const made = await cliJson(db, 'bookings', 'add', '1', '1', slot, '--field', 'first_name=Alan', '--field', 'last_name=Turing', '--field', 'email=alan@example.com');
    await cliJson(db, 'bookings', 'cancel', made.reference, '--no-notify');
    expect(calendars(db, made.id).map((m) => m.kind)).toEqual(['confirmation', 'notice']);
    // The server picks the CLI's events up at its next poll (within a second).
    const ofThis = () => receiver.received.filter((e) => e.json.data.booking_id === made.id).map((e) => e.json.type);
    await receiver.until(() => ofThis().length >= 2);
    expect(ofThis()).toEqual(['booking.created', 'booking.cancelled']);
  });
});
