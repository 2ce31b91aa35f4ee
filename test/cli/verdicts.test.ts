/**
 * `planner status` and `planner doctor` print one verdict per part, judged once (app/operations/health.ts): a
 * calendar no server has synced for hours is a warning in both (status printed it as ok), and doctor checks each
 * webhook as status lists it (it had no webhook check). Real CLI processes on a real file; the calendar an .ics
 * server of the test's, the webhook's delivery made to fail in the file.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { startIcsServer } from '../calendar/ics-server.ts';
import { bookableDb, cli, cliJson, cliOk, fieldArgs, tempDb } from '../helpers.ts';

const CALENDAR = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'END:VCALENDAR', ''].join('\r\n');

/** Runs `sql` on the file, as another program (or a long time) would have left it. */
function edit(db: string, sql: string): void {
  const raw = new DatabaseSync(db);
  raw.exec(sql);
  raw.close();
}

type Check = { name: string; status: string; detail: string };

describe('status and doctor print the same verdicts', () => {
  it('a calendar not synced for two hours (every 5 minutes): STALE in status, a warning in doctor', async () => {
    const ics = await startIcsServer();
    ics.set('/anna.ics', CALENDAR);
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'calendar', 'add', '1', `${ics.url}/anna.ics`, '--allow-insecure', '--every', '5');
    expect(await cliOk(db, 'status')).toMatch(/^calendars +1 127\.0\.0\.1 \(schedule 1, ics\) · ok · synced /m);
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    edit(db, `UPDATE calendars SET synced_at = ${twoHoursAgo}, tried_at = ${twoHoursAgo}`);
    expect(await cliOk(db, 'status')).toMatch(
      /^calendars +1 127\.0\.0\.1 \(schedule 1, ics\) · STALE: last synced \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin: is planner serve running\? \(planner calendar sync 1 syncs now\) · 0 busy time\(s\) in the window$/m,
    );
    const doctor = await cli(db, 'doctor', '--json');
    expect((JSON.parse(doctor.stdout) as Check[]).find((check) => check.name === 'calendar 1')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/: last synced .*: is planner serve running\?/),
    });
  });

  it('a webhook whose delivery failed: failing in status and in doctor, with its last error', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'webhook', 'add', 'https://hooks.example.com/planner');
    const [day] = (await cliJson(db, 'slots', '1', '1', '--days', '7', '--json')).days.filter(
      (one: { slots: string[] }) => one.slots.length > 0,
    );
    await cliOk(
      db,
      'bookings',
      'add',
      '1',
      '1',
      day.slots[0],
      ...fieldArgs({ first_name: 'Ada', last_name: 'L', email: 'ada@example.com' }),
    );
    let doctor = JSON.parse((await cli(db, 'doctor', '--json')).stdout) as Check[];
    expect(doctor.find((check) => check.name === 'webhook 1')).toEqual({
      name: 'webhook 1',
      status: 'ok',
      detail: 'https://hooks.example.com/planner: 1 waiting',
    });
    edit(db, "UPDATE webhook_deliveries SET status = 'failed', attempts = 5, last_error = 'HTTP 500'");
    expect(await cliOk(db, 'status')).toMatch(
      /^webhooks +1 https:\/\/hooks\.example\.com\/planner · FAILING: 0 retrying, 1 failed · last error: HTTP 500/m,
    );
    const failing = await cli(db, 'doctor', '--json');
    expect(failing.code).toBe(1);
    doctor = JSON.parse(failing.stdout) as Check[];
    expect(doctor.find((check) => check.name === 'webhook 1')).toEqual({
      name: 'webhook 1',
      status: 'fail',
      detail:
        'https://hooks.example.com/planner: 0 retrying, 1 failed · last error: HTTP 500 (planner webhook deliveries lists them; planner webhook retry <delivery-id> sends one again)',
    });
  });
});
