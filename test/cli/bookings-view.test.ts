/**
 * `bookings show` says who made each change (admin, customer, api) and the time a move came from,
 * in local time; `bookings list` fits the terminal, has a phone column and takes --to, --status and --search (one
 * query, any case); `mail queue` shows its times in local time.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { formatLocal } from '../../src/domain/dates.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { cancelBookingRow, insertBooking } from '../../src/store/bookings.ts';
import { insertCustomer } from '../../src/store/customers.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import {
  BIN,
  berlinDay,
  bookableDb,
  cliJson,
  cliOk,
  fieldArgs,
  initDb,
  onCleanup,
  ROOT,
  refused,
  tempDb,
  UNDO_MIGRATION_13,
  UNDO_MIGRATION_16,
  UNDO_MIGRATION_17,
  UNDO_MIGRATION_18,
  UNDO_MIGRATION_19,
  UNDO_MIGRATION_20,
  UNDO_MIGRATION_21,
  UNDO_MIGRATION_22,
} from '../helpers.ts';
import { formFields } from '../portal/page.ts';
import { practice } from '../practice.ts';

describe('bookings show: who made each change, and from when a move came', () => {
  it('created by api, moved by the customer on the page, cancelled by the admin: each in local time', async () => {
    // Made and moved in-process on a fixed clock (2026-06-01 08:00 Berlin), as the API and the page make them.
    const { file, store, ctx, clock } = practice({
      schedules: [{ daysAhead: 14, hours: { 'mon-fri': '09:00-12:00' } }],
    });
    const booked = createBooking(
      ctx,
      {
        scheduleId: 1,
        reasonId: 1,
        slot: '2026-06-02 10:00:00',
        submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      },
      'api',
    );
    enablePortal(ctx, { url: 'https://booking.sonne.example', cancelUntilHours: 24 });
    const link = `/manage/${createManageToken(store, booked.bookingId, clock.now.toISOString())}`;
    const runtime = await startRuntime(store, { now: () => clock.now });
    onCleanup(() => runtime.close());
    const app = createHttpApp({ runtime, log: () => {} });
    // The page's confirmation step for the first time of 3 June carries the move form.
    const confirm = await (await app.request(`${link}/reschedule?day=2026-06-03&time=09:00`)).text();
    const slot = /name="slot" value="([^"]+)"/.exec(confirm)![1]!;
    expect(slot).toBe('2026-06-03 09:00:00');
    clock.now = new Date('2026-06-01T07:30:00Z'); // 09:30 Berlin
    const moved = await app.request(`${link}/reschedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://booking.sonne.example' },
      body: new URLSearchParams({ ...formFields(confirm, '/reschedule')!, slot }).toString(),
    });
    expect(moved.status).toBe(303);
    await runtime.stop();
    runtime.close();

    // Cancelled by the admin through the CLI (the real clock: its time is only checked to be local).
    await cliOk(file, 'bookings', 'cancel', booked.reference, '--no-notify');
    const shown = await cliOk(file, 'bookings', 'show', booked.reference);
    const history = shown.slice(shown.indexOf('  history'));
    expect(history).toMatch(
      /^ {2}history {3}2026-06-01 08:00 created by api\n {12}2026-06-01 09:30 moved by customer from 2026-06-02 10:00\n {12}\d{4}-\d\d-\d\d \d\d:\d\d cancelled by admin\n$/,
    );
    expect(shown).toContain('  source    api, created 2026-06-01 08:00\n'); // not 2026-06-01T06:00:00.000Z
    expect(shown).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);

    const json = await cliJson(file, 'bookings', 'show', booked.reference);
    expect(json.history.slice(0, 2)).toEqual([
      {
        kind: 'created',
        at: '2026-06-01T06:00:00Z',
        localAt: '2026-06-01 08:00',
        by: 'api',
        previousStart: null,
        previousLocalStart: null,
      },
      {
        kind: 'moved',
        at: '2026-06-01T07:30:00Z',
        localAt: '2026-06-01 09:30',
        by: 'customer',
        previousStart: '2026-06-02T08:00:00Z',
        previousLocalStart: '2026-06-02 10:00',
      },
    ]);
    expect(json.history[2]).toMatchObject({ kind: 'cancelled', by: 'admin', previousStart: null });
  });

  it('a booking added and moved by the admin: created by admin, moved by admin from the old local time', async () => {
    const db = tempDb();
    await bookableDb(db);
    const day = berlinDay(3);
    const booked = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 9:00`,
      ...fieldArgs({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
    );
    await cliOk(db, 'bookings', 'move', booked.reference, `${day} 11:00`, '--no-notify');
    const history = (await cliJson(db, 'bookings', 'show', booked.reference)).history;
    expect(history.map((entry: any) => [entry.kind, entry.by, entry.previousLocalStart])).toEqual([
      ['created', 'admin', null],
      ['moved', 'admin', `${day} 09:00`],
    ]);
  });

  it('a file from before the history (schema 8): each booking created by its source; a cancellation by someone not recorded', async () => {
    const db = tempDb();
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
    await cliOk(db, 'reason', 'add', '1', 'Check-up', '--duration', '30');
    // The file as planner 8 left it: no booking_events; one booking made by the API, moved once, then cancelled.
    const raw = new DatabaseSync(db);
    // (and without what the migrations after 9 make again: the calendars' tables, the booking page's column and index,
    // the personal-data columns, triggers and audit log)
    raw.exec(
      UNDO_MIGRATION_22 +
        UNDO_MIGRATION_21 +
        UNDO_MIGRATION_20 +
        UNDO_MIGRATION_19 +
        UNDO_MIGRATION_18 +
        UNDO_MIGRATION_17 +
        UNDO_MIGRATION_16 +
        UNDO_MIGRATION_13 +
        'DROP TABLE booking_events; DROP TABLE busy_times; DROP TABLE calendars; DROP INDEX bookings_by_customer; ALTER TABLE settings DROP COLUMN booking_page; DROP TABLE audit_log; DROP INDEX bookings_to_anonymise; ALTER TABLE bookings DROP COLUMN erased_at; ALTER TABLE settings DROP COLUMN retention_months; PRAGMA user_version = 8',
    );
    raw.close();
    const store = new DatabaseSync(db);
    store.exec("INSERT INTO customers (email, created_at) VALUES ('ada@example.com', '2026-01-01T09:00:00.000Z')");
    store
      .prepare(
        `INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at, status, sequence, changed_at)
         VALUES ('OLD0000000000001', 1, 1, 1, 4102477200, 4102479000, '{"first_name":"Ada"}', 'api', '2026-01-01T09:00:00.000Z', 'cancelled', 2, '2026-01-02T10:00:00.000Z'),
                ('OLD0000000000002', 1, 1, 1, 4102480800, 4102482600, '{"first_name":"Bob"}', 'admin', '2026-01-03T09:00:00.000Z', 'booked', 0, NULL)`,
      )
      .run();
    store.close();
    const first = await cliJson(db, 'bookings', 'show', 'OLD0000000000001'); // opening it migrates the file
    expect(first.history.map((entry: any) => [entry.kind, entry.localAt, entry.by])).toEqual([
      ['created', '2026-01-01 10:00', 'api'],
      ['cancelled', '2026-01-02 11:00', null],
    ]);
    const shown = await cliOk(db, 'bookings', 'show', 'OLD0000000000001');
    expect(shown).toContain(
      '  history   2026-01-01 10:00 created by api\n' +
        '            2026-01-02 11:00 cancelled by someone not recorded (before planner kept a history)\n' +
        '            1 earlier change(s) made before planner kept a history\n',
    );
    expect((await cliJson(db, 'bookings', 'show', 'OLD0000000000002')).history).toEqual([
      {
        kind: 'created',
        at: '2026-01-03T09:00:00Z',
        localAt: '2026-01-03 10:00',
        by: 'admin',
        previousStart: null,
        previousLocalStart: null,
      },
    ]);
  });
});

/** Runs the CLI on a terminal `columns` wide (util-linux `script`, `stty`); resolves with what it showed. */
async function onTerminal(db: string, columns: number, ...args: string[]): Promise<string> {
  const command = [process.execPath, BIN, ...args, '--db', db]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', `stty cols ${columns} rows 50; ${command}`, '/dev/null'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PLANNER_DB: '' },
  });
  let screen = '';
  child.stdout.on('data', (chunk) => (screen += chunk));
  child.stdin.end();
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  return screen.replace(/\r\n/g, '\n');
}

