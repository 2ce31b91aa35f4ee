import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson, cliOk, initDb, refused, snapshot, tempDb } from '../helpers.ts';

describe('api and token', () => {
  const db = tempDb();
  beforeAll(() => initDb(db));

  it('api enable, disable and status', async () => {
    expect(await cliOk(db, 'api', 'enable')).toBe('API enabled.\n');
    expect(await cliJson(db, 'api', 'status')).toEqual({
      enabled: true,
      tokenPresent: false,
      tokenCreatedAt: null,
      rateLimitPerMinute: 300,
    });
    expect(await cliOk(db, 'api', 'disable')).toBe('API disabled.\n');
    expect((await cliJson(db, 'api', 'status')).enabled).toBe(false);
  });

  it('api limit sets the rate and refuses nonsense', async () => {
    await cliOk(db, 'api', 'limit', '120');
    expect((await cliJson(db, 'api', 'status')).rateLimitPerMinute).toBe(120);
    await refused(db, ['api', 'limit', '0'], /from 1 to 1000000000/);
    await refused(db, ['api', 'limit', 'lots'], /must be a whole number \(got "lots"\)/);
    await refused(db, ['api', 'limit', '1.5'], /must be a whole number/);
    await cliOk(db, 'api', 'limit', '300');
  });

  it('token new prints pln_ and 64 CSPRNG characters once, stores only its SHA-256, and replaces the old one', async () => {
    const first = await cliJson(db, 'token', 'new');
    expect(Object.keys(first)).toEqual(['token']);
    expect(first.token).toMatch(/^pln_[A-Za-z0-9]{64}$/);
    const human = await cli(db, 'token', 'new');
    const second = human.stdout.trim();
    expect(second).toMatch(/^pln_[A-Za-z0-9]{64}$/);
    expect(second).not.toBe(first.token);
    expect(human.stderr).toContain('shown once');
    const raw = new DatabaseSync(db, { readOnly: true });
    const row = raw.prepare('SELECT token_hash FROM settings').get() as { token_hash: string };
    const dump = JSON.stringify(snapshot(db));
    raw.close();
    expect(row.token_hash).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
    expect(dump).not.toContain(second.slice(4));
    expect(dump).not.toContain(first.token.slice(4));
    expect((await cliJson(db, 'api', 'status')).tokenPresent).toBe(true);
  });
});

describe('schedules and reasons', () => {
  const db = tempDb();
  beforeAll(() => initDb(db));

  it('schedule add with defaults and options, list, set', async () => {
    const { id } = await cliJson(db, 'schedule', 'add', 'Dr. Weber');
    expect(id).toBe(1);
    const second = await cliJson(
      db,
      'schedule',
      'add',
      'Physio',
      '--days-ahead',
      '365',
      '--notice',
      '0',
      '--step',
      '30',
      '--capacity',
      '3',
    );
    expect(second.id).toBe(2);
    const list = await cliJson(db, 'schedule', 'list');
    expect(list.map((s: any) => [s.id, s.name, s.daysAhead, s.noticeMinutes, s.stepMinutes, s.capacity])).toEqual([
      [1, 'Dr. Weber', 60, 60, 15, 1],
      [2, 'Physio', 365, 0, 30, 3],
    ]);
    const changed = await cliJson(db, 'schedule', 'set', '1', '--name', 'Dr. A. Weber', '--step', '10');
    expect(changed).toMatchObject({ id: 1, name: 'Dr. A. Weber', stepMinutes: 10, capacity: 1 });
    const table = await cliOk(db, 'schedule', 'list');
    expect(table.split('\n')[0]).toMatch(/^ID +NAME +DAYS AHEAD/);
    expect(table).toContain('Dr. A. Weber');
  });

  it.each([
    [['schedule', 'add', ''], /name must be 1 to 200 characters/],
    [['schedule', 'add', 'X', '--days-ahead', '-1'], /--days-ahead must be a whole number from 0 to 730 \(got -1\)/],
    [['schedule', 'add', 'X', '--step', '0'], /--step must be from 1m to 1d \(got "0"\)/],
    [['schedule', 'add', 'X', '--capacity', 'two'], /--capacity must be a whole number \(got "two"\)/],
    [['schedule', 'set', '99', '--name', 'Y'], /schedule 99 does not exist/],
    [['schedule', 'set', 'abc'], /schedule id must be a whole number/],
    [['schedule', 'set', '1', '--notice', '600000'], /--notice must be from 0 to 365d \(got "600000"\)/],
    [['schedule', 'remove', '0'], /schedule id must be 1 or more/],
  ])('schedule refuses %j', async (args, message) => {
    await refused(db, args, message);
  });

  it('reason add, list, set, remove', async () => {
    const consult = await cliJson(db, 'reason', 'add', '1', 'Consultation', '--duration', '15');
    const checkup = await cliJson(
      db,
      'reason',
      'add',
      '1',
      'Check-up',
      '--duration',
      '30',
      '--description',
      'Routine check',
    );
    expect([consult.id, checkup.id]).toEqual([1, 2]);
    let list = await cliJson(db, 'reason', 'list', '1');
    expect(list.map((r: any) => [r.name, r.durationMinutes, r.description, r.position])).toEqual([
      ['Consultation', 15, '', 1],
      ['Check-up', 30, 'Routine check', 2],
    ]);
    await cliOk(db, 'reason', 'set', '2', '--position', '1', '--duration', '45');
    await cliOk(db, 'reason', 'set', '1', '--position', '2');
    list = await cliJson(db, 'reason', 'list', '1');
    expect(list.map((r: any) => [r.id, r.durationMinutes])).toEqual([
      [2, 45],
      [1, 15],
    ]);
    await cliOk(db, 'reason', 'remove', '1');
    expect((await cliJson(db, 'reason', 'list', '1')).map((r: any) => r.id)).toEqual([2]);
    expect(await cliJson(db, 'reason', 'list', '2')).toEqual([]);
  });

  it.each([
    [['reason', 'add', '1', 'X'], /required option '--duration <duration>' not specified/],
    [['reason', 'add', '1', 'X', '--duration', '0'], /--duration must be from 1m to 1d \(got "0"\)/],
    [
      ['reason', 'add', '1', 'X', '--duration', '90min'],
      /--duration: "90min" is not a duration: write 45 \(minutes\), 45m, 1h30m, 12h or 2d/,
    ],
    [['reason', 'add', '42', 'X', '--duration', '10'], /schedule 42 does not exist/],
    [['reason', 'list', '42'], /schedule 42 does not exist/],
    [['reason', 'set', '77', '--name', 'Y'], /reason 77 does not exist/],
    [['reason', 'remove', '1'], /reason 1 does not exist/],
  ])('reason refuses %j', async (args, message) => {
    await refused(db, args, message);
  });

  it('schedule remove hides it from the list', async () => {
    const { id } = await cliJson(db, 'schedule', 'add', 'Temporary');
    await cliOk(db, 'schedule', 'remove', String(id));
    expect((await cliJson(db, 'schedule', 'list')).map((s: any) => s.id)).not.toContain(id);
    await refused(db, ['schedule', 'remove', String(id)], new RegExp(`schedule ${id} does not exist`));
  });
});

