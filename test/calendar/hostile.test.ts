/**
 * The calendars an outside probe built to stall or crash the server, each synced the way `planner serve`
 * syncs (test/calendar/sync-probe.ts, a process of its own running the server's `syncCalendars` on the file), each
 * with the longest time the event loop was held during its sync (at most 50 ms, as CPU time of the main thread, so
 * that a loaded machine taking the CPU away cannot trip it) and the peak memory of the sync:
 * - a VTIMEZONE whose parts repeat HOURLY from 1601 (held the server 37 s and took 1.8 GB; MINUTELY ran out of
 *   memory): the read fails with one line, and the busy times read before stay;
 * - one event from 2020 to 9999 (2,914,634 rows, 20.7 s, 535 MB): the window's days, a row each;
 * - FREQ=SECONDLY without end (its first 5,000 seconds blocked, the rest offered): the read fails, nothing freed;
 * - 580,000 EXDATEs in one event (held it 6.4–7.3 s): read, a value at a time;
 * - 900 KiB of unclosed `<cs:getctag>` in a CalDAV answer (held it 11–13 s): the fetch fails with one line.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { addCalendar } from '../../src/app/calendars/calendars.ts';
import { dueCalendars, listCalendars } from '../../src/store/calendars.ts';
import { openStore } from '../../src/store/db.ts';
import { api, apiBook, bookableDb, cli, onCleanup, ROOT, serve, tempDb } from '../helpers.ts';
import { practice } from '../practice.ts';
import { startIcsServer } from './ics-server.ts';

const NOW = '2026-12-01T08:00:00Z';
const DAYS_AHEAD = 60;
/** The longest the event loop may be held by a sync (issue 36). */
const HOLD_LIMIT_MS = 50;

const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//hostile//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];
const stamp = (at: number) => `${new Date(at * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
/** Folds a content line at 75 octets, as RFC 5545 §3.1 has writers do. */
const fold = (line: string) => line.replace(/(.{74})(?=.)/g, '$1\r\n ');

/** A calendar the sync reads well: one event, the busy time that must stay when the hostile one fails. */
const GOOD = calendar(...vevent('UID:seminar', 'DTSTART:20261203T090000Z', 'DTEND:20261203T170000Z'));

const HOSTILE = {
  'a VTIMEZONE repeating HOURLY from 1601': calendar(
    'BEGIN:VTIMEZONE',
    'TZID:Hostile Zone',
    'BEGIN:STANDARD',
    'DTSTART:16010101T000000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0000',
    'RRULE:FREQ=HOURLY',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:16010101T003000',
    'TZOFFSETFROM:+0000',
    'TZOFFSETTO:+0100',
    'RRULE:FREQ=HOURLY',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
    ...vevent('UID:zoned', 'DTSTART;TZID=Hostile Zone:20261204T090000', 'DTEND;TZID=Hostile Zone:20261204T100000'),
  ),
  'one event from 2020 to 9999': calendar(
    ...vevent('UID:forever', 'DTSTART:20200101T000000Z', 'DTEND:99991231T000000Z'),
  ),
  'FREQ=SECONDLY without end': calendar(
    ...vevent('UID:seconds', 'DTSTART:20261201T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY'),
  ),
  '580,000 EXDATEs in one event': (() => {
    const values = Array.from({ length: 580_000 }, (_, i) => stamp(Date.UTC(2020, 0, 1, 9) / 1000 + i * 60));
    values.push('20261205T090000Z'); // one of them within the window: that day is free
    return calendar(
      ...vevent(
        'UID:exdates',
        'DTSTART:20200101T090000Z',
        'DURATION:PT1H',
        'RRULE:FREQ=DAILY',
        fold(`EXDATE:${values.join(',')}`),
      ),
    );
  })(),
} as const;

/** A file with one schedule (60 days ahead) whose calendar 1 reads `url`, synced once; returns the file. */
async function fileWithCalendar(url: string): Promise<string> {
  const file = tempDb();
  const { store, ctx } = practice({ clock: { now: new Date(NOW) }, file, schedules: [{ daysAhead: DAYS_AHEAD }] });
  expect(await addCalendar(ctx, 1, url, { label: 'Anna', allowInsecure: true })).toMatchObject({ state: 'ok' });
  store.close();
  return file;
}

interface Probe {
  ok: boolean;
  error: string | null;
  ms: number;
  holdCpuMs: number;
  holdWallMs: number;
  peakMiB: number;
  rows: number;
}

/** Syncs calendar 1 of `file` in a process of its own (sync-probe.ts) and returns what it measured. */
function probe(file: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [`${ROOT}/test/calendar/sync-probe.ts`, file, NOW, '1'],
      { timeout: 120_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`sync-probe failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as Probe);
      },
    );
  });
}

