/**
 * Never silent, never wrong, with the clock in the test's hand: a calendar that cannot be read keeps
 * its busy times and is marked failing at once; after an hour of failing the practice is mailed once, and once
 * more when it reads again, whatever the fault (a status, not iCalendar, a file cut off, no answer, too large). The
 * calendar is served by a real HTTP server; the sync is planner's own code.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { calendars } from '../../src/app/calendars/calendar-views.ts';
import { addCalendar, syncCalendars } from '../../src/app/calendars/calendars.ts';
import { unsentMessages } from '../../src/store/outbox.ts';
import { practice } from '../practice.ts';
import { startIcsServer } from './ics-server.ts';

const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//planner tests//EN',
  'BEGIN:VEVENT',
  'UID:seminar-1',
  'DTSTAMP:20261101T000000Z',
  'DTSTART:20261203T090000Z',
  'DTEND:20261203T170000Z',
  'SUMMARY:Seminar',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('a calendar that cannot be read (issue 25)', () => {
  it('keeps its busy times, is failing at once, mails the practice once after an hour and once when it reads again', async () => {
    const ics = await startIcsServer();
    ics.set('/anna.ics', CALENDAR);
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx } = practice({ clock });
    const added = await addCalendar(ctx, 1, `${ics.url}/anna.ics`, { label: 'Anna', allowInsecure: true });
    expect(added).toMatchObject({ state: 'ok', busy: 1 });
    const busyRows = () => store.db.prepare('SELECT start_at, end_at FROM busy_times ORDER BY start_at').all();
    const kept = busyRows();
    const mails = () => unsentMessages(store).filter((message) => message.bookingId === null);

    const faults = [
      ['status 500', () => ics.fail('/anna.ics', 500), {}, /answered HTTP 500$/],
      [
        'not a calendar',
        () => ics.set('/anna.ics', '<html>maintenance</html>'),
        {},
        /did not answer with iCalendar data \(text\/calendar, a web page, not beginning with BEGIN:VCALENDAR\): check the address$/,
      ],
      [
        'cut off',
        () => ics.set('/anna.ics', CALENDAR.slice(0, CALENDAR.indexOf('END:VEVENT'))),
        {},
        /^the calendar ends in the middle of a component: it was cut off/,
      ],
      ['time-out', () => ics.hang('/anna.ics'), { limits: { timeoutMs: 300 } }, /did not answer within 0\.3 s$/],
      [
        'too large',
        () => ics.set('/anna.ics', CALENDAR.replace('SUMMARY:Seminar', `SUMMARY:${'x'.repeat(2000)}`)),
        { limits: { maxBytes: 1000 } },
        /answered more than 1000 bytes: planner reads at most that much of a calendar$/,
      ],
      [
        'status 401',
        () => ics.fail('/anna.ics', 401),
        {},
        /refused the request without a login \(HTTP 401\): give --user and a password$/,
      ],
    ] as const;
    for (const [fault, make, options, line] of faults) {
      make();
      clock.now = new Date(clock.now.getTime() + 5 * 60_000);
      const [outcome] = await syncCalendars(ctx, 1, options);
      expect(outcome, fault).toMatchObject({ ok: false });
      expect(outcome!.error, fault).toMatch(line);
      expect(busyRows(), fault).toEqual(kept); // never turns busy into free
      expect(calendars(ctx)[0], fault).toMatchObject({
        state: 'failing',
        failingSince: '2026-12-01T08:05:00.000Z',
        busy: 1,
      });
    }
    expect(mails()).toEqual([]); // 25 minutes of failing: no mail yet

    clock.now = new Date('2026-12-01T09:04:59Z'); // 59:59 after the first failure
    await syncCalendars(ctx, 1);
    expect(mails()).toEqual([]);
    clock.now = new Date('2026-12-01T09:05:00Z'); // one hour
    await syncCalendars(ctx, 1);
    clock.now = new Date('2026-12-01T09:20:00Z');
    await syncCalendars(ctx, 1);
    expect(mails()).toHaveLength(1);
    const [alert] = mails();
    expect(alert).toMatchObject({
      kind: 'notice',
      recipient: 'desk@practice.example',
      subject: 'Calendar "Anna" cannot be read: new events in it do not block times',
    });
    expect(alert!.text).toContain('Since 2026-12-01 09:05 (Europe/Berlin),');
    expect(alert!.text).toContain('planner calendar sync 1');
    expect(alert!.text).not.toContain(ics.url);

    ics.set('/anna.ics', CALENDAR);
    clock.now = new Date('2026-12-01T09:30:00Z');
    const [back] = await syncCalendars(ctx, 1);
    expect(back).toMatchObject({ ok: true });
    expect(calendars(ctx)[0]).toMatchObject({ state: 'ok', failingSince: null, lastError: null });
    expect(mails().map((message) => message.subject)).toEqual([alert!.subject, 'Calendar "Anna" can be read again']);
    expect(busyRows()).toEqual(kept);
    store.close();
  });

  it('a CalDAV answer that withholds the events (free/busy-only sharing: 403 for calendar-data) fails the sync and keeps the busy times', async () => {
    let mode: 'ok' | 'forbidden' | 'cut short' = 'ok';
    let ctag = 1;
    const event = CALENDAR.replace(/\r\n/g, '\n').replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const caldav = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
        if (request.method === 'PROPFIND') {
          return response.end(
            `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>${ctag}</cs:getctag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
          );
        }
        const data =
          mode === 'ok'
            ? `<d:propstat><d:prop><d:getetag>"1"</d:getetag><c:calendar-data>${event}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>`
            : mode === 'forbidden'
              ? `<d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat><d:propstat><d:prop><c:calendar-data/></d:prop><d:status>HTTP/1.1 403 Forbidden</d:status></d:propstat>`
              : '';
        const own = mode === 'cut short' ? '<d:status>HTTP/1.1 507 Insufficient Storage</d:status>' : '';
        response.end(
          `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/seminar.ics</d:href>${data}${own}</d:response></d:multistatus>`,
        );
      });
    });
    caldav.listen(0, '127.0.0.1');
    await once(caldav, 'listening');
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx } = practice({ clock, schedules: [{ hours: {} }], reasons: [] });
    const url = `http://127.0.0.1:${(caldav.address() as AddressInfo).port}/cal/`;
    expect(await addCalendar(ctx, 1, url, { label: 'Anna', allowInsecure: true })).toMatchObject({
      kind: 'caldav',
      state: 'ok',
      busy: 1,
    });
    const busyRows = () => store.db.prepare('SELECT start_at, end_at FROM busy_times ORDER BY start_at').all();
    const kept = busyRows();
    for (const [fault, line] of [
      [
        'forbidden',
        /did not give the events' data \(HTTP 403\): planner needs to read the calendar, not its free\/busy only$/,
      ],
      ['cut short', /did not give every event \(HTTP 507 for one of them\)$/],
    ] as const) {
      mode = fault;
      ctag++;
      clock.now = new Date(clock.now.getTime() + 5 * 60_000);
      const [outcome] = await syncCalendars(ctx, 1);
      expect(outcome, fault).toMatchObject({ ok: false });
      expect(outcome!.error, fault).toMatch(line);
      expect(busyRows(), fault).toEqual(kept);
    }
    caldav.close();
    store.close();
  });
});
