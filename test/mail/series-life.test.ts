/**
 * One method per event across its life (docs/calendar-methods.md): a series is booked, one date moved, one
 * cancelled, the rest cancelled, and every mail the customer gets on the way is applied, as RFC 5546 says a
 * calendar app applies it, to a model of the customer's calendar. Each calendar part must be an iTIP REQUEST or
 * CANCEL of one booking's own UID (RFC 5546 §3.2.2 and §3.2.5), its MIME `method` the METHOD inside (RFC 6047 §2.4),
 * read by ical.js; after each step the calendar holds exactly the dates still booked, at their times. Real server,
 * real CLI, real SMTP.
 */
import ICAL from 'ical.js';
import { expect, it } from 'vitest';
import { localToUnix } from '../../src/domain/zone.ts';
import { api, bookableDb, cliOk, serve, tempDb } from '../helpers.ts';
import { mimeParts, startSmtp } from './smtp.ts';

/** Returns the day `offset` days after `day` (YYYY-MM-DD). */
const dayAfter = (day: string, offset: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** An event in the model of the customer's calendar: what the last message it accepted said. */
interface Held {
  sequence: number;
  start: number;
  end: number;
}

/**
 * Applies one mail's calendar objects to `calendar` (by UID) as an iTIP receiver does: a REQUEST of an unknown UID
 * adds the event, of a known one with a SEQUENCE not lower replaces it; a CANCEL of a known UID with a higher
 * SEQUENCE removes it. The inline invitation and its attached copy are one object: applied once. Fails on anything
 * an iTIP receiver could not apply in place: a method other than REQUEST or CANCEL, two UIDs in one object, a MIME
 * method that is not the METHOD inside, a CANCEL of an event the calendar does not hold.
 */
function apply(calendar: Map<string, Held>, raw: string): string[] {
  const objects = new Set(
    mimeParts(raw)
      .filter((part) => part.type.toLowerCase().startsWith('text/calendar'))
      .map((part) => {
        const mime = /method=([A-Z-]+)/i.exec(part.type)?.[1];
        const inside = /^METHOD:(.*)$/m.exec(part.body)?.[1]?.trim();
        expect(mime, 'the MIME method is the METHOD inside').toBe(inside);
        return part.body.trim();
      }),
  );
  const methods: string[] = [];
  for (const text of objects) {
    const vcalendar = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
    const method = String(vcalendar.getFirstPropertyValue('method'));
    expect(['REQUEST', 'CANCEL'], 'an iTIP method the receiver applies in place').toContain(method);
    const vevents = vcalendar.getAllSubcomponents('vevent');
    expect(new Set(vevents.map((vevent) => vevent.getFirstPropertyValue('uid'))).size, 'one UID per object').toBe(1);
    const event = new ICAL.Event(vevents[0]!);
    // Each file's organiser is the address the mail comes from, so that the app takes its updates (iMIP).
    expect(String(event.component.getFirstPropertyValue('organizer')).toLowerCase()).toBe(
      'mailto:desk@practice.example',
    );
    const held = calendar.get(event.uid);
    if (method === 'REQUEST') {
      if (held) expect(event.sequence, `${event.uid}: an update never goes back`).toBeGreaterThanOrEqual(held.sequence);
      calendar.set(event.uid, {
        sequence: event.sequence,
        start: event.startDate.toUnixTime(),
        end: event.endDate.toUnixTime(),
      });
    } else {
      expect(held, `${event.uid}: a cancellation of an event the calendar holds`).toBeDefined();
      expect(event.sequence, `${event.uid}: a cancellation is newer than what it removes`).toBeGreaterThan(
        held!.sequence,
      );
      calendar.delete(event.uid);
    }
    methods.push(method);
  }
  return methods;
}

it("a series' whole life: every customer mail updates or removes its dates in place, one REQUEST or CANCEL per date", async () => {
  const smtp = await startSmtp();
  const db = tempDb();
  const token = await bookableDb(db, {
    schedules: [{ name: 'Physio', daysAhead: 60 }],
    reasons: [{ name: 'Session', durationMinutes: 45 }],
  });
  await cliOk(db, 'reminders', 'set', 'off');
  await cliOk(db, 'mail', 'set', smtp.url, '--from', 'Test Practice <desk@practice.example>');
  const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2' });
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const dates = Array.from({ length: 4 }, (_, n) => dayAfter(days[1]!, 7 * n));
  expect(days).toContain(dates[3]);
  const at = (day: string, minutes: number) => localToUnix(day, minutes, 'Europe/Berlin');
  const answer = await api(server.url, '/api/series', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schedule: 1,
      reason: 1,
      slot: `${dates[0]} 08:00:00`,
      repeat: '1w',
      count: 4,
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    }),
  });
  expect(answer.status).toBe(201);
  const refs = (answer.body.bookings as { booking_details_id: string }[]).map((one) => one.booking_details_id);
  const uid = (n: number) => `${refs[n]}@planner`;
  const calendar = new Map<string, Held>();
  let seen = 0;
  /** Waits for the next `count` mails and applies the customer's among them; returns the methods applied. */
  const next = async (count: number) => {
    await smtp.received(seen + count);
    const methods = smtp.raw
      .slice(seen, seen + count)
      .filter((_, n) => (smtp.messages[seen + n]!.to as { text: string }).text === 'ada@example.com')
      .flatMap((raw) => apply(calendar, raw));
    seen += count;
    return methods;
  };
  /** Where each calendar part of the customer's last mail is: `inline` (the iMIP alternative) or its file name. */
  const layout = () => {
    const raw = smtp.raw
      .slice(0, seen)
      .findLast((_, n) => (smtp.messages[n]!.to as { text: string }).text === 'ada@example.com')!;
    return mimeParts(raw)
      .filter((part) => part.type.startsWith('text/calendar'))
      .map((part) => (part.disposition === 'attachment' ? part.filename : 'inline'));
  };
  const held = () =>
    Object.fromEntries([...calendar].map(([key, event]) => [key, [event.start, event.end, event.sequence]]));
  const minutes45 = 45 * 60;

  // Booked: the confirmation (and the practice's notice) adds the four dates, one REQUEST each.
  expect(await next(2)).toEqual(['REQUEST', 'REQUEST', 'REQUEST', 'REQUEST']);
  // A file per date, none inline: an inline invitation would make the whole mail one date's.
  expect(layout()).toEqual(['appointment-1.ics', 'appointment-2.ics', 'appointment-3.ics', 'appointment-4.ics']);
  expect(held()).toEqual(
    Object.fromEntries(refs.map((_, n) => [uid(n), [at(dates[n]!, 480), at(dates[n]!, 480) + minutes45, 0]])),
  );

  // The second date moved to 10:00: its update replaces it in place.
  await cliOk(db, 'bookings', 'move', refs[1]!, `${dates[1]} 10:00`);
  expect(await next(1)).toEqual(['REQUEST']);
  expect(layout()).toEqual(['inline', 'appointment.ics']); // one date: the invitation inline, and attached
  expect(held()[uid(1)]).toEqual([at(dates[1]!, 600), at(dates[1]!, 600) + minutes45, 1]);

  // The third date cancelled: its cancellation removes it.
  await cliOk(db, 'bookings', 'cancel', refs[2]!);
  expect(await next(1)).toEqual(['CANCEL']);
  expect(Object.keys(held()).sort()).toEqual([uid(0), uid(1), uid(3)].sort());

  // The rest cancelled from the first date on: one mail removes the three left, one CANCEL each.
  await cliOk(db, 'bookings', 'cancel', refs[0]!, '--series');
  expect(await next(1)).toEqual(['CANCEL', 'CANCEL', 'CANCEL']);
  expect(layout()).toEqual(['appointment-1.ics', 'appointment-2.ics', 'appointment-3.ics']);
  expect(held()).toEqual({});
  await server.stop();
}, 60_000);