describe('bookings list', () => {
  const db = tempDb();
  const rows = [
    {
      reference: 'LISTAAAAAAAAAAA1',
      start: '2100-03-01T08:00:00Z',
      first: 'Jürgen',
      last: 'Müller-Lüdenscheidt von und zu Hohenstein',
      email: 'j.mueller@praxis-kunden.example',
      phone: '+49 30 123 45 67',
    },
    {
      reference: 'LISTBBBBBBBBBBB2',
      start: '2100-03-01T09:00:00Z',
      first: 'Ada',
      last: 'Lovelace',
      email: 'ADA@Example.com',
      phone: '',
    },
    {
      reference: 'LISTCCCCCCCCCCC3',
      start: '2100-03-02T09:00:00Z',
      first: 'Grace',
      last: 'Hopper',
      email: 'grace@example.com',
      phone: '0171 555 0101',
    },
    {
      reference: 'LISTDDDDDDDDDDD4',
      start: '2100-03-04T09:00:00Z',
      first: 'Alan',
      last: 'Turing',
      email: 'alan@example.com',
      phone: '030 7654321',
    },
  ];
  beforeAll(async () => {
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber, Praxis für Allgemeinmedizin am Stadtpark');
    await cliOk(db, 'reason', 'add', '1', 'Vorsorgeuntersuchung mit ausführlicher Beratung', '--duration', '30');
    const store = openStore(db);
    try {
      store.tx(() => {
        for (const row of rows) {
          const startAt = Date.parse(row.start) / 1000;
          const id = insertBooking(store, {
            reference: row.reference,
            scheduleId: 1,
            reasonId: 1,
            customerId: insertCustomer(store, row.email.toLowerCase(), '2026-01-01T00:00:00Z'),
            startAt,
            endAt: startAt + 1800,
            submission: {
              first_name: row.first,
              last_name: row.last,
              email: row.email,
              ...(row.phone ? { phone: row.phone } : {}),
            },
            source: 'api',
            createdAt: '2026-01-01T00:00:00Z',
            buffers: { before: 0, after: 0 },
          });
          if (row.reference === 'LISTCCCCCCCCCCC3') cancelBookingRow(store, id, null, '2026-01-02T00:00:00Z');
        }
      });
    } finally {
      store.close();
    }
  });

  const references = async (...args: string[]) =>
    (await cliJson(db, 'bookings', 'list', '--from', '2100-01-01', ...args)).map((b: any) => b.reference);

  it('--to (inclusive, local days) and --status (booked unless told: cancelled or all)', async () => {
    expect(await references('--to', '2100-03-01')).toEqual(['LISTAAAAAAAAAAA1', 'LISTBBBBBBBBBBB2']);
    // 2100-03-02 09:00Z is 10:00 in Berlin; --to 2100-03-02 takes the whole local day.
    expect(await references('--to', '2100-03-02', '--status', 'all')).toEqual([
      'LISTAAAAAAAAAAA1',
      'LISTBBBBBBBBBBB2',
      'LISTCCCCCCCCCCC3',
    ]);
    expect(await references('--to', '2100-03-02')).toEqual(['LISTAAAAAAAAAAA1', 'LISTBBBBBBBBBBB2']);
    expect(await references('--status', 'cancelled')).toEqual(['LISTCCCCCCCCCCC3']);
    expect(await references('--status', 'booked', '--to', '2100-03-02')).toEqual([
      'LISTAAAAAAAAAAA1',
      'LISTBBBBBBBBBBB2',
    ]);
  });

  it.each<[string, string[]]>([
    ['müller', ['LISTAAAAAAAAAAA1']], // any case, also beyond ASCII
    ['MÜLLER-LÜDENSCHEIDT', ['LISTAAAAAAAAAAA1']],
    ['jürgen müller', ['LISTAAAAAAAAAAA1']], // first and last name together
    ['ada@example', ['LISTBBBBBBBBBBB2']], // the e-mail, stored in upper case
    ['listccc', ['LISTCCCCCCCCCCC3']], // part of the reference
    ['0171 555', ['LISTCCCCCCCCCCC3']], // the phone as written
    ['01715550101', ['LISTCCCCCCCCCCC3']], // the phone's digits without its spaces
    ['30 1234567', ['LISTAAAAAAAAAAA1']],
    ['example.com', ['LISTBBBBBBBBBBB2', 'LISTCCCCCCCCCCC3', 'LISTDDDDDDDDDDD4']],
    ['nobody', []],
    ['%', []], // no wildcard
  ])('--search %j', async (text, expected) => {
    expect(await references('--search', text, '--status', 'all')).toEqual(expected);
  });

  it('--search with the other filters', async () => {
    expect(await references('--search', 'example.com', '--status', 'booked', '--to', '2100-03-03')).toEqual([
      'LISTBBBBBBBBBBB2',
    ]);
    expect(await cliOk(db, 'bookings', 'list', '--from', '2100-01-01', '--search', 'nobody')).toBe(
      'No bookings match.\n',
    );
  });

  it('has a phone column; into a pipe nothing is cut', async () => {
    const table = await cliOk(db, 'bookings', 'list', '--from', '2100-01-01');
    expect(table.split('\n')[0]).toMatch(/ CUSTOMER +EMAIL +PHONE +SOURCE$/);
    expect(table).toContain(
      'Jürgen Müller-Lüdenscheidt von und zu Hohenstein  j.mueller@praxis-kunden.example  +49 30 123 45 67  api',
    );
    expect(table).not.toContain('…');
  });

  it('fits a terminal 120 columns wide: the free text and the reference cut with …, never the phone or a surname', async () => {
    const screen = await onTerminal(db, 120, 'bookings', 'list', '--from', '2100-01-01', '--search', 'example.com');
    const lines = screen.trimEnd().split('\n');
    expect(lines).toHaveLength(3); // Lovelace and Turing; Hopper's booking is cancelled
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120);
    expect(lines[0]).toMatch(
      /^ID +REFERENCE +STATUS +START \(Europe\/Berlin\) +MIN +SCHEDULE +REASON +CUSTOMER +EMAIL +PHONE +SOURCE$/,
    );
    expect(lines[1]).toMatch(/^2 +LISTBBBB[^ ]*… +booked +2100-03-01 10:00 +30 +Dr\. [^ ]*… +Vorsorge[^ ]*… +/);
    expect(lines[2]).toMatch(/ Alan Turing +alan@[^ ]* +030 7654321 +api$/);
    // A surname longer than the terminal allows stays whole all the same (the terminal wraps the line): the desk
    // finds its customer by the surname, and the e-mail is cut first.
    const long = await onTerminal(db, 120, 'bookings', 'list', '--from', '2100-01-01', '--search', 'jürgen');
    expect(long).toContain(' J. Müller-Lüdenscheidt von und zu Hohenstein  j.mu');
    expect(long).not.toContain('j.mueller@praxis-kunden.example');
    // A wide terminal shows it all.
    const wide = await onTerminal(db, 300, 'bookings', 'list', '--from', '2100-01-01', '--status', 'all');
    expect(wide).not.toContain('…');
  });

  it('in 80 columns keeps every phone whole and cuts the reference, which --search finds by the part shown', async () => {
    const screen = await onTerminal(db, 80, 'bookings', 'list', '--from', '2100-01-01', '--status', 'all');
    for (const row of rows) if (row.phone) expect(screen).toContain(row.phone);
    // Every surname whole (after the first name's initial where the whole name is too long); the e-mails cut first.
    for (const name of ['J. Müller-Lüdenscheidt von und zu Hohenstein', 'Ada Lovelace', 'Grace Hopper', 'Alan Turing'])
      expect(screen).toContain(`  ${name}  `);
    expect(screen).not.toContain('j.mueller@praxis-kunden.example');
    expect(screen).toMatch(/ j\.mu[^ ]*… /);
    const shown = /^1 +(LIST[A-Z0-9]*…) /m.exec(screen)?.[1];
    expect(shown).toMatch(/^LISTAAAA[A-Z0-9]*…$/);
    expect(shown!.length).toBeLessThan('LISTAAAAAAAAAAA1'.length);
    // The part shown, with or without its …, in any case, finds that booking alone.
    expect(await references('--search', shown!)).toEqual(['LISTAAAAAAAAAAA1']);
    expect(await references('--search', shown!.slice(0, -1).toLowerCase())).toEqual(['LISTAAAAAAAAAAA1']);
    expect(await references('--search', 'AAAA1')).toEqual(['LISTAAAAAAAAAAA1']); // any part, also the end
  });

  it.each<[string[], string]>([
    [['--status', 'open'], 'planner: --status must be booked, cancelled or all (got "open")'],
    [['--to', '2100-02-30'], 'planner: --to "2100-02-30" is not a calendar day YYYY-MM-DD (or today)'],
    [['--to', '2099-12-31'], 'planner: --to 2099-12-31 is before the first day, 2100-01-01'],
    [['--search', '  '], 'planner: --search needs some text: part of a name, an e-mail, a phone number or a reference'],
  ])('refuses %j in one line', async (args, line) => {
    await refused(db, ['bookings', 'list', '--from', '2100-01-01', ...args], line);
  });
});

describe('mail queue', () => {
  it('shows every time in local time, the zone in the header', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'reminders', 'set', '24h');
    await cliOk(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${berlinDay(3)} 10:00`,
      ...fieldArgs({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
    );
    const entries = await cliJson<any[]>(db, 'mail', 'queue');
    const waiting = entries.find((entry) => entry.section === 'waiting')!;
    const reminder = entries.find((entry) => entry.section === 'scheduled')!;
    const table = await cliOk(db, 'mail', 'queue');
    expect(table.split('\n')[0]).toMatch(/ NEXT TRY \(Europe\/Berlin\) +LAST ERROR$/);
    expect(table).toMatch(
      new RegExp(
        `^${waiting.id} +confirmation +ada@example.com +pending +0 +${formatLocal(new Date(waiting.nextAttemptAt * 1000), 'Europe/Berlin')}$`,
        'm',
      ),
    );
    expect(table).toMatch(/^ID +DUE \(Europe\/Berlin\) +BOOKING +TO$/m);
    expect(table).toMatch(new RegExp(`^${reminder.id} +${reminder.dueLocal} `, 'm'));
  });
});
