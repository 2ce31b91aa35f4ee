/**
 * Through the real CLI and server: every booking written into the practitioner's own calendar, a real CalDAV
 * server (Debian's Radicale, started per test). Each test reads the calendar back with a REPORT and parses every
 * event with ical.js: exactly the expected events, with the booking's UID, SEQUENCE, times and text, and no
 * METHOD, ORGANIZER or ATTENDEE (no server sends an invitation).
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { links, pageSetup, post, toReview } from '../booking-page/flow.ts';
import {
  api,
  apiBook,
  bookableDb,
  cli,
  cliJson,
  cliOk,
  fieldArgs,
  type ServerProcess,
  serve,
  tempDb,
} from '../helpers.ts';
import { formFields, moveForm, offeredSlots, page, postForm } from '../portal/page.ts';
import { addRadicale, type Radicale, startRadicale } from './radicale.ts';

/** An event of the calendar as a person's app would show it. */
interface Shown {
  name: string;
  uid: string;
  sequence: number;
  start: string;
  end: string;
  summary: string;
  description: string;
  location: string;
  status: string;
  /** Properties that must never be there: METHOD, ORGANIZER, ATTENDEE. */
  forbidden: string[];
}

/** The calendar's events, read back and parsed by ical.js, by start. */
async function shown(radicale: Radicale): Promise<Shown[]> {
  const events = await radicale.events();
  return events
    .map(({ name, ics }) => {
      const calendar = new ICAL.Component(ICAL.parse(ics) as unknown as unknown[]);
      const event = calendar.getFirstSubcomponent('vevent')!;
      const time = (property: string) => (event.getFirstPropertyValue(property) as ICAL.Time).toJSDate().toISOString();
      return {
        name,
        uid: String(event.getFirstPropertyValue('uid')),
        sequence: Number(event.getFirstPropertyValue('sequence')),
        start: time('dtstart'),
        end: time('dtend'),
        summary: String(event.getFirstPropertyValue('summary')),
        description: String(event.getFirstPropertyValue('description')),
        location: String(event.getFirstPropertyValue('location') ?? ''),
        status: String(event.getFirstPropertyValue('status')),
        forbidden: [
          ...calendar.getAllProperties('method'),
          ...event.getAllProperties('organizer'),
          ...event.getAllProperties('attendee'),
        ].map((p) => p.name),
      };
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/** Waits (bounded: 15 s) until `check` holds for the calendar's events, and returns them. */
async function eventually(radicale: Radicale, check: (events: Shown[]) => boolean): Promise<Shown[]> {
  let events: Shown[] = [];
  for (const started = Date.now(); Date.now() - started < 15_000; ) {
    events = await shown(radicale);
    if (check(events)) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return events;
}

/** A server on a bookable file whose calendar 1 (Radicale) receives the bookings of schedule 1. */
async function writingSetup(
  env: Record<string, string> = {},
): Promise<{ radicale: Radicale; db: string; token: string; server: ServerProcess; days: string[] }> {
  const radicale = await startRadicale();
  const db = tempDb();
  const token = await bookableDb(db);
  await cliOk(db, 'practice', 'set', '--address', 'Hauptstraße 1, 10115 Berlin');
  const added = await addRadicale(db, radicale, '--name', 'Anna', '--write-bookings', '--details', 'full');
  expect(added).toMatchObject({ code: 0, stderr: '' });
  expect(added.stdout).toContain(
    'It receives every booking of schedule 1 from now on; its upcoming bookings: 0 event(s) written.',
  );
  const server = await serve(db, { PLANNER_CALENDAR_RETRY_SECONDS: '0.2', ...env });
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  return { radicale, db, token, server, days };
}

/** Books `slot` through the API; returns the reference. */
async function book(server: ServerProcess, token: string, slot: string, name = 'Ada'): Promise<string> {
  const answer = await apiBook(server.url, token, slot, {
    first_name: name,
    last_name: 'Lovelace',
    email: `${name.toLowerCase()}@example.com`,
  });
  expect(answer.status).toBe(201);
  return answer.body.booking_details_id as string;
}

/** The UTC ISO instant of a local Berlin `YYYY-MM-DD HH:MM` (the test practice's zone). */
function utc(local: string): string {
  return new Date(new Date(`${local.replace(' ', 'T')}:00Z`).getTime() - berlinOffsetMs(local)).toISOString();
}
function berlinOffsetMs(local: string): number {
  const probe = new Date(`${local.replace(' ', 'T')}:00Z`);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(probe);
  return ((Number(parts) - probe.getUTCHours() + 24) % 24) * 3_600_000;
}

describe('every booking in the practitioner’s own calendar (issue 38, Radicale)', () => {
  it('API create, CLI move and cancel, CLI add, erase: each leaves exactly the expected events, UID, SEQUENCE, times and text', async () => {
    const { radicale, db, token, server, days } = await writingSetup();
    const day = days[2]!;
    const ada = await book(server, token, `${day} 10:00:00`);
    let events = await eventually(radicale, (list) => list.length === 1);
    expect(events).toEqual([
      {
        name: `planner-${ada.toLowerCase()}.ics`,
        uid: `${ada}@planner`,
        sequence: 0,
        start: utc(`${day} 10:00`),
        end: utc(`${day} 10:30`),
        summary: 'Check-up – Ada Lovelace',
        description: expect.stringContaining(`Reference: ${ada}`),
        location: 'Test Practice, Hauptstraße 1, 10115 Berlin',
        status: 'CONFIRMED',
        forbidden: [],
      },
    ]);
    expect(events[0]!.description).toContain('E-mail: ada@example.com');

    // Moved: the same resource, a higher SEQUENCE, the new time; still one event.
    await cliOk(db, 'bookings', 'move', ada, `${day} 11:00`);
    events = await eventually(radicale, (list) => list.length === 1 && list[0]!.sequence === 1);
    expect(events).toEqual([
      expect.objectContaining({
        uid: `${ada}@planner`,
        sequence: 1,
        start: utc(`${day} 11:00`),
        end: utc(`${day} 11:30`),
      }),
    ]);

    // A booking made by the admin, another by the API: three, then the cancelled one leaves the calendar.
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 14:00`,
      ...fieldArgs({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }),
      '--json',
    );
    const ben = await book(server, token, `${day} 15:00:00`, 'Ben');
    events = await eventually(radicale, (list) => list.length === 3);
    expect(events.map((event) => event.uid)).toEqual([`${ada}@planner`, `${made.reference}@planner`, `${ben}@planner`]);
    await cliOk(db, 'bookings', 'cancel', ada, '--no-notify');
    events = await eventually(radicale, (list) => list.length === 2);
    expect(events.map((event) => event.uid)).toEqual([`${made.reference}@planner`, `${ben}@planner`]);

    // Erased: the practitioner's calendar does not keep a name planner was asked to forget.
    const erased = await cli(db, 'customer', 'erase', 'grace@example.com', '--yes', '--no-notify');
    expect(erased).toMatchObject({ code: 0 });
    events = await eventually(radicale, (list) => list.length === 1);
    expect(events.map((event) => event.uid)).toEqual([`${ben}@planner`]);
    expect(JSON.stringify(await radicale.events())).not.toContain('Grace');

    // The practitioner's events never block: the read side leaves planner's own UIDs out.
    const synced = await cliJson(db, 'calendar', 'sync', '1', '--json');
    expect(synced).toEqual([expect.objectContaining({ ok: true })]);
    expect(await cliJson(db, 'calendar', 'busy', '1', '--from', day, '--days', '1', '--json')).toEqual([]);
    await server.stop();
  }, 120_000);
});

describe('never lost, never twice (issue 38, Radicale)', () => {
  it('Radicale stopped: bookings succeed at once; a create, a move and a cancel made meanwhile end, once it is back, as the bookings are', async () => {
    const { radicale, db, token, server, days } = await writingSetup();
    const day = days[2]!;
    const kept = await book(server, token, `${day} 09:00:00`, 'Kept');
    await eventually(radicale, (list) => list.length === 1);
    await radicale.stop();
    const ada = await book(server, token, `${day} 10:00:00`, 'Ada');
    const ben = await book(server, token, `${day} 11:00:00`, 'Ben');
    await cliOk(db, 'bookings', 'move', ben, `${day} 12:00`, '--no-notify');
    await cliOk(db, 'bookings', 'move', kept, `${day} 13:00`, '--no-notify');
    await cliOk(db, 'bookings', 'cancel', ada, '--no-notify'); // created and cancelled while down: never written
    const waiting = await cliJson(db, 'calendar', 'list', '--json');
    expect(waiting[0].writing).toMatchObject({ waiting: 3 });
    // Never silent: once a write has failed, calendar list, status and doctor say so, with the error and since when.
    await server.waitFor(/planner: calendar 1: the write of booking \d+ not delivered, next try/);
    const failing = await cliJson(db, 'calendar', 'list', '--json');
    expect(failing[0].writing).toMatchObject({
      state: 'failing',
      failingSince: expect.any(String),
      lastError: expect.stringMatching(/could not reach 127\.0\.0\.1:\d+: ECONNREFUSED/),
      stuck: false,
    });
    expect(await cliOk(db, 'status')).toMatch(
      /calendars +1 Anna \(schedule 1, caldav\) · .* · WRITES FAILING since \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin: \d booking change\(s\) not in the calendar: could not reach/,
    );
    const doctor = await cli(db, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^fail +calendar 1 writes +Anna: \d booking change\(s\) not written since .*: could not reach .*ECONNREFUSED; planner retries them/m,
    );
    await radicale.start();
    const events = await eventually(
      radicale,
      (list) => list.length === 2 && list.every((event) => event.sequence === 1),
    );
    expect(events.map(({ uid, sequence, start }) => ({ uid, sequence, start }))).toEqual([
      { uid: `${ben}@planner`, sequence: 1, start: utc(`${day} 12:00`) },
      { uid: `${kept}@planner`, sequence: 1, start: utc(`${day} 13:00`) },
    ]);
    const after = await cliJson(db, 'calendar', 'list', '--json');
    expect(after[0].writing).toMatchObject({ waiting: 0, state: 'ok' });
    await server.stop();
  }, 120_000);

  it('an event changed and deleted in the calendar (as a person would in an app), then the booking moved: one event, planner’s state', async () => {
    const { radicale, db, token, server, days } = await writingSetup();
    const day = days[2]!;
    const ada = await book(server, token, `${day} 10:00:00`);
    let [event] = await eventually(radicale, (list) => list.length === 1);
    const [stored] = await radicale.events();
    // Changed in an app: a new title and time, so a new ETag.
    await radicale.put(
      event!.name,
      stored!.ics
        .replace(/SUMMARY:[^\r\n]*/, 'SUMMARY:Edited by hand')
        .replace(/DTSTART:\d{8}T\d{6}Z/, 'DTSTART:20300101T090000Z')
        .replace(/DTEND:\d{8}T\d{6}Z/, 'DTEND:20300101T100000Z'),
    );
    await cliOk(db, 'bookings', 'move', ada, `${day} 11:00`, '--no-notify');
    let events = await eventually(
      radicale,
      (list) => list.length === 1 && list[0]!.summary !== 'Edited by hand' && list[0]!.sequence === 1,
    );
    expect(events).toEqual([
      expect.objectContaining({
        name: event!.name,
        uid: `${ada}@planner`,
        sequence: 1,
        summary: 'Check-up – Ada Lovelace',
        start: utc(`${day} 11:00`),
      }),
    ]);
    // What the calendar showed, and what planner wrote over it (Berlin: 09:00Z is 10:00).
    await server.waitFor(
      new RegExp(
        `calendar 1 \\(Anna\\): the event of booking ${ada} had been changed in the calendar \\(it showed 2030-01-01 10:00–11:00\\); planner wrote its own over it \\(${day} 11:00–11:30\\)`,
      ),
    );
    // Deleted in an app: the next change writes it again, once.
    [event] = events;
    await radicale.remove(event!.name);
    await cliOk(db, 'bookings', 'move', ada, `${day} 12:00`, '--no-notify');
    events = await eventually(radicale, (list) => list.length === 1 && list[0]!.sequence === 2);
    expect(events).toEqual([
      expect.objectContaining({ name: event!.name, uid: `${ada}@planner`, sequence: 2, start: utc(`${day} 12:00`) }),
    ]);
    await server.waitFor(
      new RegExp(
        `the event of booking ${ada} had been removed from the calendar; planner wrote it again \\(${day} 12:00–12:30\\)`,
      ),
    );
    await server.stop();
  }, 120_000);

  it('planner serve killed with SIGKILL during 50 bookings: after the restart, exactly one event for each booking in the file', async () => {
    const { radicale, db, token, server, days } = await writingSetup();
    const slots: string[] = [];
    for (const day of days.slice(1, 6))
      slots.push(
        ...((await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[]).slice(
          0,
          10,
        ),
      );
    expect(slots.length).toBe(50);
    let answered = 0;
    const bookings = slots.map(async (slot, index) => {
      const answer = await fetch(`${server.url}/api/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          schedule: 1,
          reason: 1,
          slot,
          submission: { first_name: `P${index}`, last_name: 'Test', email: `p${index}@example.com` },
        }),
      }).catch(() => undefined);
      if (answer?.status === 201) answered++;
      if (answered === 20) server.child.kill('SIGKILL'); // in the middle: bookings made, writes queued and being written
    });
    await Promise.all(bookings);
    await server.stop();
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(db);
    const references = (
      file.prepare("SELECT reference FROM bookings WHERE status = 'booked' ORDER BY reference").all() as {
        reference: string;
      }[]
    ).map((row) => `${row.reference}@planner`);
    // A write the killed server was making stays leased to it for 120 s (it writes one at a time), then any server
    // takes it over: the test expires the lease in the file, as time would.
    const leased = file
      .prepare("UPDATE calendar_writes SET lease_until = 0 WHERE status = 'pending' AND lease_until > unixepoch()")
      .run().changes;
    file.close();
    expect(leased).toBeLessThanOrEqual(1);
    expect(references.length).toBeGreaterThanOrEqual(20);
    const again = await serve(db, { PLANNER_CALENDAR_RETRY_SECONDS: '0.2' });
    const events = await eventually(radicale, (list) => list.length >= references.length);
    expect(events.map((event) => event.uid).sort()).toEqual(references);
    expect(new Set((await radicale.events()).map((event) => event.name)).size).toBe(references.length);
    await again.stop();
  }, 120_000);
});

