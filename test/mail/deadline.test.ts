/**
 * A mail written after the self-service page's change deadline had passed (a booking made, or
 * moved, inside it) never says "Changes online were possible until <a time before the booking>": it says to call
 * the practice. In-process, with a fixed clock for the booking and for the worker that sends, and a real SMTP server;
 * the boundary at the deadline's exact second and one second either side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { createContext } from '../../src/app/context.ts';
import { setMail } from '../../src/app/messages/mail.ts';
import { changePractice } from '../../src/app/practice/practice.ts';
import { type OutboxWorker, startOutboxWorker } from '../../src/mail/worker.ts';
import { openStore } from '../../src/store/db.ts';
import { readSettings, setPortal } from '../../src/store/settings.ts';
import { ADA, apiFixture, NOW } from '../http/fixture.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

/** Changes on the page until 26 h before the start: for Tuesday 10:00 (08:00Z) that is Monday 08:00 CEST, NOW. */
const HOURS = 26;
const at = (slot: string) => Date.parse(`${slot.replace(' ', 'T')}+02:00`) / 1000; // Berlin in June: CEST
const deadlineOf = (slot: string) => at(slot) - HOURS * 3600;
const CALL = 'To cancel or change the appointment, please call +49 30 1234567.';

describe('the manage line of a mail written inside the change deadline (fixed clock, real SMTP)', () => {
  let f: Awaited<ReturnType<typeof apiFixture>>;
  let smtp: TestSmtp;
  let worker: OutboxWorker;
  const clock = { ms: NOW.getTime() };
  beforeAll(async () => {
    smtp = await startSmtp();
    f = await apiFixture();
    setMail(f.ctx, smtp.url, 'desk@test.example');
    const admin = openStore(f.file);
    changePractice(createContext(admin), { phone: '+49 30 1234567' });
    admin.close();
    setPortal(f.store, { url: 'https://book.example', cancelUntilHours: HOURS, reschedule: true }, () =>
      'k'.repeat(64),
    );
    worker = startOutboxWorker({
      store: f.store,
      settings: () => readSettings(f.store),
      log: () => {},
      nowMs: () => clock.ms,
      pollMs: 60_000,
    });
  });
  afterAll(() => worker.stop());

  /** The text of the last mail sent to `email`, sent by the worker at `sentAt` (Unix seconds). */
  const sentTo = async (email: string, sentAt: number) => {
    clock.ms = sentAt * 1000;
    await worker.flush();
    const mail = smtp.messages.filter((message) => (message.to as any).text === email).at(-1);
    expect(mail, `a mail to ${email}`).toBeDefined();
    return mail!.text!;
  };

  it.each<[string, string, number, string]>([
    [
      'one second before the deadline: the link, until the deadline',
      '2026-06-02 10:00:00',
      -1,
      'You can cancel or move this appointment online until Monday, 1 June 2026, 08:00 CEST.\nManage your appointment: https://book.example/manage/',
    ],
    [
      'at the deadline (a change is still possible then): the link',
      '2026-06-02 10:30:00',
      0,
      'You can cancel or move this appointment online until Monday, 1 June 2026, 08:30 CEST.\nManage your appointment: https://book.example/manage/',
    ],
    [
      'one second after the deadline: call the practice, no date before the booking',
      '2026-06-02 11:00:00',
      1,
      `${CALL}\n`,
    ],
  ])('booked %s', async (_, slot, offset, says) => {
    const bookedAt = deadlineOf(slot) + offset;
    const email = `booked${offset + 1}@example.com`;
    createBooking(
      { ...f.ctx, now: () => new Date(bookedAt * 1000) },
      { scheduleId: 1, reasonId: 1, slot, submission: { ...ADA, email } },
      'api',
    );
    // Sent the moment it was booked.
    const text = await sentTo(email, bookedAt);
    expect(text).toContain(says);
    if (offset > 0) expect(text).not.toMatch(/were possible|manage\/|You can cancel/);
  });

  it('a booking moved inside its new time\'s deadline: the update says to call, not "were possible until" before the move', async () => {
    const email = 'moved@example.com';
    const bookedAt = NOW.getTime() / 1000 - 3600;
    const made = createBooking(
      { ...f.ctx, now: () => new Date(bookedAt * 1000) },
      { scheduleId: 1, reasonId: 1, slot: '2026-06-02 11:30:00', submission: { ...ADA, email } },
      'api',
    );
    expect(await sentTo(email, bookedAt)).toContain(
      'You can cancel or move this appointment online until Monday, 1 June 2026, 09:30 CEST.',
    );
    // Moved to 09:00, whose deadline (Monday 07:00 CEST) passed an hour before the move.
    const movedAt = deadlineOf('2026-06-02 09:00:00') + 3600;
    moveBooking({ ...f.ctx, now: () => new Date(movedAt * 1000) }, made.reference, '2026-06-02 09:00:00', {
      notify: true,
      force: false,
    });
    const update = await sentTo(email, movedAt);
    expect(update).toContain('Your appointment has been moved to a new time.');
    expect(update).toContain(`${CALL}\n`);
    expect(update).not.toMatch(/were possible|manage\/|You can cancel/);
  });

  it('a mail written before the deadline and sent after it still says until when changes were possible', async () => {
    const email = 'late@example.com';
    const slot = '2026-06-04 10:00:00';
    const bookedAt = deadlineOf(slot) - 60;
    createBooking(
      { ...f.ctx, now: () => new Date(bookedAt * 1000) },
      { scheduleId: 1, reasonId: 1, slot, submission: { ...ADA, email } },
      'api',
    );
    expect(await sentTo(email, deadlineOf(slot) + 1)).toContain(
      'Changes online were possible until Wednesday, 3 June 2026, 08:00 CEST. To cancel or change the appointment now, please call +49 30 1234567.',
    );
  });
});
