/**
 * Fetches a practitioner's calendar: an iCalendar address (`https://…`, `webcal://…`: Google's secret
 * address, a published iCloud or Outlook calendar) or a CalDAV calendar collection (Nextcloud, iCloud, Fastmail,
 * Radicale, Baïkal). Which one is found by asking: a PROPFIND whose answer names a CalDAV calendar is one, anything
 * else is read as an .ics. Conditional: an .ics with `If-None-Match` and `If-Modified-Since`; CalDAV with the
 * collection's `getctag` or sync-token (RFC 6578), and when those changed (or the server has neither) one
 * `calendar-query` REPORT limited to the window. Guarded and bounded as every outbound request is
 * (src/outbound/request.ts): the address guard at connect time, at most 3 redirects each checked again, 20 s for the
 * whole fetch, 10 MiB of body.
 *
 * Not a CalDAV library: the two requests planner needs are a few lines each, and the guard must sit in the
 * connection's own DNS lookup, which tsdav (over fetch) cannot take. The multistatus answers are read by a streaming
 * XML parser, linear and in slices (multistatus.ts).
 */
import {
  failureLine,
  type OutboundAnswer,
  OutboundError,
  type OutboundLimits,
  type OutboundSession,
  openSession,
  send as sendOutbound,
} from '../outbound/request.ts';
import { type DavResponse, readMultistatus } from './multistatus.ts';
import { checkCalendarUrl } from './url.ts';

export type CalendarKind = 'ics' | 'caldav';

/** Where a calendar is, and how to log in (CalDAV, or an .ics behind HTTP Basic). */
export interface CalendarSource {
  url: string;
  user?: string;
  password?: string;
  allowInsecure: boolean;
}

/** What the last successful fetch remembers, stored as JSON by the caller. */
export interface FetchState {
  etag?: string;
  lastModified?: string;
  ctag?: string;
  syncToken?: string;
}

export type Fetched =
  | { kind: CalendarKind; unchanged: true; state: FetchState }
  | { kind: CalendarKind; unchanged: false; texts: string[]; state: FetchState };

export type FetchLimits = OutboundLimits;

export const FETCH_LIMITS: FetchLimits = { timeoutMs: 20_000, maxBytes: 10 * 2 ** 20, maxRedirects: 3 };

/** A fetch that failed: one line naming the host, never the URL's secret parts nor the password. */
export class CalendarFetchError extends Error {}

const USER_AGENT = 'planner-calendar/1';

type Answer = OutboundAnswer;

/** One fetch's requests (one deadline and the limits, the source's login), and the host as every error line names it. */
interface Session extends OutboundSession {
  source: CalendarSource;
  host: string;
}

/** The one line of a request that failed before an answer (outbound/request.ts's words). */
function failure(error: unknown, session: Session): Error {
  if (!(error instanceof OutboundError)) return error as Error;
  return new CalendarFetchError(failureLine(error.failure, session.host, session.limits, 'a calendar'));
}

/** Sends one request of the fetch (outbound/request.ts), its failure in the calendar's words. */
async function send(
  session: Session,
  method: string,
  address: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  try {
    return await sendOutbound(session, method, address, headers, body);
  } catch (error) {
    throw failure(error, session);
  }
}

/** Throws the one line for an answer that is not a success. */
function refuse(answer: Answer, session: Session): never {
  if (answer.status === 401 || answer.status === 403) {
    throw new CalendarFetchError(
      `${session.host} refused the ${session.source.user ? 'user name or password' : 'request without a login'} (HTTP ${answer.status}): ${session.source.user ? 'check --user and the password' : 'give --user and a password'}`,
    );
  }
  if (answer.status === 404) throw new CalendarFetchError(`${session.host} has no calendar at this address (HTTP 404)`);
  throw new CalendarFetchError(`${session.host} answered HTTP ${answer.status}`);
}

