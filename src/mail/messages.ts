/**
 * The booking e-mails: the customer's confirmation, update, cancellation and reminder, and the practice's notices,
 * each as HTML (layout.ts) and a plain-text part with the same content, in the installation's locale
 * (translations.ts), with an .ics attachment (calendar.ts). Pure: everything comes in as arguments.
 */
import { changeDeadline, deadlineState } from '../domain/deadline.ts';
import type { OutboxKind, OutgoingMessage } from '../store/outbox.ts';
import type { Locale, PortalSettings } from '../store/settings.ts';
import { bookingIcs, bookingsIcs, eventLocation } from './calendar.ts';
import { type BookingFacts, forPractice } from './facts.ts';
import { htmlMail, MANAGE_MARK, type MailContent, manageHtml, plain, type Row, textMail, withBrand } from './layout.ts';
import { localWhen, WORDS } from './translations.ts';

export { MANAGE_MARK } from './layout.ts';

/**
 * The calendar file of every notice to the practice: none. Its calendar gets each booking, and each later change,
 * from the feed and from the calendar planner writes; a file in a mail is a copy that no later change reaches, and
 * the customer's invitation in it was added by mail apps that add invitations by themselves, with the practice as
 * its own organiser (docs/calendar-methods.md).
 */
const NO_CALENDAR_FILE = '';

/**
 * The kinds of mail that carry the link to the page: never the practice's notice; a cancellation only of a date of a
 * series whose other dates stay booked (its builder writes the mark only then): the link opens its page, which lists
 * them.
 */
export const LINKED_KINDS: readonly OutboxKind[] = ['confirmation', 'update', 'reminder', 'cancellation'];

/**
 * What a customer mail's manage line says, decided when the mail is SENT (a mail is written with
 * the booking, maybe days before it goes out, and the page's rules may change meanwhile):
 * - `link`: the page is on and the deadline is ahead: "you can cancel (or move) online until …" and the button;
 * - `closed`: the page is on but its deadline passed after the mail was written: no link, "changes online were
 *   possible until …" and the phone number instead of the promise;
 * - `call`: the page is on but its deadline had passed already when the mail was written (a booking made or moved
 *   inside it): no link and no date (it would be before the booking), only whom to call;
 * - `off`: the page is off: the phone number, when there is one;
 * - `none`: nothing (the booking was cancelled meanwhile);
 * - `series`: a mail about a series (its confirmation, a date's cancellation) while a date of it can still be
 *   changed: "each of these dates until N hours before it", the dates already past their deadline (`closed`, starts)
 *   named, and the button (seriesActionAt).
 */
export type ManageAction =
  | { kind: 'link'; until: number; move: boolean }
  | { kind: 'series'; hours: number; move: boolean; closed: number[] }
  | { kind: 'closed'; until: number }
  | { kind: 'call' }
  | { kind: 'off' }
  | { kind: 'none' };

/**
 * Returns what the manage line of a customer mail about `booking` says when it is sent at `now` (Unix seconds),
 * under the page's current settings; `writtenAt` is when the mail was written (its booking made, moved or reminded
 * of). The deadline is the page's, one rule with the page and the core's change (domain/deadline.ts): a mail
 * written at the deadline's second still had it.
 */
export function manageActionAt(
  portal: PortalSettings | null,
  booking: { startAt: number; cancelled: boolean } | null,
  now: number,
  writtenAt: number,
): ManageAction {
  if (booking?.cancelled) return { kind: 'none' };
  if (!portal || !booking) return { kind: 'off' };
  const until = changeDeadline(booking.startAt, portal.cancelUntilHours);
  if (deadlineState(booking.startAt, portal.cancelUntilHours, writtenAt) !== 'open') return { kind: 'call' };
  if (deadlineState(booking.startAt, portal.cancelUntilHours, now) !== 'open') return { kind: 'closed', until };
  return { kind: 'link', until, move: portal.reschedule };
}

/**
 * Returns what the manage line of a mail about a series says when it is sent at `now`: `dates` are the series' dates
 * as they stand then. While one booked date is before its deadline, the link (`series`), naming the booked dates
 * already past theirs; else, for its confirmation, whom to call, and for a cancellation nothing (nothing of the series
 * is left to change). The page off: its phone number, as any mail says.
 */