describe('hours and closures', () => {
  const db = tempDb();
  beforeAll(async () => {
    await initDb(db);
    await cliOk(db, 'schedule', 'add', 'Dr. Weber');
  });

  it('hours set replaces the named days and shows the week', async () => {
    await cliOk(db, 'hours', 'set', '1', 'mon-fri', '09:00-12:00,13:00-17:30');
    await cliOk(db, 'hours', 'set', '1', 'sat', '00:00-24:00');
    const week = await cliJson(db, 'hours', 'set', '1', 'wed', 'closed');
    expect(week).toEqual({
      mon: ['09:00-12:00', '13:00-17:30'],
      tue: ['09:00-12:00', '13:00-17:30'],
      wed: [],
      thu: ['09:00-12:00', '13:00-17:30'],
      fri: ['09:00-12:00', '13:00-17:30'],
      sat: ['00:00-24:00'],
      sun: [],
      stranded: [],
    });
    expect(await cliOk(db, 'hours', 'show', '1')).toBe(
      'mon  09:00-12:00, 13:00-17:30\ntue  09:00-12:00, 13:00-17:30\nwed  closed\nthu  09:00-12:00, 13:00-17:30\nfri  09:00-12:00, 13:00-17:30\nsat  00:00-24:00\nsun  closed\n',
    );
  });

  it.each([
    [['hours', 'set', '1', 'mon-fry', '09:00-12:00'], /unknown day "fry"/],
    [['hours', 'set', '1', 'mon', '09:00-12:00,11:00-13:00'], /overlap/],
    [['hours', 'set', '1', 'mon', '17:00-09:00'], /ends before it starts/],
    [['hours', 'set', '1', 'mon', '09:00-24:30'], /not a time HH:MM/],
    [['hours', 'set', '9', 'mon', '09:00-12:00'], /schedule 9 does not exist/],
    [['hours', 'show', '9'], /schedule 9 does not exist/],
  ])('hours refuses %j', async (args, message) => {
    await refused(db, args, message);
  });

  it('closure add (one day and a range), list, remove', async () => {
    const one = await cliJson(db, 'closure', 'add', '1', '2030-12-24', '--note', 'Christmas Eve');
    const range = await cliJson(db, 'closure', 'add', '1', '2030-08-01', '2030-08-14');
    const list = await cliJson(db, 'closure', 'list', '1');
    expect(list.map((c: any) => [c.id, c.fromDay, c.toDay, c.note])).toEqual([
      [range.id, '2030-08-01', '2030-08-14', ''],
      [one.id, '2030-12-24', '2030-12-24', 'Christmas Eve'],
    ]);
    await cliOk(db, 'closure', 'remove', String(one.id));
    expect((await cliJson(db, 'closure', 'list', '1')).map((c: any) => c.id)).toEqual([range.id]);
  });

  it.each([
    [['closure', 'add', '1', '2026-02-30'], /"2026-02-30" is not a calendar day/],
    [['closure', 'add', '1', '2026-08-10', '2026-08-01'], /ends \(2026-08-01\) before it starts/],
    [['closure', 'add', '5', '2030-08-10'], /schedule 5 does not exist/],
    [['closure', 'remove', '999'], /closure 999 does not exist/],
  ])('closure refuses %j', async (args, message) => {
    await refused(db, args, message);
  });
});

