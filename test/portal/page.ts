/** Helpers for tests of the self-service page: reading the link from a mail, the forms from a page, and posting them. */
import { snapshot } from '../helpers.ts';
import type { ParsedMail } from 'mailparser';

/** The link to the page in a mail's text (`<url>/manage/<token>`), or undefined. */
export function linkIn(mail: ParsedMail): string | undefined {
  return /https?:\/\/[^\s/]+\/manage\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
}

/** Fetches a page without following redirects: status, headers, HTML. */
export async function page(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The hidden fields of the form posting to `action` (e.g. `/cancel`), or undefined when the page has none. */
export function formFields(html: string, action: string): Record<string, string> | undefined {
  const form = new RegExp(`<form method="post" action="[^"]*${action}">(.*?)</form>`, 's').exec(html)?.[1];
  if (form === undefined) return undefined;
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]));
}

/** The times a times page offers (the `slot` values of its buttons). */
export function offeredSlots(html: string): string[] {
  return [...html.matchAll(/name="slot" value="([^"]+)"/g)].map((match) => match[1]!);
}

/** Posts a form to the page as a browser on the page's own origin would. */
export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return page(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin, 'sec-fetch-site': 'same-origin', ...headers },
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