export function seriesActionAt(
  portal: PortalSettings | null,
  dates: readonly { startAt: number; status: string }[],
  now: number,
  kind: OutboxKind,
): ManageAction {
  if (!portal) return kind === 'cancellation' ? { kind: 'none' } : { kind: 'off' };
  const booked = dates.filter((date) => date.status === 'booked' && date.startAt > now);
  const open = booked.filter((date) => deadlineState(date.startAt, portal.cancelUntilHours, now) === 'open');
  if (open.length === 0) return kind === 'cancellation' ? { kind: 'none' } : { kind: 'call' };
  const closed = booked.filter((date) => !open.includes(date)).map((date) => date.startAt);
  return { kind: 'series', hours: portal.cancelUntilHours, move: portal.reschedule, closed };
}

/** What the sender knows, at send time, to write a manage line: the installation's current settings. */
export interface SendView {
  locale: Locale;
  timeZone: string;
  practiceName: string;
  phone: string;
  /** The button's colour: the practice's (withBrand), else planner's. */
  accent?: string;
}

/** Returns `text` with its last occurrence of `mark` replaced by `by` (the builders write the link's line last). */
function replaceLast(text: string, mark: string, by: string): string {
  const at = text.lastIndexOf(mark);
  return at < 0 ? text : text.slice(0, at) + by + text.slice(at + mark.length);
}

/** Returns the manage line's sentence and, for a link, the button's words; undefined when there is nothing to say. */
function manageWords(view: SendView, action: ManageAction): { sentence: string; button?: string } | undefined {
  const words = WORDS[view.locale];
  const when = (unix: number) => localWhen(unix, view.timeZone, words.dateLocale);
  switch (action.kind) {
    case 'link':
      return {
        sentence: action.move ? words.changeUntil(when(action.until)) : words.cancelUntil(when(action.until)),
        button: words.manageButton,
      };
    case 'series': {
      const rule = action.move ? words.changeEachUntil(action.hours) : words.cancelEachUntil(action.hours);
      const closed = action.closed.length ? ` ${words.seriesClosed(action.closed.map(when).join('; '))}` : '';
      return { sentence: rule + closed, button: words.manageSeriesButton };
    }
    case 'closed':
      return { sentence: words.tooLate(when(action.until), view.phone, view.practiceName) };
    case 'call':
      return { sentence: view.phone ? words.callToChange(view.phone) : words.contactToChange(view.practiceName) };
    case 'off':
      return view.phone ? { sentence: words.callToChange(view.phone) } : undefined;
    case 'none':
      return undefined;
  }
}

/**
 * Returns the text and HTML of a message with its manage mark replaced by what `action` says, in the installation's
 * current words: for `link`, the sentence and the button to `url` (the text part: the URL on its own line); else
 * the sentence alone, or nothing. The mark cannot be forged: the builders write it only for
 * the manage line of a mail that carries one, and turn every control character of every other text into U+FFFD,
 * so the mark's NUL is the only one in a message they wrote; this replaces only the last mark, only in kinds that
 * carry a link, and leaves no NUL in what is sent, whatever an older row holds.
 */
export function withManageLink<T extends { kind: OutboxKind; text: string; html: string }>(
  message: T,
  view: SendView,
  action: ManageAction,
  url: string | undefined,
): T {
  if (!message.text.includes('\u0000') && !message.html.includes('\u0000')) return message;
  // A cancellation carries a link only as a date of a series whose other dates can still be changed (`series`).
  const unlinked = message.kind === 'cancellation' && action.kind !== 'series';
  if (!LINKED_KINDS.includes(message.kind) || unlinked)
    return { ...message, text: plain(message.text), html: plain(message.html) };
  const linked = action.kind === 'link' || action.kind === 'series';
  const said = manageWords(view, linked && url === undefined ? { kind: 'off' } : action);
  const link = said?.button !== undefined ? url : undefined;
  const text =
    said === undefined
      ? ''
      : `${plain(said.sentence)}\n${link === undefined ? '' : `${plain(said.button!)}: ${link}\n`}\n`;
  const html =
    said === undefined
      ? ''
      : manageHtml(
          plain(said.sentence),
          link === undefined ? undefined : { words: plain(said.button!), url: link },
          view.accent,
        );
  return {
    ...message,
    text: plain(replaceLast(message.text, `${MANAGE_MARK}\n`, text)),
    html: plain(replaceLast(replaceLast(message.html, `<p>${MANAGE_MARK}</p>`, MANAGE_MARK), MANAGE_MARK, html)),
  };
}

