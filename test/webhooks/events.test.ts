import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cliJson, fieldArgs, type ServerProcess, serve, tempDb } from '../helpers.ts';
import { readmeVerifier, startReceiver, verifySignature } from './receiver.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

describe('booking life-cycle events reach a real receiver, from a real server', () => {
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

  const slotsOf = async () =>
    (await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[];

  it('created, changed and cancelled arrive signed, with stable ids', async () => {
    const [first, second] = await slotsOf();
    const created = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: first, submission: ADA }),
    });
    expect(created.status).toBe(201);
    const [createdEvent] = await receiver.next(1);
    expect(createdEvent!.headers['planner-event']).toBe('booking.created');
    expect(
      verifySignature(
        secret,
        createdEvent!.headers['planner-signature'] as string,
        createdEvent!.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    expect(
      verifySignature(
        `${secret}x`,
        createdEvent!.headers['planner-signature'] as string,
        createdEvent!.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(false);
    expect(createdEvent!.json).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'booking.created',
      created_at: expect.any(String),
      data: {
        booking_id: created.body.booking_id,
        booking_details_id: created.body.booking_details_id,
        user_id: created.body.user_id,
        schedule: 1,
        reason: 1,
        slot: created.body.slot,
        status: 'booked',
        actor: 'api',
      },
    });
    expect(createdEvent!.headers['planner-event-id']).toBe(createdEvent!.json.id);
    // The README's 10 lines accept it, and refuse a changed body or another secret.
    const verifyPlanner = await readmeVerifier();
    const header = createdEvent!.headers['planner-signature'] as string;
    expect(verifyPlanner(secret, header, createdEvent!.body)).toBe(true);
    expect(verifyPlanner(secret, header, createdEvent!.body.replace('"booked"', '"cancelled"'))).toBe(false);
    expect(verifyPlanner(`${secret}x`, header, createdEvent!.body)).toBe(false);
    expect(verifyPlanner(secret, header.replace(/t=\d+/, 't=1000000000'), createdEvent!.body)).toBe(false); // replayed: too old

    // Move (src/app/bookings/lifecycle.ts and test/app/ check its rules): booking.changed names the previous slot.
    const other = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: second,
        submission: { ...ADA, email: 'grace@example.com' },
      }),
    });
    await receiver.next(2);
    const target = (await slotsOf()).at(-1)!;
    const moved = await cliJson(db, 'bookings', 'move', created.body.booking_details_id, target);
    const [, , changed] = await receiver.next(3);
    expect(changed!.json).toMatchObject({
      type: 'booking.changed',
      data: {
        booking_id: created.body.booking_id,
        previous_slot: created.body.slot,
        slot: moved.start,
        status: 'booked',
        actor: 'admin',
      },
    });
    expect(
      verifySignature(
        secret,
        changed!.headers['planner-signature'] as string,
        changed!.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);

    // Cancel: booking.cancelled; four events, four ids.
    await cliJson(db, 'bookings', 'cancel', String(other.body.booking_id), '--reason', 'Practice closed');
    const [, , , gone] = await receiver.next(4);
    expect(gone!.json).toMatchObject({
      type: 'booking.cancelled',
      data: { booking_id: other.body.booking_id, slot: other.body.slot, status: 'cancelled', actor: 'admin' },
    });
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(4);
  });

  it('a change made with --no-notify (no mail to the customer) still reaches the webhook', async () => {
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
    // The server picks the CLI's events up at its next poll (within a second).
    const ofThis = () => receiver.received.filter((e) => e.json.data.booking_id === made.id).map((e) => e.json.type);
    await receiver.until(() => ofThis().length >= 2);
    expect(ofThis()).toEqual(['booking.created', 'booking.cancelled']);
  });
});