describe('every door writes (issue 38, Radicale)', () => {
  it('the booking page books, and the self-service page moves and cancels: each in the calendar', async () => {
    const radicale = await startRadicale();
    const s = await pageSetup({
      env: { PLANNER_CALENDAR_RETRY_SECONDS: '0.2' },
      more: async (db) => {
        const added = await addRadicale(db, radicale, '--write-bookings');
        expect(added).toMatchObject({ code: 0, stderr: '' });
      },
    });
    const { review, slot } = await toReview(s);
    const done = await post(`${s.base}/book/confirm`, review);
    expect(done.status).toBe(200);
    const reference = /[23456789A-Z]{16}/.exec(links(done.html, '/book/event/')[0]!)![0];
    let events = await eventually(radicale, (list) => list.length === 1);
    expect(events).toEqual([
      expect.objectContaining({
        uid: `${reference}@planner`,
        sequence: 0,
        summary: 'Check-up – Maria', // a new calendar's details are minimal: the first name, not the whole name
        start: utc(slot.slice(0, 16)),
      }),
    ]);

    // The customer moves it on the self-service page: the same event, at the new time.
    const manage = links(done.html, `${s.base}/manage/`)[0]!;
    const day = slot.slice(0, 10);
    const times = offeredSlots((await page(`${manage}/reschedule?day=${day}`)).html);
    const to = times.find((one) => one !== slot)!;
    expect((await postForm(`${manage}/reschedule`, await moveForm(manage, to))).status).toBe(303);
    events = await eventually(radicale, (list) => list.length === 1 && list[0]!.sequence === 1);
    expect(events).toEqual([
      expect.objectContaining({ uid: `${reference}@planner`, sequence: 1, start: utc(to.slice(0, 16)) }),
    ]);

    // And cancels it: gone from the practitioner's calendar.
    const cancel = formFields((await page(`${manage}/cancel`)).html, '/cancel')!;
    expect((await postForm(`${manage}/cancel`, cancel)).status).toBe(303);
    events = await eventually(radicale, (list) => list.length === 0);
    expect(events).toEqual([]);
    await s.server.stop();
  }, 120_000);
});