/**
 * Returns a message as kept in the outbox, for an export (`customer export`): its manage mark, which the sender fills
 * in when it sends (with a link whose token planner does not keep), replaced by a note in `locale`'s words of what
 * stands there, and no control character left.
 */
export function keptMessage<T extends { text: string; html: string }>(message: T, locale: Locale): T {
  const note = WORDS[locale].manageKept;
  return {
    ...message,
    text: plain(replaceLast(message.text, MANAGE_MARK, note)),
    html: plain(
      replaceLast(
        replaceLast(withBrand(message.html), `<p>${MANAGE_MARK}</p>`, MANAGE_MARK),
        MANAGE_MARK,
        manageHtml(note, undefined),
      ),
    ),
  };
}

/** Returns a header-safe one-line text (no line breaks can reach a Subject). */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ');
}

/** Returns the rows every customer mail shows of the appointment: what, with whom, when, where, the phone. */
function appointmentRows(facts: BookingFacts, when: string, extra: Row[] = []): Row[] {
  const words = WORDS[facts.locale];
  return [
    [words.what, facts.reasonName],
    [words.with, facts.scheduleName],
    [words.when, when],
    ...extra,
    [words.where, eventLocation(facts)],
    ...(facts.phone ? [[words.phone, facts.phone] as Row] : []),
    [words.reference, facts.reference],
  ];
}

/** Returns a customer mail's content: the practice's name on top, the appointment, what to bring, the manage line. */
function customerContent(
  facts: BookingFacts,
  title: string,
  intro: string[],
  rows: Row[],
  options: { note: boolean; manage: boolean; after: string[] },
): MailContent {
  const words = WORDS[facts.locale];
  return {
    lang: facts.locale,
    title,
    heading: facts.practiceName,
    intro: [words.greeting(facts.customerName), ...intro],
    rows,
    note:
      options.note && facts.reasonDescription.trim() ? { label: words.note, text: facts.reasonDescription } : undefined,
    manage: options.manage,
    brand: true,
    after: options.after,
    footer: [facts.practiceName, facts.address, facts.phone ? `${words.phone}: ${facts.phone}` : ''].filter(Boolean),
  };
}

/** Returns the form's answers as rows (a checkbox as yes or no). */
function fieldRows(facts: BookingFacts): Row[] {
  const words = WORDS[facts.locale];
  return facts.fields.map(
    ({ label, value }): Row => [label, typeof value === 'boolean' ? (value ? words.yes : words.no) : value],
  );
}

/** Returns a message of `content` (text and HTML). */
function render(content: MailContent): { text: string; html: string } {
  return { text: textMail(content), html: htmlMail(content) };
}

/**
 * Returns the messages a new booking sends: the customer's confirmation (when an e-mail was given) and the
 * practice's notice (Reply-To the customer). `stamp` is the instant they are made (the .ics DTSTAMP).
 */
export function bookingMessages(facts: BookingFacts, stamp: number): OutgoingMessage[] {
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const minutes = Math.round((facts.endAt - facts.startAt) / 60);
  const ics = bookingIcs(facts, stamp);
  const messages: OutgoingMessage[] = [];
  if (facts.customerEmail) {
    const subject = oneLine(words.confirmationSubject(facts, when));
    const rows = appointmentRows(facts, when, [[words.duration, words.minutes(minutes)]]);
    messages.push({
      kind: 'confirmation',
      recipient: facts.customerEmail,
      subject,
      ...render(
        customerContent(facts, subject, [words.booked], rows, { note: true, manage: true, after: [words.calendar] }),
      ),
      ics,
    });
  }
  messages.push(bookingNotice(forPractice(facts), minutes));
  return messages;
}

