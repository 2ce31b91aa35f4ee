/**
 * The booking e-mails: a confirmation to the customer and a notice to the practice, each as text and HTML in the
 * installation's locale, with an .ics attachment. Pure: everything comes in as arguments.
 */
import type { OutgoingMessage } from '../store/outbox.ts';
import type { Locale } from '../store/settings.ts';

export interface BookingFacts {
  practiceName: string;
  notifyEmail: string;
  locale: Locale;
  timeZone: string;
  scheduleName: string;
  reasonName: string;
  reference: string;
  startAt: number;
  endAt: number;
  source: 'api' | 'admin';
  /** The customer's e-mail (the submitted value of the `email` field), if any. */
  customerEmail: string | null;
  customerName: string;
  /** What was submitted, with each field's label, in form order. */
  fields: { label: string; value: string | boolean }[];
}

const WORDS = {
  en: {
    confirmationSubject: (f: BookingFacts, when: string) => `Your appointment at ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Hello ${name},` : 'Hello,'),
    booked: 'your appointment is booked.',
    what: 'What',
    when: 'When',
    where: 'Where',
    duration: 'Duration',
    minutes: (n: number) => `${n} minutes`,
    reference: 'Reference',
    calendar: 'The attached calendar file (appointment.ics) adds it to your calendar.',
    noticeSubject: (f: BookingFacts, when: string) => `New booking: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'A new appointment was booked.',
    schedule: 'Schedule',
    source: 'Booked via',
    sources: { api: 'the booking API', admin: 'the admin (planner bookings add)' },
    yes: 'yes',
    no: 'no',
    dateLocale: 'en-GB',
    cancelledSubject: (f: BookingFacts, when: string) => `Cancelled: your appointment at ${f.practiceName}, ${when}`,
    cancelled: 'your appointment has been cancelled.',
    cancelReason: 'Reason',
    cancelCalendar: 'The attached calendar file (appointment.ics) removes it from your calendar.',
    movedSubject: (f: BookingFacts, when: string) => `Changed: your appointment at ${f.practiceName} is now ${when}`,
    moved: 'your appointment has been moved to a new time.',
    previously: 'Previously',
    movedCalendar: 'The attached calendar file (appointment.ics) updates it in your calendar.',
  },
  de: {
    confirmationSubject: (f: BookingFacts, when: string) => `Ihr Termin bei ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    booked: 'Ihr Termin ist gebucht.',
    what: 'Was',
    when: 'Wann',
    where: 'Wo',
    duration: 'Dauer',
    minutes: (n: number) => `${n} Minuten`,
    reference: 'Buchungsnummer',
    calendar: 'Mit der angehängten Kalenderdatei (appointment.ics) tragen Sie den Termin in Ihren Kalender ein.',
    noticeSubject: (f: BookingFacts, when: string) => `Neue Buchung: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'Ein neuer Termin wurde gebucht.',
    schedule: 'Kalender',
    source: 'Gebucht über',
    sources: { api: 'die Buchungs-API', admin: 'die Verwaltung (planner bookings add)' },
    yes: 'ja',
    no: 'nein',
    dateLocale: 'de-DE',
    cancelledSubject: (f: BookingFacts, when: string) => `Abgesagt: Ihr Termin bei ${f.practiceName}, ${when}`,
    cancelled: 'Ihr Termin wurde abgesagt.',
    cancelReason: 'Grund',
    cancelCalendar: 'Mit der angehängten Kalenderdatei (appointment.ics) entfernen Sie ihn aus Ihrem Kalender.',
    movedSubject: (f: BookingFacts, when: string) => `Geändert: Ihr Termin bei ${f.practiceName} ist jetzt am ${when}`,
    moved: 'Ihr Termin wurde auf eine neue Zeit verlegt.',
    previously: 'Bisher',
    movedCalendar: 'Mit der angehängten Kalenderdatei (appointment.ics) aktualisieren Sie ihn in Ihrem Kalender.',
  },
} as const;

/** Returns text with the five HTML-special characters escaped, so nothing a customer typed can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** Returns the local date and time of an instant, e.g. `Tuesday, 24 November 2026, 09:30 (Europe/Berlin)`. */
export function localWhen(unix: number, zone: string, dateLocale: string): string {
  // Building an Intl.DateTimeFormat costs far more than using one: one pair per locale and zone.
  let format = formatters.get(`${dateLocale} ${zone}`);
  if (!format) {
    format = {
      day: new Intl.DateTimeFormat(dateLocale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
      time: new Intl.DateTimeFormat(dateLocale, { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    };
    formatters.set(`${dateLocale} ${zone}`, format);
  }
  const date = new Date(unix * 1000);
  return `${format.day.format(date)}, ${format.time.format(date)} (${zone})`;
}

/** Returns text escaped for an iCalendar TEXT value (RFC 5545 §3.3.11). */
function icsText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Returns a quoted iCalendar parameter value (no quotes, control characters or line breaks inside). */
function icsParam(text: string): string {
  return `"${text.replace(/["\u0000-\u001f\u007f]/g, ' ')}"`;
}

