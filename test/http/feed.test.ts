/**
 * The practitioner's calendar feed (issue 16) through the real CLI and a real server: the URL shown once, served as
 * RFC 5545 that ical.js and node-ical both read, cancelled appointments as STATUS:CANCELLED with the mails' UID and
 * SEQUENCE, 304 on ETag and Last-Modified, 404 for a wrong or replaced secret, and a throttle of wrong ones.
 */

import { DatabaseSync } from 'node:sqlite';
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliOk, serve, snapshot, tempDb } from '../helpers.ts';
import { expectThrottled } from './throttled.ts';

describe('planner feed url and the feed', () => {
  it('serves the schedule’s bookings to two independent parsers, with 304s, and nothing for a replaced URL', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    await cliOk(db, 'reminders', 'set', 'off');
    const server = await serve(db);

    // Without a public URL: refused in one line, nothing written.
    const before = snapshot(db);
    const none = await cli(db, 'feed', 'url', '1');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/give the public address with --url/);
    expect((await cli(db, 'feed', 'url', '1', '--url', 'http://calendar.example')).stderr).toMatch(
      /--url must start with https:\/\//,
    );
    expect((await cli(db, 'feed', 'url', '9', '--url', server.url)).code).toBe(1);
    expect(snapshot(db)).toEqual(before);

    const made = await cliOk(db, 'feed', 'url', '1', '--url', server.url);
    const url = made.split('\n')[0]!;
    expect(url).toMatch(new RegExp(`^${server.url.replaceAll('.', '\\.')}/feed/[A-Za-z0-9_-]{43}\\.ics$`));
    const again = await cli(db, 'feed', 'url', '1', '--url', server.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^planner: schedule 1 has a feed URL since \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin; it is shown only when made: pass --rotate/,
    ); // the time in the practice's zone, as every time a person reads
    expect(JSON.stringify(snapshot(db))).not.toContain(url.split('/feed/')[1]!.slice(0, 43)); // only its hash is stored

    // Two bookings, one then cancelled.
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
    const book = (slot: string, name: string) =>
      api(server.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schedule: 1,
          reason: 1,
          slot,
          submission: {
            first_name: name,
            last_name: 'Lovelace',
            email: `${name.toLowerCase()}@example.com`,
            phone: '+44 20 7946 0000',
          },
        }),
      });
    const ada = (await book(slots[0]!, 'Ada')).body;
    const grace = (await book(slots[1]!, 'Grace')).body;
    await cliOk(db, 'bookings', 'cancel', grace.booking_details_id, '--no-notify');

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const text = await response.text();

    // ical.js
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event));
    const state = (event: ICAL.Event) =>
      ['status', 'transp'].map((name) => event.component.getFirstPropertyValue(name));
    expect(events.map((event) => [event.uid, event.sequence, ...state(event)])).toEqual([
      [`${ada.booking_details_id}@planner`, 0, 'CONFIRMED', 'OPAQUE'],
      // Free time, also in an app that ignores STATUS.
      [`${grace.booking_details_id}@planner`, 1, 'CANCELLED', 'TRANSPARENT'],
    ]);
    expect(events[0]!.summary).toBe('Check-up – Ada Lovelace');
    // Every form field, with the form's labels (issue 24, item 11); a cancelled event's title says so.
    expect(events[0]!.description).toBe(
      `Reference: ${ada.booking_details_id}\nFirst name: Ada\nLast name: Lovelace\nE-mail: ada@example.com\nPhone: +44 20 7946 0000`,
    );
    expect(events[1]!.summary).toBe('Cancelled: Check-up – Grace Lovelace');
    expect(events[0]!.startDate.toJSDate().toISOString()).toBe(ada.slot.replace('Z', '.000Z'));
    // node-ical, a second, independent parser
    const parsed = Object.values(nodeIcal.sync.parseICS(text)).filter((entry) => entry?.type === 'VEVENT') as any[];
    expect(parsed.map((event) => [event.uid, Number(event.sequence), event.status])).toEqual([
      [`${ada.booking_details_id}@planner`, 0, 'CONFIRMED'],
      [`${grace.booking_details_id}@planner`, 1, 'CANCELLED'],
    ]);
    expect(new Date(parsed[0].start).toISOString()).toBe(ada.slot.replace('Z', '.000Z'));

    // 304 on the ETag and on Last-Modified; a change makes a new ETag.
    const etag = response.headers.get('etag')!;
    const lastModified = response.headers.get('last-modified')!;
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(url, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    await cliOk(db, 'bookings', 'cancel', ada.booking_details_id, '--no-notify');
    const changed = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);

    // --rotate: the old URL is gone at once; the new one works.
    const rotated = (await cliOk(db, 'feed', 'url', '1', '--rotate', '--url', server.url)).split('\n')[0]!;
    expect(rotated).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(rotated)).status).toBe(200);
    await server.waitFor(/ GET \/feed\/… 404 /); // the access log is buffered (issue 39): written within 100 ms
    expect(server.output()).not.toContain(url.split('/feed/')[1]!);
    expect(server.output()).toContain('/feed/…');

    // Wrong secrets are throttled per address: 20 a minute (one was the replaced URL above), then 429 (with the
    // headers every 429 has); the real URL still opens every time, while the guessing goes on (issue 23, finding 5).
    const statuses: number[] = [];
    for (let n = 0; n < 21; n++)
      statuses.push((await fetch(`${server.url}/feed/${String(n).padStart(43, 'x')}.ics`)).status);
    expect(statuses.slice(0, 19)).toEqual(Array(19).fill(404));
    expect(statuses.slice(19)).toEqual([429, 429]);
    const throttled = await fetch(`${server.url}/feed/${'y'.repeat(43)}.ics`);
    expect(await throttled.text()).toBe('Too Many Requests\n');
    expectThrottled(throttled.headers, 'unknown-link', 20);
    const mixed: number[] = [];
    for (let n = 0; n < 20; n++)
      mixed.push((await fetch(n % 4 === 0 ? rotated : `${server.url}/feed/${String(n).padStart(43, 'z')}.ics`)).status);
    expect(mixed).toEqual(Array.from({ length: 20 }, (_, n) => (n % 4 === 0 ? 200 : 429)));
  });

  it("follows the installation's language; the practice's address is each event's location (issue 24, items 10 and 11)", async () => {
    const db = tempDb();
    const token = await bookableDb(db, { locale: 'de' });
    await cliOk(db, 'practice', 'set', '--address', 'Hauptstraße 1, 10115 Berlin');
    await cliOk(db, 'field', 'add', 'versicherung', '--label', 'Versicherung');
    const server = await serve(db, {}, ['--log', 'off']);
    const url = (await cliOk(db, 'feed', 'url', '1', '--url', server.url)).split('\n')[0]!;
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slot = (
      (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[]
    )[0]!;
    const submission = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', versicherung: 'privat' };
    const body = JSON.stringify({ schedule: 1, reason: 1, slot, submission });
    const booked = (
      await api(server.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
    ).body;
    await cliOk(db, 'bookings', 'cancel', booked.booking_details_id, '--no-notify');
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(await (await fetch(url)).text())).getFirstSubcomponent('vevent')!,
    );
    expect(event.summary).toBe('Abgesagt: Check-up – Ada Lovelace');
    expect(event.description).toBe(
      `Buchungsnummer: ${booked.booking_details_id}\nVorname: Ada\nNachname: Lovelace\nE-Mail: ada@example.com\nVersicherung: privat`,
    );
    expect(event.location).toBe('Test Practice, Hauptstraße 1, 10115 Berlin');
  });

  it('a reason renamed: a client with only If-Modified-Since gets the new text (issue 23, finding 8)', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db, {}, ['--log', 'off']);
    const url = (await cliOk(db, 'feed', 'url', '1', '--url', server.url)).split('\n')[0]!;
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slot = (
      (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[]
    )[0]!;
    const submission = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
    const body = JSON.stringify({ schedule: 1, reason: 1, slot, submission });
    expect(
      (
        await api(server.url, '/api/bookings', token, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(201);
    const first = await fetch(url);
    const text = await first.text();
    expect(text).toContain('Check-up – Ada Lovelace');
    // How often a subscriber should look again (issue 38): Outlook and Apple honour it, Google ignores it.
    expect(text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\nX-PUBLISHED-TTL:PT15M\r\n');
    const lastModified = first.headers.get('last-modified')!;
    expect((await fetch(url, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    await cliOk(db, 'reason', 'set', '1', '--name', 'Follow-up');
    const renamed = await fetch(url, { headers: { 'if-modified-since': lastModified } });
    expect(renamed.status).toBe(200); // was 304: the old name kept
    expect(await renamed.text()).toContain('Follow-up');
    const now = renamed.headers.get('last-modified'); // none when the rename came within the same second
    if (now !== null) expect(Date.parse(now)).toBeGreaterThan(Date.parse(lastModified));
    expect((await fetch(url, { headers: { 'if-none-match': '*' } })).status).toBe(304); // finding 9
  });

  it('writes every line break of a value as \\n in the feed and the mails’ .ics: no bare CR or LF (issue 23, finding 10)', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    await cliOk(db, 'field', 'set', 'first_name', '--form', 'textarea');
    await cliOk(db, 'field', 'set', 'last_name', '--form', 'textarea');
    const server = await serve(db, {}, ['--log', 'off']);
    const url = (await cliOk(db, 'feed', 'url', '1', '--url', server.url)).split('\n')[0]!;
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slot = (
      (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[]
    )[0]!;
    const firstName = 'Eve\rX-INJECTED:cr';
    const lastName = 'A\nX-INJECTED:lf\r\nB\u2028C\u2029D\u0085E';
    const booked = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot,
        submission: { first_name: firstName, last_name: lastName, email: 'eve@example.com' },
      }),
    });
    expect(booked.status).toBe(201);
    const feed = await (await fetch(url)).text();
    const handle = new DatabaseSync(db, { readOnly: true, timeout: 5000 });
    const mails = handle.prepare('SELECT kind, body FROM outbox WHERE booking_id = ?').all(booked.body.booking_id) as {
      kind: string;
      body: string;
    }[];
    handle.close();
    const confirmation = JSON.parse(mails.find((mail) => mail.kind === 'confirmation')!.body).ics as string;
    for (const ics of [feed, confirmation]) {
      expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n\u0085\u2028\u2029]/); // every line ends CRLF, and nothing else breaks one
      expect(ics.split('\r\n').some((line) => line.startsWith('X-INJECTED'))).toBe(false);
    }
    const event = new ICAL.Component(ICAL.parse(feed)).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe('Check-up – Eve\nX-INJECTED:cr A\nX-INJECTED:lf\nB\nC\nD\nE');
    const parsed = Object.values(nodeIcal.sync.parseICS(feed)).find((entry) => entry?.type === 'VEVENT') as {
      summary: string;
    };
    expect(parsed.summary).toContain('Eve');
    const attendee = new ICAL.Component(ICAL.parse(confirmation))
      .getFirstSubcomponent('vevent')!
      .getFirstProperty('attendee')!;
    // A parameter value keeps its lines as RFC 6868's ^n: nothing breaks the line it is on.
    expect(attendee.getParameter('cn')).toBe('Eve\nX-INJECTED:cr A\nX-INJECTED:lf\nB\nC\nD\nE');
  });
});
