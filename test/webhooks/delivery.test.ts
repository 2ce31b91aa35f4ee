import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { addWebhook } from '../../src/app/messages/webhooks.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { guardedLookup } from '../../src/outbound/address.ts';
import { openStore } from '../../src/store/db.ts';
import { findWebhook, listDeliveries, webhookHealth } from '../../src/store/webhooks.ts';
import { emitBookingEvent } from '../../src/webhooks/events.ts';
import { startWebhookWorker } from '../../src/webhooks/worker.ts';
import { api, bookableDb, cli, cliJson, cliOk, fieldArgs, refused, serve, tempDb } from '../helpers.ts';
import { freePort } from '../mail/smtp.ts';
import { startReceiver, verifySignature } from './receiver.ts';

/**
 * Resolves once the process has written, on stderr from now on, lines matching `pattern` with `count` different
 * values of its first group (or `count` lines when it has none).
 */
function linesOnStderr(child: ChildProcess, pattern: RegExp, count: number): Promise<void> {
  return new Promise((resolve) => {
    const seen = new Set<string>();
    let lines = 0;
    const listen = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const match = pattern.exec(line);
        if (match) seen.add(match[1] ?? String(lines++));
      }
      if (seen.size >= count) {
        child.stderr!.off('data', listen);
        resolve();
      }
    };
    child.stderr!.on('data', listen);
  });
}

describe('webhook delivery: at least once, through a receiver outage and a server restart', () => {
  it('delivers every event once the receiver is back, with the same event ids, losing nothing over a restart', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const port = await freePort(); // nothing listens there yet: the receiver is down
    const { secret } = await cliJson(
      db,
      'webhook',
      'add',
      `http://127.0.0.1:${port}/hook`,
      '--allow-insecure',
      '--include-customer',
    );
    let server = await serve(db, { PLANNER_WEBHOOK_RETRY_SECONDS: '1' }, ['--log', 'off']);
    const failing = linesOnStderr(server.child, /webhook delivery (\d+) .* not delivered/, 6); // each of the 6 failed once

    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await api(server.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schedule: 1,
          reason: 1,
          slot: slots[i],
          submission: { first_name: 'C', last_name: `${i}`, email: `c${i}@example.com` },
        }),
      });
      expect(answer.status).toBe(201);
      ids.push(answer.body.booking_id);
    }
    await cliJson(db, 'bookings', 'cancel', String(ids[0]));
    await cliJson(db, 'bookings', 'move', String(ids[1]), slots.at(-1)!);
    await failing; // every one of the 6 deliveries was tried and failed at least once

    // A failing hook is reported, never disabled.
    const status = await cliJson(db, 'status');
    expect(status.webhooks).toEqual([
      expect.objectContaining({
        id: 1,
        retrying: expect.any(Number),
        lastError: expect.stringMatching(/ECONNREFUSED/),
      }),
    ]);
    expect(status.webhooks[0].retrying).toBeGreaterThan(0);
    expect((await cli(db, 'status')).stdout).toMatch(/FAILING: \d+ retrying/);

    // The server restarts while the receiver is still down.
    expect(await server.stop()).toBe(0);
    const queued = (await cliJson(db, 'webhook', 'deliveries')) as { eventId: string; type: string; status: string }[];
    expect(queued).toHaveLength(6);
    expect(queued.every((d) => d.status === 'pending')).toBe(true);
    // The table shows the next try in the installation's zone, named in the header (issue 24).
    const table = await cliOk(db, 'webhook', 'deliveries');
    expect(table).toMatch(/NEXT TRY \(Europe\/Berlin\)/);
    const next = (queued[0] as unknown as { nextAttemptAt: number }).nextAttemptAt;
    expect(table).toContain(
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' }).format(
        next * 1000,
      ),
    );

    const receiver = await startReceiver(port);
    server = await serve(db, { PLANNER_WEBHOOK_RETRY_SECONDS: '1' }, ['--log', 'off']);
    const arrived = await receiver.next(6);
    const eventIds = new Set(arrived.map((r) => r.json.id));
    expect(eventIds).toEqual(new Set(queued.map((d) => d.eventId))); // the ids were fixed when the events happened
    expect(arrived.map((r) => r.json.type).sort()).toEqual([
      'booking.cancelled',
      'booking.changed',
      'booking.created',
      'booking.created',
      'booking.created',
      'booking.created',
    ]);
    for (const r of arrived) {
      // Signed when sent (not when queued): still fresh after the outage.
      expect(
        verifySignature(secret, r.headers['planner-signature'] as string, r.body, Math.floor(Date.now() / 1000)),
      ).toBe(true);
      expect(r.json.data.customer).toEqual({
        first_name: 'C',
        last_name: expect.any(String),
        email: expect.stringMatching(/@example\.com$/),
      }); // --include-customer
    }
    await server.stop();
    expect(server.output()).not.toMatch(/could not be read/); // work waiting at start is taken up cleanly
    const after = (await cliJson(db, 'webhook', 'deliveries')) as { status: string; attempts: number }[];
    expect(after.every((d) => d.status === 'delivered' && d.attempts >= 2)).toBe(true);
    expect((await cliJson(db, 'status')).webhooks[0]).toMatchObject({ waiting: 0, retrying: 0, failed: 0 });
  });

  it('a receiver answering 500 is retried; `webhook retry` sends a delivery again; `webhook test` shows the answer', async () => {
    const db = tempDb();
    await bookableDb(db);
    const bad = await startReceiver(0, 500);
    const hook = await cliJson(db, 'webhook', 'add', bad.url, '--allow-insecure', '--events', 'booking.created');
    const test = await cli(db, 'webhook', 'test', String(hook.id));
    expect(test.code).toBe(1);
    expect(test.stdout).toMatch(/answered HTTP 500/);
    expect(bad.received[0]!.json).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    expect(
      verifySignature(
        hook.secret,
        bad.received[0]!.headers['planner-signature'] as string,
        bad.received[0]!.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);

    const server = await serve(db, { PLANNER_WEBHOOK_RETRY_SECONDS: '1' }, ['--log', 'off']);
    const twice = linesOnStderr(server.child, /not delivered, next try in \d+ s: HTTP 500/, 2);
    const slot = `${(await api(server.url, '/api/days?schedule=1&reason=1', (await cliJson(db, 'token', 'new')).token)).body.data[1]} 09:00`;
    await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slot,
      ...fieldArgs({ first_name: 'A', last_name: 'B', email: 'a@example.com' }),
    );
    await twice; // the same delivery, retried after a 500
    const [delivery] = await cliJson(db, 'webhook', 'deliveries');
    expect(delivery).toMatchObject({ type: 'booking.created', status: 'pending', lastError: 'HTTP 500' });
    expect(delivery.attempts).toBeGreaterThanOrEqual(2);
    await server.stop();

    // Only booking.created was asked for: a cancellation sends nothing to this hook.
    await cliJson(db, 'bookings', 'cancel', '1');
    expect(await cliJson(db, 'webhook', 'deliveries')).toHaveLength(1);
    // retry: refused for unknown ids, accepted for a real one.
    expect((await cli(db, 'webhook', 'retry', '99')).stderr).toBe(
      'planner: delivery 99 does not exist (see `planner webhook deliveries`)\n',
    );
    expect((await cli(db, 'webhook', 'retry', String(delivery.id))).code).toBe(0);
    expect((await cliJson(db, 'webhook', 'deliveries'))[0]).toMatchObject({
      id: delivery.id,
      status: 'pending',
      attempts: 0,
    });
  });
});

