/** Helpers for tests of the booking page: an installation with the page on, and a customer's walk through its steps. */
import { DatabaseSync } from 'node:sqlite';
import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { cliOk, initDb, type ServerProcess, serve, tempDb } from '../helpers.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import { startReceiver } from '../webhooks/receiver.ts';

export interface PageSetup {
  db: string;
  server: ServerProcess;
  smtp: TestSmtp;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  base: string;
}

/**
 * A practice with one schedule (30-minute check-ups, every day 08:00–18:00, 30 days ahead), SMTP, a webhook
 * receiver, reminders off, the self-service page and the booking page on, served by a real process. `env` reaches
 * the server (PLANNER_FORM_MIN_SECONDS=0 unless given: the flow tests do not wait 3 s), `page` the enable command.
 */
export async function pageSetup(
  options: {
    locale?: 'en' | 'de';
    env?: Record<string, string>;
    page?: string[];
    more?: (db: string) => Promise<void>;
    smtp?: Parameters<typeof startSmtp>[0];
  } = {},
): Promise<PageSetup> {
  const smtp = await startSmtp(options.smtp);
  const receiver = await startReceiver();
  const db = tempDb();
  await initDb(db, options.locale ?? 'en');
  await cliOk(db, 'practice', 'set', '--address', 'Hauptstraße 1, 10115 Berlin', '--phone', '+49 30 1234567');
  await cliOk(db, 'schedule', 'add', 'Dr. Weber', '--days-ahead', '30', '--notice', '0', '--step', '30');
  await cliOk(db, 'reason', 'add', '1', 'Check-up', '--duration', '30');
  await cliOk(db, 'hours', 'set', '1', 'mon-sun', '08:00-18:00');
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
  await cliOk(db, 'reminders', 'set', 'off');
  if (options.more) await options.more(db);
  const server = await serve(db, { PLANNER_MAIL_RETRY_SECONDS: '0.2', PLANNER_FORM_MIN_SECONDS: '0', ...options.env });
  await cliOk(db, 'portal', 'enable', '--url', server.url, '--cancel-until', '0');
  await cliOk(db, 'booking-page', 'enable', ...(options.page ?? []));
  return { db, server, smtp, receiver, base: server.url };
}

/** An answer of the page: status, headers and HTML. */
export async function get(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** Text as the page escaped it, unescaped (escapeHtml writes `&#NN;`). */
export function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The hidden fields of the page's form that posts to `action`. */
export function hiddenFields(html: string, action: string): Record<string, string> {
  const form = new RegExp(`<form method="(?:post|get)" action="${action}"[^>]*>(.*?)</form>`, 's').exec(html)?.[1];
  expect(form, `a form to ${action}`).toBeDefined();
  return hiddenIn(form!);
}

/** The hidden inputs of a form's inner HTML, unescaped. */
function hiddenIn(form: string): Record<string, string> {
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [
      unescapeHtml(match[1]!),
      unescapeHtml(match[2]!),
    ]),
  );
}

/** A day as the page writes it out for `dateLocale`: `Wednesday, 2 December 2026` (en-GB). */
export function longDay(day: string, dateLocale = 'en-GB'): string {
  return new Intl.DateTimeFormat(dateLocale, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(`${day}T12:00:00Z`));
}

/** The form of a times page that chooses another day keeping what was typed: its hidden fields and its days. */
export function otherDayForm(html: string): {
  fields: Record<string, string>;
  days: string[];
  selected: string | undefined;
} {
  const form = /<form method="post" action="\/book\/details" class="other-day">(.*?)<\/form>/s.exec(html)?.[1];
  expect(form, 'a form to choose another day').toBeDefined();
  return {
    fields: hiddenIn(form!),
    days: [...form!.matchAll(/<option value="(\d{4}-\d\d-\d\d)"/g)].map((match) => match[1]!),
    selected: /<option value="(\d{4}-\d\d-\d\d)" selected>/.exec(form!)?.[1],
  };
}

/**
 * The link to the second day with a free time on a days page: a whole day whatever the hour the test runs (today may
 * have one time left, which the test's own booking would use up).
 */
export function wholeDay(html: string): string {
  const day = links(html, '/book/times?')[1];
  expect(day, 'a second day with free times').toBeDefined();
  return day!;
}

/** The links of a page whose address starts with `prefix`, unescaped. */
export function links(html: string, prefix: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)]
    .map((match) => unescapeHtml(match[1]!))
    .filter((href) => href.startsWith(prefix));
}

/** The times a times page offers (`HH:MM`). */
export function times(html: string): string[] {
  return [...html.matchAll(/<button class="button" type="submit" name="time" value="(\d\d:\d\d)"/g)].map(
    (match) => match[1]!,
  );
}

/** Posts a form as Chromium posts the page's own forms (Origin `null` under no-referrer, same-origin fetch). */
export function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return get(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'null',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

export const MARIA = { 'f.first_name': 'Maria', 'f.last_name': 'Schmidt', 'f.email': 'maria@example.com' };

/** A customer's walk up to the review: the first free day and time; returns the review page's form (ready to book). */
export async function toReview(
  s: PageSetup,
  typed: Record<string, string> = MARIA,
  pick = 0,
): Promise<{ review: Record<string, string>; slot: string }> {
  const first = await get(`${s.base}/book/`);
  expect(first.status).toBe(200);
  const timesPage = await get(`${s.base}${wholeDay(first.html)}`);
  expect(timesPage.status).toBe(200);
  const choice = hiddenFields(timesPage.html, '/book/details');
  const time = times(timesPage.html)[pick]!;
  const details = await get(`${s.base}/book/details?${new URLSearchParams({ ...choice, time })}`);
  expect(details.status).toBe(200);
  const ticket = hiddenFields(details.html, '/book/review');
  const review = await post(`${s.base}/book/review`, { ...ticket, ...typed, homepage: '' });
  expect(review.status, review.html).toBe(200);
  return { review: hiddenFields(review.html, '/book/confirm'), slot: ticket.slot! };
}

/** What the page may write: bookings, customers, outbox, deliveries, kept answers and links. */
export function written(db: string) {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    const count = (table: string) => (handle.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      bookings: count('bookings'),
      customers: count('customers'),
      outbox: count('outbox'),
      deliveries: count('webhook_deliveries'),
      keys: count('idempotency_keys'),
      links: count('manage_links'),
    };
  } finally {
    handle.close();
  }
}

/** A real PNG of `width` × `height` pixels in one colour (`rgb`), as a logo file would be. */
export function pngOf(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `png` with its IHDR declaring `width` × `height`, its checksum made right again (as a tool that lies would). */
export function pngDeclaring(png: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}
