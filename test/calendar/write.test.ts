/**
 * Issue 38 through the real CLI and server: every booking written into the practitioner's own calendar, a real CalDAV
 * server (Debian's Radicale, started per test). Each test reads the calendar back with a REPORT and parses every
 * event with ical.js: exactly the expected events, with the booking's UID, SEQUENCE, times and text, and no
 * METHOD, ORGANIZER or ATTENDEE (no server sends an invitation).
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliJson, cliOk, cliWith, serve, tempDb, type ServerProcess } from '../helpers.ts';
import { startRadicale, type Radicale } from './radicale.ts';

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
        forbidden: [...calendar.getAllProperties('method'), ...event.getAllProperties('organizer'), ...event.getAllProperties('attendee')].map((p) => p.name),
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
async function writingSetup(env: Record<string, string> = {}): Promise<{ radicale: Radicale; db: string; token: string; server: ServerProcess; days: string[] }> {
  const radicale = await startRadicale();
  const db = tempDb();
  const token = await bookableDb(db);
  await cliOk(db, 'practice', 'set', '--address', 'Hauptstraße 1, 10115 Berlin');
  const added = await cliWith(db, { input: `${radicale.password}\n` }, 'calendar', 'add', '1', radicale.url, '--user', radicale.user, '--password-stdin', '--allow-insecure', '--name', 'Anna', '--write-bookings');
  expect(added).toMatchObject({ code: 0, stderr: '' });
  expect(added.stdout).toContain('It receives every booking of schedule 1 from now on; its upcoming bookings: 0 event(s) written.');
  const server = await serve(db, { PLANNER_CALENDAR_RETRY_SECONDS: '0.2', ...env });
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  return { radicale, db, token, server, days };
}

/** Books `slot` through the API; returns the reference. */
async function book(server: ServerProcess, token: string, slot: string, name = 'Ada'): Promise<string> {
  const answer = await api(server.url, '/api/bookings', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ schedule: 1, reason: 1, slot, submission: { first_name: name, last_name: 'Lovelace', email: `${name.toLowerCase()}@example.com` } }),
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
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(probe);
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
    expect(events).toEqual([expect.objectContaining({ uid: `${ada}@planner`, sequence: 1, start: utc(`${day} 11:00`), end: utc(`${day} 11:30`) })]);

    // A booking made by the admin, another by the API: three, then the cancelled one leaves the calendar.
    const made = await cliJson(db, 'bookings', 'add', '1', '1', `${day} 14:00`, '--field', 'first_name=Grace', '--field', 'last_name=Hopper', '--field', 'email=grace@example.com', '--json');
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
