/**
 * A property: any sequence of bookings made, moved and cancelled, calendar outages, a person editing or deleting
 * planner's event in their app before the booking is moved, worker passes and restarts (the file opened again:
 * nothing in memory survives) ends, once the calendar is back and the writes are through, with the calendar equal to
 * the schedule's booked appointments: one event each, at its time, and none of a cancelled one. The calendar is a
 * small CalDAV server in the test (ETags, If-Match, If-None-Match, 412, an outage as 503), planner's own code writes
 * into it (`deliverWrites`, the worker's attempts), with a fixed clock.
 *
 * Run a second way, with a second practitioner whose calendar hangs (takes every request and never answers) and each
 * booking made on both: the server's own writer (`startCalendarWriter`) writes, and each pass must leave nothing of
 * the healthy calendar due within 5 s, while the hanging one holds its write far longer (20 s): no write of the
 * healthy calendar waits on the other.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking, moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { deliverWrites, startCalendarWriter } from '../../src/app/calendars/calendar-writes.ts';
import { createContext } from '../../src/app/context.ts';
import type { Pump } from '../../src/queue/pump.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';
import { practice, writingCalendar } from '../practice.ts';
import { fakeCalDav, hangingCalDav } from './fake-caldav.ts';

type Operation =
  | { op: 'book'; slot: number }
  | { op: 'move'; which: number; slot: number }
  | { op: 'cancel'; which: number }
  | { op: 'down' }
  | { op: 'up' }
  | { op: 'deliver' }
  | { op: 'restart' }
  | { op: 'tamper'; which: number; remove: boolean; slot: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('book' as const), slot: fc.nat(29) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('move' as const), which: fc.nat(9), slot: fc.nat(29) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('cancel' as const), which: fc.nat(9) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('down' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('up' as const) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('deliver' as const) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('restart' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('tamper' as const),
      which: fc.nat(9),
      remove: fc.boolean(),
      slot: fc.nat(29),
    }),
    weight: 2,
  },
);

/** The local slot `index` of 30: five days from 2026-12-02, six half hours from 09:00 each. */
const slotOf = (index: number) =>
  `2026-12-0${2 + (index % 5)} ${String(9 + Math.floor(index / 10)).padStart(2, '0')}:${index % 10 < 5 ? '00' : '30'}:00`;

