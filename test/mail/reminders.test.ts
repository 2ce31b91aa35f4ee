import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { mailQueue, setMail } from '../../src/app/messages/mail.ts';
import { setReminders } from '../../src/app/messages/reminders.ts';
import { changePractice } from '../../src/app/practice/practice.ts';
import { startOutboxWorker } from '../../src/mail/worker.ts';
import { openStore } from '../../src/store/db.ts';
import { messagesOfBooking } from '../../src/store/outbox.ts';
import { readSettings, setPortal } from '../../src/store/settings.ts';
import { ADA, apiFixture, NOW } from '../http/fixture.ts';
import { startSmtp } from './smtp.ts';

describe('reminders through the outbox worker (in-process, fixed clock, real SMTP)', () => {
  /** A fixture with mail set, three bookings 25 h ahead (Tuesday 2026-06-02 09:00, 09:30, 10:00 in Berlin), and a worker whose clock the test sets. */
  async function setUp() {
    const smtp = await startSmtp();
    const f = await apiFixture(); // Monday 2026-06-01 08:00 in Berlin
    setMail(f.ctx, smtp.url, 'desk@test.example');
    // As the CLI would, from another connection (the server sees it at its next request): reminders 24 h before
    // (planner init's default is 48h, and these bookings are 25 h ahead), and the practice's phone number.
    const admin = openStore(f.file);
    setReminders(createContext(admin), '24h');
    changePractice(createContext(admin), { phone: '+49 30 1234567' });
    admin.close();
    const ids: number[] = [];
    const references: string[] = [];
    for (const [slot, email] of [
      ['2026-06-02 09:00:00', 'ada@example.com'],
      ['2026-06-02 09:30:00', 'bob@example.com'],
      ['2026-06-02 10:00:00', 'cy@example.com'],
    ] as const) {
      const booked = await f.post({ schedule: 1, reason: 1, slot, submission: { ...ADA, email } });
      expect(booked.status).toBe(201);
      ids.push(booked.body.booking_id);
      references.push(booked.body.booking_details_id);
    }
    const clock = { ms: NOW.getTime() };
    const lines: string[] = [];
    const worker = startOutboxWorker({
      store: f.store,
      settings: () => readSettings(f.store),
      log: (line) => lines.push(line),
      nowMs: () => clock.ms,
      pollMs: 60_000,
    });
    const reminderOf = (id: number) => messagesOfBooking(f.store, id).find((m) => m.kind === 'reminder')!;
    return { smtp, f, ids, references, clock, lines, worker, reminderOf };
  }

  it('a reminder goes out at its time, not before; one that came due while the server was down is sent if the appointment is ahead; one whose appointment has begun is dropped and shown', async () => {
    const { smtp, f, ids, references, clock, lines, worker, reminderOf } = await setUp();
    // The page allows changes until 12 h before: a 24 h reminder still offers them.
    setPortal(f.store, { url: 'https://book.example', cancelUntilHours: 12, reschedule: true }, () => 'k'.repeat(64));
    await worker.flush();
    expect(smtp.messages.map((m) => m.subject)).toHaveLength(6); // confirmations and notices, no reminder yet
    expect(smtp.messages.some((m) => m.subject!.startsWith('Reminder:'))).toBe(false);
    expect(mailQueue(f.ctx).map((e) => [e.section, e.kind, e.bookingReference !== null, e.dueLocal])).toEqual([
      ['scheduled', 'reminder', true, '2026-06-01 09:00'],
      ['scheduled', 'reminder', true, '2026-06-01 09:30'],
      ['scheduled', 'reminder', true, '2026-06-01 10:00'],
    ]);

    // At its time: the first is sent, the others wait.
    clock.ms = Date.parse('2026-06-01T07:00:00Z');
    await worker.flush();
    expect(smtp.messages).toHaveLength(7);
    const mail = smtp.messages[6]!;
    const first = reminderOf(ids[0]!);
    expect(mail.subject).toBe('Reminder: your appointment at Test, Tuesday, 2 June 2026, 09:00 CEST');
    expect(mail.messageId).toBe(`<outbox-${first.id}-${first.retryFrom}@test.example>`);
    expect(mail.text).toContain('This is a reminder of your appointment.');
    expect(mail.text).toMatch(
      /\nYou can cancel or move this appointment online until Monday, 1 June 2026, 21:00 CEST\.\nManage your appointment: https:\/\/book\.example\/manage\/[A-Za-z0-9_-]+\n/,
    );
    expect(mail.html).toMatch(
      /<a href="https:\/\/book\.example\/manage\/[A-Za-z0-9_-]+"[^>]*>Manage your appointment<\/a>/,
    );
    const ics = mail.attachments.find((a) => a.filename === 'appointment.ics')!;
    const event = new ICAL.Component(ICAL.parse(ics.content.toString())).getFirstSubcomponent('vevent')!;
    expect([
      event.getFirstPropertyValue('uid'),
      event.getFirstPropertyValue('sequence'),
      event.getFirstPropertyValue('dtstart')!.toString(),
    ]).toEqual([`${references[0]}@planner`, 0, '2026-06-02T07:00:00Z']);
    expect(reminderOf(ids[1]!).status).toBe('pending');

    // The server was "down" from Monday 07:00Z to Tuesday 07:45Z: both other reminders came due meanwhile. The
    // second's appointment (Tuesday 07:30Z) has begun: dropped, with the reason. The third's (08:00Z) is ahead: sent.
    clock.ms = Date.parse('2026-06-02T07:45:00Z');
    await worker.flush();
    await worker.stop();
    expect(smtp.messages).toHaveLength(8);
    expect(smtp.messages[7]!.subject).toBe('Reminder: your appointment at Test, Tuesday, 2 June 2026, 10:00 CEST');
    // It went out after the page's deadline (Monday 22:00): no link, no promise, the phone number instead (issue 24, item 3).
    expect(smtp.messages[7]!.text).toContain(
      'Changes online were possible until Monday, 1 June 2026, 22:00 CEST. To cancel or change the appointment now, please call +49 30 1234567.',
    );
    expect(`${smtp.messages[7]!.text}${smtp.messages[7]!.html}`).not.toMatch(
      /manage\/|Manage your appointment|You can cancel/,
    );
    expect([reminderOf(ids[1]!).status, reminderOf(ids[1]!).lastError]).toEqual([
      'dropped',
      'the appointment had begun when the reminder came due',
    ]);
    expect(reminderOf(ids[2]!).status).toBe('sent');
    expect(lines).toEqual([
      `planner: reminder ${reminderOf(ids[1]!).id} dropped: the appointment had begun when the reminder came due`,
    ]);
    expect(mailQueue(f.ctx).map((e) => [e.section, e.kind, e.lastError])).toEqual([
      ['dropped', 'reminder', 'the appointment had begun when the reminder came due'],
    ]);
  });
});
