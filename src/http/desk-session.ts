/**
 * The front desk's session cookie and its forms' guard (OWASP's Session Management and CSRF Prevention cheat
 * sheets). The cookie holds only the session's identifier (256 random bits; the store keeps its SHA-256):
 * `HttpOnly` (no script reads it), `Secure`, `SameSite=Lax` (a cross-site POST carries none), `Path=/`, no `Domain`,
 * and the `__Host-` prefix, which browsers accept only on such a cookie, so a sibling subdomain cannot plant one. No
 * `Max-Age`: the session ends in the store (idle and absolute ends), and the cookie with the browser. Every POST must
 * carry the session's form token and come from the desk's own origin (`readPageForm` checks Origin and
 * Sec-Fetch-Site).
 */
import { timingSafeEqual } from 'node:crypto';

/** The cookie's name: the `__Host-` prefix binds it to exactly the desk's host, over https. */
export const DESK_COOKIE = '__Host-planner-desk';
/** The pending login's cookie (password given, code awaited): the same attributes, five minutes. */
export const DESK_PENDING_COOKIE = '__Host-planner-desk-login';

/** Returns the `Set-Cookie` value that gives the browser session `id` (or, with `maxAgeSeconds`, a short-lived one). */
export function sessionCookie(name: string, id: string, maxAgeSeconds?: number): string {
  return `${name}=${id}; Path=/; Secure; HttpOnly; SameSite=Lax${maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`}`;
}

/** Returns the `Set-Cookie` value that removes cookie `name` at once (logout, an ended session). */
export function clearedCookie(name: string): string {
  return `${name}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * Returns the value of cookie `name` in a `Cookie` header, or undefined. Only the shape of an identifier is taken
 * (43 base64url characters); a header of other cookies, repeated names or odd text yields undefined, never an error.
 * The header is read at most 8 KiB deep.
 */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  let found: string | undefined;
  for (const part of header.slice(0, 8192).split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    if (!/^[A-Za-z0-9_-]{43}$/.test(value) || found !== undefined) return undefined; // bad, or sent twice: none
    found = value;
  }
  return found;
}

/** True when a posted form's `token` is the session's form token (compared in constant time). */
export function isSessionFormToken(expected: string, sent: string | null): boolean {
  if (sent === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
