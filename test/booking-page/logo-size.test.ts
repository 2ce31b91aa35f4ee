/**
 * A logo's size in pixels, as its header declares it: `booking-page enable --logo` refuses one larger than 2000 pixels
 * on a side (a file of a few KiB may declare 100,000 × 100,000, which every visitor's browser would be asked to
 * decode), and one whose size cannot be read, in one line, changing nothing. A logo kept before the check is still
 * served; `planner doctor` warns of it with the fix.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, cliOk, initDb, snapshot, tempDb, tempDir } from '../helpers.ts';
import { pngDeclaring, pngOf } from './flow.ts';

/** An installation with the booking page on (its address given; no server is needed to change its settings). */
async function pageOn(): Promise<string> {
  const db = tempDb();
  await initDb(db);
  await cliOk(db, 'portal', 'enable', '--url', 'https://booking.praxis.example');
  await cliOk(db, 'booking-page', 'enable');
  return db;
}

describe('the size of the booking page’s logo', () => {
  it('refuses a logo larger than 2000 pixels on a side, or whose size cannot be read: one line, nothing changed', async () => {
    const db = await pageOn();
    const folder = tempDir();
    const file = (name: string, bytes: Buffer) => {
      const path = join(folder, name);
      writeFileSync(path, bytes);
      return path;
    };
    // As the probe's file: a small image whose header says 100,000 × 100,000, 8 KiB with what follows its end.
    const huge = pngDeclaring(pngOf(40, 40, [10, 110, 79]), 100_000, 100_000);
    const eightKiB = file('huge.png', Buffer.concat([huge, Buffer.alloc(8 * 1024 - huge.length)]));
    const wide = file('wide.png', pngDeclaring(pngOf(40, 40, [10, 110, 79]), 2001, 40));
    const cut = file('cut.png', pngOf(40, 40, [10, 110, 79]).subarray(0, 16));
    const before = snapshot(db);
    const refusals: [string, string][] = [
      [
        eightKiB,
        `planner: --logo ${eightKiB} is 100000 × 100000 pixels; the page takes at most 2000 on a side: scale it down (a logo of about 400 pixels wide is enough)`,
      ],
      [
        wide,
        `planner: --logo ${wide} is 2001 × 40 pixels; the page takes at most 2000 on a side: scale it down (a logo of about 400 pixels wide is enough)`,
      ],
      [
        cut,
        `planner: --logo ${cut} is a PNG whose size in pixels cannot be read (a damaged or cut-off file): save it again as PNG, JPEG or WebP`,
      ],
    ];
    for (const [path, line] of refusals) {
      const refused = await cli(db, 'booking-page', 'enable', '--logo', path);
      expect({ code: refused.code, stderr: refused.stderr, stdout: refused.stdout }).toEqual({
        code: 1,
        stderr: `${line}\n`,
        stdout: '',
      });
    }
    expect(snapshot(db)).toEqual(before);

    // 2000 on a side is taken.
    await cliOk(
      db,
      'booking-page',
      'enable',
      '--logo',
      file('edge.png', pngDeclaring(pngOf(40, 40, [0, 0, 0]), 2000, 2000)),
    );
    expect((await cliJson(db, 'booking-page', 'status', '--json')).logo).toMatch(/^[0-9a-f]{16}$/);
  });

  it('doctor warns of a logo kept before the check, and names the fix; a logo that fits says nothing', async () => {
    const db = await pageOn();
    const logo = join(tempDir(), 'logo.png');
    writeFileSync(logo, pngOf(120, 40, [10, 110, 79]));
    await cliOk(db, 'booking-page', 'enable', '--logo', logo);
    expect((await cliJson(db, 'doctor', '--json')).map((check: { name: string }) => check.name)).not.toContain('logo');

    // As an earlier planner kept it: the same row, the bytes of a file that declares 100,000 × 100,000.
    const handle = new DatabaseSync(db);
    handle
      .prepare('UPDATE booking_logo SET bytes = ?')
      .run(pngDeclaring(pngOf(120, 40, [10, 110, 79]), 100_000, 100_000));
    handle.close();
    const doctor = await cli(db, 'doctor');
    expect(doctor.stdout).toContain(
      "warn  logo        the booking page's logo is 100000 × 100000 pixels; the page takes at most 2000 on a side: scale it down (a logo of about 400 pixels wide is enough), then planner booking-page enable --logo <file> (or --logo none)\n",
    );
  });
});
