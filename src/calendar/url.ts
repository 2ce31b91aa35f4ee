/**
 * A practitioner's calendar's address, as planner takes it and shows it: checked once (the outbound address policy,
 * `webcal://` read as `https://`) for the read and the write alike, and masked in every output (its path's secret
 * parts, the query). Not the fetch: the views and the writer take this without the fetch's code.
 */
import { invalid } from '../errors.ts';
import { checkOutboundUrl } from '../outbound/address.ts';

const CALENDAR_WORDS = {
  what: 'a calendar address',
  schemes: 'https:// or webcal://',
  login: 'give --user, and the password at the prompt or with --password-stdin',
};

/**
 * Checks a calendar address as given to `planner calendar add`: `webcal://` is read as `https://`; then the outbound
 * address policy (src/outbound/address.ts): http(s) only, no user or password in it (`--user` and the prompt), plain
 * http and local or private addresses only with `allowInsecure`. Names are checked again at every connection, after
 * DNS. Returns the URL.
 */
export function checkCalendarUrl(text: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(text.trim().replace(/^webcals?:\/\//i, 'https://'));
  } catch {
    throw invalid(
      `"${maskCalendarUrl(text)}" is not a URL: give the calendar's full address, e.g. https://calendar.example.com/…/basic.ics`,
    );
  }
  checkOutboundUrl(url, allowInsecure, CALENDAR_WORDS);
  url.hash = '';
  return url.toString();
}

/**
 * A path segment that may carry a secret: 16 characters or more unless lower-case words (tokens with or without
 * digits: Nextcloud's public token of 16 mixed-case letters, iCloud's, Outlook's GUIDs and hex), 8 or more with a
 * digit (ids), or Google's `private-…`. Words of a path (`remote.php`, `public-calendars`, a user and calendar name)
 * stay readable.
 */
function secretSegment(segment: string): boolean {
  const words = /^[a-z]+(?:[-_.][a-z]+)*$/.test(segment); // `public-calendars`, `remote.php`: a path's own words
  return (segment.length >= 16 && !words) || (segment.length >= 8 && /\d/.test(segment)) || /^private/i.test(segment);
}

/**
 * Returns the URL for every output: scheme, host and port, the path with each segment that carries a secret (see
 * `secretSegment`: Google's `private-<hex>`, iCloud's published token, Outlook's GUID and hex) as `…`, the query
 * as `?…`, no fragment. A CalDAV collection's path (`/remote.php/dav/calendars/anna/personal/`) stays readable.
 */
export function maskCalendarUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim().replace(/^webcals?:\/\//i, 'https://'));
  } catch {
    return '…';
  }
  const path = url.pathname
    .split('/')
    .map((segment) => (secretSegment(decodeURIComponentSafe(segment)) ? '…' : segment))
    .join('/');
  return `${url.protocol}//${url.host}${path}${url.search ? '?…' : ''}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
