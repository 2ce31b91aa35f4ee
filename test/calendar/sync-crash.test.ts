/**
 * A sync replaces a calendar's busy times in one transaction: a kill -9 in the middle leaves the previous
 * set whole. `planner calendar sync` as a real process, killed with SIGKILL at moments spread over its run (the
 * fetch, the read of 20,000 events, the write), each time with a calendar whose every event moved: afterwards the
 * file holds exactly the old set or exactly the new one, never a mix, and passes integrity_check.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { BIN, bookableDb, cliOk, ROOT, tempDb } from '../helpers.ts';
import { startIcsServer } from './ics-server.ts';

/** A calendar of `count` half-hour events, one every 30 minutes from 2 days after `base`, shifted by `shift` minutes. */
function calendar(base: number, count: number, shift: number): string {
  const stamp = (at: number) => new Date(at * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//planner tests//EN'];
  for (let i = 0; i < count; i++) {
    const start = base + 2 * 86_400 + i * 1800 + shift * 60;
    lines.push(
      'BEGIN:VEVENT',
      `UID:e${i}`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(start + 900)}`,
      'END:VEVENT',
    );
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

describe('calendar sync killed with SIGKILL (issue 25)', () => {
  it('leaves the previous busy times whole, or the new ones whole, never a mix', async () => {
    const ics = await startIcsServer();
    const db = tempDb();
    await bookableDb(db, { schedules: [{ daysAhead: 500 }] }); // room for 20,000 half-hour steps (417 days)
    const base = Math.floor(Date.now() / 3_600_000) * 3600; // a whole hour: no event crosses a UTC midnight (one piece each)
    const sets = [calendar(base, 20_000, 0), calendar(base, 20_000, 5)];
    ics.set('/big.ics', sets[0]!);
    await cliOk(db, 'calendar', 'add', '1', `${ics.url}/big.ics`, '--allow-insecure');
    const busy = () => {
      const raw = new DatabaseSync(db, { readOnly: true });
      try {
        // What counts: the busy times of the calendar's generation (a killed sync may leave an unfinished one beside it).
        const counted = 'FROM busy_times t JOIN calendars c ON c.id = t.calendar_id AND c.generation = t.generation';
        return raw
          .prepare(`SELECT min(t.start_at) AS first, count(*) AS n, sum(t.start_at % 1800) AS shifted ${counted}`)
          .get() as { first: number; n: number; shifted: number };
      } finally {
        raw.close();
      }
    };
    const whole = [busy()];
    expect(whole[0]!.n).toBe(20_000);

    // A full sync's duration, unkilled, to spread the kills over it.
    ics.set('/big.ics', sets[1]!);
    let started = Date.now();
    await cliOk(db, 'calendar', 'sync', '1');
    let duration = Date.now() - started;
    whole.push(busy());
    expect(whole[1]!.shifted).not.toBe(whole[0]!.shifted);
    process.stderr.write(`sync of 20,000 events: ${duration} ms\n`);

    let current = 1;
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const next = 1 - current;
      ics.set('/big.ics', sets[next]!);
      started = Date.now();
      const child = spawn(process.execPath, [BIN, 'calendar', 'sync', '1', '--db', db], {
        cwd: ROOT,
        stdio: 'ignore',
        env: { ...process.env, PLANNER_DB: '' },
      });
      const exited = once(child, 'exit');
      // From halfway through an unkilled sync's time to just past it: the read, the write and the commit.
      const timer = setTimeout(() => child.kill('SIGKILL'), Math.round((0.5 + attempt * 0.08) * duration));
      const [code, signal] = await exited;
      clearTimeout(timer);
      // A sync that finished before its kill was faster than the first (which a busy machine can slow): aim by it.
      if (signal === null) duration = Math.min(duration, Date.now() - started);
      const after = busy();
      // Exactly one of the two whole sets, never a mix of them.
      expect([whole[0], whole[1]]).toContainEqual(after);
      const landed = after.shifted === whole[next]!.shifted;
      if (landed) current = next;
      outcomes.push(`${signal ?? code}:${landed ? 'new' : 'old'}`);
    }
    process.stderr.write(`kills: ${outcomes.join(' ')}\n`);
    expect(outcomes.filter((outcome) => outcome.startsWith('SIGKILL')).length).toBeGreaterThanOrEqual(3); // killed, not finished
    // A sync that finishes deletes what killed ones left: only the generation that counts stays.
    ics.set('/big.ics', sets[1 - current]!);
    await cliOk(db, 'calendar', 'sync', '1');
    const raw = new DatabaseSync(db, { readOnly: true });
    expect(raw.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(raw.prepare('SELECT count(*) AS n FROM busy_times').get()).toEqual({ n: 20_000 });
    raw.close();
  }, 180_000);
});
