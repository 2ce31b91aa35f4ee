/**
 * Issue 23, finding 2: two people of one family book with the same e-mail address, written differently. Every door
 * shows each appointment with what was submitted for it: the page, the mails, the feed, the CLI and the webhooks. The
 * customer record only groups the two bookings by address (the API's `user_id`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliJson, cliOk } from '../helpers.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import {
  bookWithLink,
  formFields,
  icsOf,
  moveForm,
  offeredSlots,
  page,
  postForm,
  type Setup,
  setup,
  slotsOf,
  textOf,
} from './page.ts';

const ANNA = { first_name: 'Anna', last_name: 'Family', email: 'family@example.com', phone: '+49 30 1111111' };
const BEN = { first_name: 'Ben', last_name: 'Family', email: 'Family@Example.com', phone: '+49 30 2222222' };

describe('a family sharing one e-mail address (real server, SMTP, webhook receiver)', () => {
  let s: Setup;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    s = await setup();
    hook = await startReceiver(); // a hook that asked for the customer's details
    await cliOk(s.db, 'webhook', 'add', hook.url, '--allow-insecure', '--include-customer');
  });

  it('shows Ben’s booking as Ben’s everywhere, and Anna’s as Anna’s', async () => {
    const [first, second] = await slotsOf(s, s.days[1]!);
    const anna = await bookWithLink(s, first!, ANNA);
    const ben = await bookWithLink(s, second!, BEN);
    const created = (await hook.next(2)).map((one) => one.json as { type: string; data: Record<string, unknown> });
    expect(created.map((event) => event.data.customer)).toEqual([
      { first_name: 'Anna', last_name: 'Family', email: 'family@example.com' },
      { first_name: 'Ben', last_name: 'Family', email: 'Family@Example.com' },
    ]);
    // One customer record for the address: it groups the two bookings.
    const shownAnna = await cliJson(s.db, 'bookings', 'show', anna.booked.booking_details_id);
    const shownBen = await cliJson(s.db, 'bookings', 'show', ben.booked.booking_details_id);
    expect(shownBen.customerId).toBe(shownAnna.customerId);

    // The mails: each confirmation greets its own person, to the address given with it.
    expect(ben.confirmation.text).toContain('Hello Ben Family,');
    const address = (mail: { to?: unknown }) => (mail.to as { value: { address: string }[] }).value[0]!.address;
    expect(address(ben.confirmation)).toBe('Family@example.com'); // as Ben wrote it (mailparser lower-cases the domain)
    expect(address(anna.confirmation)).toBe('family@example.com');
    expect(anna.confirmation.text).toContain('Hello Anna Family,');

    // The CLI.
    expect(shownBen).toMatchObject({
      customerName: 'Ben Family',
      customerEmail: 'Family@Example.com',
      submission: BEN,
    });
    expect(shownAnna).toMatchObject({
      customerName: 'Anna Family',
      customerEmail: 'family@example.com',
      submission: ANNA,
    });
    const listed = (await cliJson(s.db, 'bookings', 'list', '--from', s.days[1]!)) as {
      reference: string;
      customerName: string;
    }[];
    expect(listed.map((one) => [one.reference, one.customerName])).toEqual([
      [anna.booked.booking_details_id, 'Anna Family'],
      [ben.booked.booking_details_id, 'Ben Family'],
    ]);

    // The page.
    const benPage = textOf((await page(ben.link)).html);
    expect(benPage).toContain('Ben Family');
    expect(benPage).not.toContain('Anna');

    // The feed: each event names its own person and phone.
    const feedUrl = (await cliOk(s.db, 'feed', 'url', '1', '--url', s.server.url)).split('\n')[0]!;
    const feed = (await (await fetch(feedUrl)).text()).replace(/\r\n /g, '');
    const eventOf = (reference: string) =>
      feed.split('BEGIN:VEVENT').find((one) => one.includes(`UID:${reference}@planner`))!;
    expect(eventOf(ben.booked.booking_details_id)).toContain('Ben Family');
    expect(eventOf(ben.booked.booking_details_id)).toContain('+49 30 2222222');
    expect(eventOf(ben.booked.booking_details_id)).toContain('Family@Example.com');
    expect(eventOf(ben.booked.booking_details_id)).not.toMatch(/Anna|1111111/);
    expect(eventOf(anna.booked.booking_details_id)).toContain('Anna Family');
    expect(eventOf(anna.booked.booking_details_id)).toContain('+49 30 1111111');

    // Ben moves, then cancels, on his page: the update and cancellation mails and both webhooks name Ben.
    const target = s.days[2]!;
    const times = await page(`${ben.link}/reschedule?day=${target}`);
    const slot = offeredSlots(times.html)[0]!;
    expect((await postForm(`${ben.link}/reschedule`, await moveForm(ben.link, slot))).status).toBe(303);
    const confirm = await page(`${ben.link}/cancel`);
    expect(
      (await postForm(`${ben.link}/cancel`, { ...formFields(confirm.html, '/cancel')!, reason: 'Ill' })).status,
    ).toBe(303);
    const mails = await s.smtp.received(8); // 2 × (confirmation + notice), the update, the cancellation, and the practice's notice of each
    const update = mails.find((mail) => mail.subject?.startsWith('Changed:'))!;
    const cancellation = mails.find((mail) => mail.subject?.startsWith('Cancelled:'))!;
    for (const mail of [update, cancellation]) {
      expect(mail.text).toContain('Hello Ben Family,');
      expect(mail.text).not.toContain('Anna');
      expect(address(mail)).toBe('Family@example.com');
      expect(icsOf(mail).event.getFirstProperty('attendee')!.getParameter('cn')).toBe('Ben Family');
    }
    const events = (await hook.next(4)).map((one) => one.json as { type: string; data: Record<string, unknown> });
    expect(events.slice(2).map((event) => [event.type, event.data.customer])).toEqual([
      ['booking.changed', { first_name: 'Ben', last_name: 'Family', email: 'Family@Example.com' }],
      ['booking.cancelled', { first_name: 'Ben', last_name: 'Family', email: 'Family@Example.com' }],
    ]);
    // Anna's booking is untouched, and still hers.
    expect(await cliJson(s.db, 'bookings', 'show', anna.booked.booking_details_id)).toMatchObject({
      status: 'booked',
      customerName: 'Anna Family',
    });
  });
});
