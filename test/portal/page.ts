/** Helpers for tests of the self-service page: reading the link from a mail, the forms from a page, and posting them. */
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';
import type { Locale } from '../../src/domain/locales.ts';
import { api, apiBook, bookableDb, cliOk, type ServerProcess, serve, snapshot, tempDb } from '../helpers.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import { startReceiver } from '../webhooks/receiver.ts';

/** The link to the page in a mail's text (`<url>/manage/<token>`), or undefined. */
export function linkIn(mail: ParsedMail): string | undefined {
  return /https?:\/\/[^\s/]+\/manage\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
}

/** Fetches a page without following redirects: status, headers, HTML. */
export async function page(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The hidden fields of the form posting to `action` (e.g. `/cancel`), or undefined when the page has none. */
export function formFields(html: string, action: string): Record<string, string> | undefined {
  const form = new RegExp(`<form method="post" action="[^"]*${action}">(.*?)</form>`, 's').exec(html)?.[1];
  if (form === undefined) return undefined;
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]),
  );
}

/** The times a times page offers, as slots `YYYY-MM-DD HH:MM:SS` (from its links to the confirmation step). */
export function offeredSlots(html: string): string[] {
  return [...html.matchAll(/\/reschedule\?day=(\d{4}-\d{2}-\d{2})&#38;time=(\d{2}:\d{2})"/g)].map(
    (match) => `${match[1]} ${match[2]}:00`,
  );
}

/** The address of the confirmation step of a move of the booking at `link` to `slot` (`YYYY-MM-DD HH:MM:SS`). */
export function confirmUrl(link: string, slot: string): string {
  return `${link}/reschedule?day=${slot.slice(0, 10)}&time=${slot.slice(11, 16)}`;
}

/** The fields of the move form on the confirmation step of `slot` (sequence, CSRF token, slot). */
export async function moveForm(link: string, slot: string): Promise<Record<string, string>> {
  const confirm = await page(confirmUrl(link, slot));
  expect(confirm.status).toBe(200);
  const fields = formFields(confirm.html, '/reschedule');
  expect(fields?.slot).toBe(slot);
  return fields!;
}

/** Posts a form to the page as a browser on the page's own origin would. */
export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return page(url, {
    method: 'POST',
    // As Chromium sends the page's own forms: under `Referrer-Policy: no-referrer` the Origin is `null`.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'null',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The visible text of a page, roughly: tags out, entities of the escape in. */
export function textOf(html: string): string {
  return html
    .replace(/<style>.*?<\/style>/s, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');
}

/**
 * What a change of a booking writes: the bookings and customers, and which messages and webhook deliveries exist.
 * Beside a running server the full `snapshot` also moves while its workers send (sent times, link tokens).
 */
export function bookingState(db: string) {
  const rows = snapshot(db) as Record<string, Record<string, unknown>[]>;
  return {
    bookings: rows.bookings,
    customers: rows.customers,
    outbox: rows.outbox!.map((row) => [row.id, row.booking_id, row.kind]),
    deliveries: rows.webhook_deliveries!.map((row) => [row.id, row.type]),
  };
}

/** A customer whose name holds markup and quotes: the page must show it as text. */
export const ADA = { first_name: '<script>alert(1)</script>', last_name: 'Lovelace "Ada"', email: 'ada@example.com' };

export interface Setup {
  db: string;
  token: string;
  server: ServerProcess;
  smtp: TestSmtp;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  days: string[];
}

/** A bookable installation with SMTP, a webhook receiver, reminders off and the page on, served by a real process. */
export async function setup(portal: string[] = ['--cancel-until', '0'], locale: Locale = 'en'): Promise<Setup> {
  const smtp = await startSmtp();
  const receiver = await startReceiver();
  const db = tempDb();
  const token = await bookableDb(db, { locale });
  await cliOk(
    db,
    'mail',
    'set',
    `smtp://planner:s3cret@127.0.0.1:${smtp.port}`,
    '--from',
    'Test Practice <desk@practice.example>',
    '--send-password-in-clear',
  );
  await cliOk(db, 'webhook', 'add', receiver.url, '--allow-insecure');
  await cliOk(db, 'reminders', 'set', 'off'); // the page's mails only (test/app/reminders.test.ts has the reminders)
  const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2' });
  await cliOk(db, 'portal', 'enable', '--url', server.url, ...portal);
  const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
  return { db, token, server, smtp, receiver, days };
}

export async function slotsOf(s: Setup, day: string): Promise<string[]> {
  return (await api(s.server.url, `/api/slots?schedule=1&reason=1&day=${day}`, s.token)).body.data;
}

export async function book(s: Setup, slot: string, submission: Record<string, unknown> = ADA) {
  const answer = await apiBook(s.server.url, s.token, slot, submission);
  expect(answer.status).toBe(201);
  return answer.body as { booking_id: number; booking_details_id: string; slot: string };
}

/** Books `slot` and returns the booking and the link of its confirmation mail, once that has arrived. */
export async function bookWithLink(s: Setup, slot: string, submission: Record<string, unknown> = ADA) {
  const booked = await book(s, slot, submission);
  const mine = (mail: ParsedMail) =>
    /^(Your appointment|Ihr Termin) /.test(mail.subject ?? '') && mail.text?.includes(booked.booking_details_id);
  // Each arrival is awaited (no polling): the confirmation is among the next few mails.
  for (let count = s.smtp.messages.length + 1; !s.smtp.messages.some(mine); count++) await s.smtp.received(count);
  const confirmation = s.smtp.messages.find(mine)!;
  const link = linkIn(confirmation);
  expect(link).toBeDefined();
  return { booked, link: link!, confirmation };
}

/** The method and VEVENT of a mail's appointment.ics. */
export function icsOf(mail: { attachments: { filename?: string; content: Buffer }[] }) {
  const ics = mail.attachments.find((file) => file.filename === 'appointment.ics')!.content.toString();
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return { method: calendar.getFirstPropertyValue('method'), event: calendar.getFirstSubcomponent('vevent')! };
}
