/**
 * The mails of a series (issue 40), real server and real SMTP: POST /api/series of 6 weekly dates sends ONE
 * confirmation to the customer and ONE notice to the practice, each listing every date; the confirmation attaches
 * each date's own calendar file (read by ical.js: its booking's UID and time, METHOD:REQUEST), the notice none; each
 * date has its own reminder. `bookings cancel <3rd> --series` sends ONE cancellation with the 4 later dates' own
 * METHOD:CANCEL files, SEQUENCE 1; dates 1-2 stay. One UID per file: an iTIP REQUEST or CANCEL holds one
 * (test/mail/series-life.test.ts follows a series' whole life).
 */
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { expect, it } from 'vitest';
import { localToUnix } from '../../src/domain/zone.ts';
import { api, bookableDb, cliJson, cliOk, serve, tempDb } from '../helpers.ts';
import { startSmtp } from './smtp.ts';

/** Returns the day `offset` days after `day` (YYYY-MM-DD). */
const dayAfter = (day: string, offset: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** The messages `planner mail queue` still holds to send now (the scheduled reminders aside). */
async function unsent(db: string): Promise<any[]> {
  return (await cliJson<any[]>(db, 'mail', 'queue')).filter((entry) => entry.section !== 'scheduled');
}

/** Waits until nothing is left to send now, asking again each time the previous answer came back. */
async function queueEmpty(db: string): Promise<void> {
  for (let round = 0; round < 200; round++) if ((await unsent(db)).length === 0) return;
  throw new Error('the outbox never emptied');
}

/** The events of a mail's calendar files, in the order attached, read by ical.js: each file's METHOD and event. */
function calendarOf(mail: ParsedMail) {
  const files = mail.attachments.filter((file) => file.filename?.endsWith('.ics'));
  // No inline invitation beside them: each date is its own file.
  expect(mail.attachments.filter((file) => file.contentType === 'text/calendar')).toHaveLength(files.length);
  return files.map((file, n) => {
    expect(file.filename).toBe(`appointment-${n + 1}.ics`);
    const calendar = new ICAL.Component(ICAL.parse(file.content.toString('utf8')) as unknown as unknown[]);
    const vevents = calendar.getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(1);
    const event = new ICAL.Event(vevents[0]!);
    return {
      method: calendar.getFirstPropertyValue('method'),
      uid: event.uid,
      start: event.startDate.toUnixTime(),
      end: event.endDate.toUnixTime(),
      sequence: vevents[0]!.getFirstPropertyValue('sequence'),
      status: vevents[0]!.getFirstPropertyValue('status'),
    };
  });
}

/** The date as the English mails write it: "Tuesday, 1 December 2026, 08:00". */
const written = (day: string, time: string) =>
  `${new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))}, ${time}`;

it('6 weekly dates: one confirmation and one notice with every date, a calendar file per date for the customer; a reminder each; cancel --series from the 3rd: one mail cancelling 4', async () => {
  const smtp = await startSmtp();
  const db = tempDb();
  const token = await bookableDb(db, {
    schedules: [{ name: 'Physio', daysAhead: 60 }],
    reasons: [{ name: 'Session', durationMinutes: 45 }],
  });
  await cliOk(db, 'mail', 'set', smtp.url, '--from', 'Test Practice <desk@practice.example>');
  const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2' });
  // The first date at least three days ahead on the real clock (every date beyond the 48-hour reminder's window).
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const first = days[3]!;
  const dates = Array.from({ length: 6 }, (_, n) => dayAfter(first, 7 * n));
  expect(days).toContain(dates[5]);
  const starts = dates.map((day) => localToUnix(day, 8 * 60, 'Europe/Berlin'));

  const answer = await api(server.url, '/api/series', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schedule: 1,
      reason: 1,
      slot: `${first} 08:00:00`,
      repeat: '1w',
      count: 6,
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    }),
  });
  expect(answer.status).toBe(201);
  const references = (answer.body.bookings as { booking_details_id: string }[]).map((one) => one.booking_details_id);
  expect(references).toHaveLength(6);
  expect(new Set(references).size).toBe(6);

  // Exactly two messages: once nothing is left to send, no more can come.
  await smtp.received(2);
  await queueEmpty(db);
  expect(smtp.messages).toHaveLength(2);
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;
  const confirmation = smtp.messages.find((mail) => to(mail) === 'ada@example.com')!;
  const notice = smtp.messages.find((mail) => to(mail) === 'desk@practice.example')!;
  expect(confirmation, 'the confirmation').toBeDefined();
  expect(notice, 'the notice').toBeDefined();
  for (const mail of [confirmation, notice]) {
    for (const day of dates) expect(mail.text).toContain(written(day, '08:00'));
    for (const reference of references) expect(mail.text).toContain(reference);
  }
  expect(calendarOf(notice)).toEqual([]);
  expect(confirmation.text).toContain('Open each attached calendar file (appointment-1.ics to appointment-6.ics');
  expect(calendarOf(confirmation)).toEqual(
    references.map((reference, n) => ({
      method: 'REQUEST',
      uid: `${reference}@planner`,
      start: starts[n],
      end: starts[n]! + 45 * 60,
      sequence: 0,
      status: 'CONFIRMED',
    })),
  );

  // A reminder per date, each 48 hours before its own date.
  const scheduled = (await cliJson<any[]>(db, 'mail', 'queue')).filter((entry) => entry.section === 'scheduled');
  expect(scheduled.map((entry) => [entry.kind, entry.bookingReference, entry.recipient, entry.nextAttemptAt])).toEqual(
    references.map((reference, n) => ['reminder', reference, 'ada@example.com', starts[n]! - 48 * 3600]),
  );
  const shown = await cliJson(db, 'bookings', 'show', references[2]!);
  expect(shown.reminders).toEqual([{ dueLocal: expect.any(String), status: 'pending', reason: null }]);
  expect(shown.series.dates.map((one: { reference: string }) => one.reference)).toEqual(references);

  // Cancel the third date and every later one: one mail, the four later events cancelled.
  const cancelled = await cliJson(db, 'bookings', 'cancel', references[2]!, '--series');
  expect(JSON.stringify(cancelled)).toContain(references[5]);
  await smtp.received(3);
  await queueEmpty(db);
  expect(smtp.messages).toHaveLength(3);
  const cancellation = smtp.messages[2]!;
  expect(to(cancellation)).toBe('ada@example.com');
  for (const day of dates.slice(2)) expect(cancellation.text).toContain(written(day, '08:00'));
  // The two earlier dates stay booked: listed as such after the cancelled ones (issue 47).
  const [cancelledPart, stillPart] = cancellation.text!.split('Still booked:');
  for (const day of dates.slice(0, 2)) expect(cancelledPart).not.toContain(written(day, '08:00'));
  for (const day of dates.slice(0, 2)) expect(stillPart).toContain(written(day, '08:00'));
  expect(cancellation.text).toContain('The other 2 dates of your series stay booked.');
  expect(calendarOf(cancellation)).toEqual(
    references.slice(2).map((reference, n) => ({
      method: 'CANCEL',
      uid: `${reference}@planner`,
      start: starts[n + 2],
      end: starts[n + 2]! + 45 * 60,
      sequence: 1,
      status: 'CANCELLED',
    })),
  );
  // Dates 1-2 stay booked with their reminders; 3-6 are cancelled and theirs gone.
  const after = await cliJson(db, 'bookings', 'show', references[0]!);
  expect(after.series.dates.map((one: { reference: string; status: string }) => [one.reference, one.status])).toEqual(
    references.map((reference, n) => [reference, n < 2 ? 'booked' : 'cancelled']),
  );
  const left = (await cliJson<any[]>(db, 'mail', 'queue')).filter((entry) => entry.section === 'scheduled');
  expect(left.map((entry) => entry.bookingReference)).toEqual(references.slice(0, 2));
  await server.stop();
}, 60_000);
