import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, cliOnTerminal, initDb, refused, serve, tempDb } from '../helpers.ts';

describe('planner init', () => {
  it('completes the installation from flags, with the default form fields and the API off', async () => {
    const db = tempDb();
    const result = await cli(
      db,
      'init',
      '--name',
      'Praxis Dr. Weber',
      '--timezone',
      'Europe/Berlin',
      '--notify',
      'desk@weber.example',
      '--locale',
      'de',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Initialised "Praxis Dr. Weber"');
    const status = await cliJson(db, 'status');
    expect(status).toMatchObject({
      configured: true,
      practiceName: 'Praxis Dr. Weber',
      timeZone: 'Europe/Berlin',
      locale: 'de',
      notifyEmail: 'desk@weber.example',
      api: { enabled: false, tokenPresent: false, rateLimitPerMinute: 300 },
    });
    const fields = await cliJson(db, 'field', 'list');
    expect(fields.map((f: any) => [f.key, f.formType, f.inputType, f.required])).toEqual([
      ['first_name', 'textbox', 'text', true],
      ['last_name', 'textbox', 'text', true],
      ['email', 'textbox', 'email', true],
      ['phone', 'textbox', 'tel', false],
    ]);
  });

  it('refuses a second init and changes nothing', async () => {
    const db = tempDb();
    await initDb(db);
    await refused(
      db,
      ['init', '--name', 'Other', '--timezone', 'UTC', '--notify', 'x@y.example'],
      /^planner: this installation is already initialised .*nothing was changed\n$/,
    );
  });

  it.each([
    [['--timezone', 'Mars/Base'], /--timezone: "Mars\/Base" is not an IANA time zone/],
    [['--notify', 'not-an-address'], /--notify: "not-an-address" is not an e-mail address/],
    [['--locale', 'pt'], /--locale: locale must be one of en, de, fr, it, es, nl/],
    [['--name', '   '], /--name: the practice name must not be empty/],
  ])('refuses %j with one line on stderr, exit 1, nothing written', async (override, message) => {
    const db = tempDb();
    const options: Record<string, string> = { '--name': 'P', '--timezone': 'Europe/Berlin', '--notify': 'a@b.example' };
    options[override[0]!] = override[1]!;
    const result = await cli(db, 'init', ...Object.entries(options).flat());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(db)).toBe(false);
  });

  it('without a terminal, names the missing flags instead of prompting', async () => {
    const db = tempDb();
    const result = await cli(db, 'init', '--name', 'P');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'planner: missing --timezone <IANA zone>, --notify <email> (or run `planner init` in a terminal to be asked)\n',
    );
    expect(existsSync(db)).toBe(false);
  });

  it('on a terminal, asks for what is missing, re-asks bad answers and confirms', async () => {
    const db = tempDb();
    const session = cliOnTerminal(db, 'init', '--locale', 'de');
    await session.answer('Practice name', 'Praxis Sonne\r');
    await session.answer('Time zone', '\x15Mars/Base\r');
    await session.answer('is not an IANA time zone', '\x15CET\r');
    await session.answer('is a legacy or ambiguous time zone name: use Europe/Berlin', '\x15Europe/Vienna\r');
    await session.answer('E-mail for booking notices', 'desk@sonne.example\r');
    await session.answer('Address customers come to', 'Sonnenweg 1, 1010 Wien\r');
    await session.answer('Phone customers call', 'call me\r');
    await session.answer('is not a phone number', '\x15+43 1 234567\r');
    // The website too, as the README says init asks for each missing value (issue 41, item 13); optional.
    await session.answer('Website of the practice', 'sonne\r');
    await session.answer('is not a website address', '\x15https://sonne.example\r');
    await session.answer('Create "Praxis Sonne" (Europe/Vienna, de, notices to desk@sonne.example)?', 'y\r');
    expect(await session.exited).toBe(0);
    expect(await cliJson(db, 'status')).toMatchObject({
      configured: true,
      practiceName: 'Praxis Sonne',
      timeZone: 'Europe/Vienna',
      locale: 'de',
    });
    expect(await cliJson(db, 'practice', 'show')).toMatchObject({
      address: 'Sonnenweg 1, 1010 Wien',
      phone: '+43 1 234567',
      website: 'https://sonne.example',
    });
  });

  it('on a terminal, declining the confirmation changes nothing', async () => {
    const db = tempDb();
    const session = cliOnTerminal(
      db,
      'init',
      '--name',
      'P',
      '--timezone',
      'UTC',
      '--notify',
      'a@b.example',
      '--locale',
      'en',
      '--address',
      '',
      '--phone',
      '',
      '--website',
      '',
    );
    await session.answer('Create "P"', 'n\r');
    expect(await session.exited).toBe(1);
    expect(session.screen()).toContain('init cancelled; nothing was changed');
    const status = await cli(db, 'status', '--json');
    expect(status.code).toBe(1); // not set up (issue 24)
    expect(JSON.parse(status.stdout).configured).toBe(false);
  });

  it('--yes skips the confirmation on a terminal', async () => {
    const db = tempDb();
    const session = cliOnTerminal(db, 'init', '--name', 'P', '--timezone', 'UTC', '--notify', 'a@b.example', '--yes');
    await session.answer('Address customers come to', '\r'); // Enter skips the optional ones
    await session.answer('Phone customers call', '\r');
    await session.answer('Website of the practice', '\r');
    await session.answer('Language of mails', '\r');
    expect(await session.exited).toBe(0);
    expect((await cliJson(db, 'status')).locale).toBe('en');
  });
});

