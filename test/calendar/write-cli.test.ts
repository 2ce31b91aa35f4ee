/**
 * The writing commands: `calendar add --write-bookings` refuses an .ics address and a calendar it may not write
 * (one line, exit 1, nothing added); `calendar set` turns writing on (every upcoming booking written) and off (what
 * was written stays, or goes with --remove-written) and takes a new login only when the calendar reads with it;
 * `calendar remove` asks, or takes --keep-written / --remove-written. Real CLI processes, Radicale, and a CalDAV
 * server of the test's that lets planner read but not write.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import {
  bookableDb,
  cli,
  cliJson,
  cliOk,
  cliOnTerminal,
  cliWith,
  fieldArgs,
  onCleanup,
  refused,
  tempDb,
} from '../helpers.ts';
import { startIcsServer } from './ics-server.ts';
import { addRadicale, startRadicale } from './radicale.ts';

const CALENDAR = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'END:VCALENDAR', ''].join('\r\n');

/** A CalDAV collection that answers PROPFIND and REPORT (readable, empty) and refuses every PUT with 403. */
async function readOnlyCalDav(): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'PUT' || request.method === 'DELETE') return response.writeHead(403).end();
      response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
      if (request.method === 'PROPFIND') {
        return response.end(
          `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>1</cs:getctag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
        );
      }
      response.end('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"></d:multistatus>');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/`;
}

/** Books `count` appointments with the CLI on the third bookable day, 10:00 on; returns their references. */
async function bookSome(db: string, count: number): Promise<string[]> {
  const day = (await cliJson(db, 'slots', '1', '1', '--days', '7', '--json')).days.filter(
    (one: { slots: string[] }) => one.slots.length > 10,
  )[2].day as string;
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} ${10 + i}:00`,
      ...fieldArgs({ first_name: `P${i}`, last_name: 'Test', email: `p${i}@example.com` }),
      '--json',
    );
    references.push(made.reference as string);
  }
  return references;
}

describe('the commands of writing bookings into a calendar (issue 38)', () => {
  it('add --write-bookings refuses an .ics address and a calendar planner may not write: one line, nothing added', async () => {
    const ics = await startIcsServer();
    ics.set('/anna.ics', CALENDAR);
    const db = tempDb();
    await bookableDb(db);
    await refused(
      db,
      ['calendar', 'add', '1', `${ics.url}/anna.ics`, '--allow-insecure', '--write-bookings'],
      /that is an iCalendar \(\.ics\) address, which planner can read but not write: give the calendar's CalDAV address/,
    );
    await refused(
      db,
      ['calendar', 'add', '1', await readOnlyCalDav(), '--allow-insecure', '--write-bookings'],
      /^planner: planner may not write into that calendar, nothing was changed: 127\.0\.0\.1:\d+ refused to write the event \(HTTP 403\): check --user and the password, and that the user may write to this calendar\n$/,
    );
  }, 60_000);

  it('set turns writing on (every upcoming booking) and off (the events stay, or go with --remove-written); a login that does not read is refused', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    await bookableDb(db);
    const references = await bookSome(db, 2);
    await addRadicale(db, radicale);
    expect(await radicale.events()).toEqual([]);
    const on = await cli(db, 'calendar', 'set', '1', '--write-bookings', 'on');
    expect(on).toMatchObject({ code: 0, stderr: '' });
    expect(on.stdout).toContain('It receives every booking of schedule 1; its upcoming bookings: 2 event(s) written.');
    expect((await radicale.events()).map((event) => event.name)).toEqual(
      references.map((reference) => `planner-${reference.toLowerCase()}.ics`).sort(),
    );
    const off = await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'off');
    expect(off).toContain('the events planner wrote stay in the calendar');
    expect(await radicale.events()).toHaveLength(2);
    expect((await cliJson(db, 'calendar', 'list', '--json'))[0].writing).toBeNull();
    await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'on');
    expect(await radicale.events()).toHaveLength(2); // written over, never a copy
    const removed = await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'off', '--remove-written');
    expect(removed).toContain("It no longer receives bookings; planner's events: 2 event(s) deleted.");
    expect(await radicale.events()).toEqual([]);

    // A new login: refused (nothing changed) when the calendar does not read with it, taken when it does.
    const wrong = await refused(
      db,
      ['calendar', 'set', '1', '--user', radicale.user, '--password-stdin'],
      /the calendar could not be read with that login, nothing was changed/,
      { input: 'not-the-password\n' },
    );
    expect(wrong).not.toContain('not-the-password');
    const right = await cliWith(
      db,
      { input: `${radicale.password}\n` },
      'calendar',
      'set',
      '1',
      '--user',
      radicale.user,
      '--password-stdin',
      '--name',
      'Anna',
    );
    expect(right).toMatchObject({ code: 0, stderr: '' });
    expect((await cliJson(db, 'calendar', 'list', '--json'))[0]).toMatchObject({ label: 'Anna' });
    await refused(
      db,
      ['calendar', 'set', '1', '--write-bookings', 'maybe'],
      'planner: --write-bookings takes on or off (got "maybe")',
    );
  }, 120_000);

  it('remove asks on a terminal, refuses without one, and keeps or deletes the events as told', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    await bookableDb(db);
    await bookSome(db, 2);
    const add = () => addRadicale(db, radicale, '--write-bookings');
    expect((await add()).code).toBe(0);
    expect(await radicale.events()).toHaveLength(2);
    const asked = await cli(db, 'calendar', 'remove', '1');
    expect(asked.code).toBe(1);
    expect(asked.stderr.trim()).toBe(
      'planner: calendar 1 holds 2 event(s) planner wrote: give --remove-written to delete them first, or --keep-written to leave them',
    );
    const kept = await cliOk(db, 'calendar', 'remove', '1', '--keep-written');
    expect(kept).toContain('The 2 event(s) planner wrote stay in it.');
    expect(await radicale.events()).toHaveLength(2);

    expect((await add()).code).toBe(0); // the same events written over, none twice
    expect(await radicale.events()).toHaveLength(2);
    const [again] = await cliJson(db, 'calendar', 'list', '--json');
    // One event's write waits out a retry an hour away (a calendar that was unreachable): the test puts it in the
    // file. Removing asks now, so it is deleted now too, not left behind in the calendar with nothing to record it.
    const file = new DatabaseSync(db);
    file
      .prepare(
        `INSERT INTO calendar_writes (calendar_id, booking_id, created_at, attempts, next_attempt_at, retry_from, last_error)
         SELECT calendar_id, booking_id, '2026-01-01T00:00:00.000Z', 3, unixepoch() + 3600, unixepoch(), 'could not reach it'
         FROM calendar_events WHERE calendar_id = ? LIMIT 1`,
      )
      .run(again.id);
    // The other one a running server is writing at this moment (its lease): remove deletes what it can, and refuses
    // to forget the calendar while one of its events is left.
    file
      .prepare(
        `INSERT INTO calendar_writes (calendar_id, booking_id, created_at, lease_until)
         SELECT calendar_id, booking_id, '2026-01-01T00:00:00.000Z', unixepoch() + 120
         FROM calendar_events WHERE calendar_id = ? AND booking_id NOT IN (SELECT booking_id FROM calendar_writes)`,
      )
      .run(again.id);
    const held = await cli(db, 'calendar', 'remove', String(again.id), '--remove-written');
    expect(held.code).toBe(1);
    expect(held.stderr.trim()).toBe(
      `planner: 1 event(s) planner wrote are still in calendar ${again.id} (1 deleted; a running planner serve is deleting the others): the calendar was not removed; run the command again in a minute`,
    );
    expect(await radicale.events()).toHaveLength(1);
    expect(await cliJson(db, 'calendar', 'list', '--json')).toHaveLength(1);
    file.prepare('UPDATE calendar_writes SET lease_until = 0').run(); // the lease runs out, as time would
    file.close();
    const terminal = cliOnTerminal(db, 'calendar', 'remove', String(again.id));
    await terminal.answer(`Delete the 1 event(s) planner wrote into calendar ${again.id} first?`, 'y\r');
    expect(await terminal.exited).toBe(0);
    expect(terminal.screen()).toContain('1 event(s) planner wrote were deleted from it.');
    expect(await radicale.events()).toEqual([]);
    expect(await cliJson(db, 'calendar', 'list', '--json')).toEqual([]);
  }, 120_000);
});

describe('what a written event tells of the customer (--details)', () => {
  it('a new calendar writes the reason, the first name and the reference; set --details full writes every answer again; a bad value changes nothing', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'field', 'add', 'insurance', '--label', 'Insurance');
    const lonely = await cli(db, 'calendar', 'add', '1', radicale.url, '--details', 'full');
    expect(lonely).toMatchObject({ code: 1, stdout: '', stderr: 'planner: --details goes with --write-bookings\n' });
    const day = (await cliJson(db, 'slots', '1', '1', '--days', '7', '--json')).days.filter(
      (one: { slots: string[] }) => one.slots.length > 10,
    )[2].day as string;
    const { reference } = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 10:00`,
      ...fieldArgs({
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '+49 170 2223334',
        insurance: 'AOK',
      }),
      '--json',
    );
    const added = await addRadicale(db, radicale, '--write-bookings');
    expect(added.stdout).toContain('its upcoming bookings: 1 event(s) written.');
    expect(added.stdout).toContain(
      "Each event tells the reason, the customer's first name and the reference (planner calendar set 1 --details full writes every answer of the form).",
    );
    // Read back through the REPORT's XML, whose lines end in LF: unfolded, one property a line.
    const unfolded = async () => (await radicale.events())[0]!.ics.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '');
    const minimal = await unfolded();
    expect(minimal).toContain('\nSUMMARY:Check-up – Ada\n');
    expect(minimal).toContain(`\nDESCRIPTION:Reference: ${reference}\n`);
    for (const secret of ['Lovelace', 'ada@example.com', '2223334', 'AOK']) expect(minimal).not.toContain(secret);
    expect((await cliJson(db, 'calendar', 'list', '--json'))[0].details).toBe('minimal');

    await refused(
      db,
      ['calendar', 'set', '1', '--details', 'some'],
      'planner: --details takes full or minimal (got "some")',
    );

    const full = await cliOk(db, 'calendar', 'set', '1', '--details', 'full');
    expect(full).toBe(
      'Calendar 1 (127.0.0.1) changed.\nIts events now tell every answer of the form; written again: 1 event(s) written.\n',
    );
    const written = await unfolded();
    expect(written).toContain('\nSUMMARY:Check-up – Ada Lovelace\n');
    for (const answer of ['E-mail: ada@example.com', 'Phone: +49 170 2223334', 'Insurance: AOK'])
      expect(written).toContain(answer);
    expect(written).toMatch(/^SEQUENCE:0$/m); // the same event, written over: not a new one
    expect((await radicale.events()).length).toBe(1);
  }, 60_000);
});
