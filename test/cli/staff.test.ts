/**
 * `planner desk` and `planner staff`: the admin turns the front desk on and gives each person a one-time enrolment
 * link; removing or resetting someone ends their sessions at once; `planner status` tells the desk, its staff and
 * open sessions. Real CLI on a real file; no secret is stored or listed in the clear.
 */

import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { bookableDb, cli, cliJson, cliOk, refused, tempDb } from '../helpers.ts';

const DESK = 'http://127.0.0.1:3000';

/** Opens a session row for `email` as a login does (a fixture: the login itself is test/http/desk-security.test.ts). */
function openSession(db: string, email: string, id: string): void {
  const handle = new DatabaseSync(db);
  try {
    handle
      .prepare(
        "INSERT INTO staff_sessions (id_hash, staff_id, form_token, verified, created_at, seen_at) SELECT ?, id, 'f', 1, unixepoch(), unixepoch() FROM staff WHERE email = ?",
      )
      .run(id, email);
  } finally {
    handle.close();
  }
}

/** Marks `email` enrolled as enrolment's last step does (its pages are tested with the door). */
function markEnrolled(db: string, email: string): void {
  const handle = new DatabaseSync(db);
  try {
    handle.prepare("UPDATE staff SET enrolled_at = '2026-01-05T09:00:00.000Z' WHERE email = ?").run(email);
  } finally {
    handle.close();
  }
}

async function deskDb(): Promise<string> {
  const db = tempDb();
  await bookableDb(db, { schedules: [{}, { name: 'Dr Ben' }] });
  await cliOk(db, 'desk', 'enable', '--url', DESK);
  return db;
}

describe('planner desk', () => {
  it('is off until enabled; enable, set, status and disable say what they did', async () => {
    const db = tempDb();
    await bookableDb(db);
    expect(await cliJson(db, 'desk', 'status')).toEqual({
      enabled: false,
      url: null,
      idleMinutes: 60,
      maxMinutes: 720,
      staff: 0,
      enrolled: 0,
      sessions: 0,
    });
    await refused(
      db,
      ['staff', 'add', 'anna@praxis.example', '--name', 'Anna', '--role', 'reception'],
      'planner: the desk is off: turn it on before you add staff: planner desk enable --url https://booking.praxis.example',
    );
    await refused(
      db,
      ['desk', 'enable'],
      'planner: give the public address the first time: planner desk enable --url https://booking.praxis.example',
    );
    await refused(
      db,
      ['desk', 'enable', '--url', 'http://desk.praxis.example'],
      /^planner: --url must start with https:\/\//,
    );
    expect(await cliOk(db, 'desk', 'enable', '--url', DESK)).toContain(`Front desk enabled at ${DESK}/desk/`);
    expect(await cliOk(db, 'desk', 'set', '--idle', '30m', '--max', '8h')).toBe(
      'Sessions end after 30m without a request, and 8h after login.\n',
    );
    await refused(
      db,
      ['desk', 'set', '--idle', '2h', '--max', '1h'],
      'planner: --idle (120 minutes) cannot be longer than --max (60 minutes)',
    );
    await refused(db, ['desk', 'set', '--idle', '1m'], /^planner: --idle takes a duration from 5m to 24h/);
    await refused(db, ['desk', 'set'], 'planner: give --idle <duration>, --max <duration>, or both');
    expect(await cliJson(db, 'desk', 'status')).toMatchObject({
      enabled: true,
      url: `${DESK}/desk/`,
      idleMinutes: 30,
      maxMinutes: 480,
    });
    expect(await cliOk(db, 'desk', 'disable')).toBe('Front desk disabled; 0 session(s) ended.\n');
    expect(await cliJson(db, 'desk', 'status')).toMatchObject({ enabled: false, idleMinutes: 30, maxMinutes: 480 });
  });
});

