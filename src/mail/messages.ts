/**
 * The booking e-mails: a confirmation to the customer and a notice to the practice, each as text and HTML in the
 * installation's locale (translations.ts), with an .ics attachment (calendar.ts). Pure: everything comes in as arguments.
 */
import type { OutboxKind, OutgoingMessage } from '../store/outbox.ts';
import type { Locale } from '../store/settings.ts';
import { bookingIcs } from './calendar.ts';
import { localWhen, WORDS } from './translations.ts';

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

/**
 * Where a customer mail's link to the self-service page goes. The link's token is made only when the mail is sent
 * (and only its hash is stored), so the outbox keeps this mark instead: `withManageLink` puts the link there, or
 * takes the mark's line out while the page is off. It cannot be forged (issue 23, finding 3): the builders below
 * write it only for the `LINK` line of a mail that carries a link, and turn every control character of every other
 * text into U+FFFD, so the mark's NUL is the only one in a message they wrote; `withManageLink` replaces only the
 * last mark, only in kinds that carry a link, and leaves no NUL in what is sent, whatever an older row holds.
 */
export const MANAGE_MARK = '\u0000manage-link\u0000';

/** The line of a customer mail where the link to the self-service page goes (rendered as MANAGE_MARK). */
const LINK: unique symbol = Symbol('manage link');
type Line = string | typeof LINK;

/** The kinds of mail that carry the link to the page: never the practice's notice, nor a cancellation. */
export const LINKED_KINDS: readonly OutboxKind[] = ['confirmation', 'update', 'reminder'];

/** Control characters but tab and line breaks (a text box's): none reaches a mail from what anyone typed (C0, DEL, C1). */
const MAIL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Returns `text` with every control character but tab, line feed and carriage return as U+FFFD. */
function plain(text: string): string {
  return text.replace(MAIL_CONTROL, '\ufffd');
}

/** Returns `text` with its last occurrence of `mark` replaced by `by` (the builders write the link's line last). */
function replaceLast(text: string, mark: string, by: string): string {
  const at = text.lastIndexOf(mark);
  return at < 0 ? text : text.slice(0, at) + by + text.slice(at + mark.length);
}

/**
 * Returns the text and HTML of a message with its manage mark replaced by the link to `url` (in the locale's words),
 * or with the mark's line removed when `url` is undefined (the page is off). Only the kinds in LINKED_KINDS have a
 * mark; in any other kind, and beside the last mark, a NUL (a row written by an older version) becomes U+FFFD.
 */
export function withManageLink<T extends { kind: OutboxKind; text: string; html: string }>(message: T, locale: Locale, url: string | undefined): T {
  if (!message.text.includes('\u0000') && !message.html.includes('\u0000')) return message;
  if (!LINKED_KINDS.includes(message.kind)) return { ...message, text: plain(message.text), html: plain(message.html) };
  const words = WORDS[locale];
  return {
    ...message,
    text: plain(replaceLast(message.text, `${MANAGE_MARK}\n`, url === undefined ? '' : `${words.manageLink}\n${url}\n`)),
    html: plain(
      replaceLast(
        message.html,
        `<p>${MANAGE_MARK}</p>`,
        url === undefined ? '' : `<p>${escapeHtml(words.manageLink)}<br><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
      ),
    ),
  };
}

/** Returns text with the five HTML-special characters escaped, so nothing a customer typed can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Row = [label: string, value: string];

function textBlock(intro: string[], rows: Row[], outro: Line[]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  const lines = [...intro, '', ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`), ''].map(plain);
  return [...lines, ...outro.map((line) => (line === LINK ? MANAGE_MARK : plain(line)))].join('\n') + '\n';
}

function htmlBlock(intro: string[], rows: Row[], outro: Line[]): string {
  const html = (text: string) => escapeHtml(plain(text));
  const cells = rows
    .map(([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${html(label)}</th><td>${html(value)}</td></tr>`)
    .join('');
  return (
    `<!doctype html><html><body style="font-family:sans-serif">` +
    intro.map((line) => `<p>${html(line)}</p>`).join('') +
    `<table>${cells}</table>` +
    outro.map((line) => `<p>${line === LINK ? MANAGE_MARK : html(line)}</p>`).join('') +
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
      text: textBlock(intro, appointment, [words.calendar, LINK, facts.practiceName]),
      html: htmlBlock(intro, appointment, [words.calendar, LINK, facts.practiceName]),
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
  const outro: Line[] = cancel ? [words.cancelCalendar, facts.practiceName] : [words.movedCalendar, LINK, facts.practiceName];
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

/**
 * Returns the customer's reminder of an appointment, or undefined without an e-mail: the appointment's rows as in
 * the confirmation, the .ics of the booking as it stands (same UID, its current `sequence`) and the manage mark.
 * `stamp` is when it is written (the .ics DTSTAMP): with the booking or its move, not when it is sent.
 */
export function reminderMessage(facts: BookingFacts, stamp: number, sequence: number): OutgoingMessage | undefined {
  if (!facts.customerEmail) return undefined;
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const rows: Row[] = [
    [words.what, facts.reasonName],
    [words.when, when],
    [words.where, facts.practiceName],
    [words.reference, facts.reference],
  ];
  const intro = [words.greeting(facts.customerName), words.reminder];
  const outro: Line[] = [words.calendar, LINK, facts.practiceName];
  return {
    kind: 'reminder',
    recipient: facts.customerEmail,
    subject: oneLine(words.reminderSubject(facts, when)),
    text: textBlock(intro, rows, outro),
    html: htmlBlock(intro, rows, outro),
    ics: bookingIcs(facts, stamp, sequence, 'REQUEST'),
  };
}
