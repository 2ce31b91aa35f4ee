/**
 * The practice's mail about its own calendar (issue 25): after an hour of failing syncs, and once more when the
 * calendar reads again. It names the calendar by its label, never by its address (a secret), and says what still
 * holds: the busy times read last keep blocking, events added since then are not seen.
 */
import { formatLocal } from '../domain/dates.ts';
import type { OutgoingMessage } from '../store/outbox.ts';
import type { Settings } from '../store/settings.ts';
import { htmlMail, textMail, type MailContent } from './layout.ts';

export interface CalendarAlertFacts {
  settings: Pick<Settings, 'practiceName' | 'timeZone' | 'locale' | 'notifyEmail'>;
  calendarId: number;
  label: string;
  scheduleName: string;
  /** The first failed sync, Unix seconds. */
  failingSince: number;
  /** The last failure's one line (already without secrets). */
  error: string;
  recovered: boolean;
  /** The mail is about writing bookings into the calendar (issue 38): how many wait to be written. */
  writing?: { waiting: number };
}

const WORDS = {
  en: {
    failingSubject: (label: string) => `Calendar "${label}" cannot be read: new events in it do not block times`,
    failing: (label: string, schedule: string, since: string) =>
      `Since ${since}, planner has not been able to read the calendar "${label}" (schedule ${schedule}).`,
    failingHolds:
      'The busy times it read last still block booking times. Events added or moved in that calendar since then are not seen, so their times may be offered to customers.',
    fix: (id: number) => `To see why and try again: planner calendar list, then planner calendar sync ${id}.`,
    error: 'Last error',
    recoveredSubject: (label: string) => `Calendar "${label}" can be read again`,
    recovered: (label: string, schedule: string, since: string) =>
      `The calendar "${label}" (schedule ${schedule}) can be read again; planner could not read it from ${since} until now. Its busy times are up to date.`,
    writeSubject: (label: string) => `Calendar "${label}" cannot be written: new bookings are not in it`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Since ${since}, planner has not been able to write bookings into the calendar "${label}" (schedule ${schedule}); ${waiting === 1 ? '1 booking change is waiting' : `${waiting} booking changes are waiting`}.`,
    writeHolds:
      'Every booking is kept and will be written as soon as the calendar takes it. Until then the calendar does not show them, so please check planner bookings list before adding private appointments.',
    writeFix: (id: number) =>
      `To see why: planner calendar list; a new password: planner calendar set ${id} --user <name> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `Calendar "${label}" receives bookings again`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `The calendar "${label}" (schedule ${schedule}) receives bookings again; planner could not write into it from ${since} until now. What was waiting has been written.`,
  },
  de: {
    failingSubject: (label: string) => `Kalender „${label}“ nicht lesbar: neue Termine darin sperren keine Zeiten`,
    failing: (label: string, schedule: string, since: string) =>
      `Seit ${since} kann planner den Kalender „${label}“ (Terminplan ${schedule}) nicht lesen.`,
    failingHolds:
      'Die zuletzt gelesenen belegten Zeiten sperren weiterhin Buchungszeiten. Termine, die seitdem in diesem Kalender hinzukamen oder verschoben wurden, sieht planner nicht; ihre Zeiten können Kunden angeboten werden.',
    fix: (id: number) => `Ursache und neuer Versuch: planner calendar list, dann planner calendar sync ${id}.`,
    error: 'Letzter Fehler',
    recoveredSubject: (label: string) => `Kalender „${label}“ wieder lesbar`,
    recovered: (label: string, schedule: string, since: string) =>
      `Der Kalender „${label}“ (Terminplan ${schedule}) ist wieder lesbar; von ${since} bis jetzt konnte planner ihn nicht lesen. Seine belegten Zeiten sind aktuell.`,
    writeSubject: (label: string) => `Kalender „${label}“ nicht beschreibbar: neue Buchungen fehlen darin`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Seit ${since} kann planner keine Buchungen in den Kalender „${label}“ (Terminplan ${schedule}) schreiben; ${waiting === 1 ? '1 Änderung wartet' : `${waiting} Änderungen warten`}.`,
    writeHolds:
      'Jede Buchung bleibt erhalten und wird geschrieben, sobald der Kalender sie annimmt; bis dahin zeigt er sie nicht. Sehen Sie daher vor dem Eintragen privater Termine in planner bookings list nach.',
    writeFix: (id: number) =>
      `Ursache: planner calendar list; ein neues Passwort: planner calendar set ${id} --user <Name> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `Kalender „${label}“ nimmt wieder Buchungen an`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `Der Kalender „${label}“ (Terminplan ${schedule}) nimmt wieder Buchungen an; von ${since} bis jetzt konnte planner nicht in ihn schreiben. Was wartete, ist geschrieben.`,
  },
} as const;

/** Returns the practice's mail that a calendar fails (or, `recovered`, reads again). */
export function calendarAlert(facts: CalendarAlertFacts): OutgoingMessage {
  const { settings } = facts;
  const words = WORDS[settings.locale];
  const since = `${formatLocal(new Date(facts.failingSince * 1000), settings.timeZone!)} (${settings.timeZone})`;
  const writing = facts.writing;
  const subject = writing
    ? facts.recovered
      ? words.writeRecoveredSubject(facts.label)
      : words.writeSubject(facts.label)
    : facts.recovered
      ? words.recoveredSubject(facts.label)
      : words.failingSubject(facts.label);
  const intro = writing
    ? facts.recovered
      ? [words.writeRecovered(facts.label, facts.scheduleName, since)]
      : [
          words.writeFailing(facts.label, facts.scheduleName, since, writing.waiting),
          words.writeHolds,
          words.writeFix(facts.calendarId),
        ]
    : facts.recovered
      ? [words.recovered(facts.label, facts.scheduleName, since)]
      : [words.failing(facts.label, facts.scheduleName, since), words.failingHolds, words.fix(facts.calendarId)];
  const content: MailContent = {
    lang: settings.locale,
    title: subject,
    heading: settings.practiceName ?? '',
    intro,
    rows: facts.recovered ? [] : [[words.error, facts.error]],
    manage: false,
    after: [],
    footer: [],
  };
  return {
    kind: 'notice',
    recipient: settings.notifyEmail!,
    subject,
    text: textMail(content),
    html: htmlMail(content),
    ics: '',
  };
}