/** Waits (bounded: 5 s) until calendar 1 has no write due or being written; throws if it still has one then. */
async function healthyWritten(store: Store, at: () => number): Promise<void> {
  const started = Date.now();
  const left = () =>
    (
      store.db
        .prepare(
          "SELECT count(*) AS n FROM calendar_writes WHERE calendar_id = 1 AND status = 'pending' AND (next_attempt_at <= ? OR lease_until > ?)",
        )
        .get(at(), at()) as { n: number }
    ).n;
  while (left() > 0) {
    if (Date.now() - started > 5_000) throw new Error('a write of the healthy calendar waited more than 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function calendarEndsAsBooked(operations: Operation[], options: { hanging: boolean }): Promise<void> {
  const caldav = await fakeCalDav();
  const file = tempDb();
  const clock = { now: new Date('2026-12-01T08:00:00Z') };
  // With a hanging calendar, a second practitioner (schedule 2, reason 2) whose calendar (2) it is.
  const second = { schedules: [{}, { name: 'Dr. B' }], reasons: [{}, { schedules: [2] }] };
  let { store, ctx } = practice({ clock, file, ...(options.hanging ? second : {}) });
  writingCalendar(store, caldav.url, clock.now);
  const hanging = options.hanging ? await hangingCalDav() : undefined;
  let worker: Pump | undefined;
  if (hanging) {
    writingCalendar(store, hanging.url, clock.now, { scheduleId: 2, label: 'Ben' });
    worker = startCalendarWriter(ctx, { log: () => {}, nowMs: () => clock.now.getTime(), pollMs: 60_000 });
    createBooking(
      ctx,
      {
        scheduleId: 2,
        reasonId: 2,
        slot: slotOf(29),
        submission: { first_name: 'Bo', last_name: 'B', email: 'bo@b.example' },
      },
      'admin',
    );
  }
  const seconds = () => Math.floor(clock.now.getTime() / 1000);
  /** The writes through: `deliverWrites` in this process, or the server's writer beside a hanging calendar. */
  const deliver = async () => {
    if (!worker) return (await deliverWrites(ctx, 1)).error;
    worker.kick();
    await healthyWritten(store, seconds);
    return store.db
      .prepare("SELECT last_error AS e FROM calendar_writes WHERE calendar_id = 1 AND status = 'pending'")
      .get()
      ? 'waiting'
      : null;
  };
  const references: string[] = [];
  const submission = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const tried = <T>(run: () => T) => {
    try {
      return run();
    } catch {
      return undefined; // a time not free, a booking already cancelled: refused, as for any caller
    }
  };
  const pick = (which: number) => references[which % Math.max(1, references.length)];
  for (const step of operations) {
    clock.now = new Date(clock.now.getTime() + 60_000);
    if (step.op === 'book') {
      // Beside a hanging calendar, its practitioner is booked first: a writer taking the oldest write first meets it.
      if (hanging)
        tried(() => createBooking(ctx, { scheduleId: 2, reasonId: 2, slot: slotOf(step.slot), submission }, 'admin'));
      const made = tried(() =>
        createBooking(ctx, { scheduleId: 1, reasonId: 1, slot: slotOf(step.slot), submission }, 'admin'),
      );
      if (made) references.push(made.reference);
    } else if (step.op === 'move' && pick(step.which))
      tried(() => moveBooking(ctx, pick(step.which)!, slotOf(step.slot), { notify: false, force: true }));
    else if (step.op === 'cancel' && pick(step.which))
      tried(() => cancelBooking(ctx, pick(step.which)!, { notify: false }));
    else if (step.op === 'down') caldav.state.down = true;
    else if (step.op === 'up') caldav.state.down = false;
    else if (step.op === 'deliver') await deliver();
    else if (step.op === 'restart' && !worker) {
      store.close();
      store = openStore(file);
      ctx = createContext(store, () => clock.now);
    } else if (step.op === 'tamper' && pick(step.which)) {
      // A person changes or deletes planner's event in their app, then the booking is moved: planner's state wins
      // (a tamper that no change of the booking follows stays as the person left it, as in any calendar).
      const name = `/cal/planner-${pick(step.which)!.toLowerCase()}.ics`;
      const event = caldav.resources.get(name);
      if (event && step.remove) caldav.resources.delete(name);
      if (event && !step.remove)
        caldav.resources.set(name, {
          body: event.body.replace(/SUMMARY:[^\r\n]*/, 'SUMMARY:edited'),
          etag: `"${++caldav.state.etags}"`,
        });
      const moved = tried(() => moveBooking(ctx, pick(step.which)!, slotOf(step.slot), { notify: false, force: true }));
      if (!moved && event) caldav.resources.set(name, event);
    }
  }
  // The calendar back, and time for every retry: every write through.
  caldav.state.down = false;
  for (let pass = 0; pass < 20; pass++) {
    clock.now = new Date(clock.now.getTime() + 2 * 3600_000);
    const error = await deliver();
    if (
      error === null &&
      (
        store.db
          .prepare("SELECT count(*) AS n FROM calendar_writes WHERE calendar_id = 1 AND status = 'pending'")
          .get() as { n: number }
      ).n === 0
    )
      break;
  }
  if (hanging) {
    // The hanging calendar holds a write: it was in the way, and nothing of it was answered.
    for (const started = Date.now(); hanging.state.requests === 0 && Date.now() - started < 5_000; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(hanging.state.requests).toBeGreaterThan(0);
    hanging.close();
    await worker!.stop();
  }
  const booked = store.db
    .prepare(
      "SELECT reference, start_at AS startAt, end_at AS endAt FROM bookings WHERE status = 'booked' AND schedule_id = 1 ORDER BY reference",
    )
    .all() as {
    reference: string;
    startAt: number;
    endAt: number;
  }[];
  const stamp = (at: number) => `${new Date(at * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const events = [...caldav.resources.entries()]
    .map(([name, { body }]) => ({
      name,
      uid: /^UID:(.*)\r?$/m.exec(body)![1],
      start: /^DTSTART:(.*)\r?$/m.exec(body)![1],
      end: /^DTEND:(.*)\r?$/m.exec(body)![1],
      summary: /^SUMMARY:(.*)\r?$/m.exec(body)![1],
    }))
    .sort((a, b) => (a.uid! < b.uid! ? -1 : 1));
  expect(events).toEqual(
    booked.map((booking) => ({
      name: `/cal/planner-${booking.reference.toLowerCase()}.ics`,
      uid: `${booking.reference}@planner`,
      start: stamp(booking.startAt),
      end: stamp(booking.endAt),
      summary: 'Check-up – Ada Lovelace',
    })),
  );
  store.close();
}

describe('the calendar ends as the bookings are (property)', () => {
  test.prop([fc.array(operation, { minLength: 1, maxLength: 25 })], { numRuns: 60 })(
    'create, move, cancel, outages, edits in an app and restarts',
    (operations) => calendarEndsAsBooked(operations, { hanging: false }),
    120_000,
  );
  test.prop([fc.array(operation, { minLength: 1, maxLength: 25 })], { numRuns: 20 })(
    'the same beside a second practitioner whose calendar hangs: the server’s writer never makes the healthy one wait',
    (operations) => calendarEndsAsBooked(operations, { hanging: true }),
    120_000,
  );
});