describe('planner staff', () => {
  it('adds a person with a one-time link whose token is stored only as its hash, and lists them without a secret', async () => {
    const db = await deskDb();
    const added = await cli(
      db,
      'staff',
      'add',
      'Anna.Berg@Praxis.example',
      '--name',
      'Anna Berg',
      '--role',
      'reception',
    );
    expect(added.code, added.stderr).toBe(0);
    const link = added.stdout.trim();
    expect(link).toMatch(new RegExp(`^${DESK}/desk/enrol/[A-Za-z0-9_-]{43}$`));
    expect(added.stderr).toContain('This link is shown once; it works once, for 24 hours');
    const token = link.split('/').at(-1)!;
    expect(readFileSync(db).toString('latin1')).not.toContain(token);
    const practitioner = await cliJson(
      db,
      'staff',
      'add',
      'ben@praxis.example',
      '--name',
      'Dr Ben',
      '--role',
      'practitioner',
      '--schedule',
      '2',
    );
    expect(practitioner).toEqual({ id: 2, enrol_url: expect.stringMatching(/\/desk\/enrol\/[A-Za-z0-9_-]{43}$/) });
    const listed = await cliJson(db, 'staff', 'list');
    expect(listed).toEqual([
      {
        id: 1,
        email: 'anna.berg@praxis.example',
        name: 'Anna Berg',
        role: 'reception',
        schedules: [],
        enrolled: false,
        sessions: 0,
      },
      {
        id: 2,
        email: 'ben@praxis.example',
        name: 'Dr Ben',
        role: 'practitioner',
        schedules: [2],
        enrolled: false,
        sessions: 0,
      },
    ]);
    const table = await cliOk(db, 'staff', 'list');
    expect(table).toContain('anna.berg@praxis.example  Anna Berg  reception     -');
    expect(table).not.toContain(token);
    expect(await cliJson(db, 'desk', 'status')).toMatchObject({ staff: 2, enrolled: 0, sessions: 0 });
  });

  it('refuses in one line and changes nothing: a bad address, role or schedule, a practitioner without one, twice the same person', async () => {
    const db = await deskDb();
    await cliOk(db, 'staff', 'add', 'anna@praxis.example', '--name', 'Anna', '--role', 'reception');
    const cases: [string[], string | RegExp][] = [
      [
        ['staff', 'add', 'anna', '--name', 'A', '--role', 'reception'],
        'planner: "anna" is not an e-mail address: it is not an address such as anna@example.com',
      ],
      [
        ['staff', 'add', 'b@praxis.example', '--name', 'B', '--role', 'boss'],
        'planner: --role must be admin, reception or practitioner (got "boss")',
      ],
      [
        ['staff', 'add', 'b@praxis.example', '--name', 'B', '--role', 'practitioner'],
        /^planner: a practitioner needs --schedule <id>\[,<id>…\]/,
      ],
      [
        ['staff', 'add', 'b@praxis.example', '--name', 'B', '--role', 'practitioner', '--schedule', '9'],
        'planner: schedule 9 does not exist (see `planner schedule list`)',
      ],
      [
        ['staff', 'add', 'b@praxis.example', '--name', 'B', '--role', 'practitioner', '--schedule', '1;2'],
        'planner: --schedule takes schedule ids separated by commas, such as 1,3 (got "1;2")',
      ],
      [
        ['staff', 'add', 'b@praxis.example', '--name', 'B', '--role', 'reception', '--schedule', '1'],
        'planner: --schedule is for a practitioner; reception sees every schedule',
      ],
      [
        ['staff', 'add', 'ANNA@praxis.example', '--name', 'Anna', '--role', 'admin'],
        'planner: anna@praxis.example is at the desk already (planner staff reset anna@praxis.example gives a new link)',
      ],
      [
        ['staff', 'remove', 'nobody@praxis.example'],
        'planner: nobody@praxis.example is not at the desk (see `planner staff list`)',
      ],
      [
        ['staff', 'logout'],
        'planner: give one e-mail address, or --all for everyone: planner staff logout anna@praxis.example',
      ],
      [
        ['staff', 'logout', 'anna@praxis.example', '--all'],
        'planner: give one e-mail address, or --all for everyone: planner staff logout anna@praxis.example',
      ],
    ];
    for (const [args, message] of cases) await refused(db, args, message);
  });

  it('reset gives a new link and the old one stops; remove and logout end sessions at once; a removed person may be added again', async () => {
    const db = await deskDb();
    const first = (
      await cliOk(db, 'staff', 'add', 'anna@praxis.example', '--name', 'Anna', '--role', 'reception')
    ).trim();
    await cliOk(
      db,
      'staff',
      'add',
      'ben@praxis.example',
      '--name',
      'Ben',
      '--role',
      'practitioner',
      '--schedule',
      '1,2',
    );
    const hashes = () => {
      const handle = new DatabaseSync(db, { readOnly: true });
      try {
        return handle
          .prepare('SELECT token_hash FROM staff_enrolments ORDER BY staff_id')
          .all()
          .map((row) => row.token_hash);
      } finally {
        handle.close();
      }
    };
    const before = hashes();
    openSession(db, 'anna@praxis.example', 'a1');
    openSession(db, 'anna@praxis.example', 'a2');
    openSession(db, 'ben@praxis.example', 'b1');
    expect(await cliJson(db, 'desk', 'status')).toMatchObject({ sessions: 3 });
    const second = (await cliOk(db, 'staff', 'reset', 'anna@praxis.example')).trim();
    expect(second).not.toBe(first);
    expect(hashes()).toHaveLength(2);
    expect(hashes()[0]).not.toBe(before[0]);
    expect(hashes()[1]).toBe(before[1]);
    expect(await cliJson(db, 'staff', 'list')).toMatchObject([
      { email: 'anna@praxis.example', sessions: 0 },
      { sessions: 1 },
    ]);
    openSession(db, 'anna@praxis.example', 'a3');
    expect(await cliOk(db, 'staff', 'logout', 'anna@praxis.example')).toBe('1 session(s) ended.\n');
    expect(await cliOk(db, 'staff', 'remove', 'ben@praxis.example')).toBe(
      'Removed Ben <ben@praxis.example>; 1 session(s) ended.\n',
    );
    expect((await cliJson(db, 'staff', 'list')).map((person: { email: string }) => person.email)).toEqual([
      'anna@praxis.example',
    ]);
    openSession(db, 'anna@praxis.example', 'a4');
    expect(await cliOk(db, 'staff', 'logout', '--all')).toBe('1 session(s) ended.\n');
    const again = await cliJson(db, 'staff', 'add', 'ben@praxis.example', '--name', 'Ben Kurz', '--role', 'admin');
    expect(again.id).toBe(2);
    expect(await cliJson(db, 'staff', 'list')).toMatchObject([
      { email: 'anna@praxis.example' },
      { name: 'Ben Kurz', role: 'admin', schedules: [] },
    ]);
    openSession(db, 'anna@praxis.example', 'a5');
    expect(await cliOk(db, 'desk', 'disable')).toBe('Front desk disabled; 1 session(s) ended.\n');
  });
});

