/**
 * The words of the booking e-mails in each locale, and how they write a date and time. Pure; one table per locale,
 * the same keys in each.
 */
import type { Locale, Translation } from '../domain/locales.ts';
import type { BookingFacts } from './facts.ts';

/** The e-mails' words, per locale (domain/locales.ts). */
export const WORDS = {
  en: {
    confirmationSubject: (f: BookingFacts, when: string) => `Your appointment at ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Hello ${name},` : 'Hello,'),
    booked: 'Your appointment is booked.',
    what: 'What',
    when: 'When',
    where: 'Where',
    duration: 'Duration',
    minutes: (n: number) => `${n} minutes`,
    reference: 'Reference',
    calendar: 'Open the attached calendar file (appointment.ics) to add the appointment to your calendar.',
    noticeSubject: (f: BookingFacts, when: string) =>
      `New booking: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'A new appointment was booked.',
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `Your ${count} appointments at ${f.practiceName}, from ${first}`,
    seriesBooked: (count: number) => `Your ${count} appointments are booked.`,
    dates: 'Dates',
    seriesCalendar: (count: number) =>
      `Open each attached calendar file (appointment-1.ics to appointment-${count}.ics, one per date, in the order above) to add these appointments to your calendar.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `New series: ${count} × ${f.reasonName}, from ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `A series of ${count} appointments was booked.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) => `Cancelled: ${count} appointments at ${f.practiceName}`,
    seriesCancelled: (count: number) => `These ${count} appointments have been cancelled.`,
    stillBooked: 'Still booked',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'The other date of your series stays booked.'
        : `The other ${count} dates of your series stay booked.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'You can cancel or move each of these dates online until it begins.'
        : `You can cancel or move each of these dates online until ${hours} ${hours === 1 ? 'hour' : 'hours'} before it.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'You can cancel each of these dates online until it begins.'
        : `You can cancel each of these dates online until ${hours} ${hours === 1 ? 'hour' : 'hours'} before it.`,
    seriesClosed: (dates: string) => `These dates can no longer be changed online: ${dates}.`,
    manageSeriesButton: 'Manage your appointments',
    schedule: 'Schedule',
    source: 'Booked via',
    sources: {
      api: 'the booking API',
      admin: 'the admin (planner bookings add)',
      page: 'the booking page',
      desk: 'the front desk',
    },
    yes: 'yes',
    no: 'no',
    dateLocale: 'en-GB',
    cancelledSubject: (f: BookingFacts, when: string) => `Cancelled: your appointment at ${f.practiceName}, ${when}`,
    cancelled: 'Your appointment has been cancelled.',
    cancelReason: 'Reason',
    cancelCalendar: 'Open the attached calendar file (appointment.ics) to remove the appointment from your calendar.',
    seriesCancelCalendar: (count: number) =>
      `Open each attached calendar file (appointment-1.ics to appointment-${count}.ics, one per date, in the order above) to remove these appointments from your calendar.`,
    movedSubject: (f: BookingFacts, when: string) => `Changed: your appointment at ${f.practiceName} is now on ${when}`,
    moved: 'Your appointment has been moved to a new time.',
    previously: 'Previously',
    movedCalendar: 'Open the attached calendar file (appointment.ics) to update the appointment in your calendar.',
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
    practitionerChanged: (before: string, after: string) =>
      `This appointment is now with ${after} instead of ${before}.`,
    feedCancelled: 'Cancelled:',
    feedReference: 'Reference',
    bookAgain: 'You can book a new appointment online.',
    bookAgainButton: 'Book a new appointment',
    testSubject: (practice: string) => `planner: test message from ${practice}`,
    testText: (practice: string, via: string) =>
      `This test message shows that ${practice} can send booking e-mails through ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) => `Reminder: your appointment at ${f.practiceName}, ${when}`,
    reminder: 'This is a reminder of your appointment.',
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
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `Ihre ${count} Termine bei ${f.practiceName}, ab ${first}`,
    seriesBooked: (count: number) => `Ihre ${count} Termine sind gebucht.`,
    dates: 'Termine',
    seriesCalendar: (count: number) =>
      `Mit den angehängten Kalenderdateien (appointment-1.ics bis appointment-${count}.ics, eine je Termin, in der Reihenfolge oben) tragen Sie diese Termine in Ihren Kalender ein.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `Neue Serie: ${count} × ${f.reasonName}, ab ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `Eine Serie von ${count} Terminen wurde gebucht.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) => `Abgesagt: ${count} Termine bei ${f.practiceName}`,
    seriesCancelled: (count: number) => `Diese ${count} Termine wurden abgesagt.`,
    stillBooked: 'Weiterhin gebucht',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'Der andere Termin Ihrer Serie bleibt gebucht.'
        : `Die anderen ${count} Termine Ihrer Serie bleiben gebucht.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'Sie können jeden dieser Termine bis zu seinem Beginn online absagen oder verlegen.'
        : `Sie können jeden dieser Termine bis ${hours} ${hours === 1 ? 'Stunde' : 'Stunden'} vor seinem Beginn online absagen oder verlegen.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'Sie können jeden dieser Termine bis zu seinem Beginn online absagen.'
        : `Sie können jeden dieser Termine bis ${hours} ${hours === 1 ? 'Stunde' : 'Stunden'} vor seinem Beginn online absagen.`,
    seriesClosed: (dates: string) => `Diese Termine können nicht mehr online geändert werden: ${dates}.`,
    manageSeriesButton: 'Termine verwalten',
    schedule: 'Kalender',
    source: 'Gebucht über',
    sources: {
      api: 'die Buchungs-API',
      admin: 'die Verwaltung (planner bookings add)',
      page: 'die Buchungsseite',
      desk: 'die Rezeption',
    },
    yes: 'ja',
    no: 'nein',
    dateLocale: 'de-DE',
    cancelledSubject: (f: BookingFacts, when: string) => `Abgesagt: Ihr Termin bei ${f.practiceName}, ${when}`,
    cancelled: 'Ihr Termin wurde abgesagt.',
    cancelReason: 'Grund',
    cancelCalendar: 'Mit der angehängten Kalenderdatei (appointment.ics) entfernen Sie den Termin aus Ihrem Kalender.',
    seriesCancelCalendar: (count: number) =>
      `Mit den angehängten Kalenderdateien (appointment-1.ics bis appointment-${count}.ics, eine je Termin, in der Reihenfolge oben) entfernen Sie diese Termine aus Ihrem Kalender.`,
    movedSubject: (f: BookingFacts, when: string) => `Geändert: Ihr Termin bei ${f.practiceName} ist jetzt am ${when}`,
    moved: 'Ihr Termin wurde auf einen neuen Zeitpunkt verlegt.',
    previously: 'Bisher',
    movedCalendar:
      'Mit der angehängten Kalenderdatei (appointment.ics) aktualisieren Sie den Termin in Ihrem Kalender.',
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
    practitionerChanged: (before: string, after: string) => `Dieser Termin ist jetzt bei ${after} statt bei ${before}.`,
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
  fr: {
    confirmationSubject: (f: BookingFacts, when: string) => `Votre rendez-vous chez ${f.practiceName} : ${when}`,
    greeting: (name: string) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    booked: 'Votre rendez-vous est confirmé.',
    what: 'Motif',
    when: 'Date et heure',
    where: 'Lieu',
    duration: 'Durée',
    minutes: (n: number) => `${n} minutes`,
    reference: 'Référence',
    calendar: 'Ouvrez le fichier de calendrier joint (appointment.ics) pour ajouter le rendez-vous à votre agenda.',
    noticeSubject: (f: BookingFacts, when: string) =>
      `Nouvelle réservation : ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'Un nouveau rendez-vous a été réservé.',
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `Vos ${count} rendez-vous chez ${f.practiceName}, à partir du ${first}`,
    seriesBooked: (count: number) => `Vos ${count} rendez-vous sont confirmés.`,
    dates: 'Dates',
    seriesCalendar: (count: number) =>
      `Ouvrez chacun des fichiers de calendrier joints (appointment-1.ics à appointment-${count}.ics, un par date, dans l’ordre ci-dessus) pour ajouter ces rendez-vous à votre agenda.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `Nouvelle série : ${count} × ${f.reasonName}, à partir du ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `Une série de ${count} rendez-vous a été réservée.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) => `Annulés : ${count} rendez-vous chez ${f.practiceName}`,
    seriesCancelled: (count: number) => `Ces ${count} rendez-vous ont été annulés.`,
    stillBooked: 'Toujours réservés',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'L’autre date de votre série reste réservée.'
        : `Les ${count} autres dates de votre série restent réservées.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'Vous pouvez annuler ou déplacer chacune de ces dates en ligne jusqu’à son début.'
        : `Vous pouvez annuler ou déplacer chacune de ces dates en ligne jusqu’à ${hours} ${hours === 1 ? 'heure' : 'heures'} avant son début.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'Vous pouvez annuler chacune de ces dates en ligne jusqu’à son début.'
        : `Vous pouvez annuler chacune de ces dates en ligne jusqu’à ${hours} ${hours === 1 ? 'heure' : 'heures'} avant son début.`,
    seriesClosed: (dates: string) => `Ces dates ne peuvent plus être modifiées en ligne : ${dates}.`,
    manageSeriesButton: 'Gérer vos rendez-vous',
    schedule: 'Agenda',
    source: 'Réservé via',
    sources: {
      api: 'l’API de réservation',
      admin: 'l’administration (planner bookings add)',
      page: 'la page de réservation',
      desk: 'l’accueil',
    },
    yes: 'oui',
    no: 'non',
    dateLocale: 'fr-FR',
    cancelledSubject: (f: BookingFacts, when: string) => `Annulé : votre rendez-vous chez ${f.practiceName}, ${when}`,
    cancelled: 'Votre rendez-vous a été annulé.',
    cancelReason: 'Motif de l’annulation',
    cancelCalendar:
      'Ouvrez le fichier de calendrier joint (appointment.ics) pour retirer le rendez-vous de votre agenda.',
    seriesCancelCalendar: (count: number) =>
      `Ouvrez chacun des fichiers de calendrier joints (appointment-1.ics à appointment-${count}.ics, un par date, dans l’ordre ci-dessus) pour retirer ces rendez-vous de votre agenda.`,
    movedSubject: (f: BookingFacts, when: string) =>
      `Modifié : votre rendez-vous chez ${f.practiceName} est désormais le ${when}`,
    moved: 'Votre rendez-vous a été déplacé à un nouvel horaire.',
    previously: 'Ancien horaire',
    movedCalendar:
      'Ouvrez le fichier de calendrier joint (appointment.ics) pour mettre à jour le rendez-vous dans votre agenda.',
    with: 'Avec',
    phone: 'Téléphone',
    note: 'À noter',
    manageButton: 'Gérer votre rendez-vous',
    changeUntil: (until: string) => `Vous pouvez annuler ou déplacer ce rendez-vous en ligne jusqu’au ${until}.`,
    cancelUntil: (until: string) => `Vous pouvez annuler ce rendez-vous en ligne jusqu’au ${until}.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Les modifications en ligne étaient possibles jusqu’au ${until}. Pour annuler ou modifier le rendez-vous maintenant, ${phone ? `veuillez appeler le ${phone}` : `veuillez contacter directement ${practice}`}.`,
    callToChange: (phone: string) => `Pour annuler ou modifier le rendez-vous, veuillez appeler le ${phone}.`,
    contactToChange: (practice: string) =>
      `Pour annuler ou modifier le rendez-vous, veuillez contacter directement ${practice}.`,
    manageKept:
      '[Ici, l’e-mail indique comment annuler ou modifier le rendez-vous, selon les règles en vigueur au moment de l’envoi : un lien personnel vers la page du rendez-vous avec son délai (planner ne garde aucune copie du lien), ou le numéro de téléphone du cabinet.]',
    replyReaches: (email: string) => `En répondant à cet e-mail, vous écrivez au client (${email}).`,
    now: 'Nouvel horaire',
    noReason: '(aucun motif indiqué)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Annulé par le client : ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Déplacé par le client : ${f.reasonName}, désormais ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'Le client a annulé ce rendez-vous en ligne, depuis la page de son rendez-vous.',
    customerMoved: 'Le client a déplacé ce rendez-vous en ligne, depuis la page de son rendez-vous.',
    practitionerChanged: (before: string, after: string) =>
      `Ce rendez-vous est désormais avec ${after} au lieu de ${before}.`,
    feedCancelled: 'Annulé :',
    feedReference: 'Référence',
    bookAgain: 'Vous pouvez prendre un nouveau rendez-vous en ligne.',
    bookAgainButton: 'Prendre un nouveau rendez-vous',
    testSubject: (practice: string) => `planner : message de test de ${practice}`,
    testText: (practice: string, via: string) =>
      `Ce message de test montre que ${practice} peut envoyer des e-mails de réservation via ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) => `Rappel : votre rendez-vous chez ${f.practiceName}, ${when}`,
    reminder: 'Nous vous rappelons votre rendez-vous.',
  },
  it: {
    confirmationSubject: (f: BookingFacts, when: string) => `Il suo appuntamento presso ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Gentile ${name},` : 'Gentile cliente,'),
    booked: 'Il suo appuntamento è confermato.',
    what: 'Motivo',
    when: 'Data e ora',
    where: 'Luogo',
    duration: 'Durata',
    minutes: (n: number) => `${n} minuti`,
    reference: 'Codice di prenotazione',
    calendar: 'Apra il file di calendario allegato (appointment.ics) per aggiungere l’appuntamento al suo calendario.',
    noticeSubject: (f: BookingFacts, when: string) =>
      `Nuova prenotazione: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'È stato prenotato un nuovo appuntamento.',
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `I suoi ${count} appuntamenti presso ${f.practiceName}, dal ${first}`,
    seriesBooked: (count: number) => `I suoi ${count} appuntamenti sono confermati.`,
    dates: 'Date',
    seriesCalendar: (count: number) =>
      `Apra ciascuno dei file di calendario allegati (da appointment-1.ics a appointment-${count}.ics, uno per data, nell’ordine indicato sopra) per aggiungere questi appuntamenti al suo calendario.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `Nuova serie: ${count} × ${f.reasonName}, dal ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `È stata prenotata una serie di ${count} appuntamenti.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) =>
      `Annullati: ${count} appuntamenti presso ${f.practiceName}`,
    seriesCancelled: (count: number) => `Questi ${count} appuntamenti sono stati annullati.`,
    stillBooked: 'Ancora prenotati',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'L’altra data della sua serie resta prenotata.'
        : `Le altre ${count} date della sua serie restano prenotate.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'Può annullare o spostare online ciascuna di queste date fino al suo inizio.'
        : `Può annullare o spostare online ciascuna di queste date fino a ${hours} ${hours === 1 ? 'ora' : 'ore'} prima del suo inizio.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'Può annullare online ciascuna di queste date fino al suo inizio.'
        : `Può annullare online ciascuna di queste date fino a ${hours} ${hours === 1 ? 'ora' : 'ore'} prima del suo inizio.`,
    seriesClosed: (dates: string) => `Queste date non possono più essere modificate online: ${dates}.`,
    manageSeriesButton: 'Gestire gli appuntamenti',
    schedule: 'Agenda',
    source: 'Prenotato tramite',
    sources: {
      api: 'l’API di prenotazione',
      admin: 'l’amministrazione (planner bookings add)',
      page: 'la pagina di prenotazione',
      desk: 'la reception',
    },
    yes: 'sì',
    no: 'no',
    dateLocale: 'it-IT',
    cancelledSubject: (f: BookingFacts, when: string) =>
      `Annullato: il suo appuntamento presso ${f.practiceName}, ${when}`,
    cancelled: 'Il suo appuntamento è stato annullato.',
    cancelReason: 'Motivo dell’annullamento',
    cancelCalendar:
      'Apra il file di calendario allegato (appointment.ics) per rimuovere l’appuntamento dal suo calendario.',
    seriesCancelCalendar: (count: number) =>
      `Apra ciascuno dei file di calendario allegati (da appointment-1.ics a appointment-${count}.ics, uno per data, nell’ordine indicato sopra) per rimuovere questi appuntamenti dal suo calendario.`,
    movedSubject: (f: BookingFacts, when: string) =>
      `Modificato: il suo appuntamento presso ${f.practiceName} è ora fissato per ${when}`,
    moved: 'Il suo appuntamento è stato spostato a un nuovo orario.',
    previously: 'Orario precedente',
    movedCalendar:
      'Apra il file di calendario allegato (appointment.ics) per aggiornare l’appuntamento nel suo calendario.',
    with: 'Con',
    phone: 'Telefono',
    note: 'Indicazioni',
    manageButton: 'Gestire l’appuntamento',
    changeUntil: (until: string) => `Può annullare o spostare questo appuntamento online fino a ${until}.`,
    cancelUntil: (until: string) => `Può annullare questo appuntamento online fino a ${until}.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Le modifiche online erano possibili fino a ${until}. Per annullare o modificare l’appuntamento ora, ${phone ? `la preghiamo di chiamare il numero ${phone}` : `la preghiamo di contattare direttamente ${practice}`}.`,
    callToChange: (phone: string) =>
      `Per annullare o modificare l’appuntamento, la preghiamo di chiamare il numero ${phone}.`,
    contactToChange: (practice: string) =>
      `Per annullare o modificare l’appuntamento, la preghiamo di contattare direttamente ${practice}.`,
    manageKept:
      '[Qui l’e-mail indica come annullare o modificare l’appuntamento, secondo le regole in vigore al momento dell’invio: un link personale alla pagina dell’appuntamento con la sua scadenza (planner non conserva alcuna copia del link) oppure il numero di telefono dello studio.]',
    replyReaches: (email: string) => `Rispondendo a questa e-mail si scrive al cliente (${email}).`,
    now: 'Nuovo orario',
    noReason: '(nessun motivo indicato)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Annullato dal cliente: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Spostato dal cliente: ${f.reasonName}, ora ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'Il cliente ha annullato questo appuntamento online, dalla pagina del proprio appuntamento.',
    customerMoved: 'Il cliente ha spostato questo appuntamento online, dalla pagina del proprio appuntamento.',
    practitionerChanged: (before: string, after: string) =>
      `Questo appuntamento è ora con ${after} invece che con ${before}.`,
    feedCancelled: 'Annullato:',
    feedReference: 'Codice di prenotazione',
    bookAgain: 'Può prenotare un nuovo appuntamento online.',
    bookAgainButton: 'Prenotare un nuovo appuntamento',
    testSubject: (practice: string) => `planner: messaggio di prova da ${practice}`,
    testText: (practice: string, via: string) =>
      `Questo messaggio di prova mostra che ${practice} può inviare e-mail di prenotazione tramite ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) =>
      `Promemoria: il suo appuntamento presso ${f.practiceName}, ${when}`,
    reminder: 'Le ricordiamo il suo appuntamento.',
  },
  es: {
    confirmationSubject: (f: BookingFacts, when: string) => `Su cita en ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Hola, ${name}:` : 'Hola:'),
    booked: 'Su cita está confirmada.',
    what: 'Motivo',
    when: 'Fecha y hora',
    where: 'Lugar',
    duration: 'Duración',
    minutes: (n: number) => `${n} minutos`,
    reference: 'Referencia',
    calendar: 'Abra el archivo de calendario adjunto (appointment.ics) para añadir la cita a su calendario.',
    noticeSubject: (f: BookingFacts, when: string) =>
      `Nueva reserva: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'Se ha reservado una nueva cita.',
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `Sus ${count} citas en ${f.practiceName}, desde el ${first}`,
    seriesBooked: (count: number) => `Sus ${count} citas están reservadas.`,
    dates: 'Fechas',
    seriesCalendar: (count: number) =>
      `Abra cada archivo de calendario adjunto (de appointment-1.ics a appointment-${count}.ics, uno por fecha, en el orden de arriba) para añadir estas citas a su calendario.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `Nueva serie: ${count} × ${f.reasonName}, desde el ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `Se ha reservado una serie de ${count} citas.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) => `Canceladas: ${count} citas en ${f.practiceName}`,
    seriesCancelled: (count: number) => `Estas ${count} citas han sido canceladas.`,
    stillBooked: 'Siguen reservadas',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'La otra fecha de su serie sigue reservada.'
        : `Las otras ${count} fechas de su serie siguen reservadas.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'Puede cancelar o cambiar cada una de estas fechas en línea hasta que empiece.'
        : `Puede cancelar o cambiar cada una de estas fechas en línea hasta ${hours} ${hours === 1 ? 'hora' : 'horas'} antes de que empiece.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'Puede cancelar cada una de estas fechas en línea hasta que empiece.'
        : `Puede cancelar cada una de estas fechas en línea hasta ${hours} ${hours === 1 ? 'hora' : 'horas'} antes de que empiece.`,
    seriesClosed: (dates: string) => `Estas fechas ya no se pueden cambiar en línea: ${dates}.`,
    manageSeriesButton: 'Gestionar sus citas',
    schedule: 'Agenda',
    source: 'Reservada a través de',
    sources: {
      api: 'la API de reservas',
      admin: 'la administración (planner bookings add)',
      page: 'la página de reservas',
      desk: 'la recepción',
    },
    yes: 'sí',
    no: 'no',
    dateLocale: 'es-ES',
    cancelledSubject: (f: BookingFacts, when: string) => `Cancelada: su cita en ${f.practiceName}, ${when}`,
    cancelled: 'Su cita ha sido cancelada.',
    cancelReason: 'Motivo de la cancelación',
    cancelCalendar: 'Abra el archivo de calendario adjunto (appointment.ics) para eliminar la cita de su calendario.',
    seriesCancelCalendar: (count: number) =>
      `Abra cada archivo de calendario adjunto (de appointment-1.ics a appointment-${count}.ics, uno por fecha, en el orden de arriba) para eliminar estas citas de su calendario.`,
    movedSubject: (f: BookingFacts, when: string) => `Modificada: su cita en ${f.practiceName} es ahora el ${when}`,
    moved: 'Su cita se ha cambiado a una nueva hora.',
    previously: 'Hora anterior',
    movedCalendar: 'Abra el archivo de calendario adjunto (appointment.ics) para actualizar la cita en su calendario.',
    with: 'Con',
    phone: 'Teléfono',
    note: 'Tenga en cuenta',
    manageButton: 'Gestionar su cita',
    changeUntil: (until: string) => `Puede cancelar o cambiar esta cita en línea hasta el ${until}.`,
    cancelUntil: (until: string) => `Puede cancelar esta cita en línea hasta el ${until}.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Los cambios en línea eran posibles hasta el ${until}. Para cancelar o cambiar la cita ahora, ${phone ? `llame al ${phone}` : `póngase en contacto directamente con ${practice}`}.`,
    callToChange: (phone: string) => `Para cancelar o cambiar la cita, llame al ${phone}.`,
    contactToChange: (practice: string) =>
      `Para cancelar o cambiar la cita, póngase en contacto directamente con ${practice}.`,
    manageKept:
      '[Aquí el correo indica cómo cancelar o cambiar la cita, según las reglas vigentes en el momento del envío: un enlace personal a la página de la cita con su plazo (planner no guarda ninguna copia del enlace) o el número de teléfono de la consulta.]',
    replyReaches: (email: string) => `Si responde a este correo, escribirá al cliente (${email}).`,
    now: 'Hora nueva',
    noReason: '(no se indicó ninguno)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Cancelada por el cliente: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Cambiada por el cliente: ${f.reasonName}, ahora ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'El cliente ha cancelado esta cita en línea, desde la página de su cita.',
    customerMoved: 'El cliente ha cambiado esta cita en línea, desde la página de su cita.',
    practitionerChanged: (before: string, after: string) =>
      `Esta cita es ahora con ${after} en lugar de con ${before}.`,
    feedCancelled: 'Cancelada:',
    feedReference: 'Referencia',
    bookAgain: 'Puede reservar una nueva cita en línea.',
    bookAgainButton: 'Reservar una nueva cita',
    testSubject: (practice: string) => `planner: mensaje de prueba de ${practice}`,
    testText: (practice: string, via: string) =>
      `Este mensaje de prueba muestra que ${practice} puede enviar correos de reserva a través de ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) => `Recordatorio: su cita en ${f.practiceName}, ${when}`,
    reminder: 'Le recordamos su cita.',
  },
  nl: {
    confirmationSubject: (f: BookingFacts, when: string) => `Uw afspraak bij ${f.practiceName}: ${when}`,
    greeting: (name: string) => (name ? `Beste ${name},` : 'Beste klant,'),
    booked: 'Uw afspraak is bevestigd.',
    what: 'Soort afspraak',
    when: 'Datum en tijd',
    where: 'Locatie',
    duration: 'Duur',
    minutes: (n: number) => `${n} minuten`,
    reference: 'Boekingsnummer',
    calendar: 'Open het bijgevoegde agendabestand (appointment.ics) om de afspraak aan uw agenda toe te voegen.',
    noticeSubject: (f: BookingFacts, when: string) =>
      `Nieuwe boeking: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    noticeIntro: 'Er is een nieuwe afspraak geboekt.',
    seriesSubject: (f: BookingFacts, count: number, first: string) =>
      `Uw ${count} afspraken bij ${f.practiceName}, vanaf ${first}`,
    seriesBooked: (count: number) => `Uw ${count} afspraken zijn geboekt.`,
    dates: 'Data',
    seriesCalendar: (count: number) =>
      `Open elk bijgevoegd agendabestand (appointment-1.ics tot en met appointment-${count}.ics, één per datum, in de volgorde hierboven) om deze afspraken aan uw agenda toe te voegen.`,
    seriesNoticeSubject: (f: BookingFacts, count: number, first: string) =>
      `Nieuwe reeks: ${count} × ${f.reasonName}, vanaf ${first} (${f.customerName || f.customerEmail || f.reference})`,
    seriesNoticeIntro: (count: number) => `Er is een reeks van ${count} afspraken geboekt.`,
    seriesCancelledSubject: (f: BookingFacts, count: number) => `Geannuleerd: ${count} afspraken bij ${f.practiceName}`,
    seriesCancelled: (count: number) => `Deze ${count} afspraken zijn geannuleerd.`,
    stillBooked: 'Nog geboekt',
    othersStayBooked: (count: number) =>
      count === 1
        ? 'De andere datum van uw reeks blijft geboekt.'
        : `De andere ${count} data van uw reeks blijven geboekt.`,
    changeEachUntil: (hours: number) =>
      hours === 0
        ? 'U kunt elk van deze data online annuleren of verplaatsen tot de afspraak begint.'
        : `U kunt elk van deze data online annuleren of verplaatsen tot ${hours} uur voor de afspraak.`,
    cancelEachUntil: (hours: number) =>
      hours === 0
        ? 'U kunt elk van deze data online annuleren tot de afspraak begint.'
        : `U kunt elk van deze data online annuleren tot ${hours} uur voor de afspraak.`,
    seriesClosed: (dates: string) => `Deze data kunnen niet meer online worden gewijzigd: ${dates}.`,
    manageSeriesButton: 'Afspraken beheren',
    schedule: 'Agenda',
    source: 'Geboekt via',
    sources: {
      api: 'de boekings-API',
      admin: 'de beheerder (planner bookings add)',
      page: 'de boekingspagina',
      desk: 'de balie',
    },
    yes: 'ja',
    no: 'nee',
    dateLocale: 'nl-NL',
    cancelledSubject: (f: BookingFacts, when: string) => `Geannuleerd: uw afspraak bij ${f.practiceName}, ${when}`,
    cancelled: 'Uw afspraak is geannuleerd.',
    cancelReason: 'Reden',
    cancelCalendar: 'Open het bijgevoegde agendabestand (appointment.ics) om de afspraak uit uw agenda te verwijderen.',
    seriesCancelCalendar: (count: number) =>
      `Open elk bijgevoegd agendabestand (appointment-1.ics tot en met appointment-${count}.ics, één per datum, in de volgorde hierboven) om deze afspraken uit uw agenda te verwijderen.`,
    movedSubject: (f: BookingFacts, when: string) => `Gewijzigd: uw afspraak bij ${f.practiceName} is nu op ${when}`,
    moved: 'Uw afspraak is verplaatst naar een nieuw tijdstip.',
    previously: 'Vorig tijdstip',
    movedCalendar: 'Open het bijgevoegde agendabestand (appointment.ics) om de afspraak in uw agenda bij te werken.',
    with: 'Bij',
    phone: 'Telefoon',
    note: 'Let op',
    manageButton: 'Afspraak beheren',
    changeUntil: (until: string) => `U kunt deze afspraak tot ${until} online annuleren of verplaatsen.`,
    cancelUntil: (until: string) => `U kunt deze afspraak tot ${until} online annuleren.`,
    tooLate: (until: string, phone: string, practice: string) =>
      `Online wijzigen was mogelijk tot ${until}. Wilt u de afspraak nu annuleren of wijzigen, ${phone ? `bel dan ${phone}` : `neem dan rechtstreeks contact op met ${practice}`}.`,
    callToChange: (phone: string) => `Wilt u de afspraak annuleren of wijzigen, bel dan ${phone}.`,
    contactToChange: (practice: string) =>
      `Wilt u de afspraak annuleren of wijzigen, neem dan rechtstreeks contact op met ${practice}.`,
    manageKept:
      '[Hier staat in de e-mail hoe de afspraak geannuleerd of gewijzigd kan worden, zoals dat geldt op het moment van verzenden: een persoonlijke link naar de afspraakpagina met de termijn (planner bewaart geen kopie van de link), of het telefoonnummer van de praktijk.]',
    replyReaches: (email: string) => `Een antwoord op deze e-mail gaat naar de klant (${email}).`,
    now: 'Nieuw tijdstip',
    noReason: '(geen reden opgegeven)',
    customerCancelledSubject: (f: BookingFacts, when: string) =>
      `Geannuleerd door de klant: ${f.reasonName}, ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerMovedSubject: (f: BookingFacts, when: string) =>
      `Verplaatst door de klant: ${f.reasonName}, nu ${when} (${f.customerName || f.customerEmail || f.reference})`,
    customerCancelled: 'De klant heeft deze afspraak op de afspraakpagina geannuleerd.',
    customerMoved: 'De klant heeft deze afspraak op de afspraakpagina verplaatst.',
    practitionerChanged: (before: string, after: string) =>
      `Deze afspraak is nu bij ${after} in plaats van bij ${before}.`,
    feedCancelled: 'Geannuleerd:',
    feedReference: 'Boekingsnummer',
    bookAgain: 'U kunt online een nieuwe afspraak maken.',
    bookAgainButton: 'Nieuwe afspraak maken',
    testSubject: (practice: string) => `planner: testbericht van ${practice}`,
    testText: (practice: string, via: string) =>
      `Dit testbericht laat zien dat ${practice} boekingsmails kan versturen via ${via}.`,
    reminderSubject: (f: BookingFacts, when: string) => `Herinnering: uw afspraak bij ${f.practiceName}, ${when}`,
    reminder: 'Wij herinneren u graag aan uw afspraak.',
  },
} as const;

/** Every locale gives every word of English's table: a missing one is a type error (domain/locales.ts). */
WORDS satisfies Record<Locale, Translation<(typeof WORDS)['en']>>;

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
