/**
 * Writes events into a practitioner's CalDAV calendar: one resource per booking, at a name planner derives
 * from the booking (`eventHref`), so that a retry can never make a second one. A new event is PUT with
 * `If-None-Match: *`, a change with `If-Match` of the ETag planner last wrote; a 412 means the event was changed or
 * removed in a calendar app, and planner reads its ETag and writes its own state again (never a copy); an event no
 * longer wanted is DELETEd. Every request goes through the outbound policy (src/outbound/request.ts): the address
 * guard at connect time, one deadline, a size limit on the answer. The event's text: `practitionerEventIcs`
 * (mail/calendar.ts).
 */
import { randomBytes } from 'node:crypto';
import { localWithZone } from '../domain/dates.ts';
import { checkEventUid } from '../domain/event-uid.ts';
import {
  failureLine,
  type OutboundAnswer,
  OutboundError,
  type OutboundTarget,
  openSession,
  send,
} from '../outbound/request.ts';
import { checkCalendarUrl } from './url.ts';

/** The whole of one write (a PUT, and the GET and PUT again of a 412), and how much of an answer is read. */
export const WRITE_LIMITS = { timeoutMs: 20_000, maxBytes: 1024 * 1024, maxRedirects: 3 };

const USER_AGENT = 'planner-calendar/1';

/** A write that failed: one line naming the host, never the URL's secret parts nor the password. */
export class CalendarWriteError extends Error {
  /**
   * false: no answer came (a time-out, a connection lost): the server may have done what was asked, and its other
   * writes would hang alike.
   */
  readonly answered: boolean;
  /** The test event of `checkWritable` may be left in the calendar: its DELETE failed. */
  readonly leftCheckEvent: boolean;
  constructor(message: string, why: { answered: boolean; leftCheckEvent?: boolean }) {
    super(message);
    this.answered = why.answered;
    this.leftCheckEvent = why.leftCheckEvent === true;
  }
}