/** The practice's notice of a new booking (Reply-To the customer), in its own words (`forPractice`). */
function bookingNotice(facts: BookingFacts, minutes: number): OutgoingMessage {
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const subject = oneLine(words.noticeSubject(facts, when));
  const details: Row[] = [
    [words.with, facts.scheduleName],
    [words.what, facts.reasonName],
    [words.when, when],
    [words.duration, words.minutes(minutes)],
    [words.reference, facts.reference],
    [words.source, words.sources[facts.source]],
    ...fieldRows(facts),
  ];
  return {
    kind: 'notice',
    recipient: facts.notifyEmail,
    subject,
    ...render(noticeContent(facts, subject, [words.noticeIntro], details)),
    ics: NO_CALENDAR_FILE,
    ...(facts.customerEmail ? { replyTo: facts.customerEmail } : {}),
  };
}

/**
 * Returns the messages a new series sends: ONE confirmation to the customer (when an e-mail was given)
 * with every date and each date's own calendar file (its booking's REQUEST, `bookingsIcs`), and one notice to the
 * practice. `all`: the occurrences' facts, by start. The manage line is written when it is sent (seriesActionAt):
 * each date can be changed until the page's hours before it, and the link opens the first date's page, which lists
 * every date with its own deadline and its own "move" and "cancel".
 */
export function seriesMessages(all: readonly BookingFacts[], stamp: number): OutgoingMessage[] {
  const first = all[0]!;
  const words = WORDS[first.locale];
  const whenOf = (facts: BookingFacts) => localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const minutes = Math.round((first.endAt - first.startAt) / 60);
  const ics = bookingsIcs(
    all.map((facts) => ({ facts, sequence: 0 })),
    stamp,
    'REQUEST',
  );
  const dates = dateRows(words.dates, all.map(whenOf));
  const messages: OutgoingMessage[] = [];
  if (first.customerEmail) {
    const subject = oneLine(words.seriesSubject(first, all.length, whenOf(first)));
    const rows: Row[] = [
      [words.what, first.reasonName],
      [words.with, first.scheduleName],
      ...dates,
      [words.duration, words.minutes(minutes)],
      [words.where, eventLocation(first)],
      ...(first.phone ? [[words.phone, first.phone] as Row] : []),
      [words.reference, all.map((facts) => facts.reference).join(', ')],
    ];
    messages.push({
      kind: 'confirmation',
      recipient: first.customerEmail,
      subject,
      ...render(
        customerContent(first, subject, [words.seriesBooked(all.length)], rows, {
          note: true,
          manage: true,
          after: [all.length === 1 ? words.calendar : words.seriesCalendar(all.length)],
        }),
      ),
      ics,
    });
  }
  messages.push(seriesNotice(all.map(forPractice), minutes));
  return messages;
}

/** The practice's one notice of a new series (Reply-To the customer), in its own words (`forPractice`). */
function seriesNotice(all: readonly BookingFacts[], minutes: number): OutgoingMessage {
  const first = all[0]!;
  const words = WORDS[first.locale];
  const whenOf = (facts: BookingFacts) => localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const subject = oneLine(words.seriesNoticeSubject(first, all.length, whenOf(first)));
  const details: Row[] = [
    [words.with, first.scheduleName],
    [words.what, first.reasonName],
    ...dateRows(words.dates, all.map(whenOf)),
    [words.duration, words.minutes(minutes)],
    [words.reference, all.map((facts) => facts.reference).join(', ')],
    [words.source, words.sources[first.source]],
    ...fieldRows(first),
  ];
  return {
    kind: 'notice',
    recipient: first.notifyEmail,
    subject,
    ...render(noticeContent(first, subject, [words.seriesNoticeIntro(all.length)], details)),
    ics: NO_CALENDAR_FILE,
    ...(first.customerEmail ? { replyTo: first.customerEmail } : {}),
  };
}

/**
 * Returns the customer's one cancellation of several dates of a series (`bookings cancel --series`, the page's
 * "cancel this and the later dates"): every date, and each date's own METHOD:CANCEL (its UID, its new SEQUENCE). No
 * message without an e-mail.
 */
