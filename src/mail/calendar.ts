/** The calendar file (.ics, RFC 5545) attached to the booking e-mails. Pure. */
import type { ProviderEvent } from '../calendar/provider.ts';
import { eventUid } from '../domain/event-uid.ts';
import type { FeedRow } from '../store/feed-rows.ts';
import type { Locale } from '../store/settings.ts';
import type { BookingFacts } from './facts.ts';
import { WORDS } from './translations.ts';

/** Every line break a value can hold: CRLF, CR, LF, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR. */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/g;
/** The control characters RFC 5545 allows in no TEXT value (all of C0 but tab, and DEL), once line breaks are out. */
const ICS_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * Returns text escaped for an iCalendar TEXT value (RFC 5545 §3.3.11): backslash, `;` and `,` escaped, every kind of
 * line break written `\n` (a bare CR in a name had reached SUMMARY raw), and any other control
 * character as U+FFFD. Used for every TEXT property of the mails' `.ics` and of the feed.
 */
export function icsText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(LINE_BREAKS, '\\n')
    .replace(ICS_CONTROL, '\ufffd');
}

/**
 * Returns a quoted iCalendar parameter value, encoded as RFC 6868 says: `^` as `^^`, `"` as `^'` and every kind of
 * line break as `^n`, so that a name keeps its quotes and lines (`CN="Ilse ^'Quote^'"`); a control character that
 * no parameter value may hold (RFC 5545 §3.1, QSAFE-CHAR) becomes a space.
 */
export function icsParam(text: string): string {
  const encoded = text
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(LINE_BREAKS, '^n')
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  return `"${encoded}"`;
}