const PROPFIND = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><cs:getctag/><d:sync-token/></d:prop></d:propfind>`;

/** Gives the event loop a turn (between slices of a long answer). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads a 207 answer's responses; an answer that is not XML fails the fetch in one line naming the host. */
async function responsesOf(answer: Answer, session: Session): Promise<DavResponse[]> {
  try {
    return await readMultistatus(answer.body, turn);
  } catch (error) {
    throw new CalendarFetchError(`${session.host}: ${(error as Error).message}`);
  }
}

/** The first non-empty text of property `name` in the propstats of `response` that succeeded (or have no status). */
function propertyText(response: DavResponse | undefined, name: string): string | undefined {
  for (const propstat of response?.propstats ?? []) {
    if (propstat.status !== undefined && propstat.status !== 200) continue;
    const value = propstat.props.get(name)?.find((property) => property.text.trim() !== '');
    if (value) return value.text.trim();
  }
  return undefined;
}

/** What a PROPFIND on the address says: a CalDAV calendar (with its ctag and sync-token), or not one. */
async function askCollection(
  session: Session,
): Promise<{ caldav: boolean; ctag?: string; syncToken?: string; answer: Answer }> {
  const answer = await send(
    session,
    'PROPFIND',
    session.source.url,
    { depth: '0', 'content-type': 'application/xml; charset=utf-8' },
    PROPFIND,
  );
  if (answer.status !== 207) return { caldav: false, answer };
  const [collection] = await responsesOf(answer, session);
  const caldav = (collection?.propstats ?? []).some((propstat) =>
    propstat.props.get('resourcetype')?.some((type) => type.children.includes('calendar')),
  );
  return {
    caldav,
    ctag: propertyText(collection, 'getctag'),
    syncToken: propertyText(collection, 'sync-token'),
    answer,
  };
}

/** `YYYYMMDDTHHMMSSZ` of Unix seconds, as CalDAV's time-range takes it. */
function utcStamp(at: number): string {
  return `${new Date(at * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

/** The events of the collection that meet the window: one calendar-query REPORT. */
async function queryCollection(session: Session, window: { from: number; to: number }): Promise<string[]> {
  const query = `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:getetag/><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${utcStamp(window.from)}" end="${utcStamp(window.to)}"/></c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>`;
  const answer = await send(
    session,
    'REPORT',
    session.source.url,
    { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
    query,
  );
  if (answer.status !== 207) refuse(answer, session);
  const texts: string[] = [];
  for (const response of await responsesOf(answer, session)) {
    // A resource the server does not give whole (free/busy-only sharing: 403 for calendar-data; results cut short:
    // 507) is no empty calendar: the sync fails and the busy times read last stay.
    if (response.status !== undefined && response.status !== 200)
      throw new CalendarFetchError(
        `${session.host} did not give every event (HTTP ${response.status} for one of them)`,
      );
    for (const propstat of response.propstats) {
      const data = propstat.props.get('calendar-data');
      if (!data) continue;
      if (propstat.status !== undefined && propstat.status !== 200) {
        throw new CalendarFetchError(
          `${session.host} did not give the events' data (HTTP ${propstat.status}): planner needs to read the calendar, not its free/busy only`,
        );
      }
      texts.push(...data.map((property) => property.text).filter((text) => text.trim() !== ''));
    }
  }
  return texts;
}

/** Fetches the .ics at the address, conditionally. */
async function fetchIcs(session: Session, state: FetchState): Promise<Fetched> {
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5' };
  if (state.etag) headers['if-none-match'] = state.etag;
  if (state.lastModified) headers['if-modified-since'] = state.lastModified;
  const answer = await send(session, 'GET', session.source.url, headers);
  if (answer.status === 304) return { kind: 'ics', unchanged: true, state };
  if (answer.status !== 200) refuse(answer, session);
  const text = answer.body.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) {
    const type = String(answer.headers['content-type'] ?? 'no content type')
      .split(';')[0]!
      .trim();
    const html = /^\s*</.test(text) ? ', a web page' : '';
    throw new CalendarFetchError(
      `${session.host} did not answer with iCalendar data (${type}${html}, not beginning with BEGIN:VCALENDAR): check the address`,
    );
  }
  const etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
  const lastModified =
    typeof answer.headers['last-modified'] === 'string' ? answer.headers['last-modified'] : undefined;
  return {
    kind: 'ics',
    unchanged: false,
    texts: [text],
    state: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) },
  };
}

/**
 * Fetches the calendar at `source`: `kind` undefined asks the server first (PROPFIND). Unchanged since `state` (a
 * 304, the same ctag or sync-token) resolves `unchanged`; otherwise the calendar's texts (an .ics, or each CalDAV
 * resource that meets `window`, Unix seconds) and the state to remember. Rejects with a CalendarFetchError.
 */
export async function fetchCalendar(
  source: CalendarSource,
  kind: CalendarKind | undefined,
  state: FetchState,
  window: { from: number; to: number },
  limits: Partial<FetchLimits> = {},
): Promise<Fetched> {
  const all = { ...FETCH_LIMITS, ...limits };
  const opened = openSession(source, all, USER_AGENT, (url) => checkCalendarUrl(url, source.allowInsecure));
  const session: Session = { ...opened, source, host: new URL(source.url).host };
  if (kind === 'ics') return fetchIcs(session, state);
  const collection = await askCollection(session);
  if (!collection.caldav) {
    if (kind === 'caldav') {
      if (collection.answer.status !== 207) refuse(collection.answer, session);
      throw new CalendarFetchError(`${session.host} no longer has a CalDAV calendar at this address`);
    }
    if (collection.answer.status === 401 && source.user) refuse(collection.answer, session);
    return fetchIcs(session, {});
  }
  const fresh: FetchState = {
    ...(collection.ctag ? { ctag: collection.ctag } : {}),
    ...(collection.syncToken ? { syncToken: collection.syncToken } : {}),
  };
  const same =
    (fresh.ctag !== undefined && fresh.ctag === state.ctag) ||
    (fresh.syncToken !== undefined && fresh.syncToken === state.syncToken);
  if (same && kind === 'caldav') return { kind: 'caldav', unchanged: true, state: fresh };
  return { kind: 'caldav', unchanged: false, texts: await queryCollection(session, window), state: fresh };
}