export function seriesCancellationMessages(
  all: readonly { facts: BookingFacts; sequence: number }[],
  stamp: number,
  change: { reason: string | null; bookAgainUrl?: string; stillBooked?: readonly number[] },
): OutgoingMessage[] {
  const first = all[0]!.facts;
  if (!first.customerEmail) return [];
  const others = change.stillBooked ?? [];
  const words = WORDS[first.locale];
  const subject = oneLine(words.seriesCancelledSubject(first, all.length));
  const rows: Row[] = [
    [words.what, first.reasonName],
    [words.with, first.scheduleName],
    ...dateRows(
      words.dates,
      all.map(({ facts }) => localWhen(facts.startAt, facts.timeZone, words.dateLocale)),
    ),
    ...(change.reason ? [[words.cancelReason, change.reason] as Row] : []),
    [words.reference, all.map(({ facts }) => facts.reference).join(', ')],
    ...stillBookedRows(first, others),
  ];
  const intro = [words.seriesCancelled(all.length), ...(others.length ? [words.othersStayBooked(others.length)] : [])];
  const content = customerContent(first, subject, intro, rows, {
    note: false,
    manage: others.length > 0,
    after: [all.length === 1 ? words.cancelCalendar : words.seriesCancelCalendar(all.length)],
  });
  if (change.bookAgainUrl && !others.length)
    content.action = { sentence: words.bookAgain, words: words.bookAgainButton, url: change.bookAgainUrl };
  return [
    {
      kind: 'cancellation',
      recipient: first.customerEmail,
      subject,
      ...render(content),
      ics: bookingsIcs(all, stamp, 'CANCEL'),
    },
  ];
}

/**
 * Returns the practice's one notice of dates of a series the customer cancelled on the self-service page: the
 * customer's mail's rows, Reply-To the customer.
 */
export function seriesCancellationNotice(
  all: readonly { facts: BookingFacts; sequence: number }[],
  reason: string | null,
): OutgoingMessage {
  const first = all[0]!.facts;
  const words = WORDS[first.locale];
  const subject = oneLine(
    words.customerCancelledSubject(first, localWhen(first.startAt, first.timeZone, words.dateLocale)),
  );
  const rows: Row[] = [
    [words.with, first.scheduleName],
    [words.what, first.reasonName],
    ...dateRows(
      words.dates,
      all.map(({ facts }) => localWhen(facts.startAt, facts.timeZone, words.dateLocale)),
    ),
    [words.cancelReason, reason ?? words.noReason],
    [words.reference, all.map(({ facts }) => facts.reference).join(', ')],
    ...fieldRows(first),
  ];
  return {
    kind: 'notice',
    recipient: first.notifyEmail,
    subject,
    ...render(noticeContent(first, subject, [words.customerCancelled, words.seriesCancelled(all.length)], rows)),
    ics: NO_CALENDAR_FILE,
    ...(first.customerEmail ? { replyTo: first.customerEmail } : {}),
  };
}

/** Returns the row of a series' dates still booked after a cancellation (none when there are none). */
function stillBookedRows(facts: BookingFacts, starts: readonly number[]): Row[] {
  const words = WORDS[facts.locale];
  if (!starts.length) return [];
  return dateRows(
    words.stillBooked,
    starts.map((start) => localWhen(start, facts.timeZone, words.dateLocale)),
  );
}

/** Returns the row of a list of dates: one line each. */
function dateRows(label: string, dates: readonly string[]): Row[] {
  return [[label, dates.join('\n')]];
}

/** Returns a practice notice's content: no greeting, no manage line; answering reaches the customer (Reply-To). */
function noticeContent(facts: BookingFacts, title: string, intro: string[], rows: Row[]): MailContent {
  const words = WORDS[facts.locale];
  return {
    lang: facts.locale,
    title,
    heading: facts.practiceName,
    intro,
    rows,
    manage: false,
    after: facts.customerEmail ? [words.replyReaches(facts.customerEmail)] : [],
    footer: [],
  };
}

/** A change of a booking: a cancellation (with its reason) or a move (from `previousStartAt`), and its new SEQUENCE. */
export type BookingChange =
  | {
      kind: 'cancellation';
      sequence: number;
      reason: string | null;
      /** The booking page's address while it is on: the customer's mail offers a new booking there. */
      bookAgainUrl?: string;
      /** A date of a series: the starts of its other dates still booked, which the mail lists (and links to). */
      stillBooked?: readonly number[];
    }
  | {
      kind: 'update';
      sequence: number;
      previousStartAt: number;
      /** The practitioner before a move to another one (the facts name the new one); absent: the same. */
      previousScheduleName?: string;
    };

