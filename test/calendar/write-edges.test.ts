/**
 * The calendar write at its edges: an ETag of bytes above 0x7F (RFC 9110's obs-text) sent back exactly as received;
 * the test event of `--write-bookings` removed on every path, or named when its removal fails. Real CLI and Radicale
 * behind a proxy that refuses what the test says, and planner's own code against a CalDAV server in the test.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { deliverWrites } from '../../src/app/calendars/calendar-writes.ts';
import { setCalendar } from '../../src/app/calendars/calendars.ts';
import { bookableDb, cliWith, onCleanup, snapshot, tempDb } from '../helpers.ts';
import { practice, writingCalendar } from '../practice.ts';
import { fakeCalDav } from './fake-caldav.ts';
import { startRadicale } from './radicale.ts';

/** An HTTP proxy to `target` (an origin) that answers a request itself when `refuse` returns a status for it. */
async function proxyTo(target: string, refuse: (request: IncomingMessage) => number | undefined) {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const status = refuse(request);
    if (status !== undefined) {
      request.resume();
      response.writeHead(status).end();
      return;
    }
    const upstream = httpRequest(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

describe('an ETag with bytes above 0x7F', () => {
  it('is sent back in If-Match byte for byte, so a move is written over the event without a 412', async () => {
    const seen: Buffer[] = [];
    // `"été-v1"` in Latin-1: 0xE9 is one byte (obs-text), not UTF-8's two.
    const caldav = await fakeCalDav({ etag: (n) => `"\u00e9t\u00e9-v${n}"` });
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx } = practice({ clock });
    writingCalendar(store, caldav.url, clock.now);
    const { reference } = createBooking(
      ctx,
      { scheduleId: 1, reasonId: 1, slot: '2026-12-03 10:00:00', submission: ADA },
      'admin',
    );
    expect(await deliverWrites(ctx, 1)).toEqual({ written: 1, error: null });
    const stored = store.db.prepare('SELECT etag FROM calendar_events').get() as { etag: string };
    expect(Buffer.from(stored.etag, 'latin1')).toEqual(Buffer.from([0x22, 0xe9, 0x74, 0xe9, 0x2d, 0x76, 0x31, 0x22]));

    caldav.onRequest = (request) => {
      if (request.headers['if-match']) seen.push(Buffer.from(request.headers['if-match'], 'latin1'));
    };
    moveBooking(ctx, reference, '2026-12-03 11:00:00', { notify: false, force: true });
    const lines: string[] = [];
    expect(await deliverWrites(ctx, 1, (line) => lines.push(line))).toEqual({ written: 1, error: null });
    expect(seen).toEqual([Buffer.from([0x22, 0xe9, 0x74, 0xe9, 0x2d, 0x76, 0x31, 0x22])]);
    expect(lines).toEqual([]); // not taken for an event changed in an app
    expect(caldav.state.refused).toBe(0);
    store.close();
  });
});

describe('the test event of --write-bookings', () => {
  it('when its DELETE fails, the one line names the event left in the calendar; planner adds nothing', async () => {
    const radicale = await startRadicale();
    const origin = new URL(radicale.url).origin;
    const proxy = await proxyTo(origin, (request) =>
      request.method === 'DELETE' && /\/planner-check-[0-9a-f]+\.ics$/.test(request.url ?? '') ? 500 : undefined,
    );
    const db = tempDb();
    await bookableDb(db);
    const before = snapshot(db);
    const added = await cliWith(
      db,
      { input: `${radicale.password}\n` },
      'calendar',
      'add',
      '1',
      `${proxy}${new URL(radicale.url).pathname}`,
      '--user',
      radicale.user,
      '--password-stdin',
      '--allow-insecure',
      '--write-bookings',
    );
    const left = await radicale.events();
    expect(left).toHaveLength(1);
    expect(left[0]!.ics).toContain('SUMMARY:planner checks that it may write here');
    expect(added.code).toBe(1);
    expect(added.stdout).toBe('');
    expect(added.stderr).toBe(
      `planner: planner may not write into that calendar, nothing was added: it wrote its test event, but could not delete it (127.0.0.1:${new URL(proxy).port} answered HTTP 500 to delete the event): the event "planner checks that it may write here" at ${added.stderr.match(/at (\d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin)/)?.[1]} (${left[0]!.name}) may be left in the calendar; delete it in the calendar app\n`,
    );
    expect(snapshot(db)).toEqual(before);
  }, 60_000);

  it('a PUT that gets no answer is followed by its DELETE: nothing is left', async () => {
    const caldav = await fakeCalDav();
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx } = practice({ clock });
    writingCalendar(store, caldav.url, clock.now, { writeBookings: false });
    caldav.state.dropAfterPut = true; // stores the event, then the connection is lost before the answer
    await expect(setCalendar(ctx, 1, { writeBookings: true })).rejects.toThrow(
      /^planner may not write into that calendar, nothing was changed: could not reach 127\.0\.0\.1:\d+: ECONNRESET$/,
    );
    expect(caldav.state.puts).toBe(1);
    expect([...caldav.resources.keys()]).toEqual([]);
    store.close();
  });
});
