/**
 * `planner reason set <reason-id> --series <max>` (issue 40): the booking page offers a reason as up to <max> weekly
 * dates; `0` or `off` turns it off. Through the real CLI: set, listed (table and --json), and every bad value refused
 * in one line, exit 1, the file unchanged.
 */
import { describe, expect, it } from 'vitest';
import { bookableDb, cliJson, cliOk, refused, tempDb } from '../helpers.ts';

describe('reason set --series', () => {
  it('sets, lists and turns off the weekly dates the booking page offers; refuses bad values with nothing written', async () => {
    const db = tempDb();
    await bookableDb(db); // schedule 1, reason 1
    expect((await cliJson(db, 'reason', 'list', '1', '--json'))[0].seriesMax).toBe(0);
    expect(await cliOk(db, 'reason', 'list', '1')).toMatch(/SERIES[\s\S]*\boff\b/);

    expect(await cliOk(db, 'reason', 'set', '1', '--series', '6')).toMatch(
      /series up to 6 weekly dates on the booking page/,
    );
    expect((await cliJson(db, 'reason', 'list', '1'))[0]).toMatchObject({ id: 1, seriesMax: 6 });
    expect(await cliOk(db, 'reason', 'list', '1')).toMatch(/up to 6 weekly/);
    expect(await cliJson(db, 'reason', 'set', '1', '--series', '52', '--json')).toMatchObject({ seriesMax: 52 });
    // Another change keeps it.
    expect(await cliJson(db, 'reason', 'set', '1', '--name', 'Physiotherapy', '--json')).toMatchObject({
      name: 'Physiotherapy',
      seriesMax: 52,
    });
    expect(await cliJson(db, 'reason', 'set', '1', '--series', 'off', '--json')).toMatchObject({ seriesMax: 0 });
    await cliOk(db, 'reason', 'set', '1', '--series', '2');
    expect(await cliJson(db, 'reason', 'set', '1', '--series', '0', '--json')).toMatchObject({ seriesMax: 0 });
    expect(await cliOk(db, 'reason', 'set', '1', '--series', 'off')).toMatch(
      /, single bookings only on the booking page \(no series\)\n$/,
    );
    await cliOk(db, 'reason', 'set', '1', '--series', '10');

    for (const [args, message] of [
      [['reason', 'set', '1', '--series', '1'], /--series takes .* from 2 to 52, or 0 or off .*\(got "1"\)/],
      [['reason', 'set', '1', '--series', '53'], /\(got "53"\)/],
      [['reason', 'set', '1', '--series', 'many'], /\(got "many"\)/],
      [['reason', 'set', '1', '--series', '-3'], /\(got "-3"\)/],
      [['reason', 'set', '1', '--series', '2.5'], /\(got "2\.5"\)/],
      [['reason', 'set', '1', '--series', ''], /\(got ""\)/],
      // A bad value beside a good change: neither is written.
      [['reason', 'set', '1', '--name', 'Other', '--series', '99'], /\(got "99"\)/],
      [['reason', 'set', '77', '--series', '4'], /reason 77 does not exist/],
    ] as const)
      await refused(db, [...args], message);
    expect((await cliJson(db, 'reason', 'list', '1'))[0]).toMatchObject({ name: 'Physiotherapy', seriesMax: 10 });
  });
});
