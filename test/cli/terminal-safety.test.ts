/**
 * Issue 23, finding 1: stored text reaches the admin's terminal through the CLI, and a customer's words (or an SMTP
 * server's or webhook receiver's error) must not drive it. The input checks refuse control characters now, so the
 * hostile strings are written straight into the file, as a version before them, or a raw write, would have left them;
 * then every command that prints stored text runs, in its human and its --json form.
 */
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { visible } from '../../src/cli/terminal.ts';
import { bookableDb, cli, cliOk, tempDb } from '../helpers.ts';

/** What the probe and a careful attacker would try. */
const HOSTILE = [
  '\u001b[2J\u001b[31m FAKE: booking moved to 2099',
  'bell\u0007',
  'nul\u0000nul',
  'back\u0008\u0008\u0008',
  'Ada\rFAKE OVERWRITE',
  'line\nFAKE LINE',
  'csi\u009b2J',
  'del\u007f',
  'Ada\u202egnp.exe',
  'sep\u2028arated',
];
const ALL = HOSTILE.join(' | ');

/** Anything a terminal would obey: every control but the line feeds the CLI itself ends its lines with. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('visible()', () => {
  it.each<[string, string]>([
    ['\u001b[2J\u001b[31m FAKE', '\\x1b[2J\\x1b[31m FAKE'],
    ['bell\u0007', 'bell\\x07'],
    ['nul\u0000', 'nul\\x00'],
    ['back\u0008', 'back\\x08'],
    ['a\rb\nc\td', 'a\\rb\\nc\\td'],
    ['csi\u009b2J', 'csi\\x9b2J'],
    ['del\u007f', 'del\\x7f'],
    ['Ada\u202egnp.exe', 'Ada\\u202egnp.exe'],
    ['x\u2066y\u2069', 'x\\u2066y\\u2069'],
    ['sep\u2028\u2029', 'sep\\u2028\\u2029'],
    ['Zoë Müller-Łukasz 田中 \\ ok', 'Zoë Müller-Łukasz 田中 \\ ok'],
  ])('shows %j as %j', (text, shown) => {
    expect(visible(text)).toBe(shown);
  });
});

describe('every command that prints stored text keeps the terminal safe (real CLI)', () => {
  const db = tempDb();
  let reference: string;
  beforeAll(async () => {
    await bookableDb(db);
    await cliOk(db, 'closure', 'add', '1', '2030-01-01', '--note', 'holiday');
    await cliOk(db, 'field', 'add', 'notes', '--label', 'Notes', '--form', 'textarea');
    await cliOk(db, 'webhook', 'add', 'http://127.0.0.1:9/hook', '--allow-insecure');
    const handle = new DatabaseSync(db);
    const run = (sql: string, ...values: (string | number)[]) => handle.prepare(sql).run(...values);
    run('UPDATE settings SET practice_name = ?', ALL);
    run('UPDATE schedules SET name = ? WHERE id = 1', ALL);
    run('UPDATE reasons SET name = ?, description = ? WHERE id = 1', ALL, ALL);
    run('UPDATE closures SET note = ?', ALL);
    run("UPDATE form_fields SET label = ? WHERE key = 'notes'", ALL);
    run("INSERT INTO customers (email_key, email, created_at) VALUES ('ada@example.com', 'ada@example.com', 'x')");
    reference = 'TERM2345TERM2345';
    const submission = JSON.stringify({
      first_name: ALL,
      last_name: HOSTILE[0],
      email: 'ada@example.com',
      phone: '',
      notes: ALL,
    });
    const start = Date.parse('2030-01-07T09:00:00Z') / 1000;
    run(
      `INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at, status, sequence, cancel_reason, changed_at)
       VALUES (?, 1, 1, 1, ?, ?, ?, 'api', 'x', 'cancelled', 1, ?, 'x')`,
      reference,
      start,
      start + 1800,
      submission,
      ALL,
    );
    run(
      `INSERT INTO outbox (booking_id, kind, recipient, subject, body, status, attempts, next_attempt_at, retry_from, last_error, created_at)
       VALUES (1, 'confirmation', 'ada@example.com', ?, '{"text":"","html":"","ics":""}', 'failed', 3, 0, 0, ?, 'x')`,
      ALL,
      `550 ${ALL}`,
    );
    run(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, type, payload, status, attempts, next_attempt_at, retry_from, last_error, created_at)
       VALUES (1, 'evt_1', 'booking.created', '{}', 'failed', 9, 0, 0, ?, 'x')`,
      `HTTP 500: ${ALL}`,
    );
    handle.close();
  });

  const commands: string[][] = [
    ['bookings', 'show', 'TERM2345TERM2345'],
    ['bookings', 'list', '--from', '2030-01-01', '--status', 'all'], // its booking is cancelled
    ['schedule', 'list'],
    ['reason', 'list', '1'],
    ['closure', 'list', '1'],
    ['field', 'list'],
    ['status'],
    ['mail', 'queue'],
    ['webhook', 'list'],
    ['webhook', 'deliveries'],
    ['doctor'],
  ];

  it.each(commands.map((args) => [args.join(' '), args] as const))(
    '%s: no raw control character, the hostile text shown visibly',
    async (_name, args) => {
      const result = await cli(db, ...args);
      const output = result.stdout + result.stderr;
      expect(output).toContain('\\x1b[2J');
      const raw = RAW.exec(output);
      expect(
        raw === null
          ? null
          : {
              char: raw[0].charCodeAt(0).toString(16),
              around: output.slice(Math.max(0, raw.index - 30), raw.index + 10),
            },
      ).toBeNull();
    },
  );

  it('shows the probe’s text visibly where an admin reads it', async () => {
    const shown = await cli(db, 'bookings', 'show', reference);
    expect(shown.stdout).toContain('\\x1b[2J\\x1b[31m FAKE: booking moved to 2099');
    expect(shown.stdout).toContain('Ada\\rFAKE OVERWRITE');
    expect(shown.stdout).toContain('line\\nFAKE LINE');
    expect(shown.stdout.split('\n').some((line) => line.startsWith('FAKE'))).toBe(false);
    expect((await cli(db, 'mail', 'queue')).stdout).toContain('550 \\x1b[2J');
    expect((await cli(db, 'webhook', 'deliveries')).stdout).toContain('HTTP 500: \\x1b[2J');
  });

  // printJson is one function: four commands whose JSON holds the hostile values show it.
  const jsonCommands = [['bookings', 'show', 'TERM2345TERM2345'], ['schedule', 'list'], ['status'], ['mail', 'queue']];
  it.each(jsonCommands.map((args) => [[...args, '--json'].join(' '), [...args, '--json']] as const))(
    '%s: JSON that parses to the stored values, with no raw control character',
    async (_name, args) => {
      const result = await cli(db, ...args);
      expect(result.code).toBe(0);
      expect(RAW.exec(result.stdout)).toBeNull();
      const parsed = JSON.parse(result.stdout);
      if (args[0] === 'bookings' && args[1] === 'show')
        expect(parsed).toMatchObject({ cancelReason: ALL, submission: { first_name: ALL, notes: ALL } });
      if (args[0] === 'schedule') expect(parsed[0].name).toBe(ALL);
      if (args[0] === 'status') expect(parsed.practiceName).toBe(ALL);
    },
  );

  it('an error message that quotes stored or typed text is one safe line', async () => {
    const result = await cli(db, 'bookings', 'show', 'x\u001b[2Jy');
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(RAW);
    expect(result.stderr.split('\n')).toHaveLength(2);
  });
});
