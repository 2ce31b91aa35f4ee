/**
 * planner's side of Google Calendar events, pure: the id planner gives a booking's event (derived from its reference,
 * so a retried create meets the one it made: Google answers 409), the event it writes, and what a read keeps of
 * each event (a start, an end, free or busy, a UID) to make the iCalendar texts calendar/busy.ts reads.
 */
import { checkEventUid, eventUid } from '../domain/event-uid.ts';
import type { ProviderEvent } from './provider.ts';

/** The Event resource's fields planner reads or writes (Calendar API v3, `Schema$Event`). */
export interface GoogleEvent {
  id?: string;
  etag?: string;
  status?: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: { date?: string; dateTime?: string; timeZone?: string };
  end?: { date?: string; dateTime?: string; timeZone?: string };
  originalStartTime?: { date?: string; dateTime?: string; timeZone?: string };
  transparency?: string;
  eventType?: string;
  iCalUID?: string;
  recurringEventId?: string;
}

/**
 * The id of the booking `reference`'s event: `planner` and the hex of its lower-cased UTF-8. Google takes ids of
 * base32hex characters (a–v, 0–9), 5 to 1024 long; a reference (16 of [0-9a-z]) gives 39.
 */
export function googleEventId(reference: string): string {
  return `planner${Buffer.from(reference.toLowerCase(), 'utf8').toString('hex')}`;
}

/** The reference (upper-cased, as references are) of an id `googleEventId` made; undefined for any other id. */
export function referenceOfEventId(id: string): string | undefined {
  const match = /^planner((?:[0-9a-f]{2})+)$/.exec(id);
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'hex').toString('utf8');
  return /^[0-9a-z]{16}$/.test(text) ? text.toUpperCase() : undefined;
}

/** The id of `checkWritable`'s test event: `plannercheck` and its random hex (never a reference's id). */
export const checkEventId = (hex: string) => `plannercheck${hex}`;
const checkHexOf = (id: string) => /^plannercheck([0-9a-f]+)$/.exec(id)?.[1];

/** RFC 3339 in UTC, whole seconds: `2026-03-02T09:00:00Z`. */
const rfc3339 = (at: number) => new Date(at * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The event planner writes for `event`: nobody invited, busy, shown in the installation's zone. */
export function eventBody(id: string, event: ProviderEvent): GoogleEvent {
  return {
    id,
    summary: event.summary,
    description: event.description,
    ...(event.location !== '' ? { location: event.location } : {}),
    start: { dateTime: rfc3339(event.startAt), timeZone: event.zone },
    end: { dateTime: rfc3339(event.endAt), timeZone: event.zone },
    status: 'confirmed',
    transparency: 'opaque',
  };
}

/** The test event of `checkWritable`: free, a minute long, so that it never blocks while it exists. */
export function checkBody(id: string, summary: string, at: Date, zone: string): GoogleEvent {
  const start = Math.floor(at.getTime() / 1000);
  return {
    id,
    summary,
    start: { dateTime: rfc3339(start), timeZone: zone },
    end: { dateTime: rfc3339(start + 60), timeZone: zone },
    status: 'confirmed',
    transparency: 'transparent',
  };
}

/** Whether `held` is what planner writes for `event` (a create whose answer was lost): nothing to report. */
export function sameAsWritten(held: GoogleEvent, event: ProviderEvent): boolean {
  return (
    held.status === 'confirmed' &&
    (held.summary ?? '') === event.summary &&
    (held.description ?? '') === event.description &&
    (held.location ?? '') === event.location &&
    Date.parse(held.start?.dateTime ?? '') === event.startAt * 1000 &&
    Date.parse(held.end?.dateTime ?? '') === event.endAt * 1000 &&
    (held.transparency ?? 'opaque') === 'opaque'
  );
}

/**
 * What a read keeps of an event: Unix seconds (an all-day event's: its dates' midnights in UTC, written back as
 * dates), whether it is free, and the UID its text gets. JSON, in the read's stored state.
 */
export interface HeldEvent {
  uid: string;
  start: number;
  end: number;
  allDay?: true;
  transparent?: true;
}

const SECONDS_PER_DAY = 86_400;

/** Unix seconds of a `{date}` (its midnight in UTC) or `{dateTime}`; undefined when it has neither or is not a time. */
function secondsOf(time: GoogleEvent['start']): number | undefined {
  const text = time?.dateTime ?? (time?.date !== undefined ? `${time.date}T00:00:00Z` : undefined);
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** `YYYYMMDDTHHMMSSZ`, or `YYYYMMDD` for an all-day event's date. */
function stamp(at: number, allDay: boolean): string {
  const text = new Date(at * 1000).toISOString().replace(/[-:]/g, '');
  return allDay ? text.slice(0, 8) : `${text.slice(0, 15)}Z`;
}

/**
 * The UID an event's text gets: `eventUid(reference)` for planner's own (its derived id, or an instance of it), the
 * test event's for `checkWritable`'s; else its iCalUID (or id), and an instance's original start after it, so that the
 * instances of one series stay distinct events (they are read without their series).
 */
function uidOf(event: GoogleEvent & { id: string }): string {
  const reference = referenceOfEventId(event.id) ?? referenceOfEventId(event.recurringEventId ?? '');
  if (reference) return eventUid(reference);
  const check = checkHexOf(event.id);
  if (check) return checkEventUid(check);
  const uid = (event.iCalUID ?? event.id).replace(/[\p{Cc}]/gu, '');
  if (event.recurringEventId === undefined) return uid;
  const original = secondsOf(event.originalStartTime ?? event.start);
  return original === undefined ? `${uid}/${event.id}` : `${uid}/${stamp(original, event.start?.date !== undefined)}`;
}

/** What a read keeps of `event`; undefined for one without a start (nothing to block). */
export function heldOf(event: GoogleEvent & { id: string }): HeldEvent | undefined {
  const allDay = event.start?.dateTime === undefined && event.start?.date !== undefined;
  const start = secondsOf(event.start);
  if (start === undefined) return undefined;
  const end = secondsOf(event.end) ?? start + (allDay ? SECONDS_PER_DAY : 0);
  const transparent = event.transparency === 'transparent' || event.eventType === 'workingLocation';
  return {
    uid: uidOf(event),
    start,
    end: Math.max(start, end),
    ...(allDay ? { allDay: true as const } : {}),
    ...(transparent ? { transparent: true as const } : {}),
  };
}

/**
 * Whether `held` overlaps [from, to); an all-day event's dates are widened by a day each side, since the practice's
 * zone decides which instants they cover (busy.ts clips them).
 */
export function overlaps(held: HeldEvent, from: number, to: number): boolean {
  const slack = held.allDay ? SECONDS_PER_DAY : 0;
  return held.start - slack < to && Math.max(held.end, held.start + 1) + slack > from;
}

/** The event as one VCALENDAR text, as calendar/busy.ts reads it. */
export function textOf(held: HeldEvent): string {
  const time = (name: string, at: number) =>
    held.allDay ? `${name};VALUE=DATE:${stamp(at, true)}` : `${name}:${stamp(at, false)}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//google//EN',
    'BEGIN:VEVENT',
    `UID:${held.uid}`,
    `DTSTAMP:${stamp(held.start, false)}`,
    time('DTSTART', held.start),
    time('DTEND', held.end),
    ...(held.transparent ? ['TRANSP:TRANSPARENT'] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
