/**
 * What a page's form must carry to change anything (the CSRF defence of the HTML doors): a token the server made for
 * exactly what the form changes, and no sign that the browser sent it from another site. Pages with forms (the
 * self-service page, src/http/portal.ts) bind the token to what they show: the link, the booking and its sequence,
 * so a form sent twice, or from an old tab, changes nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

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
  return (sentOrigin !== null && sentOrigin !== 'null' && sentOrigin !== origin) || (site !== null && site !== 'same-origin' && site !== 'none');
}