/** The collection's URL as the writer uses it: ending in `/`. */
function collectionOf(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The resource of the booking `reference` in the collection `url`: `planner-<reference>.ics`. */
export function eventHref(url: string, reference: string): string {
  return `${collectionOf(url)}planner-${reference.toLowerCase()}.ics`;
}

/** What a write did: the event's new ETag (if the server said it), and whether it found the event changed in an app. */
export interface Written {
  etag: string | null;
  /**
   * The event was not as planner last wrote it (a 412: changed or removed in a calendar app, or there already while
   * planner had forgotten it): planner wrote its own state over it.
   */
  overwritten: boolean;
  /** What the calendar held before planner wrote over it (its iCalendar text), when it held anything. */
  found?: string;
}

/** One session's requests against `target`: the outbound policy, failures as one line. */
function requester(target: OutboundTarget) {
  const host = new URL(target.url).host;
  const session = openSession(target, WRITE_LIMITS, USER_AGENT, (url) => checkCalendarUrl(url, target.allowInsecure));
  const request = async (
    method: string,
    href: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<OutboundAnswer> => {
    try {
      return await send(session, method, href, headers, body);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const why = error.failure;
      // No answer (a time-out, a lost connection): the server may have done it, and its other writes would hang alike.
      throw new CalendarWriteError(failureLine(why, host, WRITE_LIMITS, 'an answer'), {
        answered: why.kind !== 'timeout' && why.kind !== 'network',
      });
    }
  };
  const refused = (answer: OutboundAnswer, what: string): CalendarWriteError => {
    if (answer.status === 401 || answer.status === 403) {
      return new CalendarWriteError(
        `${host} refused to ${what} (HTTP ${answer.status}): check --user and the password, and that the user may write to this calendar`,
        { answered: true },
      );
    }
    return new CalendarWriteError(`${host} answered HTTP ${answer.status} to ${what}`, { answered: true });
  };
  return { request, refused };
}

const etagOf = (answer: OutboundAnswer) =>
  typeof answer.headers.etag === 'string' && answer.headers.etag !== '' ? answer.headers.etag : null;
const ICS = { 'content-type': 'text/calendar; charset=utf-8' };

/**
 * Writes `ics` at `href`: as a new resource when `etag` is undefined (If-None-Match: *), else over the version planner
 * last wrote (If-Match; `null`: planner wrote it but the server gave no ETag, so it is written over as it is). On a
 * 412 (changed or removed in an app, or written before a crash kept planner from recording it), reads the resource's
 * ETag and writes again over it, or as a new one when it is gone. Throws CalendarWriteError.
 */
export async function putEvent(
  target: OutboundTarget,
  href: string,
  ics: string,
  etag: string | null | undefined,
): Promise<Written> {
  const { request, refused } = requester(target);
  const condition: Record<string, string> =
    etag === undefined ? { 'if-none-match': '*' } : etag === null ? {} : { 'if-match': etag };
  const first = await request('PUT', href, { ...ICS, ...condition }, ics);
  if (first.status >= 200 && first.status < 300) return { etag: etagOf(first), overwritten: false };
  // Gone (some servers answer 404 to an If-Match of a resource that is not there): write it anew.
  const gone = first.status === 404 && etag !== undefined;
  if (first.status !== 412 && !gone) throw refused(first, 'write the event');
  const found = gone ? undefined : await request('GET', href, { accept: 'text/calendar' });
  if (found && found.status !== 200 && found.status !== 404) throw refused(found, 'read the event');
  const now = found?.status === 200 ? etagOf(found) : undefined;
  const again = await request(
    'PUT',
    href,
    { ...ICS, ...(now ? { 'if-match': now } : now === null ? {} : { 'if-none-match': '*' }) },
    ics,
  );
  if (again.status >= 200 && again.status < 300)
    return { etag: etagOf(again), overwritten: true, ...(found?.status === 200 ? { found: found.body } : {}) };
  throw refused(again, 'write the event');
}

/** Deletes the resource at `href`; one that is not there (404, 410) is no error. Throws CalendarWriteError. */
export async function deleteEvent(target: OutboundTarget, href: string): Promise<void> {
  const { request, refused } = requester(target);
  const answer = await request('DELETE', href, {});
  if ((answer.status >= 200 && answer.status < 300) || answer.status === 404 || answer.status === 410) return;
  throw refused(answer, 'delete the event');
}

/** The summary of the test event `checkWritable` writes and deletes. */
export const CHECK_SUMMARY = 'planner checks that it may write here';

/**
 * Checks that planner may write into the collection at `target`: a PUT and a DELETE of an event of its own
 * (`planner-check-<random>.ics`, UID `…@planner`, which the read side never counts as busy). The test event is
 * deleted on every path: after a PUT that got no answer too (the server may have stored it). Throws
 * CalendarWriteError with the one line why not; when the event may be left in the calendar (its DELETE failed), the
 * line names it and says to delete it there.
 */
export async function checkWritable(target: OutboundTarget, at: Date, zone: string): Promise<void> {
  const stamp = `${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const id = randomBytes(8).toString('hex');
  const name = `planner-check-${id}.ics`;
  const href = `${collectionOf(target.url)}${name}`;
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//check//EN',
    'BEGIN:VEVENT',
    `UID:${checkEventUid(id)}`,
    `DTSTAMP:${stamp}`,
    `DTSTART:${stamp}`,
    'DURATION:PT1M',
    `SUMMARY:${CHECK_SUMMARY}`,
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  await testWrite(
    () => putEvent(target, href, ics, undefined).then(() => {}),
    () => deleteEvent(target, href),
    { at, zone, app: 'the calendar app', name },
  );
}

/**
 * The test write of every calendar planner writes into (CalDAV here, the providers' in google.ts and microsoft.ts):
 * `create` an event of planner's own, then `remove` it, on every path (after a create that got no answer too: the
 * server may have stored it). Throws CalendarWriteError with the one line why not; when the event may be left in the
 * calendar (its removal failed), the line names it (its time and, where it has one, `name`) and says to delete it
 * in `app`. A sign-in that is gone (a provider's, `reconnect`) is thrown as it is.
 */
export async function testWrite(
  create: () => Promise<void>,
  remove: () => Promise<void>,
  where: { at: Date; zone: string; app: string; name?: string },
): Promise<void> {
  let refused: CalendarWriteError | undefined;
  try {
    await create();
  } catch (error) {
    if (!(error instanceof CalendarWriteError)) throw error;
    if (error.answered) throw error; // refused: nothing was stored
    refused = error;
  }
  try {
    await remove();
  } catch (error) {
    if (!(error instanceof CalendarWriteError) || 'reconnect' in error) throw error;
    const why = refused ? `${refused.message}, and` : 'it wrote its test event, but';
    const event = `the event "${CHECK_SUMMARY}" at ${localWithZone(where.at, where.zone)}${where.name ? ` (${where.name})` : ''}`;
    throw new CalendarWriteError(
      `${why} could not delete it (${error.message}): ${event} may be left in the calendar; delete it in ${where.app}`,
      { answered: true, leftCheckEvent: true },
    );
  }
  if (refused) throw refused;
}
