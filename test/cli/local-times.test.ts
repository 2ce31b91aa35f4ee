/**
 * Every time a person reads is local, in the practice's zone, with the zone: `audit` (its --from a
 * local day too), `doctor` (clock, token, calendars) and `status` (the token, calendars), where they printed UTC ISO
 * (`2026-11-25T19:03:09.000Z`). `--json` stays as documented: ISO instants in UTC.
 */
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookableDb, cli, cliJson, cliOk, tempDb } from '../helpers.ts';

/** An ISO instant as toISOString writes it, anywhere in a text. */
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('times a person reads', () => {
  const db = tempDb();
  beforeAll(async () => {
    await bookableDb(db);
    const raw = new DatabaseSync(db);
    // Written as planner writes them (UTC ISO), at instants the test knows: 20:03:09 in Berlin; the second is
    // 00:30 on the 25th in Berlin, still the 24th in UTC.
    raw.exec(`
      UPDATE settings SET token_created_at = '2026-11-25T19:03:09.000Z';
      INSERT INTO audit_log (at, actor, os_user, action, booking_id, reference, detail)
        VALUES ('2026-11-25T19:03:09.000Z', 'admin', 'desk', 'bookings cancel', NULL, NULL, ''),
               ('2026-11-24T23:30:00.000Z', 'api', NULL, 'booking created', 7, 'AUDITREF00000007', '');
      INSERT INTO calendars (schedule_id, label, kind, url, every_minutes, created_at, synced_at, tried_at, failing_since, last_error)
        VALUES (1, 'Anna', 'ics', 'https://calendar.example/anna.ics', 15, '2026-11-01T00:00:00.000Z',
          ${Date.parse('2026-11-24T08:00:00Z') / 1000}, ${Date.parse('2026-11-25T19:03:09Z') / 1000},
          ${Date.parse('2026-11-25T19:03:09Z') / 1000}, 'HTTP 503');
    `);
    raw.close();
  });

  it('audit: local times to the second, the zone in the header; --from is a local day; --json keeps UTC', async () => {
    const text = await cliOk(db, 'audit', '--from', '2026-11-25');
    expect(text).not.toMatch(ISO);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT \(Europe\/Berlin\) +BY +WHAT$/);
    // 00:30 on the 25th in Berlin is in; so is 20:03:09.
    expect(lines[1]).toMatch(/^2026-11-25 00:30:00 +api +booking created 7 AUDITREF00000007$/);
    expect(lines[2]).toMatch(/^2026-11-25 20:03:09 +admin \(desk\) +bookings cancel$/);
    expect((await cliOk(db, 'audit', '--from', '2026-11-26')).split('\n')).not.toContainEqual(
      expect.stringContaining('2026-11-25'),
    );
    const json = await cliJson<any[]>(db, 'audit', '--from', '2026-11-25');
    expect(json.slice(0, 2).map((entry) => entry.at)).toEqual(['2026-11-24T23:30:00.000Z', '2026-11-25T19:03:09.000Z']);
  });

  it('status: the token and the calendars in local time with the zone; --json keeps UTC', async () => {
    const text = await cliOk(db, 'status');
    expect(text).not.toMatch(ISO);
    expect(text).toMatch(/^api +enabled · token present \(created 2026-11-25 20:03 Europe\/Berlin\) · /m);
    expect(text).toMatch(/^calendars +1 Anna \(schedule 1, ics\) · FAILING since 2026-11-25 20:03 Europe\/Berlin: /m);
    expect((await cliJson(db, 'status')).api.tokenCreatedAt).toBe('2026-11-25T19:03:09.000Z');
  });

  it('doctor: the clock to the second, the token and the calendars in local time with the zone', async () => {
    const { stdout } = await cli(db, 'doctor'); // exit 1: the failing calendar
    expect(stdout).not.toMatch(ISO);
    expect(stdout).toMatch(/^ok +clock +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} Europe\/Berlin$/m);
    expect(stdout).toMatch(/^ok +token +present, made 2026-11-25 20:03 Europe\/Berlin$/m);
    expect(stdout).toMatch(/^fail +calendar 1 +Anna: failing since 2026-11-25 20:03 Europe\/Berlin: HTTP 503; /m);
  });
});