describe('planner status', () => {
  it('on a missing file says how to start and creates nothing', async () => {
    const db = tempDb();
    const result = await cli(db, 'status');
    expect(result.code).toBe(1); // not set up: a script sees it (issue 24)
    expect(result.stderr).toContain('no installation at');
    expect(result.stderr).toContain('planner init');
    expect(existsSync(db)).toBe(false);
    const json = await cli(db, 'status', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ database: db, exists: false, configured: false });
  });

  it('other commands on a missing file fail with the fix', async () => {
    const db = tempDb();
    const result = await cli(db, 'schedule', 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`planner: no planner database at ${db}: run \`planner init\` (or pass --db <file>)\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('management commands before init say to run init', async () => {
    const db = tempDb();
    const server = await serve(db); // serve creates the empty store, as it must answer 503 before init
    await server.stop();
    for (const args of [
      ['api', 'enable'],
      ['token', 'new'],
      ['schedule', 'add', 'X'],
    ]) {
      const refused = await cli(db, ...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toBe('planner: planner is not set up yet: run `planner init` first\n');
    }
  });

  it('human output names the state, and never a token', async () => {
    const db = tempDb();
    await initDb(db);
    const token = (await cliJson(db, 'token', 'new')).token as string;
    const result = await cli(db, 'status');
    expect(result.stdout).toMatch(/practice +Test Practice · Europe\/Berlin/);
    expect(result.stdout).toMatch(/api +disabled · token present/);
    expect(result.stdout).toMatch(/4 form field\(s\)/);
    expect(result.stdout + result.stderr).not.toContain(token);
    expect(JSON.stringify(await cliJson(db, 'status'))).not.toContain(token.slice(4));
  });
});

describe('command line errors', () => {
  it.each([
    [['bogus'], /^planner: unknown command 'bogus'/],
    [['schedule', 'add'], /^planner: missing required argument 'name'/],
    [['schedule', 'list', '--nope'], /^planner: unknown option '--nope'/],
  ])('%j fails with one line and exit 1', async (args, message) => {
    const db = tempDb();
    const result = await cli(db, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it('--version prints the version', async () => {
    const result = await cli(tempDb(), '--version');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
