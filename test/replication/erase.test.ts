/**
 * `planner customer erase` while Litestream replicates.
 * Planner leaves the WAL of a replicated file to Litestream (`truncateWal` in src/store/personal-data.ts;
 * CONTRIBUTING: "Planner and Litestream" says why): the erase neither waits for Litestream's read transaction nor
 * truncates the WAL in the moment Litestream checkpoints. Bookings stream in during the erases; Litestream and planner
 * are killed; each replica restored is the file as it was, table by table; and the replica still holds what was
 * erased, for a restore to a moment before the erase, until its retention removes it (README: "Personal data (GDPR)").
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliOk, snapshot, tempDb, tempDir } from '../helpers.ts';
import {
  expectRestoredWhole,
  killed,
  LITESTREAM,
  litestreamConfig,
  type Replicated,
  removeNewestWalFile,
  restore,
  serveReplicated,
  startSftp,
} from './parts.ts';

const ERASED = ['Erika', 'Jonas', 'Mira'].map((name) => ({
  first_name: name,
  last_name: `Gone${name}`,
  email: `${name.toLowerCase()}.gone@example.com`,
}));

describe('customer erase while Litestream replicates', () => {
  it('keeps every other booking whole in both replicas, Litestream in one generation, and the erased data restorable from before the erase only', async () => {
    const db = tempDb();
    const token = await bookableDb(db, { schedules: [{ stepMinutes: 5, capacity: 1000 }] });
    await cliOk(db, 'api', 'limit', '1000000');
    const sftp = await startSftp();
    const folder = join(tempDir(), 'replica');
    // Litestream checkpoints at every sync here (a WAL of one page is enough), as it does under a steady stream of
    // bookings at its default of 1000 pages: a TRUNCATE from planner then meets Litestream's checkpoint whenever it
    // tries, the moment it could succeed in.
    const config = litestreamConfig(
      db,
      { sftp, folder },
      { 'checkpoint-interval': '1ms', 'min-checkpoint-page-count': '1' },
    );
    const live = await serveReplicated(db, config);
    await live.waitFor(/snapshot written.*replica=sftp/);
    await live.waitFor(/snapshot written.*replica=file/);
    const days = (await api(live.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(live.url, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
    const acknowledged: string[] = [];
    const book = async (i: number, submission: Record<string, string>) => {
      const answer = await api(live.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schedule: 1, reason: 1, slot: slots[i % slots.length], submission }),
      });
      expect(answer.status).toBe(201);
      acknowledged.push(answer.body.booking_details_id as string);
    };
    for (const [i, person] of ERASED.entries()) for (const n of [0, 1]) await book(2 * i + n, person);
    // The moment before the erases, once both replicas hold those bookings.
    await shipped(live, shadowIndex(db));
    const beforeErase = new Date().toISOString();

    // A stream of other customers' bookings, while the three erases run one after another.
    let streaming = true;
    const stream = (async () => {
      for (let i = 0; streaming && i < 2000; i++)
        await book(i, { first_name: 'Kept', last_name: `Keeper${i}`, email: `keeper${i % 25}@example.com` });
    })();
    const erases: { ms: number; stdout: string; stderr: string }[] = [];
    for (const person of ERASED) {
      const started = performance.now();
      // Without mails to the customer: the cancellation mails an erase queues keep the customer's data while no mail
      // server takes them (issue 36, item 7, is that case); this test is about the WAL and the replicas.
      const result = await cli(db, 'customer', 'erase', person.email, '--yes', '--no-notify');
      expect(result.code, result.stderr).toBe(0);
      erases.push({ ms: Math.round(performance.now() - started), stdout: result.stdout, stderr: result.stderr });
    }
    streaming = false;
    await stream;
    process.stderr.write(
      `erase while replicating: ${erases.map((erase) => `${erase.ms} ms`).join(', ')}; ${acknowledged.length} bookings acknowledged\n`,
    );
    // Both replicas have everything written before now: the last booking and the last erase.
    await shipped(live, shadowIndex(db));

    process.kill(live.serverPid, 'SIGKILL');
    await killed(live.litestream, 'SIGKILL');
    // Litestream never lost its place: one generation, no sync that failed (a TRUNCATE under Litestream's checkpoint
    // fails it with "database is locked", and may start a new generation: a full snapshot).
    const said = live.output();
    expect(said.match(/new generation.*/g)).toEqual([expect.stringContaining('reason="no generation exists"')]);
    expect(said.match(/level=ERROR.*/g) ?? []).toEqual([]);
    for (const erase of erases) {
      // No wait for Litestream's read transaction (the busy timeout, 5 s), no warning: the WAL is Litestream's.
      expect(erase.stderr).toBe('');
      expect(erase.stdout).toContain(
        'Litestream replicates this file (its table _litestream_seq is in it): its replica and the WAL keep the erased data until Litestream replaces them',
      );
    }
    // What the file held when both died, then the disk is gone.
    const truth = join(tempDir(), 'truth.db');
    for (const suffix of ['', '-wal'])
      if (existsSync(`${db}${suffix}`)) copyFileSync(`${db}${suffix}`, `${truth}${suffix}`);
    const expected = snapshot(truth);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    // Litestream's own counter may be a write ahead of the replica: the only row that may differ.
    const ours = (tables: Record<string, unknown[]>) =>
      Object.fromEntries(Object.entries(tables).filter(([name]) => name !== '_litestream_seq'));

    // Where a name stands in a file, by page (4 KiB), to tell a failure's where: the live file's bytes too.
    const pagesWith = (text: string, name: string) =>
      [...text.matchAll(new RegExp(name, 'g'))].map((match) => Math.floor(match.index / 4096) + 1);
    const [liveFile, liveWal] = ['', '-wal'].map((suffix) =>
      existsSync(`${truth}${suffix}`) ? readFileSync(`${truth}${suffix}`).toString('latin1') : '',
    );
    for (const replica of ['sftp', 'file'] as const) {
      const restored = join(tempDir(), 'planner.db');
      let removedWal: string | undefined;
      try {
        restore(config, db, replica, restored);
      } catch (error) {
        // Litestream 0.3.13 writes a WAL file on an SFTP server in place: the kill can cut the newest one off (here it
        // holds only Litestream's own counter, written at every checkpoint). README's recovery: remove it, restore again.
        if (replica !== 'sftp') throw error;
        removedWal = removeNewestWalFile(sftp.folder('replica'));
        rmSync(`${restored}.tmp`, { force: true });
        restore(config, db, replica, restored);
      }
      const handle = new DatabaseSync(restored, { readOnly: true });
      expectRestoredWhole(
        (handle.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check,
        replica,
      );
      const references = new Set(
        (handle.prepare('SELECT reference FROM bookings').all() as { reference: string }[]).map((row) => row.reference),
      );
      expect(
        acknowledged.filter((reference) => !references.has(reference)),
        `bookings missing from ${replica}`,
      ).toEqual([]);
      handle.close();
      // Every booking of the others whole, the erased ones erased, every table as the file had it.
      expect(ours(snapshot(restored)), replica).toEqual(ours(expected));
      const bytes = readFileSync(restored).toString('latin1');
      // What owns a page (dbstat: a table's or an index's, and its type; a free page is in none).
      const ownerOf = (page: number) => {
        const owner = new DatabaseSync(restored, { readOnly: true });
        try {
          const row = owner.prepare('SELECT name, pagetype FROM dbstat WHERE pageno = ?').get(page) as
            | { name: string; pagetype: string }
            | undefined;
          return row ? `${row.name} ${row.pagetype}` : 'free';
        } finally {
          owner.close();
        }
      };
      for (const person of ERASED) {
        const pages = pagesWith(bytes, person.last_name);
        expect(
          pages.map((page) => `page ${page}: ${ownerOf(page)}`),
          `${person.last_name} in the file restored from ${replica} (the live file: pages ${pagesWith(liveFile!, person.last_name).join(', ') || 'none'}, its WAL ${pagesWith(liveWal!, person.last_name).length} time(s); newest WAL file removed first: ${removedWal ?? 'no'})`,
        ).toEqual([]);
      }
      expect(bytes).toContain('Keeper0');
    }

    // The replica keeps what was erased until its retention removes it: a restore to before the erases brings it back.
    const earlier = join(tempDir(), 'earlier.db');
    const run = spawnSync(
      LITESTREAM,
      ['restore', '-config', config, '-replica', 'file', '-timestamp', beforeErase, '-o', earlier, db],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const old = new DatabaseSync(earlier, { readOnly: true });
    const names = (
      old.prepare("SELECT json_extract(submission, '$.last_name') AS name FROM bookings").all() as { name: string }[]
    ).map((row) => row.name);
    old.close();
    expect(names.filter((name) => name.startsWith('Gone'))).toEqual([
      'GoneErika',
      'GoneErika',
      'GoneJonas',
      'GoneJonas',
      'GoneMira',
      'GoneMira',
    ]);
  }, 120_000);

  it('leaves the replica once no snapshot and no WAL file kept from before the erase is within its retention', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const folder = join(tempDir(), 'replica');
    // deploy/litestream.yml's week and day scaled to seconds (kept 3 s, a snapshot every second, looked at every
    // second), and Litestream checkpointing at every sync, so that its WAL files turn over as a day's bookings do.
    const config = litestreamConfig(
      db,
      { folder },
      { 'checkpoint-interval': '1ms', 'min-checkpoint-page-count': '1' },
      { retention: '3s', 'snapshot-interval': '1s', 'retention-check-interval': '1s' },
    );
    const live = await serveReplicated(db, config);
    await live.waitFor(/snapshot written.*replica=file/);
    const days = (await api(live.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(live.url, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
    for (const slot of slots.slice(0, 2)) {
      const answer = await api(live.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schedule: 1, reason: 1, slot, submission: ERASED[0] }),
      });
      expect(answer.status).toBe(201);
    }
    await shipped(live, shadowIndex(db), ['file']);
    const beforeErase = new Date().toISOString();
    expect((await cli(db, 'customer', 'erase', ERASED[0]!.email, '--yes', '--no-notify')).code).toBe(0);
    const erasedAt = performance.now();
    // Everything written before the erase returned is in Litestream's WAL files up to this index (it copies what is
    // pending before it starts the next one): once the replica keeps no snapshot and no WAL file of an index up to it,
    // nothing of before the erase is in the replica. Litestream logs each deletion; look after each (bounded).
    const last = shadowIndex(db);
    const kept = () =>
      [...listed(config, db, 'snapshots'), ...listed(config, db, 'wal')].filter((index) => index <= last).length;
    for (let deletions = 0; kept() > 0 && deletions < 200; deletions++)
      await logged(live, /snapshot deleted|wal segmented deleted/, 1);
    const seconds = (performance.now() - erasedAt) / 1000;
    process.stderr.write(
      `retention: the erased data left the replica ${seconds.toFixed(1)} s after the erase (retention 3 s, a snapshot every 1 s)\n`,
    );
    expect(kept()).toBe(0);
    // retention + snapshot-interval + the check's interval, and a margin for a busy machine.
    expect(seconds).toBeLessThan(3 + 1 + 1 + 5);
    // No restore to a moment before the erase is possible any more.
    const earlier = join(tempDir(), 'earlier.db');
    const run = spawnSync(
      LITESTREAM,
      ['restore', '-config', config, '-replica', 'file', '-timestamp', beforeErase, '-o', earlier, db],
      { encoding: 'utf8' },
    );
    expect(run.status).not.toBe(0);
    expect(existsSync(earlier)).toBe(false);
  }, 60_000);
});

