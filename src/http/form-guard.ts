/**
 * What a page's form must carry to change anything (the CSRF defence of the HTML doors): a token the server made for
 * exactly what the form changes, and no sign that the browser sent it from another site. Pages with forms (the
 * self-service page, src/http/portal.ts) bind the token to what they show: the link, the booking and its sequence,
 * so a form sent twice, or from an old tab, changes nothing. And how every page reads a posted form: `readPageForm`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import { readBodyText } from './body.ts';

/** Returns the form token of `parts` (HMAC-SHA256 under the installation's page secret, base64url). */
export function formToken(secret: string, parts: readonly (string | number)[]): string {
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

/** True when `sent` is the form token of `parts` (compared in constant time). */
export function isFormToken(secret: string, parts: readonly (string | number)[], sent: string): boolean {
  const given = Buffer.from(sent);
  const expected = Buffer.from(formToken(secret, parts));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * True when the browser says the form came from another site than `origin` (the page's own): Fetch Metadata
 * (`Sec-Fetch-Site`), or an `Origin` that names another origin. `Origin: null` is not one: under the pages' own
 * `Referrer-Policy: no-referrer`, Chromium sends that for a page's own forms (found by test/browser/); the form
 * token still has to match.
 */
export function isCrossSite(headers: Headers, origin: string): boolean {
  const sentOrigin = headers.get('origin');
  const site = headers.get('sec-fetch-site');
  return (
    (sentOrigin !== null && sentOrigin !== 'null' && sentOrigin !== origin) ||
    (site !== null && site !== 'same-origin' && site !== 'none')
  );
}

/** Why a page's posted form was not read: sent from another site, not a form, or a body not read whole. */
export type FormUnread = { why: 'cross-site' } | { why: 'not-a-form' } | { why: 'body'; status: number };

/** Where a page's form must come from (its own origin), and how large and how slow its body may be. */
export interface FormLimits {
  origin: string;
  limit: number;
  deadlineMs: number;
}

/**
 * Reads a page's posted form, the one reader of every door's forms: refused when the browser says it came from
 * another site than `origin`, when it is not `application/x-www-form-urlencoded`, or when its body is larger than
 * `limit` bytes, not UTF-8, or not whole within `deadlineMs` (then the connection closes: the body was not read to its
 * end). Each door answers a refusal in its own page.
 */
export async function readPageForm(
  event: H3Event,
  { origin, limit, deadlineMs }: FormLimits,
): Promise<URLSearchParams | FormUnread> {
  if (isCrossSite(event.req.headers, origin)) return { why: 'cross-site' };
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return { why: 'not-a-form' };
  const text = await readBodyText(event, limit, deadlineMs);
  return typeof text === 'string' ? new URLSearchParams(text) : { why: 'body', status: text.status };
}