/** Returns `line` folded at 75 octets with CRLF + space (RFC 5545 §3.1), never splitting a UTF-8 character. */
function fold(line: string): string {
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
  return new Date(unix * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * Returns the calendar file: one VEVENT, UID from the booking reference, times in UTC (RFC 5545).
 * `stamp` is when it was made (DTSTAMP); the organizer is the practice, the attendee the customer. A change keeps
 * the UID and raises `sequence` (RFC 5546 §2.1.4), so calendars update or (METHOD:CANCEL) remove the same event.
 */
export function bookingIcs(facts: BookingFacts, stamp: number, sequence = 0, method: 'REQUEST' | 'CANCEL' = 'REQUEST'): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//planner//booking//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:${facts.reference}@planner`,
    `DTSTAMP:${icsTime(stamp)}`,
    `DTSTART:${icsTime(facts.startAt)}`,
    `DTEND:${icsTime(facts.endAt)}`,
    `SEQUENCE:${sequence}`,
    `SUMMARY:${icsText(`${facts.reasonName} – ${facts.practiceName}`)}`,
    `DESCRIPTION:${icsText(`${facts.scheduleName}. ${facts.reference}`)}`,
    method === 'CANCEL' ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    `ORGANIZER;CN=${icsParam(facts.practiceName)}:mailto:${facts.notifyEmail}`,
    ...(facts.customerEmail
      ? [`ATTENDEE;CN=${icsParam(facts.customerName || facts.customerEmail)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${facts.customerEmail}`]
      : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

type Row = [label: string, value: string];

function textBlock(intro: string[], rows: Row[], outro: string[]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return [...intro, '', ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`), '', ...outro].join('\n') + '\n';
}

function htmlBlock(intro: string[], rows: Row[], outro: string[]): string {
  const cells = rows
    .map(([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return (
    `<!doctype html><html><body style="font-family:sans-serif">` +
    intro.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<table>${cells}</table>` +
    outro.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `</body></html>`
  );
}

/** Returns a header-safe one-line text (no line breaks can reach a Subject). */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ');
}

/**
 * Returns the messages a new booking sends: the customer's confirmation (when an e-mail was given) and the
 * practice's notice. `stamp` is the instant they are made (the .ics DTSTAMP).
 */
export function bookingMessages(facts: BookingFacts, stamp: number): OutgoingMessage[] {
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const minutes = Math.round((facts.endAt - facts.startAt) / 60);
  const ics = bookingIcs(facts, stamp);
  const messages: OutgoingMessage[] = [];
  const appointment: Row[] = [
    [words.what, facts.reasonName],
    [words.when, when],
    [words.duration, words.minutes(minutes)],
    [words.where, facts.practiceName],
    [words.reference, facts.reference],
  ];
  if (facts.customerEmail) {
    const intro = [words.greeting(facts.customerName), words.booked];
    messages.push({
      kind: 'confirmation',
      recipient: facts.customerEmail,
      subject: oneLine(words.confirmationSubject(facts, when)),
      text: textBlock(intro, appointment, [words.calendar, facts.practiceName]),
      html: htmlBlock(intro, appointment, [words.calendar, facts.practiceName]),
      ics,
    });
  }
  const details: Row[] = [
    [words.schedule, facts.scheduleName],
    ...appointment.filter(([label]) => label !== words.where),
    [words.source, words.sources[facts.source]],
    ...facts.fields.map(({ label, value }): Row => [label, typeof value === 'boolean' ? (value ? words.yes : words.no) : value]),
  ];
  messages.push({
    kind: 'notice',
    recipient: facts.notifyEmail,
    subject: oneLine(words.noticeSubject(facts, when)),
    text: textBlock([words.noticeIntro], details, []),
    html: htmlBlock([words.noticeIntro], details, []),
    ics,
  });
  return messages;
}

/**
 * Returns the customer's message for a change the practice made: a cancellation (with an .ics METHOD:CANCEL) or a
 * move (with the updated .ics), both with the booking's UID and its new `sequence`. No message without an e-mail.
 */
export function changeMessages(
  facts: BookingFacts,
  stamp: number,
  change: { kind: 'cancellation'; sequence: number; reason: string | null } | { kind: 'update'; sequence: number; previousStartAt: number },
): OutgoingMessage[] {
  if (!facts.customerEmail) return [];
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const rows: Row[] = [
    [words.what, facts.reasonName],
    [words.when, when],
    ...(change.kind === 'update' ? [[words.previously, localWhen(change.previousStartAt, facts.timeZone, words.dateLocale)] as Row] : []),
    ...(change.kind === 'cancellation' && change.reason ? [[words.cancelReason, change.reason] as Row] : []),
    [words.where, facts.practiceName],
    [words.reference, facts.reference],
  ];
  const cancel = change.kind === 'cancellation';
  const intro = [words.greeting(facts.customerName), cancel ? words.cancelled : words.moved];
  const outro = [cancel ? words.cancelCalendar : words.movedCalendar, facts.practiceName];
  return [
    {
      kind: change.kind,
      recipient: facts.customerEmail,
      subject: oneLine(cancel ? words.cancelledSubject(facts, when) : words.movedSubject(facts, when)),
      text: textBlock(intro, rows, outro),
      html: htmlBlock(intro, rows, outro),
      ics: bookingIcs(facts, stamp, change.sequence, cancel ? 'CANCEL' : 'REQUEST'),
    },
  ];
}
