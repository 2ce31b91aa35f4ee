/**
 * Bad text is refused where it is taken (issue 18, finding 5): arguments that are not UTF-8, line separators in
 * single-line values, and text-direction controls anywhere a person's text is shown again (mails, lists).
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nameProblem } from '../../src/domain/checks.ts';
import { BIN, bookableDb, type CliResult, cli, ROOT, snapshot, tempDb } from '../helpers.ts';
import { ADA, apiFixture } from '../http/fixture.ts';

/** Runs the CLI with raw bytes as arguments, as a shell passes `$'bad\xff'`. */
function cliBytes(db: string, ...args: (string | Buffer)[]): Promise<CliResult> {
  // execFile takes strings only; `sh` gets the bytes through printf escapes, exactly as a shell would pass them.
  const quoted = args.map(
    (arg) => `"$(printf '${[...Buffer.from(arg)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('')}')"`,
  );
  const script = `exec "$0" "$1" ${quoted.join(' ')} --db "$2"`;
  return new Promise((resolve) =>
    execFile(
      'sh',
      ['-c', script, process.execPath, BIN, db],
      { cwd: ROOT, env: { ...process.env, PLANNER_DB: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const SEPARATORS = ['\u0085', '\u2028', '\u2029'];
const DIRECTION = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('bad text', () => {
  it('refuses CLI arguments that are not UTF-8, in one line, changing nothing', async () => {
    const db = tempDb();
    await bookableDb(db);
    const before = snapshot(db);
    const name = await cliBytes(db, 'schedule', 'add', Buffer.from([0x62, 0x61, 0x64, 0xff]));
    expect(name).toMatchObject({ code: 1, stdout: '' });
    expect(name.stderr).toBe(
      'planner: the argument "bad\uFFFD" is not valid UTF-8 text (\uFFFD marks the bytes that are not): write it in UTF-8\n',
    );
    const field = await cliBytes(
      db,
      'bookings',
      'add',
      '1',
      '1',
      '2030-01-01 10:00',
      '--field',
      Buffer.concat([Buffer.from('first_name=A'), Buffer.from([0xff])]),
    );
    expect(field.code).toBe(1);
    expect(field.stderr).toMatch(/^planner: the argument "first_name=A\uFFFD" is not valid UTF-8 text/);
    expect(snapshot(db)).toEqual(before);
    // Valid UTF-8, also outside ASCII, passes.
    expect((await cliBytes(db, 'schedule', 'add', 'Dr. Müller – 医院')).code).toBe(0);
  });

  it('refuses line separators and direction controls in names, labels, notes and descriptions (CLI)', async () => {
    const db = tempDb();
    await bookableDb(db);
    const before = snapshot(db);
    const refusals: [string[], RegExp][] = [
      [['schedule', 'add', 'Dr.\u2028Weber'], /^planner: name must be one line, without control characters\n$/],
      [['schedule', 'add', 'Dr.\u0085Weber'], /^planner: name must be one line/],
      [['schedule', 'add', 'Dr.\nWeber'], /^planner: name must be one line/],
      [
        ['schedule', 'add', 'Ada\u202egnp.exe'],
        /^planner: name must not contain text-direction controls \(U\+202A to U\+202E, U\+2066 to U\+2069\)\n$/,
      ],
      [
        ['reason', 'add', '1', 'Check\u2066up', '--duration', '15'],
        /^planner: name must not contain text-direction controls/,
      ],
      [
        ['reason', 'set', '1', '--description', 'x\u202ey'],
        /^planner: --description must not contain text-direction controls/,
      ],
      [['field', 'add', 'notes', '--label', 'No\u2029tes'], /^planner: --label must be one line/],
      [
        ['closure', 'add', '1', '2030-01-01', '--note', 'off\u202e'],
        /^planner: the note must be at most 500 characters, without control characters or text-direction controls\n$/,
      ],
      // issue 23: control characters, which drive a terminal, in notes and descriptions too
      [
        ['closure', 'add', '1', '2030-01-01', '--note', 'off\u001b[2J'],
        /^planner: the note must be at most 500 characters, without control characters/,
      ],
      [
        ['closure', 'add', '1', '2030-01-01', '--note', 'off\u009b2J'],
        /^planner: the note must be at most 500 characters, without control characters/,
      ],
      [
        ['reason', 'set', '1', '--description', 'x\u0007y'],
        /^planner: --description must not contain control characters \(line breaks and tabs are fine\)\n$/,
      ],
      [['schedule', 'add', 'Dr.\u009bWeber'], /^planner: name must be one line, without control characters\n$/],
    ];
    for (const [args, message] of refusals) {
      const result = await cli(db, ...args);
      expect([args.join(' '), result.code]).toEqual([args.join(' '), 1]);
      expect(result.stderr).toMatch(message);
    }
    expect(snapshot(db)).toEqual(before);
  });

  it('refuses them in booking form values (API): single-line fields take no separator, no field takes direction controls', async () => {
    const { post, store } = await apiFixture();
    const count = () => (store.db.prepare('SELECT count(*) AS n FROM bookings').get() as { n: number }).n;
    const slot = '2026-06-01 09:00:00';
    const booking = (submission: Record<string, string>) => ({
      schedule: 1,
      reason: 1,
      slot,
      submission: { ...ADA, ...submission },
    });
    for (const separator of SEPARATORS) {
      const answer = await post(booking({ last_name: `Love${separator}lace` }));
      expect(answer).toMatchObject({ status: 400, body: { error: 'Must be a single line', field: 'last_name' } });
    }
    for (const control of DIRECTION) {
      const answer = await post(booking({ first_name: `Ada${control}gnp.exe` }));
      expect(answer).toMatchObject({
        status: 400,
        body: { error: 'Must not contain text-direction controls', field: 'first_name' },
      });
    }
    expect(count()).toBe(0);
    // Marks that change no order (LRM, RLM) and right-to-left text itself pass.
    expect((await post(booking({ first_name: 'עדה\u200f' }))).status).toBe(201);
  });

  it.each([...SEPARATORS, '\r', '\n', '\t', '\u0000'])('nameProblem refuses %j inside a name', (character) => {
    expect(nameProblem(`Dr.${character}Weber`)).toBe('not one line');
  });
});
