/**
 * The practice's notices carry no calendar file (docs/calendar-methods.md): not the customer's invitation (a mail app
 * that adds invitations by itself put it in the practice's calendar, with the practice as its own organiser, and
 * kept it when the booking moved or was cancelled), and no other copy either: the practice's calendar gets every
 * booking, and every later change, from the feed and from the calendar planner writes. The customer's mails keep
 * theirs. Real server, real SMTP; every part of each mail looked at.
 */
import type { ParsedMail } from 'mailparser';
import { expect, it } from 'vitest';
import { api, bookableDb, cliOk, serve, tempDb } from '../helpers.ts';
import { mimeParts, startSmtp } from './smtp.ts';

const calendarParts = (raw: string) =>
  mimeParts(raw).filter(
    (part) => /^(text\/calendar|application\/ics)/i.test(part.type) || /\.ics$/i.test(part.filename ?? ''),
  );

it("a new booking's and a new series' notice to the practice hold no calendar part; the customer's confirmations do", async () => {
  const smtp = await startSmtp();
  const db = tempDb();
  const token = await bookableDb(db);
  await cliOk(db, 'reason', 'set', '1', '--series', '4');
  await cliOk(db, 'reminders', 'set', 'off');
  await cliOk(db, 'mail', 'set', smtp.url, '--from', 'Test Practice <desk@practice.example>');
  const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2' });
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  const submission = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const post = (path: string, body: object) =>
    api(server.url, path, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, submission, ...body }),
    });
  expect((await post('/api/bookings', { slot: `${days[1]} 10:00:00` })).status).toBe(201);
  expect((await post('/api/series', { slot: `${days[1]} 11:00:00`, repeat: '1w', count: 2 })).status).toBe(201);
  await smtp.received(4);
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;
  const seen = smtp.messages.map((mail, n) => ({
    to: to(mail),
    subject: mail.subject,
    calendars: calendarParts(smtp.raw[n]!).length,
  }));
  expect(seen.filter((mail) => mail.to === 'desk@practice.example')).toEqual([
    { to: 'desk@practice.example', subject: expect.stringMatching(/^New booking: .*\(Ada Lovelace\)$/), calendars: 0 },
    {
      to: 'desk@practice.example',
      subject: expect.stringMatching(/^New series: 2 × .*\(Ada Lovelace\)$/),
      calendars: 0,
    },
  ]);
  for (const mail of seen.filter((one) => one.to === 'ada@example.com')) expect(mail.calendars).toBeGreaterThan(0);
  await server.stop();
}, 60_000);
