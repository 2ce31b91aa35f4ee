import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { setMail } from '../../src/app/messages/mail.ts';
import { setReminders } from '../../src/app/messages/reminders.ts';
import { smtpCodeOf } from '../../src/mail/sender.ts';
import { startOutboxWorker } from '../../src/mail/worker.ts';
import { decideRetry } from '../../src/queue/retry-policy.ts';
import { openStore } from '../../src/store/db.ts';
import { messagesOfBooking, unsentMessages } from '../../src/store/outbox.ts';
import { readSettings } from '../../src/store/settings.ts';
import { ADA, apiFixture } from '../http/fixture.ts';
import { freePort, startSmtp } from './smtp.ts';

describe('SMTP failures and the retry policy', () => {
  it('only 5xx answers are permanent', () => {
    const permanent = (error: unknown) => {
      const decision = decideRetry(
        { delivered: false, reason: 'x', smtpCode: smtpCodeOf(error) },
        { attempts: 0, retryFrom: 0 },
        0,
      );
      return decision.kind === 'failed' && decision.permanent;
    };
    expect(permanent({ responseCode: 550 })).toBe(true);
    expect(permanent({ responseCode: 451 })).toBe(false);
    expect(permanent({ code: 'ECONNREFUSED' })).toBe(false);
    expect(permanent(new Error('timeout'))).toBe(false);
  });
});

describe('outbox worker (in-process, real SMTP)', () => {
  it('retries a 4xx answer with back-off until it is delivered', async () => {
    let refusals = 2;
    const smtp = await startSmtp({ reject: (to) => (to === 'ada@example.com' && refusals-- > 0 ? 451 : undefined) });
    const f = await apiFixture();
    setMail(f.ctx, smtp.url, 'desk@test.example');
    // A reminder that waits for its time while the others are retried (the default, 48h, lies before now for this
    // booking): set as the CLI would, from another connection, so the server sees it at its next request.
    const admin = openStore(f.file);
    setReminders(createContext(admin), '24h');
    admin.close();
    const booked = await f.post({ schedule: 1, reason: 1, slot: '2026-06-02 09:00:00', submission: ADA });
    expect(booked.status).toBe(201);
    const lines: string[] = [];
    // The fixture's clock, running on from the moment of the booking.
    const started = Date.now();
    const nowMs = () => f.ctx.now().getTime() + (Date.now() - started);
    const worker = startOutboxWorker({
      store: f.store,
      settings: () => readSettings(f.store),
      log: (line) => lines.push(line),
      retry: { baseSeconds: 0.05 },
      pollMs: 10,
      nowMs,
    });
    await smtp.received(2);
    await worker.stop();
    const messages = messagesOfBooking(f.store, booked.body.booking_id);
    expect(messages.map((m) => [m.kind, m.status, m.attempts])).toEqual([
      ['confirmation', 'sent', 3],
      ['notice', 'sent', 1],
      ['reminder', 'pending', 0], // due 24 h before the start: not yet
    ]);
    expect(lines.filter((line) => line.includes('not delivered, next try in'))).toHaveLength(2);
    expect(lines.join('\n')).toContain('451 Try again later');
  });

  it('gives up after 48 hours of failed attempts and says why', async () => {
    const f = await apiFixture();
    setMail(f.ctx, `smtp://127.0.0.1:${await freePort()}`, 'desk@test.example');
    expect((await f.post({ schedule: 1, reason: 1, slot: '2026-06-02 10:00:00', submission: ADA })).status).toBe(201);
    const twoDaysLater = f.ctx.now().getTime() + 48 * 3600 * 1000 + 1000;
    const worker = startOutboxWorker({
      store: f.store,
      settings: () => readSettings(f.store),
      log: () => {},
      nowMs: () => twoDaysLater,
      pollMs: 60_000,
    });
    await worker.flush();
    await worker.stop();
    const failed = unsentMessages(f.store);
    expect(failed).toHaveLength(2);
    for (const entry of failed) expect(entry.lastError).toMatch(/^gave up after 48 hours: .*ECONNREFUSED/);
  });
});
