/**
 * Microsoft Graph's events as planner reads and writes them, pure: the body of a booking's event (planner's
 * `transactionId` and extended property, times in UTC), an event read back turned into what planner keeps of it (a
 * span, all-day, cancelled, free, its UID), and that turned into one VCALENDAR text for calendar/busy.ts. No titles,
 * places or attendees are kept of the practitioner's own appointments: only what decides what blocks.
 */
import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { checkEventUid, eventUid } from '../domain/event-uid.ts';
import { ianaZoneOf } from './busy.ts';
import type { ProviderEvent } from './provider.ts';

/**
 * The id of planner's single-value extended property (MAPI named property, string) on every event it writes: its
 * value is the booking's reference, so that a create whose answer was lost can be found (`$filter` on it). The GUID
 * is planner's own, fixed: never change it, or earlier events are no longer found.
 */
export const PLANNER_PROPERTY_ID = 'String {5c0f3b7e-8a2d-4e61-9b4a-7d1e2f9c6a38} Name PlannerReference';

/** Graph's `dateTimeTimeZone`. */
export interface GraphTime {
  dateTime?: string;
  timeZone?: string | null;
}

/** The part of Graph's `event` planner reads. */
export interface GraphEvent {
  id?: string;
  '@odata.etag'?: string;
  '@removed'?: unknown;
  subject?: string | null;
  body?: { contentType?: string | null; content?: string | null } | null;
  location?: { displayName?: string | null } | null;
  start?: GraphTime | null;
  end?: GraphTime | null;
  isAllDay?: boolean | null;
  isCancelled?: boolean | null;
  showAs?: string | null;
  transactionId?: string | null;
  iCalUId?: string | null;
}

/** What planner keeps of one event (in the read's state, JSON): Unix seconds [s, e), flags, the UID it is read with. */
export interface HeldEvent {
  s: number;
  e: number;
  /** All-day: s and e are the UTC midnights of its first and (exclusive) last date. */
  a?: 1;
  /** Cancelled. */
  c?: 1;
  /** Free (showAs 'free'): never busy. */
  f?: 1;
  u: string;
}

/** `YYYY-MM-DDTHH:MM:SS` of Unix seconds in UTC, as Graph takes a dateTime with timeZone 'UTC'. */
export function graphDateTime(at: number): string {
  return new Date(at * 1000).toISOString().slice(0, 19);
}

/** Graph's body of planner's event for `event` (`create`: with its transactionId and extended property). */
export function eventBody(event: ProviderEvent, create: boolean): Record<string, unknown> {
  return {
    subject: event.summary,
    body: { contentType: 'text', content: event.description },
    location: { displayName: event.location },
    start: { dateTime: graphDateTime(event.startAt), timeZone: 'UTC' },
    end: { dateTime: graphDateTime(event.endAt), timeZone: 'UTC' },
    showAs: 'busy',
    isReminderOn: false,
    ...(create
      ? {
          transactionId: `planner-${event.reference}`,
          singleValueExtendedProperties: [{ id: PLANNER_PROPERTY_ID, value: event.reference }],
        }
      : {}),
  };
}

const UTC_NAMES = /^(utc|etc\/utc|gmt|coordinated universal time|tzone:\/\/microsoft\/utc)$/i;

/** Unix seconds of Graph's `time` (its timeZone: UTC as planner asks for it, else an IANA or Windows name). */
export function instantOf(time: GraphTime | null | undefined): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(time?.dateTime ?? '');
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) / 1000;
  const name = (time?.timeZone ?? 'UTC').trim();
  if (name === '' || UTC_NAMES.test(name)) return wall;
  const zone = ianaZoneOf(name);
  if (!zone) return undefined;
  const local = Temporal.PlainDateTime.from(match[0]);
  return local.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds / 1000;
}

/** Unix seconds of the UTC midnight of `time`'s date (an all-day event's dates are its own, in no zone). */
function dateOf(time: GraphTime | null | undefined): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(time?.dateTime ?? '');
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 1000 : undefined;
}