describe('form fields', () => {
  const db = tempDb();
  beforeAll(() => initDb(db));

  it('field add, set and remove', async () => {
    const added = await cliJson(
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
      '--required',
    );
    expect(added).toMatchObject({
      key: 'insurance',
      formType: 'select',
      inputType: 'text',
      required: true,
      options: ['public', 'private'],
      position: 5,
    });
    await cliJson(db, 'field', 'add', 'birthday', '--label', 'Date of birth', '--input', 'date');
    const changed = await cliJson(
      db,
      'field',
      'set',
      'insurance',
      '--optional',
      '--default',
      'public',
      '--position',
      '1',
    );
    expect(changed).toMatchObject({ required: false, defaultValue: 'public', position: 1 });
    await cliOk(db, 'field', 'set', 'phone', '--required', '--label', 'Mobile');
    await cliOk(db, 'field', 'remove', 'birthday');
    const list = await cliJson(db, 'field', 'list');
    expect(list.map((f: any) => [f.key, f.label, f.required])).toEqual([
      ['insurance', 'Insurance', false],
      ['first_name', 'First name', true],
      ['last_name', 'Last name', true],
      ['email', 'E-mail', true],
      ['phone', 'Mobile', true],
    ]);
  });

  it.each([
    [['field', 'add', 'password', '--label', 'Password'], /a field named "password" is not allowed/],
    [['field', 'add', 'Bad-Key', '--label', 'X'], /must start with a letter and use only a-z, 0-9 and _/],
    [
      ['field', 'add', 'x', '--label', 'X', '--input', 'color'],
      /--input must be one of text, email, tel, number, date/,
    ],
    [
      ['field', 'add', 'x', '--label', 'X', '--form', 'radio'],
      /--form must be one of textbox, textarea, checkbox, select/,
    ],
    [['field', 'add', 'x', '--label', 'X', '--form', 'select'], /a select field needs --options/],
    [['field', 'add', 'x', '--label', 'X', '--options', 'a,b'], /--options is only for fields with --form select/],
    [
      ['field', 'add', 'x', '--label', 'X', '--input', 'number', '--default', 'ten'],
      /--default "ten" does not fit the field: give a value of input type number/,
    ],
    [['field', 'add', 'x'], /field add needs --label <text>/],
    [['field', 'add', 'email', '--label', 'Again'], /field "email" already exists/],
    [['field', 'set', 'nothing', '--label', 'X'], /field "nothing" does not exist/],
    [['field', 'set', 'email', '--input', 'text'], /its input type stays email/],
    [['field', 'set', 'phone', '--required', '--optional'], /either --required or --optional/],
    [['field', 'remove', 'email'], /can be changed, not removed/],
    [['field', 'remove', 'nothing'], /field "nothing" does not exist/],
  ])('field refuses %j', async (args, message) => {
    await refused(db, args, message);
  });

  // The OpenAPI document declares these limits (FormField value and options): a booking could send no more.
  it('field refuses a default value or a choice longer than a booking may send', async () => {
    await refused(
      db,
      ['field', 'add', 'x', '--label', 'X', '--default', 'a'.repeat(501)],
      /--default must be at most 500 characters \(got 501\)/,
    );
    await refused(
      db,
      ['field', 'add', 'x', '--label', 'X', '--form', 'textarea', '--default', 'a'.repeat(5001)],
      /--default must be at most 5000 characters \(got 5001\)/,
    );
    await refused(
      db,
      ['field', 'add', 'x', '--label', 'X', '--form', 'select', '--options', `a,${'b'.repeat(501)}`],
      /each of --options must be at most 500 characters/,
    );
    await cliOk(db, 'field', 'add', 'x', '--label', 'X', '--form', 'textarea', '--default', 'a'.repeat(5000)); // the limit itself fits
    await cliOk(db, 'field', 'remove', 'x');
  });
});
