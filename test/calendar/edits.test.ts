/**
 * Edits in the calendar app are seen: planner's events moved or removed by someone in the practitioner's calendar
 * (Radicale, changed as an app would) are noticed by the read, shown by `calendar list`, `status` and `doctor` with
 * the bookings' references and what changed, mailed to the practice once, and written back by `calendar repair`,
 * which says what it overwrote; writing turned off and on again says what it overwrote too. Through the real CLI and
 * server; and in-process, a calendar catching up after an outage shows as catching up, not as failing.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { calendars } from '../../src/app/calendars/calendar-views.ts';
import { deliverWrites } from '../../src/app/calendars/calendar-writes.ts';
import { api, apiBook, bookableDb, cli, cliJson, cliOk, serve, tempDb } from '../helpers.ts';
import { practice, writingCalendar } from '../practice.ts';
import { fakeCalDav } from './fake-caldav.ts';
import { addRadicale, type Radicale, startRadicale } from './radicale.ts';

/** Waits (bounded: 15 s) until Radicale holds `count` events. */
async function eventsOf(radicale: Radicale, count: number) {
  for (const started = Date.now(); Date.now() - started < 15_000; ) {
    const events = await radicale.events();
    if (events.length === count) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Radicale did not hold ${count} event(s) within 15 s`);
}

/** `ics` with its DTSTART and DTEND (UTC) moved by `hours`, as a calendar app's drag would. */
function shifted(ics: string, hours: number): string {
  return ics.replace(
    /^(DTSTART|DTEND):(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/gm,
    (_line, name, y, mo, d, h, mi, se) => {
      const at = new Date(Date.UTC(+y, +mo - 1, +d, +h + hours, +mi, +se));
      return `${name}:${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
    },
  );
}

/** The practice's notices about edits, read from the file (mail is not set up: they wait in the outbox). */
function editNotices(db: string): { subject: string; body: string }[] {
  const raw = new DatabaseSync(db, { readOnly: true });
  try {
    return raw
      .prepare("SELECT subject, body FROM outbox WHERE kind = 'notice' AND subject LIKE '%calendar app%' ORDER BY id")
      .all() as { subject: string; body: string }[];
  } finally {
    raw.close();
  }
}

