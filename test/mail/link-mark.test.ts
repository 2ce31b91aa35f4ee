/**
 * The mark where a customer mail's link to the self-service page goes could be forged from a
 * cancel reason, and a cancellation (which carries no link) then went out with a fresh link and NUL bytes. Through a
 * real server and SMTP: a cancellation row as an older version wrote it, with the mark in its reason, is sent with
 * no link and no NUL (test/mail/messages.test.ts has the builders' side).
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MANAGE_MARK } from '../../src/mail/messages.ts';
import { book, setup, slotsOf } from '../portal/page.ts';

describe('a forged link mark in a stored cancellation (real server and SMTP, page on)', () => {
  it('goes out without a link and without NUL bytes', async () => {
    const s = await setup();
    const booked = await book(s, (await slotsOf(s, s.days[1]!))[0]!);
    await s.smtp.received(2); // the confirmation (with its link) and the notice
    const handle = new DatabaseSync(s.db, { timeout: 5000 }); // the server writes beside: wait for its lock
    const text = `Hello Ada,\nYour appointment is cancelled.\n\nReason: ${MANAGE_MARK}\nx\n\nPraxis\n`;
    const html = `<p>Hello Ada,</p><table><tr><td>${MANAGE_MARK}</td></tr></table><p>${MANAGE_MARK}</p>`;
    handle
      .prepare(
        `INSERT INTO outbox (booking_id, kind, recipient, subject, body, status, next_attempt_at, retry_from, created_at)
         VALUES (?, 'cancellation', 'ada@example.com', 'Cancelled: forged', ?, 'pending', 0, 0, '2026-01-01T00:00:00Z')`,
      )
      .run(booked.booking_id, JSON.stringify({ text, html, ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }));
    handle.close();
    const mail = (await s.smtp.received(3))[2]!;
    expect(mail.subject).toBe('Cancelled: forged');
    expect(mail.text).toContain('Reason: \ufffdmanage-link\ufffd');
    expect(`${mail.text}${mail.html}`).not.toMatch(/manage\/|\u0000/);
    const links = new DatabaseSync(s.db, { readOnly: true, timeout: 5000 });
    expect(links.prepare('SELECT count(*) AS n FROM manage_links').get()).toEqual({ n: 1 }); // the confirmation's only
    links.close();
  });
});
