/**
 * A file with pages used by nothing (as Litestream 0.3.13 can leave one it restored: the replication test saw it
 * once): `planner doctor` warns, says every row is whole and how to compact it, and `planner backup` writes a copy that
 * checks clean; a file whose check finds anything else still fails. Real CLI processes on a real file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { unusedPagesOnly } from '../../src/app/operations/doctor.ts';
import { bookableDb, cli, cliJson, cliOk, fieldArgs, tempDb, tempDir } from '../helpers.ts';

/** Appends `count` empty pages to the closed file `db` and counts them in its header: pages nothing uses. */
function addUnusedPages(db: string, count: number): void {
  const file = new DatabaseSync(db);
  file.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  file.close();
  const bytes = readFileSync(db);
  const pageSize = bytes.readUInt16BE(16);
  const grown = Buffer.concat([bytes, Buffer.alloc(pageSize * count)]);
  grown.writeUInt32BE(bytes.readUInt32BE(28) + count, 28);
  writeFileSync(db, grown);
}

describe('pages used by nothing', () => {
  it('doctor warns that every row is whole and how to compact the file; backup writes a copy that checks clean', async () => {
    const db = tempDb();
    await bookableDb(db);
    const [first] = (await cliJson(db, 'slots', '1', '1', '--days', '7', '--json')).days.filter(
      (day: { slots: string[] }) => day.slots.length > 0,
    );
    const slot = first.slots.at(-1) as string; // the last of the day, whatever the hour
    await cliOk(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slot,
      ...fieldArgs({ first_name: 'Ada', last_name: 'L', email: 'ada@example.com' }),
    );
    const bookings = await cliJson(db, 'bookings', 'list', '--json');
    expect(bookings).toHaveLength(1);
    addUnusedPages(db, 2);
    const doctor = await cli(db, 'doctor');
    expect(doctor.stdout).toMatch(
      /^warn +integrity +SQLite quick_check: 2 page\(s\) of the file used by nothing \(space only: every row is whole; a file Litestream restored can have them\); planner backup <file> writes a compact copy: stop planner and put the copy in the file's place$/m,
    );
    expect(doctor.stdout).not.toMatch(/^fail +integrity/m);
    const copy = join(tempDir(), 'planner.db');
    await cliOk(db, 'backup', copy);
    const checked = new DatabaseSync(copy, { readOnly: true });
    expect(checked.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    checked.close();
    expect(await cliJson(copy, 'bookings', 'list', '--json')).toEqual(bookings);
    expect((await cli(copy, 'doctor')).stdout).toMatch(/^ok +integrity +SQLite quick_check: ok$/m);
  });

  it('counts only a check that found nothing else', () => {
    expect(unusedPagesOnly('*** in database main ***\nPage 117: never used\nPage 118: never used')).toBe(2);
    expect(unusedPagesOnly('*** in database main ***\nPage 3: never used\nrow 2 missing from index x')).toBeUndefined();
    expect(
      unusedPagesOnly('*** in database main ***\nTree 88 page 35: btreeInitPage() returns error code 11'),
    ).toBeUndefined();
    expect(unusedPagesOnly('*** in database main ***')).toBeUndefined();
  });
});
