/**
 * The README's "Your own calendar blocks times" block, run as written by a newcomer's shell (test/docs/readme.ts),
 * with only its two example addresses pointed at real servers of this test: the .ics address at a plain HTTP server
 * and the CalDAV address at Radicale, both on 127.0.0.1 and so with `--allow-insecure` (the guard refuses them
 * otherwise). The password comes from PLANNER_CALENDAR_PASSWORD, as the README's CLI reference says for scripts.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { commandsOf, newcomerEnv, readmeBlock } from '../docs/readme.ts';
import { bookableDb, cliJson, ROOT, tempDb } from '../helpers.ts';
import { startIcsServer } from './ics-server.ts';
import { startRadicale } from './radicale.ts';

const run = promisify(execFile);

/** A calendar with one event of an hour, `days` days after today at 10:00 UTC. */
function oneEvent(uid: string, days: number): string {
  const start = new Date(Math.floor(Date.now() / 86_400_000 + days) * 86_400_000 + 10 * 3_600_000);
  const stamp = (at: Date) => `${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const end = new Date(start.getTime() + 3_600_000);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner tests//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('README: Your own calendar blocks times', () => {
  it('its block runs as written against an .ics server and Radicale, and planner then sees both calendars', async () => {
    const ics = await startIcsServer();
    ics.set('/basic.ics', oneEvent('google-1', 2));
    const radicale = await startRadicale();
    await radicale.put('seminar.ics', oneEvent('nextcloud-1', 3));
    const db = tempDb();
    await bookableDb(db);
    const env = newcomerEnv({ PLANNER_DB: db, PLANNER_CALENDAR_PASSWORD: radicale.password });
    const lines = commandsOf(readmeBlock('Your own calendar blocks times', 'sh')).filter(
      (line) => !line.startsWith('#'),
    );
    expect(lines).toHaveLength(4);
    const outputs: string[] = [];
    for (const written of lines) {
      const line = written
        .replace(/'https:\/\/calendar\.example\.com\/[^']+'/, `'${ics.url}/basic.ics' --allow-insecure`)
        .replace(/https:\/\/cloud\.example\.com\/\S+/, `${radicale.url} --allow-insecure`)
        .replace(/--user anna/, `--user ${radicale.user}`);
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      outputs.push(result.stdout);
    }
    const calendars = await cliJson(db, 'calendar', 'list', '--json');
    expect(
      calendars.map((calendar: { label: string; kind: string; state: string; busy: number }) => [
        calendar.label,
        calendar.kind,
        calendar.state,
        calendar.busy,
      ]),
    ).toEqual([
      ['Anna (Google)', 'ics', 'ok', 1],
      ['Anna (Nextcloud)', 'caldav', 'ok', 1],
    ]);
    // `calendar busy 1 --days 7`: both events, each with its calendar; `calendar list`: both, ok, nothing secret.
    expect(outputs[2]).toMatch(/Anna \(Google\)/);
    expect(outputs[2]).toMatch(/Anna \(Nextcloud\)/);
    expect(outputs[3]).toMatch(/Anna \(Google\)[\s\S]*Anna \(Nextcloud\)/);
    expect(outputs.join('')).not.toContain(radicale.password);
    await radicale.stop();
  }, 120_000);
});