/** The WAL index of each snapshot (`snapshots`) or WAL file (`wal`) the replicas hold, as `litestream` lists them. */
function listed(config: string, db: string, what: 'snapshots' | 'wal'): number[] {
  const run = spawnSync(LITESTREAM, [what, '-config', config, db], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`litestream ${what} failed: ${run.stderr}`);
  // Columns: replica, generation, index, then offset and size or size, then created.
  return run.stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => Number(line.trim().split(/\s+/)[2]));
}

/** The index of the WAL file Litestream is copying the database's WAL into now (its folder beside the database). */
function shadowIndex(db: string): number {
  const meta = join(dirname(db), `.${basename(db)}-litestream`);
  const generation = readFileSync(join(meta, 'generation'), 'utf8').trim();
  return Math.max(...readdirSync(join(meta, 'generations', generation, 'wal')).map((name) => parseInt(name, 16)));
}

/**
 * Resolves once each replica has been sent every WAL file up to `index`: Litestream sends them in order and logs each
 * part with its start (`position=<generation>/<index>:<offset>`), so a part of a later index says so.
 */
function shipped(live: Replicated, index: number, replicas = ['sftp', 'file']): Promise<void> {
  const waiting = new Set(replicas);
  return logged(live, (line) => {
    const match = /wal segment written.*replica=(\w+) position=\w+\/([0-9a-f]+):/.exec(line);
    if (match && parseInt(match[2]!, 16) > index) waiting.delete(match[1]!);
    return waiting.size === 0;
  });
}

/**
 * Resolves once Litestream has logged `count` more lines matching `pattern`, or a line for which `pattern` (a
 * function) says done (read line by line as they come, not by searching the whole log again); rejects if Litestream
 * exits first.
 */
function logged(live: Replicated, pattern: RegExp | ((line: string) => boolean), count = 1): Promise<void> {
  let seen = 0;
  let partial = '';
  const counts = typeof pattern === 'function' ? pattern : (line: string) => pattern.test(line) && ++seen >= count;
  return new Promise((resolve, reject) => {
    const streams = [live.litestream.stdout!, live.litestream.stderr!];
    const finish = (error?: Error) => {
      for (const stream of streams) stream.off('data', read);
      live.litestream.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const read = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      if (lines.some((line) => counts(line))) finish();
    };
    const exited = () => finish(new Error(`litestream exited while the test waited for ${pattern}:\n${live.output()}`));
    for (const stream of streams) stream.on('data', read);
    live.litestream.once('exit', exited);
  });
}