/** The sentence that names the practitioner before and after a move to another one (none for the same one). */
function practitionerLines(facts: BookingFacts, change: BookingChange): string[] {
  if (change.kind !== 'update' || change.previousScheduleName === undefined) return [];
  return [WORDS[facts.locale].practitionerChanged(change.previousScheduleName, facts.scheduleName)];
}

/**
 * Returns the customer's message for a change: a cancellation (with an .ics METHOD:CANCEL) or a move (with the
 * updated .ics), both with the booking's UID and its new `sequence`. No message without an e-mail.
 */
export function changeMessages(facts: BookingFacts, stamp: number, change: BookingChange): OutgoingMessage[] {
  if (!facts.customerEmail) return [];
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const cancel = change.kind === 'cancellation';
  const extra: Row[] = [
    ...(change.kind === 'update'
      ? [[words.previously, localWhen(change.previousStartAt, facts.timeZone, words.dateLocale)] as Row]
      : []),
    ...(change.kind === 'cancellation' && change.reason ? [[words.cancelReason, change.reason] as Row] : []),
  ];
  const subject = oneLine(cancel ? words.cancelledSubject(facts, when) : words.movedSubject(facts, when));
  const others = change.kind === 'cancellation' ? (change.stillBooked ?? []) : [];
  const content = customerContent(
    facts,
    subject,
    [
      cancel ? words.cancelled : words.moved,
      ...practitionerLines(facts, change),
      ...(others.length ? [words.othersStayBooked(others.length)] : []),
    ],
    [...appointmentRows(facts, when, extra), ...stillBookedRows(facts, others)],
    {
      note: !cancel,
      // A cancelled date of a series whose other dates stay booked: the link to its page, which lists them.
      manage: !cancel || others.length > 0,
      after: [cancel ? words.cancelCalendar : words.movedCalendar],
    },
  );
  if (change.kind === 'cancellation' && change.bookAgainUrl && !others.length)
    content.action = { sentence: words.bookAgain, words: words.bookAgainButton, url: change.bookAgainUrl };
  return [
    {
      kind: change.kind,
      recipient: facts.customerEmail,
      subject,
      ...render(content),
      ics: bookingIcs(facts, stamp, change.sequence, cancel ? 'CANCEL' : 'REQUEST'),
    },
  ];
}

/**
 * Returns the practice's notice of a change the customer made on the self-service page (`facts` as the practice
 * tells them: `forPractice`): what,
 * with whom, the old and the new time (or the cancellation and its reason), who, and the form's answers; Reply-To
 * the customer, so that answering reaches them.
 */
export function customerChangeNotice(facts: BookingFacts, change: BookingChange): OutgoingMessage {
  const words = WORDS[facts.locale];
  const when = localWhen(facts.startAt, facts.timeZone, words.dateLocale);
  const cancel = change.kind === 'cancellation';
  const rows: Row[] = [
    [words.with, facts.scheduleName],
    [words.what, facts.reasonName],
    ...(change.kind === 'update'
      ? [
          [words.previously, localWhen(change.previousStartAt, facts.timeZone, words.dateLocale)] as Row,
          [words.now, when] as Row,
        ]
      : [[words.when, when] as Row]),
    ...(change.kind === 'cancellation' ? [[words.cancelReason, change.reason ?? words.noReason] as Row] : []),
    [words.reference, facts.reference],
    ...fieldRows(facts),
  ];
  const subject = oneLine(
    cancel ? words.customerCancelledSubject(facts, when) : words.customerMovedSubject(facts, when),
  );
  return {
    kind: 'notice',
    recipient: facts.notifyEmail,
    subject,
    ...render(
      noticeContent(
        facts,
        subject,
        [cancel ? words.customerCancelled : words.customerMoved, ...practitionerLines(facts, change)],
        rows,
      ),
    ),
    ics: NO_CALENDAR_FILE,
    ...(facts.customerEmail ? { replyTo: facts.customerEmail } : {}),
  };
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
  const subject = oneLine(words.reminderSubject(facts, when));
  return {
    kind: 'reminder',
    recipient: facts.customerEmail,
    subject,
    ...render(
      customerContent(facts, subject, [words.reminder], appointmentRows(facts, when), {
        note: true,
        manage: true,
        after: [words.calendar],
      }),
    ),
    ics: bookingIcs(facts, stamp, sequence, 'REQUEST'),
  };
}