describe('edits in the calendar app are seen (Radicale)', () => {
  it('a moved and a removed event: seen by the read, shown, mailed once; repair writes them back and says what it overwrote', async () => {
    const radicale = await startRadicale();
    const db = tempDb();
    const token = await bookableDb(db);
    expect(await addRadicale(db, radicale, '--name', 'Anna', '--write-bookings')).toMatchObject({ code: 0 });
    const server = await serve(db, { PLANNER_CALENDAR_RETRY_SECONDS: '0.2' });
    const day = ((await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[])[2]!;
    const ada = (await apiBook(server.url, token, `${day} 10:00:00`)).body.booking_details_id as string;
    const ben = (
      await apiBook(server.url, token, `${day} 11:00:00`, {
        first_name: 'Ben',
        last_name: 'Lovelace',
        email: 'ben@example.com',
      })
    ).body.booking_details_id as string;
    const written = await eventsOf(radicale, 2);
    const adaEvent = written.find((event) => event.name.includes(ada.toLowerCase()))!;
    const benEvent = written.find((event) => event.name.includes(ben.toLowerCase()))!;

    // The practitioner drags Ada's appointment from 10:00 to 14:00 on their phone, and deletes Ben's.
    await radicale.put(adaEvent.name, shifted(adaEvent.ics, 4));
    await radicale.remove(benEvent.name);

    // Before a read, nothing is known; the read sees both.
    expect(await cliJson(db, 'calendar', 'sync', '1', '--json')).toEqual([expect.objectContaining({ ok: true })]);
    const [view] = await cliJson(db, 'calendar', 'list', '--json');
    expect(view.edits).toEqual([
      {
        calendarId: 1,
        reference: ada,
        kind: 'moved',
        booked: `${day} 10:00–10:30`,
        shown: `${day} 14:00–14:30`,
        seenAt: expect.any(String),
      },
      {
        calendarId: 1,
        reference: ben,
        kind: 'removed',
        booked: `${day} 11:00–11:30`,
        shown: null,
        seenAt: expect.any(String),
      },
    ]);
    const list = await cliOk(db, 'calendar', 'list');
    expect(list).toContain(
      "2 booking(s) were changed in a calendar app, not in planner (the bookings hold: change them in planner; planner calendar repair 1 writes planner's times back):",
    );
    expect(list).toContain(`  ${ada}  booked ${day} 10:00–10:30  moved to ${day} 14:00–14:30 in calendar 1 (Anna)`);
    expect(list).toContain(`  ${ben}  booked ${day} 11:00–11:30  removed in calendar 1 (Anna)`);
    const edited = `2 booking(s) changed in a calendar app, not in planner: ${ada} (booked ${day} 10:00–10:30) moved to ${day} 14:00–14:30, ${ben} (booked ${day} 11:00–11:30) removed`;
    expect(await cliOk(db, 'status')).toContain(`· ${edited} (planner calendar repair 1 writes planner's times back)`);
    const doctor = await cli(db, 'doctor');
    expect(doctor.stdout).toMatch(
      new RegExp(
        `^warn +calendar 1 edits +Anna: ${edited.replace(/[()]/g, '\\$&')}; the bookings hold\\. Change bookings in planner; planner calendar repair 1 writes planner's times back$`,
        'm',
      ),
    );

    // Mailed once: a second read that sees the same finds nothing new to tell.
    expect(await cliJson(db, 'calendar', 'sync', '1', '--json')).toEqual([expect.objectContaining({ ok: true })]);
    const notices = editNotices(db);
    expect(notices.map((notice) => notice.subject)).toEqual([
      'Calendar "Anna": 2 bookings were changed in the calendar app, not in planner',
    ]);
    const text = JSON.parse(notices[0]!.body).text as string;
    expect(text).toContain(`${ada}`);
    expect(text).toContain(`Booked ${day} 10:00–10:30 (Europe/Berlin); the calendar shows ${day} 14:00–14:30`);
    expect(text).toContain(`Booked ${day} 11:00–11:30 (Europe/Berlin); removed from the calendar`);
    expect(text).toContain('planner calendar repair 1');

    // `set --write-bookings on` on a calendar that writes says so, and where the repair is.
    expect(await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'on')).toContain(
      "It already receives every booking of schedule 1: nothing to write. Events changed in a calendar app stay as they are until their booking changes; planner calendar repair 1 writes planner's times back now.",
    );

    // The repair reads the calendar, writes planner's state back, and says what it overwrote.
    const repaired = await cliOk(db, 'calendar', 'repair', '1');
    expect(repaired.split('\n').slice(0, 1)).toEqual([
      'Calendar 1 (Anna): 2 event(s) written; planner wrote its own over these:',
    ]);
    expect(repaired).toContain(
      `  the event of booking ${ada} had been changed in the calendar (it showed ${day} 14:00–14:30); planner wrote its own over it (${day} 10:00–10:30)`,
    );
    expect(repaired).toContain(
      `  the event of booking ${ben} had been removed from the calendar; planner wrote it again (${day} 11:00–11:30)`,
    );
    const start = (ics: string) => /^DTSTART:(\S+)/m.exec(ics)![1];
    const back = await eventsOf(radicale, 2);
    expect(back.map((event) => start(event.ics)).sort()).toEqual([start(adaEvent.ics), start(benEvent.ics)].sort());
    expect((await cliJson(db, 'calendar', 'list', '--json'))[0].edits).toEqual([]);
    expect(await cliOk(db, 'calendar', 'repair', '1')).toBe(
      'Calendar 1 (Anna): every event planner wrote is as planner wrote it; nothing to repair.\n',
    );

    // Writing turned off, an event moved meanwhile, writing on again: planner's state wins, and the command says so
    // (with the server stopped, so that the command's own writer is the one that finds it).
    await server.stop();
    await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'off');
    const again = (await radicale.events()).find((event) => event.name.includes(ada.toLowerCase()))!;
    await radicale.put(again.name, shifted(again.ics, 6));
    const on = await cliOk(db, 'calendar', 'set', '1', '--write-bookings', 'on');
    expect(on).toContain('its upcoming bookings: 2 event(s) written.');
    expect(on).toContain(
      `calendar 1 (Anna): the event of booking ${ada} had been changed in the calendar (it showed ${day} 16:00–16:30); planner wrote its own over it (${day} 10:00–10:30)`,
    );
    expect(on).not.toContain(ben); // found as planner writes it: nothing overwritten, nothing said
  }, 120_000);
});

describe('a calendar catching up after an outage', () => {
  it('shows "catching up: N left", not the last error, once a write went through; ok when all are', async () => {
    const caldav = await fakeCalDav();
    const clock = { now: new Date('2026-12-01T08:00:00Z') };
    const { store, ctx, file } = practice({ clock });
    writingCalendar(store, caldav.url, clock.now);
    const submission = { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' };
    const book = (slot: string) =>
      createBooking(ctx, { scheduleId: 1, reasonId: 1, slot: `2026-12-03 ${slot}:00`, submission }, 'api');
    caldav.state.down = true;
    const first = book('09:00');
    expect((await deliverWrites(ctx, 1)).error).toMatch(/answered HTTP 503/);
    expect(calendars(ctx)[0]!.writing).toMatchObject({ state: 'failing', lastError: expect.stringMatching(/503/) });

    // Back: a new booking's write goes through at once, and what waited since the outage is due at once after it,
    // not at its own retry. While that one is being written, the calendar is catching up.
    caldav.state.down = false;
    clock.now = new Date('2026-12-01T08:00:05Z'); // the first write's retry is 30 s away
    book('10:00');
    const held = caldav.hold(`/cal/planner-${first.reference.toLowerCase()}.ics`);
    const writing = deliverWrites(ctx, 1);
    await Promise.race([
      held.arrived,
      writing.then((outcome) => {
        throw new Error(`the write that waited since the outage was not tried: ${JSON.stringify(outcome)}`);
      }),
    ]);
    expect(calendars(ctx)[0]!.writing).toEqual({
      waiting: 1,
      state: 'catching-up',
      failingSince: null,
      lastError: null,
      stuck: false,
    });
    expect(await cliOk(file, 'status')).toMatch(/ · receives every booking; catching up: 1 left\n/);
    held.release();
    expect(await writing).toEqual({ written: 2, error: null });
    expect(calendars(ctx)[0]!.writing).toMatchObject({ waiting: 0, state: 'ok', lastError: null });
    store.close();
  });
});
