/**
 * The practice is told of every change a customer makes on the self-service page, with the old and
 * the new time, and every practice notice carries Reply-To the customer. Through a real server, the page's forms and
 * a real SMTP server; a change by the admin sends the practice nothing (the admin made it).
 */
import { DatabaseSync } from 'node:sqlite';
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { cliOk } from '../helpers.ts';
import { bookWithLink, formFields, moveForm, offeredSlots, page, postForm, setup, slotsOf } from '../portal/page.ts';

const ADA = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** Waits until a mail whose subject matches has arrived (each arrival awaited, no polling), and returns it. */
async function mailWith(
  smtp: { messages: ParsedMail[]; received(count: number): Promise<ParsedMail[]> },
  subject: RegExp,
): Promise<ParsedMail> {
  for (let count = smtp.messages.length + 1; !smtp.messages.some((mail) => subject.test(mail.subject ?? '')); count++)
    await smtp.received(count);
  return smtp.messages.find((mail) => subject.test(mail.subject ?? ''))!;
}

const replyTo = (mail: ParsedMail) => mail.replyTo?.value.map((address) => address.address);

describe('the practice hears of each change a customer makes (real server, page, SMTP)', () => {
  it('a move and a cancellation on the page: a notice each to the notify address, old and new time, Reply-To the customer', async () => {
    const s = await setup();
    const [first, second] = await slotsOf(s, s.days[1]!);
    const { booked, link } = await bookWithLink(s, first!, ADA);
    // The new booking's notice answers to the customer too.
    const created = await mailWith(s.smtp, /^New booking:/);
    expect(created.to).toMatchObject({ value: [{ address: 'desk@practice.example' }] });
    expect(replyTo(created)).toEqual(['ada@example.com']);

    // Move on the page.
    const target = s.days[2]!;
    const times = await page(`${link}/reschedule?day=${target}`);
    const slot = offeredSlots(times.html)[1]!;
    expect((await postForm(`${link}/reschedule`, await moveForm(link, slot))).status).toBe(303); // through the confirmation step
    const moved = await mailWith(s.smtp, /^Moved by the customer:/);
    expect(moved.to).toMatchObject({ value: [{ address: 'desk@practice.example' }] });
    expect(replyTo(moved)).toEqual(['ada@example.com']);
    const previously = /^Previously: +(.+)$/m.exec(moved.text!)?.[1];
    const now = /^Now: +(.+)$/m.exec(moved.text!)?.[1];
    expect(previously).toMatch(new RegExp(`${first!.slice(11, 16)} (CET|CEST)$`));
    expect(now).toMatch(new RegExp(`${slot.slice(11, 16)} (CET|CEST)$`));
    expect(moved.text).toMatch(new RegExp(`^Reference: +${booked.booking_details_id}$`, 'm'));
    expect(moved.text).toMatch(/^E-mail: +ada@example\.com$/m);
    expect(moved.html).toContain('Previously');

    // Cancel on the page, with a reason.
    const confirm = await page(`${link}/cancel`);
    expect(
      (await postForm(`${link}/cancel`, { ...formFields(confirm.html, '/cancel')!, reason: 'ill today' })).status,
    ).toBe(303);
    const cancelled = await mailWith(s.smtp, /^Cancelled by the customer:/);
    expect(replyTo(cancelled)).toEqual(['ada@example.com']);
    expect(cancelled.text).toMatch(/^Reason: +ill today$/m);
    expect(cancelled.text).toContain(now!);

    // The admin's own change sends the practice no notice of it.
    const other = await bookWithLink(s, second!, { ...ADA, email: 'grace@example.com' });
    await cliOk(s.db, 'bookings', 'cancel', other.booked.booking_details_id);
    const handle = new DatabaseSync(s.db, { readOnly: true, timeout: 5000 });
    const kinds = handle
      .prepare('SELECT kind FROM outbox WHERE booking_id = ? ORDER BY id')
      .all(other.booked.booking_id)
      .map((row) => row.kind);
    handle.close();
    expect(kinds).toEqual(['confirmation', 'notice', 'cancellation']); // the notice is the new booking's
  }, 120_000);
});