/** `YYYYMMDDTHHMMSSZ` of Unix seconds. */
function stamp(at: number): string {
  return `${new Date(at * 1000).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

/** The UID planner reads `item` with: its booking's (`transactionId` planner-<reference>), else its own and start. */
function uidOf(item: GraphEvent, start: number): string {
  const transaction = item.transactionId ?? '';
  const check = /^planner-check-([0-9a-z]+)$/i.exec(transaction);
  if (check) return checkEventUid(check[1]!);
  const booking = /^planner-([0-9a-z]{16})$/i.exec(transaction);
  if (booking) return eventUid(booking[1]!.toUpperCase());
  // An occurrence of a series has the series' iCalUId: its start keeps each one an event of its own. What an answer
  // gives is not trusted: no control character reaches the text, and a long one is its hash (the read's state keeps it).
  const given = String(item.iCalUId || item.id).replace(/\p{Cc}/gu, '');
  const uid = given.length > 255 ? createHash('sha256').update(given).digest('hex') : given;
  return `${uid}-${stamp(start)}`;
}

/**
 * What planner keeps of `item` (an event of a delta or calendarView page); `before` is what it kept of it (a delta
 * may give only what changed). undefined when it has no time planner can read: `zoneless` says so.
 */
export function heldOf(item: GraphEvent, before?: HeldEvent): HeldEvent | 'zoneless' | undefined {
  const allDay = item.isAllDay ?? (before ? before.a === 1 : false);
  const start = item.start ? (allDay ? dateOf(item.start) : instantOf(item.start)) : before?.s;
  const end = item.end ? (allDay ? dateOf(item.end) : instantOf(item.end)) : before?.e;
  if (start === undefined || end === undefined) return item.start?.dateTime ? 'zoneless' : undefined;
  const cancelled = item.isCancelled ?? before?.c === 1;
  const free = item.showAs === undefined || item.showAs === null ? before?.f === 1 : item.showAs === 'free';
  const uid = item.transactionId === undefined && item.iCalUId === undefined && before ? before.u : uidOf(item, start);
  return {
    s: start,
    e: Math.max(end, start),
    ...(allDay ? { a: 1 as const } : {}),
    ...(cancelled ? { c: 1 as const } : {}),
    ...(free ? { f: 1 as const } : {}),
    u: uid,
  };
}

/** Whether `held` meets [from, to): an all-day event's dates are local days somewhere, so with 14 h either side. */
export function meets(held: HeldEvent, window: { from: number; to: number }): boolean {
  const slack = held.a ? 14 * 3600 : 0;
  return held.e + slack > window.from && held.s - slack < window.to;
}

/** RFC 5545 TEXT escaping. */
function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** One VCALENDAR of `held` (busy.ts reads it), with a SUMMARY when given (what a write found). */
export function textOf(held: HeldEvent, summary?: string): string {
  const day = (at: number) => new Date(at * 1000).toISOString().slice(0, 10).replace(/-/g, '');
  const time = (name: string, at: number) => (held.a ? `${name};VALUE=DATE:${day(at)}` : `${name}:${stamp(at)}`);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//microsoft//EN',
    'BEGIN:VEVENT',
    `UID:${held.u}`,
    `DTSTAMP:${stamp(held.s)}`,
    time('DTSTART', held.s),
    time('DTEND', held.a && held.e <= held.s ? held.s + 86_400 : held.e),
    ...(held.c ? ['STATUS:CANCELLED'] : []),
    ...(held.f ? ['TRANSP:TRANSPARENT'] : []),
    ...(summary ? [`SUMMARY:${escapeText(summary)}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** Whether `item` (what Graph holds) is planner's event as `event` would write it. */
export function sameAsWritten(item: GraphEvent, event: ProviderEvent): boolean {
  const body = item.body?.contentType === 'text' ? (item.body.content ?? '').replace(/\r\n/g, '\n').trim() : undefined;
  return (
    (item.subject ?? '') === event.summary &&
    (item.location?.displayName ?? '') === event.location &&
    (body === undefined || body === event.description.replace(/\r\n/g, '\n').trim()) &&
    !item.isAllDay &&
    instantOf(item.start) === event.startAt &&
    instantOf(item.end) === event.endAt &&
    (item.showAs ?? 'busy') === 'busy' &&
    item.isCancelled !== true
  );
}
