/**
 * Through the real CLI and server: the practitioner's calendar in a real CalDAV server (Debian's Radicale,
 * started per test on a free port) and as an .ics file on a plain HTTP server with ETags. An event added, moved or
 * deleted shows in GET /slots after `calendar sync`, and after the server's own interval without any command;
 * Radicale stopped, the sync fails in one line, `status` and `doctor` say so, and the busy times stay.
 */
import { describe, expect, it } from 'vitest';
import {
  api,
  bookableDb,
  cli,
  cliJson,
  cliOk,
  cliOnTerminal,
  cliWith,
  refused,
  serve,
  snapshot,
  tempDb,
} from '../helpers.ts';
import { startIcsServer } from './ics-server.ts';
import { addRadicale, startRadicale } from './radicale.ts';

/** An event of the practitioner's, at a local time of the installation's zone (Europe/Berlin, as IANA TZID without VTIMEZONE). */
function event(uid: string, local: string, minutes: number, extra = ''): string {
  const start = local.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2');
  const end = new Date(Date.parse(`${local.replace(' ', 'T')}Z`) + minutes * 60_000)
    .toISOString()
    .replace(/[-:]/g, '')
    .slice(0, 15);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner tests//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;TZID=Europe/Berlin:${start}`,
    `DTEND;TZID=Europe/Berlin:${end}`,
    'SUMMARY:Dentist (a title planner must never keep)',
    ...(extra ? [extra] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** The free slots of `day` through the API. */
async function slots(url: string, token: string, day: string): Promise<string[]> {
  return (await api(url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[];
}

/** A day with free times, a few days ahead (its 10:00, 11:00, 12:00, 13:00 and 14:00 free). */
async function quietDay(url: string, token: string): Promise<string> {
  const days = (await api(url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  return days[3]!;
}

describe('planner calendar with a real CalDAV server (Radicale)', () => {
  it('an event added, moved and deleted shows in /slots after calendar sync; Radicale stopped: one line, status says so, the busy times stay', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const day = await quietDay(server.url, token);
    await radicale.put('dentist.ics', event('dentist-1', `${day} 10:00:00`, 60));

    // Added with the password on standard input: synced once, caldav found by asking.
    const added = await addRadicale(db, radicale, '--name', 'Anna', '--json');
    expect(added.stderr).toBe('');
    expect(JSON.parse(added.stdout)).toMatchObject({
      id: 1,
      scheduleId: 1,
      label: 'Anna',
      kind: 'caldav',
      state: 'ok',
      busy: 1,
    });
    let free = await slots(server.url, token, day);
    expect(free).not.toContain(`${day} 10:00:00`);
    expect(free).not.toContain(`${day} 10:30:00`);
    expect(free).toContain(`${day} 09:30:00`);
    expect(free).toContain(`${day} 11:00:00`);
    const busy = await cliJson(db, 'calendar', 'busy', '1', '--from', day, '--days', '1', '--json');
    expect(busy).toEqual([
      expect.objectContaining({ calendarId: 1, calendar: 'Anna', start: `${day} 10:00`, end: `${day} 11:00` }),
    ]);

    // Moved to 13:00 in Radicale: after `calendar sync`, 10:00 is free again and 13:00 is not.
    await radicale.put('dentist.ics', event('dentist-1', `${day} 13:00:00`, 30));
    const synced = await cli(db, 'calendar', 'sync');
    expect(synced).toMatchObject({ code: 0, stderr: '' });
    expect(synced.stdout).toContain('Calendar 1 (Anna): synced, 1 busy time(s) added, 1 removed.');
    free = await slots(server.url, token, day);
    expect(free).toContain(`${day} 10:00:00`);
    expect(free).not.toContain(`${day} 13:00:00`);
    // Nothing changed: the ctag says so, nothing is written.
    expect((await cliOk(db, 'calendar', 'sync', '1')).trim()).toBe('Calendar 1 (Anna): synced, nothing changed.');

    // Deleted: free again.
    await radicale.remove('dentist.ics');
    await cliOk(db, 'calendar', 'sync', '1');
    expect(await slots(server.url, token, day)).toContain(`${day} 13:00:00`);

    // A booking at 14:00, then an event over it: planner leaves the booking, and names it, its customer and reason.
    const booked = await api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: `${day} 14:00:00`,
        submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
      }),
    });
    expect(booked.status).toBe(201);
    await radicale.put('meeting.ics', event('meeting-1', `${day} 14:00:00`, 30, 'STATUS:TENTATIVE'));
    const conflict = await cliOk(db, 'calendar', 'sync');
    expect(conflict).toContain('1 upcoming booking(s) overlap a busy time');
    expect(conflict).toContain(
      `${booked.body.booking_details_id}  ${day} 14:00  Ada L, Check-up  schedule 1  calendar 1`,
    );
    expect(await cliOk(db, 'status')).toContain(
      `1 upcoming booking(s) overlap a busy time: ${booked.body.booking_details_id} (Ada L, Check-up)`,
    );
    expect((await cli(db, 'doctor')).stdout).toContain(
      `1 upcoming booking(s) overlap a busy time: ${booked.body.booking_details_id} (Ada L, Check-up)`,
    );

    // Radicale stopped: one line, exit 1; status and doctor say so; the busy time of 14:00 still blocks.
    await radicale.stop();
    const before = snapshot(db).busy_times;
    const failed = await cli(db, 'calendar', 'sync');
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr).toMatch(
      /^planner: calendar 1 \(Anna\) could not be synced: .*127\.0\.0\.1.*; its last busy times still block/,
    );
    expect(snapshot(db).busy_times).toEqual(before);
    const status = await cliOk(db, 'status');
    expect(status).toMatch(
      /calendars +1 Anna \(schedule 1, caldav\) · FAILING since \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin: .* · its last busy times still block; fix the address or password, then planner calendar sync 1/,
    );
    const doctor = await cli(db, 'doctor');
    expect(doctor.stdout).toMatch(/calendar 1.*Anna: failing since/);
    const listed = await cliJson(db, 'calendar', 'list', '--json');
    expect(listed[0]).toMatchObject({ state: 'failing', busy: 1 });
    expect(await cliJson(db, 'calendar', 'busy', '1', '--from', day, '--days', '1', '--json')).toEqual([
      expect.objectContaining({ calendarId: 1, start: `${day} 14:00`, end: `${day} 14:30` }),
    ]);

    // The password appears in no output and no log line.
    for (const text of [status, doctor.stdout, doctor.stderr, failed.stderr, JSON.stringify(listed), server.output()])
      expect(text).not.toContain(radicale.password);
  }, 120_000);

  it('planner serve syncs on its own at the calendar’s interval, and picks up a calendar added while it runs', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const day = await quietDay(server.url, token);
    await cliWith(
      db,
      { env: { PLANNER_CALENDAR_PASSWORD: radicale.password } },
      'calendar',
      'add',
      '1',
      radicale.url,
      '--user',
      radicale.user,
      '--allow-insecure',
      '--every',
      '1',
    ).then((result) => {
      expect(result).toMatchObject({ code: 0, stderr: '' });
    });
    await radicale.put('late.ics', event('late-1', `${day} 15:00:00`, 30));
    // No command: the server's own sync, within its minute (and its 5 s look for due calendars, the first of which
    // starts the calendar workers: the server had none when it started), which it logs.
    await server.waitFor(/planner: calendar 1 \(127\.0\.0\.1\): 1 busy time\(s\) added, 0 removed/);
    const free = await slots(server.url, token, day);
    expect(free).not.toContain(`${day} 15:00:00`);
    expect(free).toContain(`${day} 14:30:00`);
  }, 120_000);

  it('on a terminal, asks for the password with a masked prompt, and the password is never on the screen', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    await bookableDb(db);
    const terminal = cliOnTerminal(
      db,
      'calendar',
      'add',
      '1',
      radicale.url,
      '--user',
      radicale.user,
      '--allow-insecure',
      '--name',
      'Anna',
    );
    await terminal.answer(`Password of ${radicale.user} for the calendar`, `${radicale.password}\r`);
    expect(await terminal.exited).toBe(0);
    expect(terminal.screen()).not.toContain(radicale.password);
    expect(terminal.screen()).toContain('*'.repeat(radicale.password.length));
    expect((await cliJson(db, 'calendar', 'list', '--json'))[0]).toMatchObject({
      label: 'Anna',
      kind: 'caldav',
      state: 'ok',
    });
  }, 60_000);
});

