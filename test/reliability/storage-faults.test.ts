import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { api, bookableDb, onCleanup, serve, tempDir } from '../helpers.ts';

/**
 * Real faults where this machine allows them (root: a 3 MiB tmpfs to fill, `chattr +i` on ext4 to make the open
 * files read-only). Where it does not, the same answers are forced at the store boundary with a trigger raising
 * SQLite's "database or disk is full", and the test says so on stderr.
 */
function tryRun(command: string, ...args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Rows per table; `outbox` counts the booking's mails, `reminders` its reminders (one when it lies more than 48 h ahead, the default). */
function counts(db: string): { bookings: number; customers: number; outbox: number; reminders: number } {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const one = (table: string) => (handle.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      bookings: one('bookings'),
      customers: one('customers'),
      outbox: one("outbox WHERE kind <> 'reminder'"),
      reminders: one("outbox WHERE kind = 'reminder'"),
    };
  } finally {
    handle.close();
  }
}

/** Fills the file system of `dir` until it has no room left; returns the filler's path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let i = 0; i < 10_000; i++) writeSync(fd, chunk); // bounded: 640 MiB, far more than the 3 MiB disk
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // Smaller pieces fill what a 64 KiB chunk could not.
  const rest = openSync(join(dir, 'filler-rest'), 'w');
  try {
    for (let i = 0; i < 100_000; i++) writeSync(rest, Buffer.alloc(512, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(rest);
  }
  return path;
}

/**
 * True when `chattr +i` in `dir` refuses writes through a file descriptor opened before (as the server's are):
 * ext4 as root does; tmpfs and other users may not.
 */
function immutableWorks(dir: string): boolean {
  const probe = join(dir, 'probe');
  const fd = openSync(probe, 'w');
  try {
    if (!tryRun('chattr', '+i', probe)) return false;
    try {
      writeSync(fd, 'x');
      return false;
    } catch {
      return true;
    }
  } finally {
    tryRun('chattr', '-i', probe);
    closeSync(fd);
    rmSync(probe);
  }
}

/** A running server on a bookable installation in `dir`, with helpers to book and to read every GET. */
async function servedIn(dir: string) {
  const db = join(dir, 'planner.db');
  const token = await bookableDb(db);
  const server = await serve(db, {}, ['--log', 'off']);
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const slots = (await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
  const book = (slot: string, n: number) =>
    api(server.url, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot,
        submission: { first_name: 'F', last_name: `${n}`, email: `f${n}@example.com` },
      }),
    });
  const reads = async () => {
    for (const path of [
      '/api/schedules',
      '/api/reasons?schedule=1',
      '/api/days?schedule=1&reason=1',
      `/api/slots?schedule=1&reason=1&day=${days[2]}`,
      `/api/forms?schedule=1&reason=1&slot=${encodeURIComponent(slots.at(-1)!)}`,
    ]) {
      expect((await api(server.url, path, token)).status, path).toBe(200);
    }
  };
  /** Stops the server and checks: each failure logged as one line without a stack, the file intact. */
  const finish = async (failures: number) => {
    expect(await server.stop()).toBe(0);
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('could not be saved')).length,
    ).toBe(failures);
    expect(server.output()).not.toMatch(/\n\s+at /);
    const handle = new DatabaseSync(db, { readOnly: true });
    expect(handle.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    handle.close();
  };
  /**
   * With the fault on (`undo` lifts it): three bookings answer 500 JSON and write nothing, every GET answers 200;
   * once lifted, the next booking succeeds with its customer and both messages; the log and file are clean.
   */
  const refusedThenRecovered = async (from: number, undo: () => void) => {
    const before = counts(db);
    for (let i = from; i < from + 3; i++) {
      const answer = await book(slots[i]!, i);
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: 'The booking could not be saved' });
    }
    await reads();
    expect(counts(db)).toEqual(before);
    undo();
    expect((await book(slots[from]!, 100)).status).toBe(201);
    expect(counts(db)).toMatchObject({
      bookings: before.bookings + 1,
      customers: before.customers + 1,
      outbox: before.outbox + 2,
    });
    await finish(3);
  };
  return { db, slots, book, refusedThenRecovered };
}

/** Where the machine cannot make the fault, forces the same SQLite error at the store boundary; returns the undo. */
function simulate(db: string, what: string, sqliteError: string): () => void {
  process.stderr.write(`storage faults: ${what} simulated with a trigger (this machine cannot make it for real)\n`);
  const raw = new DatabaseSync(db, { timeout: 5000 }); // a running server may hold the write lock a moment
  raw.exec(`CREATE TRIGGER fail_insert BEFORE INSERT ON bookings BEGIN SELECT RAISE(FAIL, '${sqliteError}'); END`);
  raw.close();
  return () => {
    const again = new DatabaseSync(db, { timeout: 5000 });
    again.exec('DROP TRIGGER fail_insert');
    again.close();
  };
}

describe('storage faults', () => {
  it('disk full: POST answers 500 JSON and writes nothing, GETs keep working, and it recovers when space is back', async () => {
    const dir = join(tempDir(), 'disk');
    mkdirSync(dir);
    const real = tryRun('mount', '-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir);
    if (real) onCleanup(() => tryRun('umount', '-l', dir));
    const { db, refusedThenRecovered } = await servedIn(dir);
    let undo: () => void;
    if (real) {
      const filler = fill(dir);
      undo = () => {
        rmSync(filler);
        rmSync(join(dir, 'filler-rest'));
      };
    } else {
      undo = simulate(db, 'disk full', 'database or disk is full');
    }
    await refusedThenRecovered(0, undo);
  });

  it('read-only files under the running server: POST answers 500 JSON, GETs keep working, it recovers', async () => {
    const dir = tempDir();
    const { db, slots, book, refusedThenRecovered } = await servedIn(dir);
    expect((await book(slots[0]!, 0)).status).toBe(201); // the WAL exists and holds a write
    const files = ['planner.db', 'planner.db-wal'].map((name) => join(dir, name));
    let undo: () => void;
    if (immutableWorks(dir)) {
      expect(tryRun('chattr', '+i', ...files)).toBe(true);
      onCleanup(() => tryRun('chattr', '-i', ...files));
      undo = () => expect(tryRun('chattr', '-i', ...files)).toBe(true);
    } else {
      undo = simulate(db, 'read-only', 'attempt to write a readonly database');
    }
    await refusedThenRecovered(1, undo);
  });
});