const report = (name: string, result: Probe) =>
  process.stderr.write(
    `hostile calendar "${name}": ${result.ok ? `read, ${result.rows} busy row(s)` : `failed: ${result.error}`}; ${result.ms} ms; loop held at most ${result.holdCpuMs} ms (CPU; ${result.holdWallMs} ms wall); peak +${result.peakMiB} MiB\n`,
  );

describe('hostile calendars: bounded time and memory, one line when planner cannot read them (issue 36)', () => {
  it.each([
    [
      'a VTIMEZONE repeating HOURLY from 1601',
      /^the calendar's time zone "Hostile Zone" changes by a rule that needs more than 5,000 steps: planner reads at most that much of a time zone$/,
    ],
    ['one event from 2020 to 9999', undefined],
    [
      'FREQ=SECONDLY without end',
      /^an event repeats by a rule planner cannot expand in full \(RRULE:FREQ=SECONDLY\): it gives more than 5,000 occurrences in the schedule's window; change or remove that event$/,
    ],
    ['580,000 EXDATEs in one event', undefined],
  ] as const)(
    '%s',
    async (name, failure) => {
      const ics = await startIcsServer();
      ics.set('/anna.ics', GOOD);
      const file = await fileWithCalendar(`${ics.url}/anna.ics`);
      ics.set('/anna.ics', HOSTILE[name]);
      const result = await probe(file);
      report(name, result);
      expect(result.holdCpuMs).toBeLessThanOrEqual(HOLD_LIMIT_MS);
      expect(result.peakMiB).toBeLessThan(200);
      if (failure) {
        expect(result).toMatchObject({ ok: false, rows: 1 }); // the seminar read before still blocks
        expect(result.error).toMatch(failure);
      } else {
        expect(result).toMatchObject({ ok: true, error: null });
        // The window: a day back to a day past the look-ahead, and a day read ahead (app/calendars/calendars.ts): a row a day.
        expect(result.rows).toBeGreaterThanOrEqual(DAYS_AHEAD);
        expect(result.rows).toBeLessThanOrEqual(DAYS_AHEAD + 5); // pieces are cut at UTC midnights
      }
      if (name === '580,000 EXDATEs in one event') {
        const store = openStore(file, { mustExist: true, readOnly: true });
        const starts = (
          store.db.prepare('SELECT start_at AS startAt FROM busy_times ORDER BY start_at').all() as {
            startAt: number;
          }[]
        ).map((row) => stamp(row.startAt));
        store.close();
        expect(starts).toContain('20261204T090000Z');
        expect(starts).not.toContain('20261205T090000Z'); // the one excluded date within the window
        expect(starts).toContain('20261206T090000Z');
      }
    },
    180_000,
  );

  it('900 KiB of unclosed <cs:getctag> in a CalDAV answer', async () => {
    let hostile = false;
    const event = GOOD.replace(/\r\n/g, '\n').replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const caldav = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
        const open =
          '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/</d:href><d:propstat><d:prop>';
        if (request.method === 'PROPFIND' && hostile)
          return response.end(
            `${open}<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>${'<cs:getctag>'.repeat((900 * 1024) / 12)}`,
          );
        if (request.method === 'PROPFIND')
          return response.end(
            `${open}<d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>1</cs:getctag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
          );
        response.end(
          `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/seminar.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag><c:calendar-data>${event}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
        );
      });
    });
    caldav.listen(0, '127.0.0.1');
    await once(caldav, 'listening');
    onCleanup(() => caldav.close());
    const file = await fileWithCalendar(`http://127.0.0.1:${(caldav.address() as AddressInfo).port}/cal/`);
    hostile = true;
    const result = await probe(file);
    report('900 KiB of unclosed <cs:getctag>', result);
    expect(result.holdCpuMs).toBeLessThanOrEqual(HOLD_LIMIT_MS);
    expect(result.peakMiB).toBeLessThan(200);
    expect(result).toMatchObject({ ok: false, rows: 1 });
    expect(result.error).toMatch(
      /^127\.0\.0\.1:\d+: its answer is not XML planner can read \(elements nested more than 32 deep\)$/,
    );
  }, 180_000);
});