describe('planner status', () => {
  it('shows the desk: off, then on at its address with its staff (enrolled of all) and open sessions; --json the same', async () => {
    const db = tempDb();
    await bookableDb(db, { schedules: [{}, { name: 'Dr Ben' }] });
    const deskLine = async () => (await cliOk(db, 'status')).split('\n').filter((line) => line.startsWith('desk '));
    expect(await deskLine()).toEqual(['desk         off (planner desk enable)']);
    expect((await cliJson(db, 'status')).desk).toEqual({
      enabled: false,
      url: null,
      idleMinutes: 60,
      maxMinutes: 720,
      staff: 0,
      enrolled: 0,
      sessions: 0,
    });

    await cliOk(db, 'desk', 'enable', '--url', DESK);
    await cliOk(db, 'staff', 'add', 'anna@praxis.example', '--name', 'Anna', '--role', 'reception');
    await cliOk(db, 'staff', 'add', 'ben@praxis.example', '--name', 'Ben', '--role', 'practitioner', '--schedule', '2');
    await cliOk(db, 'staff', 'add', 'cleo@praxis.example', '--name', 'Cleo', '--role', 'admin');
    markEnrolled(db, 'anna@praxis.example');
    markEnrolled(db, 'ben@praxis.example');
    openSession(db, 'anna@praxis.example', 'a1');
    openSession(db, 'anna@praxis.example', 'a2');
    openSession(db, 'ben@praxis.example', 'b1');
    expect(await deskLine()).toEqual([`desk         on at ${DESK}/desk/ · 2 of 3 staff enrolled · 3 session(s) open`]);
    expect((await cliJson(db, 'status')).desk).toEqual({
      enabled: true,
      url: `${DESK}/desk/`,
      idleMinutes: 60,
      maxMinutes: 720,
      staff: 3,
      enrolled: 2,
      sessions: 3,
    });

    // Off again: every session ended, the staff kept and still told.
    await cliOk(db, 'desk', 'disable');
    expect(await deskLine()).toEqual(['desk         off (planner desk enable) · 2 of 3 staff enrolled']);
    expect((await cliJson(db, 'status')).desk).toMatchObject({ enabled: false, url: null, staff: 3, sessions: 0 });
  });
});