/** Returns `line` folded at 75 octets with CRLF + space (RFC 5545 §3.1), never splitting a UTF-8 character. */
function fold(line: string): string {
  if (line.length <= 25 || Buffer.byteLength(line) <= 75) return line; // most lines: one measure, no copy (a feed has 100,000s)
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Returns a UTC instant as an iCalendar DATE-TIME, e.g. `20261124T083000Z`. */
function icsTime(unix: number): string {
  return new Date(unix * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Returns where an appointment is, one line: the practice's name and, when given, its address (the .ics LOCATION). */
export function eventLocation(facts: BookingFacts): string {
  return facts.address ? `${facts.practiceName}, ${facts.address}` : facts.practiceName;
}

/**
 * Returns the description of the customer's calendar event (the .ics DESCRIPTION, and the details of Google's and
 * Outlook's "add to calendar" links), in the installation's words, one
 * line each: what, with whom, where, the phone, what to bring, the reference and, when given, the self-service link.
 */
export function eventDetails(facts: BookingFacts, manageUrl?: string): string {
  const words = WORDS[facts.locale];
  return [
    `${words.what}: ${facts.reasonName}`,
    `${words.with}: ${facts.scheduleName}`,
    `${words.where}: ${eventLocation(facts)}`,
    ...(facts.phone ? [`${words.phone}: ${facts.phone}`] : []),
    ...(facts.reasonDescription.trim() ? [`${words.note}: ${facts.reasonDescription.trim()}`] : []),
    `${words.reference}: ${facts.reference}`,
    ...(manageUrl ? [`${words.manageButton}: ${manageUrl}`] : []),
  ].join('\n');
}

/**
 * Returns the calendar file of one booking: an iTIP REQUEST (or, cancelled, CANCEL) of one VEVENT, its UID from the
 * booking reference, times in UTC (RFC 5545, RFC 5546). `stamp` is when it was made (DTSTAMP); the organizer is the
 * practice, the attendee the customer. Every file a customer gets of a booking, in any mail or from the booking
 * page, is this booking's own REQUEST or CANCEL: a change keeps the UID and raises `sequence` (RFC 5546 §2.1.4), so
 * calendars update or remove the same event in place (docs/calendar-methods.md). The description is
 * `eventDetails`, with `manageUrl` (the booking page's file, made with its confirmation's link).
 */
export function bookingIcs(
  facts: BookingFacts,
  stamp: number,
  sequence = 0,
  method: 'REQUEST' | 'CANCEL' = 'REQUEST',
  manageUrl?: string,
): string {
  return calendarFile(method, bookingEvent(facts, stamp, sequence, method, manageUrl));
}

/**
 * Returns the calendar files of several bookings (a series' dates) as one iCalendar stream (RFC 5545 §3.4: one or
 * more objects): each booking's own `bookingIcs`, all REQUEST or all CANCEL. Not one object of several events: a
 * REQUEST or CANCEL holds the events of one UID only (RFC 5546 §3.2.2, §3.2.5), and a PUBLISH, which may hold
 * several, is no invitation: it is followed by PUBLISH or CANCEL, never REQUEST (RFC 5546 §3.2.1), and Outlook imports
 * it as a plain appointment. The sender sends each object as its own text/calendar part (`calendarObjects`).
 */
export function bookingsIcs(
  bookings: readonly { facts: BookingFacts; sequence: number }[],
  stamp: number,
  method: 'REQUEST' | 'CANCEL',
): string {
  return bookings.map(({ facts, sequence }) => bookingIcs(facts, stamp, sequence, method)).join('');
}

/** Returns each iCalendar object of a stream (`bookingsIcs`, or one `bookingIcs`), as it was written. */
export function calendarObjects(ics: string): string[] {
  return ics.match(/^BEGIN:VCALENDAR\r\n[\s\S]*?^END:VCALENDAR\r\n/gm) ?? [];
}

function calendarFile(method: 'REQUEST' | 'CANCEL', events: string[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//booking//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...events,
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

function bookingEvent(
  facts: BookingFacts,
  stamp: number,
  sequence: number,
  method: 'REQUEST' | 'CANCEL',
  manageUrl?: string,
): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${eventUid(facts.reference)}`,
    `DTSTAMP:${icsTime(stamp)}`,
    `DTSTART:${icsTime(facts.startAt)}`,
    `DTEND:${icsTime(facts.endAt)}`,
    `SEQUENCE:${sequence}`,
    `SUMMARY:${icsText(`${facts.reasonName} – ${facts.practiceName}`)}`,
    `DESCRIPTION:${icsText(eventDetails(facts, manageUrl))}`,
    `LOCATION:${icsText(eventLocation(facts))}`,
    method === 'CANCEL' ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    `ORGANIZER;CN=${icsParam(facts.practiceName)}:mailto:${facts.notifyEmail}`,
    ...(facts.customerEmail
      ? [
          `ATTENDEE;CN=${icsParam(facts.customerName || facts.customerEmail)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${facts.customerEmail}`,
        ]
      : []),
    'END:VEVENT',
  ];
}

/** Returns the METHOD of a calendar file (REQUEST, CANCEL, …), REQUEST when it has none. */
export function methodOf(ics: string): string {
  return /^METHOD:([A-Z-]+)\r?$/m.exec(ics)?.[1] ?? 'REQUEST';
}

/**
 * Returns the calendar file with its ORGANIZER's address set to `address` (the mail's From, decided when it is sent;
 * its name kept), or as it is when it has no ORGANIZER or `address` is not an address.
 */
export function withOrganizer(ics: string, address: string): string {
  if (!/^[^\s@:<>"]+@[^\s@:<>"]+$/.test(address)) return ics;
  return ics.replace(/^ORGANIZER[^\r\n]*(?:\r\n[ \t][^\r\n]*)*/m, (property) => {
    const line = property.replace(/\r\n[ \t]/g, ''); // unfolded: a long name folds the line
    const at = line.toLowerCase().lastIndexOf(':mailto:');
    return at < 0 ? property : fold(`${line.slice(0, at)}:mailto:${address}`);
  });
}

/**
 * One appointment of a practitioner's feed: the booking as the store reads it, its last change in Unix seconds, and
 * what was submitted, labelled by the form's fields.
 */
export type FeedEvent = Omit<FeedRow, 'changedAt' | 'submission'> & {
  changedAt: number;
  fields: { label: string; value: string | boolean }[];
};

/**
 * Returns the calendar feed of a schedule (RFC 5545, METHOD:PUBLISH) in the installation's language: one VEVENT per
 * booking with the UID and SEQUENCE of the customer's mails, so a calendar that has both shows one event; a cancelled
 * one as STATUS:CANCELLED with a title that says so (not every app shows the status); the
 * description holds the reference and every form answer; the location is the practice's address, when given.
 */
export function feedIcs(name: string, events: readonly FeedEvent[], locale: Locale = 'en', location = ''): string {
  const words = WORDS[locale];
  // How often a subscriber should fetch it again (RFC 7986; Outlook and Apple honour these, Google ignores them).
  const refresh = ['REFRESH-INTERVAL;VALUE=DURATION:PT15M', 'X-PUBLISHED-TTL:PT15M'];
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${icsText(name)}`,
    ...refresh,
  ];
  for (const event of events) lines.push(...practitionerEvent(event, words, location));
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/**
 * The VEVENT of one appointment as the practitioner sees it (the feed, and the event planner writes into their own
 * calendar): the UID and SEQUENCE of the customer's mails, the reason and the customer as the title, the reference
 * and every form answer as the description, the practice's address as the location; busy while booked, free once
 * cancelled (TRANSP).
 */
/** The title and text of a booking's event in the practitioner's calendar (the feed's, a CalDAV or provider's event). */
function practitionerText(event: FeedEvent, words: (typeof WORDS)[Locale]): { summary: string; description: string } {
  const who = event.customerName || event.email || event.reference;
  const details = [
    `${words.feedReference}: ${event.reference}`,
    ...event.fields.map(
      ({ label, value }) => `${label}: ${typeof value === 'boolean' ? (value ? words.yes : words.no) : value}`,
    ),
  ];
  return {
    summary: `${event.cancelled ? `${words.feedCancelled} ` : ''}${event.reasonName} – ${who}`,
    description: details.join('\n'),
  };
}

function practitionerEvent(event: FeedEvent, words: (typeof WORDS)[Locale], location: string): string[] {
  const { summary, description } = practitionerText(event, words);
  return [
    'BEGIN:VEVENT',
    `UID:${eventUid(event.reference)}`,
    `DTSTAMP:${icsTime(event.changedAt)}`,
    `LAST-MODIFIED:${icsTime(event.changedAt)}`,
    `DTSTART:${icsTime(event.startAt)}`,
    `DTEND:${icsTime(event.endAt)}`,
    `SEQUENCE:${event.sequence}`,
    `SUMMARY:${icsText(summary)}`,
    `DESCRIPTION:${icsText(description)}`,
    ...(location ? [`LOCATION:${icsText(location)}`] : []),
    event.cancelled ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    // A cancelled appointment is free time: not every app reads STATUS, and one that does not shows the time busy.
    event.cancelled ? 'TRANSP:TRANSPARENT' : 'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
}

/** The event planner writes into a Google or Microsoft calendar for a booking: the same title and text as over CalDAV. */
export function practitionerProviderEvent(
  event: FeedEvent,
  locale: Locale,
  location: string,
  zone: string,
): ProviderEvent {
  return {
    reference: event.reference,
    ...practitionerText(event, WORDS[locale]),
    location,
    startAt: event.startAt,
    endAt: event.endAt,
    zone,
  };
}

/**
 * Returns the event planner writes into the practitioner's own calendar: one VEVENT as the feed has it
 * (`practitionerEvent`, TRANSP:OPAQUE), in a VCALENDAR without METHOD (RFC 4791 §4.1 forbids one in a stored
 * resource), and with no ORGANIZER or ATTENDEE, so that no server sends an invitation to anyone (RFC 6638).
 */
export function practitionerEventIcs(event: FeedEvent, locale: Locale, location: string): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//bookings//EN',
    'CALSCALE:GREGORIAN',
    ...practitionerEvent(event, WORDS[locale], location),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