describe('a sync never fails a booking, and a sync cut off is not retried in a tight loop (issue 36)', () => {
  it('bookings made while `calendar add` reads an event from 2020 to 9999 are answered 201 or 404, never 500', async () => {
    const ics = await startIcsServer();
    ics.set('/forever.ics', HOSTILE['one event from 2020 to 9999']);
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots: string[] = [];
    for (const day of days.slice(1, 9))
      slots.push(
        ...((await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[]),
      ); // whole days, whatever the hour
    expect(slots.length).toBeGreaterThan(100);
    const adding = cli(db, 'calendar', 'add', '1', `${ics.url}/forever.ics`, '--allow-insecure');
    let done = false;
    void adding.then(() => (done = true));
    const statuses: number[] = [];
    for (const slot of slots) {
      if (done) break;
      const answer = await apiBook(server.url, token, slot);
      statuses.push(answer.status);
      await new Promise((resolve) => setTimeout(resolve, 50)); // a booking every 50 ms or so, all through the add (20 s before the fix)
    }
    const added = await adding;
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 201 && status !== 404)).toEqual([]);
    const raw = new DatabaseSync(db, { readOnly: true });
    const rows = (raw.prepare('SELECT count(*) AS n FROM busy_times').get() as { n: number }).n;
    raw.close();
    expect(rows).toBeLessThanOrEqual(30 + 5); // the window's days (30 ahead), not 2.9 million
    process.stderr.write(
      `calendar add of an event from 2020 to 9999 beside ${statuses.length} bookings: ${rows} busy rows; answers ${[...new Set(statuses)].join(', ')}\n`,
    );
    await server.stop();
  }, 120_000);

  it('a sync is tried from its start: killed in the middle, the calendar is next due after its interval, not at once', async () => {
    const ics = await startIcsServer();
    ics.set('/anna.ics', GOOD);
    const file = await fileWithCalendar(`${ics.url}/anna.ics`);
    ics.hang('/anna.ics');
    const child = spawn(process.execPath, [`${ROOT}/test/calendar/sync-probe.ts`, file, '2026-12-01T09:00:00Z', '1'], {
      stdio: 'ignore',
    });
    for (let waited = 0; !ics.requests.some((request) => request.status === 0) && waited < 200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ics.requests.at(-1)).toMatchObject({ method: 'GET', status: 0 }); // the fetch hangs: the sync is in the middle
    const killed = once(child, 'exit');
    child.kill('SIGKILL');
    await killed;
    const store = openStore(file, { mustExist: true });
    const at = (iso: string) => Date.parse(iso) / 1000;
    const [calendar] = listCalendars(store);
    expect(calendar).toMatchObject({ triedAt: at('2026-12-01T09:00:00Z'), syncedAt: at(NOW), everyMinutes: 5 });
    // What a restarted server asks: not due within the interval after the cut-off try, due after it.
    expect(dueCalendars(store, at('2026-12-01T09:04:59Z'))).toEqual([]);
    expect(dueCalendars(store, at('2026-12-01T09:05:00Z')).map((due) => due.id)).toEqual([1]);
    store.close();
  }, 60_000);
});