describe('webhook URLs: the service is not a tool to probe the internal network', () => {
  it('refuses plain http, local and private addresses without --allow-insecure, and never shows the secret again', async () => {
    const db = tempDb();
    await bookableDb(db);
    const refusals: [string[], RegExp][] = [
      [['http://hooks.example.com/x'], /must use https:\/\/ \(plain http only with --allow-insecure\)/],
      [['https://127.0.0.1/x'], /127\.0\.0\.1 is a local or private address: allowed only with --allow-insecure/],
      [['https://10.1.2.3/x'], /local or private address/],
      [['https://192.168.0.10/x'], /local or private address/],
      [['https://169.254.169.254/latest/meta-data'], /local or private address/],
      [['https://[::1]/x'], /local or private address/],
      [['https://[::ffff:10.0.0.1]/x'], /local or private address/],
      [['https://localhost/x'], /local or private address/],
      // The outside probe's finds (issue 18): IPv6 forms that carry an IPv4 address, and a trailing dot.
      [['https://[64:ff9b::7f00:1]/x'], /\[64:ff9b::7f00:1\] is a local or private address/],
      [['https://[2002:7f00:1::]/x'], /\[2002:7f00:1::\] is a local or private address/],
      [['https://[::127.0.0.1]/x'], /\[::7f00:1\] is a local or private address/],
      [['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x'], /local or private address/],
      [['https://LOCALHOST./x'], /localhost\. is a local or private address/],
      [['ftp://hooks.example.com/x'], /must start with https:\/\//],
      [['not a url'], /is not a URL/],
      [['https://user:pw@hooks.example.com/x'], /must not contain a user or password/],
      [['https://hooks.example.com/x', '--events', 'booking.created,booking.deleted'], /not "booking.deleted"/],
    ];
    for (const [args, message] of refusals) await refused(db, ['webhook', 'add', ...args], message);

    const added = await cliJson(
      db,
      'webhook',
      'add',
      'https://hooks.example.com/planner',
      '--events',
      'booking.cancelled',
    );
    const listed = await cliJson(db, 'webhook', 'list');
    expect(listed).toEqual([
      expect.objectContaining({
        id: added.id,
        url: 'https://hooks.example.com/planner',
        events: ['booking.cancelled'],
        includeCustomer: false,
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    expect((await cli(db, 'webhook', 'list')).stdout).not.toContain(added.secret);
    expect((await cli(db, 'status')).stdout).not.toContain(added.secret);
    expect((await cli(db, 'webhook', 'remove', String(added.id))).code).toBe(0);
    expect(await cliJson(db, 'webhook', 'list')).toEqual([]);
  });

  it('refuses at delivery a name that resolves to an internal address (checked on the address actually used)', async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) =>
      lookup('localhost', { family: 0 }, (failure) => resolve(failure)),
    );
    expect(error?.message).toBe('localhost resolves to a local or private address');
    const allowed = await new Promise<string>((resolve) =>
      guardedLookup(true)('localhost', { family: 4 }, (_e, address) => resolve(address as string)),
    );
    expect(allowed).toBe('127.0.0.1');
  });
});

describe('webhook back-off (fixed clock, in-process)', () => {
  it('retries with doubling delays for 48 hours, then marks the delivery failed; the hook keeps getting new events', async () => {
    const store = openStore(tempDb());
    let now = Date.parse('2026-06-01T06:00:00Z');
    const ctx = createContext(store, () => new Date(now));
    initInstallation(ctx, {
      practiceName: 'P',
      timeZone: 'Europe/Berlin',
      notifyEmail: 'desk@p.example',
      locale: 'en',
    });
    const port = await freePort();
    const hook = addWebhook(ctx, `http://127.0.0.1:${port}/hook`, { includeCustomer: false, allowInsecure: true });
    const facts = {
      bookingId: 1,
      reference: 'R',
      customerId: 1,
      scheduleId: 1,
      reasonId: 1,
      startAt: now / 1000,
      status: 'booked' as const,
      actor: 'api' as const,
      customer: { firstName: '', lastName: '', email: null },
    };
    emitBookingEvent(store, 'booking.created', facts, now / 1000, new Date(now).toISOString());
    const lines: string[] = [];
    const worker = startWebhookWorker({
      store,
      log: (line) => lines.push(line),
      pollMs: 3_600_000,
      nowMs: () => now,
      retry: { baseSeconds: 30 },
    });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 60; attempt++) {
      await worker.flush();
      const [delivery] = listDeliveries(store, { failedOnly: false, limit: 10 });
      if (delivery!.status === 'failed') break;
      delays.push(delivery!.nextAttemptAt - now / 1000);
      now = delivery!.nextAttemptAt * 1000; // straight to the next attempt
    }
    await worker.stop();
    expect(delays.slice(0, 8)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600]);
    const [failed] = listDeliveries(store, { failedOnly: true, limit: 10 });
    // The outbound wording of every door (outbound/request.ts, `failureLine`): the host, then why.
    expect(failed!.lastError).toMatch(/^gave up after 48 hours: could not reach 127\.0\.0\.1:\d+: ECONNREFUSED$/);
    expect(failed!.attempts).toBeGreaterThanOrEqual(48); // hourly after the first hours: at least a day of tries
    expect(webhookHealth(store)).toEqual([expect.objectContaining({ webhookId: hook.id, failed: 1 })]);
    // Never disabled: the hook is still there and its next event is queued and tried.
    expect(findWebhook(store, hook.id)).toBeDefined();
    emitBookingEvent(
      store,
      'booking.cancelled',
      { ...facts, status: 'cancelled' },
      now / 1000,
      new Date(now).toISOString(),
    );
    const again = startWebhookWorker({ store, log: (line) => lines.push(line), pollMs: 3_600_000, nowMs: () => now });
    await again.flush();
    await again.stop();
    expect(listDeliveries(store, { failedOnly: false, limit: 10 })[0]).toMatchObject({
      type: 'booking.cancelled',
      status: 'pending',
      attempts: 1,
    });
    store.close();
  });
});
