/**
 * Error lines name the option as typed and the value given (a select's options listed);
 * `field add` on an existing key, `help <group> <command>`, unknown commands, `status` on a file not set up,
 * `doctor --url` without /api.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.ts';
import { bookableDb, cli, cliJson, cliOk, refused, serve, tempDb } from '../helpers.ts';

describe('error lines name the option as typed and the value', () => {
  const db = tempDb();
  beforeAll(async () => {
    await bookableDb(db);
    await cliOk(
      db,
      'field',
      'add',
      'insurance',
      '--label',
      'Insurance',
      '--form',
      'select',
      '--options',
      'public,private',
    );
  });

  it.each<[string[], string]>([
    [
      [
        'bookings',
        'add',
        '1',
        '1',
        '2100-01-04 09:00',
        '--field',
        'first_name=Ada',
        '--field',
        'last_name=L',
        '--field',
        'email=ada@example.com',
        '--field',
        'insurance=none',
      ],
      'planner: --field insurance=none: must be one of the options: public, private',
    ],
    [
      [
        'bookings',
        'add',
        '1',
        '1',
        '2100-01-04 09:00',
        '--field',
        'first_name=Ada',
        '--field',
        'email=ada@example.com',
      ],
      'planner: --field last_name is required (example: --field last_name=…)',
    ],
    [
      [
        'bookings',
        'add',
        '1',
        '1',
        '2100-01-04 09:00',
        '--field',
        'first_name=Ada',
        '--field',
        'last_name=L',
        '--field',
        'email=ada@example.com',
        '--field',
        'colour=red',
      ],
      'planner: --field colour=red: no such field (the form has first_name, last_name, email, phone, insurance)',
    ],
    [
      ['field', 'add', 'plan', '--label', 'Plan', '--form', 'selectbox'],
      'planner: --form must be one of textbox, textarea, checkbox, select (got "selectbox")',
    ],
    [
      ['field', 'add', 'plan', '--label', 'Plan', '--input', 'phone'],
      'planner: --input must be one of text, email, tel, number, date (got "phone")',
    ],
    [
      ['field', 'set', 'insurance', '--default', 'none'],
      'planner: --default "none" does not fit the field: give one of the options (public, private)',
    ],
    [
      ['bookings', 'list', '--from', '2100-13-01'],
      'planner: --from "2100-13-01" is not a calendar day YYYY-MM-DD (or today)',
    ],
    [['schedule', 'add', 'X', '--capacity', '0'], 'planner: --capacity must be a whole number from 1 to 1000 (got 0)'],
    [['api', 'limit', '0'], 'planner: requests-per-minute must be a whole number from 1 to 1000000000 (got 0)'],
    [['serve', '--port', '70000'], 'planner: --port must be from 0 to 65535 (got 70000)'],
  ])('%j', async (args, line) => {
    await refused(db, args, line);
  });

  it('the API keeps the spec’s text for the same select value', async () => {
    const token = (await cliJson(db, 'token', 'new')).token;
    const server = await serve(db);
    const answer = await fetch(`${server.url}/api/bookings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: '2100-01-04 09:00:00',
        submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com', insurance: 'none' },
      }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'Must be one of the options', field: 'insurance' });
  });
});

describe('field add', () => {
  const db = tempDb();
  beforeAll(() => bookableDb(db));

  it('on an existing key says so first, also without --label; a new key without --label asks for it', async () => {
    await refused(
      db,
      ['field', 'add', 'email'],
      'planner: field "email" already exists (change it with `planner field set email`)',
    );
    await refused(
      db,
      ['field', 'add', 'insurance'],
      'planner: field add needs --label <text>, the label customers see (example: planner field add insurance --label "Insurance number")',
    );
    expect(await cliJson(db, 'field', 'add', 'insurance', '--label', 'Insurance', '--json')).toMatchObject({
      key: 'insurance',
      label: 'Insurance',
    });
  });
});

describe('help and unknown commands', () => {
  const db = tempDb();

  it('planner help schedule set (and schedule help set) show the help of set', async () => {
    for (const args of [
      ['help', 'schedule', 'set'],
      ['schedule', 'help', 'set'],
      ['schedule', 'set', '--help'],
    ]) {
      const result = await cli(db, ...args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toMatch(/^Usage: planner schedule set \[options\] <id>\n/);
      expect(result.stdout).toContain('--notice <duration>');
    }
    const top = await cli(db, 'help');
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^Usage: planner \[options\] \[command\]/);
  });

  it.each<[string[], string]>([
    [['schedul'], "planner: unknown command 'schedul' (Did you mean schedule?)"],
    [['schedule', 'lst'], "planner: unknown command 'lst' (Did you mean list?)"],
    [['help', 'schedul', 'set'], "planner: unknown command 'schedul' (Did you mean schedule?)"],
    [['help', 'schedule', 'sett'], "planner: unknown command 'sett' (Did you mean set?)"],
    [['schedule', 'help', 'sett'], "planner: unknown command 'sett' (Did you mean set?)"],
    [['help', 'nosuch'], "planner: unknown command 'nosuch'"],
  ])('%j exits 1 with one line and a suggestion', async (args, line) => {
    const result = await cli(db, ...args);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
  });
});

describe('planner status on a file that is not set up', () => {
  it('a missing file: says so, exit 1, creates nothing; --json too', async () => {
    const db = tempDb();
    expect(await cli(db, 'status')).toEqual({
      code: 1,
      stdout: '',
      stderr: `planner: no installation at ${db}: start with planner init (or pass --db <file>)\n`,
    });
    const json = await cli(db, 'status', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ database: db, exists: false, configured: false });
  });

  it('a file before init: the status, then one line saying so, exit 1', async () => {
    const db = tempDb();
    openStore(db).close(); // what `planner serve` leaves on a new path
    const result = await cli(db, 'status');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('practice     not configured: run `planner init`');
    expect(result.stderr).toBe(`planner: ${db} is not set up yet: run planner init\n`);
    const json = await cli(db, 'status', '--json');
    expect(json.code).toBe(1);
    // No desk to tell of before init (its status needs the practice): null, not a failure.
    expect(JSON.parse(json.stdout)).toMatchObject({ configured: false, exists: true, desk: null });
  });
});

describe('planner doctor --url', () => {
  it('without /api: the live check fails and suggests adding it', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const result = await cli(db, 'doctor', '--url', server.url, '--token', token);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^fail +live +${server.url}/schedules answers 404: .*; planner's API is under /api: try --url ${server.url}/api$`,
        'm',
      ),
    );
    const right = await cli(db, 'doctor', '--url', `${server.url}/api`, '--token', token);
    expect(right.stdout).toMatch(/^ok +live +.*answers 200/m);
    expect(right.stdout).not.toContain('try --url');
  });
});