describe('planner calendar with an .ics address', () => {
  it('adds it (ics found by asking), fetches again with If-None-Match and gets 304, and removes it', async () => {
    const ics = await startIcsServer();
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const day = await quietDay(server.url, token);
    ics.set('/anna/private-0123456789abcdef0123456789abcdef/basic.ics', event('g-1', `${day} 12:00:00`, 60));
    const url = `${ics.url}/anna/private-0123456789abcdef0123456789abcdef/basic.ics`;
    const added = await cliOk(db, 'calendar', 'add', '1', url, '--allow-insecure');
    expect(added).toMatch(/^Calendar 1 \(127\.0\.0\.1, ics, .*\) added to schedule 1: 1 busy time\(s\)/);
    expect(added).not.toContain('0123456789abcdef0123456789abcdef'); // the secret part, masked
    expect(await slots(server.url, token, day)).not.toContain(`${day} 12:30:00`);
    expect((await cliOk(db, 'calendar', 'sync', '1')).trim()).toBe('Calendar 1 (127.0.0.1): synced, nothing changed.');
    expect(ics.requests.at(-1)!.headers['if-none-match']).toBeTruthy();
    expect(ics.requests.at(-1)!.status).toBe(304);
    expect((await cliOk(db, 'calendar', 'remove', '1')).trim()).toBe(
      'Calendar 1 (127.0.0.1) removed: its busy times no longer block.',
    );
    expect(await slots(server.url, token, day)).toContain(`${day} 12:30:00`);
  }, 60_000);

  it('refuses in one line and writes nothing: http without --allow-insecure, a wrong password, a broken file, --every 0, an unknown schedule', async () => {
    const ics = await startIcsServer();
    const radicale = await startRadicale();
    const db = tempDb();
    await bookableDb(db);
    ics.set('/broken.ics', 'this is not a calendar');
    const cases: [string[], { input?: string; env?: Record<string, string> }, RegExp][] = [
      [['calendar', 'add', '1', `${ics.url}/broken.ics`], {}, /^planner: .*(https|--allow-insecure)/],
      [
        ['calendar', 'add', '1', `${ics.url}/broken.ics`, '--allow-insecure'],
        {},
        /^planner: the calendar could not be read, nothing was added: /,
      ],
      [
        ['calendar', 'add', '1', radicale.url, '--user', radicale.user, '--password-stdin', '--allow-insecure'],
        { input: 'wrong\n' },
        /^planner: the calendar could not be read, nothing was added: .*401/,
      ],
      [
        ['calendar', 'add', '1', `${ics.url}/broken.ics`, '--allow-insecure', '--every', '0'],
        {},
        /^planner: --every must be from 1 to 1440 minutes \(got 0\)/,
      ],
      [
        ['calendar', 'add', '7', `${ics.url}/broken.ics`, '--allow-insecure'],
        {},
        /^planner: schedule 7 does not exist/,
      ],
      [['calendar', 'add', '1', 'webcal://10.0.0.1/cal.ics'], {}, /^planner: .*--allow-insecure/],
      [['calendar', 'sync', '3'], {}, /^planner: calendar 3 does not exist/],
      [['calendar', 'busy', '1', '--from', '2026-02-30'], {}, /^planner: --from must be a day, YYYY-MM-DD/],
    ];
    for (const [args, options, message] of cases)
      expect(await refused(db, args, message, options)).not.toContain('wrong');
  }, 60_000);
});
