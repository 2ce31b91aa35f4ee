/**
 * The words of the booking e-mails in each locale, and how they write a date and time. Pure; one table per locale,
 * the same keys in each.
 */
import type { BookingFacts } from './facts.ts';

/** The e-mails' words, per locale (store/settings.ts Locale). */
export const WORDS = {
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
    noticeSubject: (f: BookingFacts, when: string) =>
      `New booking: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
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
    with: 'With',
    phone: 'Phone',
    note: 'Please note',
    manageButton: 'Manage your appointment',
    changeUntil: (until: string) => `You can cancel or move this appointment online until ${until}.`,
    cancelUntil: (until: string) => `You can cancel this appointment online until ${until}.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Changes online were possible until ${until}. To cancel or change the appointment now, please ${phone ? `call ${phone}` : `contact ${practice} directly`}.`,
    callToChange: (phone: string) => `To cancel or change the appointment, please call ${phone}.`,
    contactToChange: (practice: string) => `To cancel or change the appointment, please contact ${practice} directly.`,
    manageKept:
      "[Here the e-mail says how to cancel or change the appointment, as it stands when the e-mail is sent: a personal link to the self-service page with its deadline (planner keeps no copy of the link), or the practice's phone number.]",
    replyReaches: (email: string) => `Answering this e-mail reaches the customer (${email}).`,
    now: 'Now',
    noReason: '(none given)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Cancelled by the customer: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Moved by the customer: ${f.reasonName}, now ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'The customer cancelled this appointment on the self-service page.',
    customerMoved: 'The customer moved this appointment on the self-service page.',
    feedCancelled: 'Cancelled:',
    feedReference: 'Reference',
    bookAgain: 'You can book a new appointment online.',
    bookAgainButton: 'Book a new appointment',
    testSubject: (practice: string) => `planner: test message from ${practice}`,
    testText: (practice: string, via: string) =>
      `This test message shows that ${practice} can send booking e-mails through ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) => `Reminder: your appointment at ${f.practiceName}, ${when}`,
    reminder: 'this is a reminder of your appointment.',
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
    noticeSubject: (f: BookingFacts, when: string) =>
      `Neue Buchung: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
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
    with: 'Bei',
    phone: 'Telefon',
    note: 'Bitte beachten',
    manageButton: 'Termin verwalten',
    changeUntil: (until: string) => `Sie können diesen Termin bis ${until} online absagen oder verlegen.`,
    cancelUntil: (until: string) => `Sie können diesen Termin bis ${until} online absagen.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Online-Änderungen waren bis ${until} möglich. Um den Termin jetzt abzusagen oder zu ändern, ${phone ? `rufen Sie bitte ${phone} an` : `wenden Sie sich bitte direkt an ${practice}`}.`,
    callToChange: (phone: string) => `Um den Termin abzusagen oder zu ändern, rufen Sie bitte ${phone} an.`,
    contactToChange: (practice: string) =>
      `Um den Termin abzusagen oder zu ändern, wenden Sie sich bitte direkt an ${practice}.`,
    manageKept:
      '[Hier sagt die E-Mail, wie der Termin abgesagt oder geändert werden kann, so wie es beim Versand der E-Mail gilt: ein persönlicher Link zur Terminseite mit seiner Frist (planner bewahrt keine Kopie des Links auf) oder die Telefonnummer der Praxis.]',
    replyReaches: (email: string) => `Eine Antwort auf diese E-Mail erreicht den Kunden (${email}).`,
    now: 'Neu',
    noReason: '(keiner angegeben)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Vom Kunden abgesagt: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Vom Kunden verlegt: ${f.reasonName}, jetzt ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'Der Kunde hat diesen Termin auf der Terminseite abgesagt.',
    customerMoved: 'Der Kunde hat diesen Termin auf der Terminseite verlegt.',
    feedCancelled: 'Abgesagt:',
    feedReference: 'Buchungsnummer',
    bookAgain: 'Einen neuen Termin können Sie online buchen.',
    bookAgainButton: 'Neuen Termin buchen',
    testSubject: (practice: string) => `planner: Testnachricht von ${practice}`,
    testText: (practice: string, via: string) =>
      `Diese Testnachricht zeigt, dass ${practice} Buchungs-E-Mails über ${via} senden kann.`,
    reminderSubject: (f: BookingFacts, when: string) => `Erinnerung: Ihr Termin bei ${f.practiceName}, ${when}`,
    reminder: 'wir erinnern Sie an Ihren Termin.',
  },
} as const;

const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/**
 * Returns the local date and time of an instant with the zone's short name in the locale's words, e.g. `Tuesday,
 * 24 November 2026, 09:30 CET` (de: `Dienstag, 24. November 2026, 09:30 MEZ`; zones without a short name in that
 * locale read `GMT-5`).
 */
export function localWhen(unix: number, zone: string, dateLocale: string): string {
  // Building an Intl.DateTimeFormat costs far more than using one: one pair per locale and zone.
  let format = formatters.get(`${dateLocale} ${zone}`);
  if (!format) {
    format = {
      day: new Intl.DateTimeFormat(dateLocale, {
        timeZone: zone,
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }),
      time: new Intl.DateTimeFormat(dateLocale, {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
    };
    formatters.set(`${dateLocale} ${zone}`, format);
  }
  const date = new Date(unix * 1000);
  return `${format.day.format(date)}, ${format.time.format(date)}`;
}
