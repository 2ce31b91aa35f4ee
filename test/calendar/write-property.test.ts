/**
 * Issue 38, a property: any sequence of bookings made, moved and cancelled, calendar outages, a person editing or
 * deleting planner's event in their app before the booking is moved, worker passes and restarts (the file opened
 * again: nothing in memory survives) ends, once the calendar is back and the writes are through, with the calendar equal to the schedule's
 * booked appointments: one event each, at its time, and none of a cancelled one. The calendar is a small CalDAV
 * server in the test (ETags, If-Match, If-None-Match, 412, an outage as 503), planner's own code writes into it
 * (`deliverWrites`, the worker's attempts), with a fixed clock.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { deliverWrites } from '../../src/app/calendar-writes.ts';
import { createContext } from '../../src/app/context.ts';
import { createBooking } from '../../src/app/create-booking.ts';
import { cancelBooking, moveBooking } from '../../src/app/lifecycle.ts';
import { openStore } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';
import { fakeCalDav } from './fake-caldav.ts';
import { calendarPractice, writingCalendar } from './practice.ts';

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

describe('the calendar ends as the bookings are (issue 38, property)', () => {
  test.prop([fc.array(operation, { minLength: 1, maxLength: 25 })], { numRuns: 60 })(
    'create, move, cancel, outages, edits in an app and restarts',
    async (operations) => {
      const caldav = await fakeCalDav();
      const file = tempDb();
      const clock = { now: new Date('2026-12-01T08:00:00Z') };
      let { store, ctx } = calendarPractice(clock, { file });
      writingCalendar(store, caldav.url, clock.now);
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
        else if (step.op === 'deliver') await deliverWrites(ctx, 1);
        else if (step.op === 'restart') {
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
          const moved = tried(() =>
            moveBooking(ctx, pick(step.which)!, slotOf(step.slot), { notify: false, force: true }),
          );
          if (!moved && event) caldav.resources.set(name, event);
        }
      }
      // The calendar back, and time for every retry: every write through.
      caldav.state.down = false;
      for (let pass = 0; pass < 20; pass++) {
        clock.now = new Date(clock.now.getTime() + 2 * 3600_000);
        const { error } = await deliverWrites(ctx, 1);
        if (
          error === null &&
          (
            store.db.prepare("SELECT count(*) AS n FROM calendar_writes WHERE status = 'pending'").get() as {
              n: number;
            }
          ).n === 0
        )
          break;
      }
      const booked = store.db
        .prepare(
          "SELECT reference, start_at AS startAt, end_at AS endAt FROM bookings WHERE status = 'booked' ORDER BY reference",
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
    },
    120_000,
  );
});
