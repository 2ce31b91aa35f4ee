/**
 * The practice's mail about its own calendar: after an hour of failing syncs, and once more when the
 * calendar reads again. It names the calendar by its label, never by its address (a secret), and says what still
 * holds: the busy times read last keep blocking, events added since then are not seen.
 */
import { formatLocal } from '../domain/dates.ts';
import type { Locale, Translation } from '../domain/locales.ts';
import type { OutgoingMessage } from '../store/outbox.ts';
import type { Settings } from '../store/settings.ts';
import { htmlMail, type MailContent, textMail } from './layout.ts';

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
  /** The mail is about writing bookings into the calendar: how many wait to be written. */
  writing?: { waiting: number };
  /** A Google or Microsoft calendar: no user or password to fix (its sign-in is `calendar reconnect`'s). */
  provider?: boolean;
}

export const WORDS = {
  en: {
    reconnectSubject: (label: string) => `Calendar "${label}" needs reconnecting: planner may no longer use it`,
    reconnect: (label: string, schedule: string) =>
      `Google or Microsoft no longer lets planner use the calendar "${label}" (schedule ${schedule}): its access was revoked, expired or unshared.`,
    reconnectHolds:
      'Bookings still succeed and are kept; they are written into the calendar, each once, as soon as it is reconnected. The busy times read last keep blocking booking times until then.',
    reconnectFix: (command: string) => `To reconnect: ${command}`,
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
    editsSubject: (label: string, count: number) =>
      `Calendar "${label}": ${count === 1 ? '1 booking was' : `${count} bookings were`} changed in the calendar app, not in planner`,
    edits: (label: string, schedule: string) =>
      `Someone changed planner's events in the calendar "${label}" (schedule ${schedule}) in a calendar app. The bookings did not change. The customers still expect the times booked in planner, and those times stay taken.`,
    editMoved: (booked: string, shown: string) => `Booked ${booked}; the calendar shows ${shown}`,
    editRemoved: (booked: string) => `Booked ${booked}; removed from the calendar`,
    editCancelled: (booked: string) => `Booked ${booked}; cancelled in the calendar`,
    editsFix: (id: number) =>
      `A booking is changed in planner, not in the calendar app (planner bookings move <reference> <new time>, or planner bookings cancel <reference>). To write planner's times back into the calendar, run planner calendar repair ${id}.`,
  },
  de: {
    reconnectSubject: (label: string) =>
      `Kalender „${label}“ muss neu verbunden werden: planner darf ihn nicht mehr nutzen`,
    reconnect: (label: string, schedule: string) =>
      `Google oder Microsoft lässt planner den Kalender „${label}“ (Terminplan ${schedule}) nicht mehr nutzen: der Zugriff wurde widerrufen, ist abgelaufen oder die Freigabe wurde entfernt.`,
    reconnectHolds:
      'Buchungen gelingen weiterhin und bleiben erhalten; sie werden in den Kalender geschrieben, jede einmal, sobald er neu verbunden ist. Bis dahin sperren die zuletzt gelesenen belegten Zeiten weiter.',
    reconnectFix: (command: string) => `Neu verbinden: ${command}`,
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
    editsSubject: (label: string, count: number) =>
      `Kalender „${label}“: ${count === 1 ? '1 Buchung wurde' : `${count} Buchungen wurden`} in der Kalender-App geändert, nicht in planner`,
    edits: (label: string, schedule: string) =>
      `Jemand hat Termine von planner im Kalender „${label}“ (Terminplan ${schedule}) in einer Kalender-App geändert. Die Buchungen selbst sind unverändert. Die Kunden erwarten weiter die in planner gebuchten Zeiten, und diese bleiben belegt.`,
    editMoved: (booked: string, shown: string) => `Gebucht ${booked}; der Kalender zeigt ${shown}`,
    editRemoved: (booked: string) => `Gebucht ${booked}; aus dem Kalender entfernt`,
    editCancelled: (booked: string) => `Gebucht ${booked}; im Kalender abgesagt`,
    editsFix: (id: number) =>
      `Eine Buchung ändern Sie in planner, nicht in der Kalender-App (planner bookings move <Referenz> <neue Zeit> oder planner bookings cancel <Referenz>). Um die Zeiten von planner wieder in den Kalender zu schreiben, führen Sie planner calendar repair ${id} aus.`,
  },
  fr: {
    reconnectSubject: (label: string) => `Agenda « ${label} » à reconnecter : planner ne peut plus l’utiliser`,
    reconnect: (label: string, schedule: string) =>
      `Google ou Microsoft ne permet plus à planner d’utiliser l’agenda « ${label} » (planning ${schedule}) : son accès a été révoqué, a expiré ou n’est plus partagé.`,
    reconnectHolds:
      'Les réservations réussissent toujours et sont conservées ; elles seront écrites dans l’agenda, chacune une fois, dès qu’il sera reconnecté. D’ici là, les périodes occupées lues en dernier bloquent toujours les créneaux.',
    reconnectFix: (command: string) => `Pour le reconnecter : ${command}`,
    failingSubject: (label: string) =>
      `Agenda « ${label} » illisible : ses nouveaux événements ne bloquent aucun créneau`,
    failing: (label: string, schedule: string, since: string) =>
      `Depuis le ${since}, planner ne parvient pas à lire l’agenda « ${label} » (planning ${schedule}).`,
    failingHolds:
      'Les périodes occupées lues en dernier bloquent toujours les créneaux de réservation. Les événements ajoutés ou déplacés depuis dans cet agenda ne sont pas vus : leurs horaires peuvent être proposés aux clients.',
    fix: (id: number) =>
      `Pour en voir la cause et réessayer : planner calendar list, puis planner calendar sync ${id}.`,
    error: 'Dernière erreur',
    recoveredSubject: (label: string) => `Agenda « ${label} » à nouveau lisible`,
    recovered: (label: string, schedule: string, since: string) =>
      `L’agenda « ${label} » (planning ${schedule}) est à nouveau lisible ; planner ne pouvait pas le lire depuis le ${since}. Ses périodes occupées sont à jour.`,
    writeSubject: (label: string) =>
      `Agenda « ${label} » inaccessible en écriture : les nouvelles réservations n’y figurent pas`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Depuis le ${since}, planner ne parvient pas à écrire les réservations dans l’agenda « ${label} » (planning ${schedule}) ; ${waiting === 1 ? '1 modification est en attente' : `${waiting} modifications sont en attente`}.`,
    writeHolds:
      'Chaque réservation est conservée et sera écrite dès que l’agenda l’acceptera. D’ici là, l’agenda ne les montre pas : consultez planner bookings list avant d’ajouter des rendez-vous privés.',
    writeFix: (id: number) =>
      `Pour en voir la cause : planner calendar list ; un nouveau mot de passe : planner calendar set ${id} --user <nom> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `Agenda « ${label} » : les réservations y sont de nouveau écrites`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `L’agenda « ${label} » (planning ${schedule}) reçoit de nouveau les réservations ; planner ne pouvait pas y écrire depuis le ${since}. Ce qui attendait a été écrit.`,
    editsSubject: (label: string, count: number) =>
      `Agenda « ${label} » : ${count === 1 ? '1 réservation a été modifiée' : `${count} réservations ont été modifiées`} dans l’application d’agenda, pas dans planner`,
    edits: (label: string, schedule: string) =>
      `Quelqu’un a modifié des événements de planner dans l’agenda « ${label} » (planning ${schedule}) depuis une application d’agenda. Les réservations n’ont pas changé. Les clients attendent toujours les horaires réservés dans planner, et ces horaires restent pris.`,
    editMoved: (booked: string, shown: string) => `Réservé ${booked} ; l’agenda affiche ${shown}`,
    editRemoved: (booked: string) => `Réservé ${booked} ; retiré de l’agenda`,
    editCancelled: (booked: string) => `Réservé ${booked} ; annulé dans l’agenda`,
    editsFix: (id: number) =>
      `Une réservation se modifie dans planner, pas dans l’application d’agenda (planner bookings move <référence> <nouvel horaire>, ou planner bookings cancel <référence>). Pour réécrire les horaires de planner dans l’agenda, lancez planner calendar repair ${id}.`,
  },
  it: {
    reconnectSubject: (label: string) => `Calendario «${label}» da ricollegare: planner non può più usarlo`,
    reconnect: (label: string, schedule: string) =>
      `Google o Microsoft non permette più a planner di usare il calendario «${label}» (agenda ${schedule}): l’accesso è stato revocato, è scaduto o non è più condiviso.`,
    reconnectHolds:
      'Le prenotazioni riescono comunque e vengono conservate; saranno scritte nel calendario, ciascuna una volta, appena sarà ricollegato. Fino ad allora gli orari occupati letti per ultimi continuano a bloccare.',
    reconnectFix: (command: string) => `Per ricollegarlo: ${command}`,
    failingSubject: (label: string) => `Calendario «${label}» non leggibile: i nuovi eventi non bloccano gli orari`,
    failing: (label: string, schedule: string, since: string) =>
      `Dal ${since} planner non riesce a leggere il calendario «${label}» (agenda ${schedule}).`,
    failingHolds:
      'Gli orari occupati letti per ultimi continuano a bloccare gli orari prenotabili. Gli eventi aggiunti o spostati da allora in quel calendario non vengono visti: i loro orari possono essere offerti ai clienti.',
    fix: (id: number) => `Per vedere la causa e riprovare: planner calendar list, poi planner calendar sync ${id}.`,
    error: 'Ultimo errore',
    recoveredSubject: (label: string) => `Calendario «${label}» di nuovo leggibile`,
    recovered: (label: string, schedule: string, since: string) =>
      `Il calendario «${label}» (agenda ${schedule}) è di nuovo leggibile; planner non riusciva a leggerlo dal ${since}. I suoi orari occupati sono aggiornati.`,
    writeSubject: (label: string) => `Calendario «${label}» non scrivibile: le nuove prenotazioni non vi compaiono`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Dal ${since} planner non riesce a scrivere le prenotazioni nel calendario «${label}» (agenda ${schedule}); ${waiting === 1 ? '1 modifica è in attesa' : `${waiting} modifiche sono in attesa`}.`,
    writeHolds:
      'Ogni prenotazione viene conservata e sarà scritta appena il calendario la accetterà. Fino ad allora il calendario non le mostra: consulti planner bookings list prima di aggiungere appuntamenti privati.',
    writeFix: (id: number) =>
      `Per vedere la causa: planner calendar list; una nuova password: planner calendar set ${id} --user <nome> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `Calendario «${label}»: le prenotazioni vengono di nuovo scritte`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `Il calendario «${label}» (agenda ${schedule}) riceve di nuovo le prenotazioni; planner non riusciva a scrivervi dal ${since}. Ciò che era in attesa è stato scritto.`,
    editsSubject: (label: string, count: number) =>
      `Calendario «${label}»: ${count === 1 ? '1 prenotazione è stata modificata' : `${count} prenotazioni sono state modificate`} nell’app del calendario, non in planner`,
    edits: (label: string, schedule: string) =>
      `Qualcuno ha modificato eventi di planner nel calendario «${label}» (agenda ${schedule}) da un’app di calendario. Le prenotazioni non sono cambiate. I clienti si aspettano ancora gli orari prenotati in planner, che restano occupati.`,
    editMoved: (booked: string, shown: string) => `Prenotato ${booked}; il calendario mostra ${shown}`,
    editRemoved: (booked: string) => `Prenotato ${booked}; rimosso dal calendario`,
    editCancelled: (booked: string) => `Prenotato ${booked}; annullato nel calendario`,
    editsFix: (id: number) =>
      `Una prenotazione si modifica in planner, non nell’app del calendario (planner bookings move <riferimento> <nuovo orario>, oppure planner bookings cancel <riferimento>). Per riscrivere nel calendario gli orari di planner, esegua planner calendar repair ${id}.`,
  },
  es: {
    reconnectSubject: (label: string) =>
      `Hay que volver a conectar el calendario «${label}»: planner ya no puede usarlo`,
    reconnect: (label: string, schedule: string) =>
      `Google o Microsoft ya no permite a planner usar el calendario «${label}» (agenda ${schedule}): su acceso se revocó, caducó o dejó de compartirse.`,
    reconnectHolds:
      'Las reservas siguen funcionando y se conservan; se escribirán en el calendario, cada una una vez, en cuanto se vuelva a conectar. Hasta entonces, las horas ocupadas leídas por última vez siguen bloqueando.',
    reconnectFix: (command: string) => `Para volver a conectarlo: ${command}`,
    failingSubject: (label: string) =>
      `No se puede leer el calendario «${label}»: sus nuevos eventos no bloquean horas`,
    failing: (label: string, schedule: string, since: string) =>
      `Desde el ${since}, planner no puede leer el calendario «${label}» (agenda ${schedule}).`,
    failingHolds:
      'Las horas ocupadas leídas por última vez siguen bloqueando horas de reserva. Los eventos añadidos o movidos desde entonces en ese calendario no se ven, por lo que sus horas pueden ofrecerse a los clientes.',
    fix: (id: number) =>
      `Para ver la causa y volver a intentarlo: planner calendar list y luego planner calendar sync ${id}.`,
    error: 'Último error',
    recoveredSubject: (label: string) => `El calendario «${label}» vuelve a poder leerse`,
    recovered: (label: string, schedule: string, since: string) =>
      `El calendario «${label}» (agenda ${schedule}) vuelve a poder leerse; planner no podía leerlo desde el ${since}. Sus horas ocupadas están al día.`,
    writeSubject: (label: string) =>
      `No se puede escribir en el calendario «${label}»: faltan en él las nuevas reservas`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Desde el ${since}, planner no puede escribir reservas en el calendario «${label}» (agenda ${schedule}); ${waiting === 1 ? 'hay 1 cambio pendiente' : `hay ${waiting} cambios pendientes`}.`,
    writeHolds:
      'Cada reserva se conserva y se escribirá en cuanto el calendario la acepte. Hasta entonces el calendario no las muestra: consulte planner bookings list antes de añadir citas privadas.',
    writeFix: (id: number) =>
      `Para ver la causa: planner calendar list; una contraseña nueva: planner calendar set ${id} --user <nombre> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `El calendario «${label}» vuelve a recibir reservas`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `El calendario «${label}» (agenda ${schedule}) vuelve a recibir reservas; planner no podía escribir en él desde el ${since}. Lo pendiente ya se ha escrito.`,
    editsSubject: (label: string, count: number) =>
      `Calendario «${label}»: ${count === 1 ? '1 reserva se cambió' : `${count} reservas se cambiaron`} en la aplicación de calendario, no en planner`,
    edits: (label: string, schedule: string) =>
      `Alguien cambió eventos de planner en el calendario «${label}» (agenda ${schedule}) desde una aplicación de calendario. Las reservas no han cambiado. Los clientes siguen esperando las horas reservadas en planner, y esas horas siguen ocupadas.`,
    editMoved: (booked: string, shown: string) => `Reservada ${booked}; el calendario muestra ${shown}`,
    editRemoved: (booked: string) => `Reservada ${booked}; eliminada del calendario`,
    editCancelled: (booked: string) => `Reservada ${booked}; cancelada en el calendario`,
    editsFix: (id: number) =>
      `Una reserva se cambia en planner, no en la aplicación de calendario (planner bookings move <referencia> <nueva hora>, o planner bookings cancel <referencia>). Para volver a escribir las horas de planner en el calendario, ejecute planner calendar repair ${id}.`,
  },
  nl: {
    reconnectSubject: (label: string) => `Agenda ‘${label}’ opnieuw verbinden: planner mag hem niet meer gebruiken`,
    reconnect: (label: string, schedule: string) =>
      `Google of Microsoft laat planner de agenda ‘${label}’ (planning ${schedule}) niet meer gebruiken: de toegang is ingetrokken, verlopen of niet meer gedeeld.`,
    reconnectHolds:
      'Boekingen lukken nog steeds en blijven bewaard; ze worden in de agenda geschreven, elk één keer, zodra hij opnieuw verbonden is. Tot dan blokkeren de laatst gelezen bezette tijden.',
    reconnectFix: (command: string) => `Opnieuw verbinden: ${command}`,
    failingSubject: (label: string) => `Agenda ‘${label}’ niet leesbaar: nieuwe afspraken daarin blokkeren geen tijden`,
    failing: (label: string, schedule: string, since: string) =>
      `Sinds ${since} kan planner de agenda ‘${label}’ (planning ${schedule}) niet lezen.`,
    failingHolds:
      'De laatst gelezen bezette tijden blokkeren nog steeds boekingstijden. Afspraken die sindsdien in die agenda zijn toegevoegd of verplaatst, ziet planner niet; hun tijden kunnen aan klanten worden aangeboden.',
    fix: (id: number) =>
      `Oorzaak bekijken en opnieuw proberen: planner calendar list, daarna planner calendar sync ${id}.`,
    error: 'Laatste fout',
    recoveredSubject: (label: string) => `Agenda ‘${label}’ weer leesbaar`,
    recovered: (label: string, schedule: string, since: string) =>
      `De agenda ‘${label}’ (planning ${schedule}) is weer leesbaar; planner kon hem sinds ${since} niet lezen. De bezette tijden zijn bijgewerkt.`,
    writeSubject: (label: string) => `Agenda ‘${label}’ niet beschrijfbaar: nieuwe boekingen ontbreken erin`,
    writeFailing: (label: string, schedule: string, since: string, waiting: number) =>
      `Sinds ${since} kan planner geen boekingen in de agenda ‘${label}’ (planning ${schedule}) schrijven; ${waiting === 1 ? '1 wijziging wacht' : `${waiting} wijzigingen wachten`}.`,
    writeHolds:
      'Elke boeking blijft bewaard en wordt geschreven zodra de agenda hem aanneemt. Tot dan toont de agenda ze niet: kijk daarom in planner bookings list voordat u privéafspraken toevoegt.',
    writeFix: (id: number) =>
      `Oorzaak bekijken: planner calendar list; een nieuw wachtwoord: planner calendar set ${id} --user <naam> --password-stdin.`,
    writeRecoveredSubject: (label: string) => `Agenda ‘${label}’ ontvangt weer boekingen`,
    writeRecovered: (label: string, schedule: string, since: string) =>
      `De agenda ‘${label}’ (planning ${schedule}) ontvangt weer boekingen; planner kon er sinds ${since} niet in schrijven. Wat wachtte, is geschreven.`,
    editsSubject: (label: string, count: number) =>
      `Agenda ‘${label}’: ${count === 1 ? '1 boeking is' : `${count} boekingen zijn`} in de agenda-app gewijzigd, niet in planner`,
    edits: (label: string, schedule: string) =>
      `Iemand heeft afspraken van planner in de agenda ‘${label}’ (planning ${schedule}) in een agenda-app gewijzigd. De boekingen zelf zijn niet veranderd. De klanten verwachten nog steeds de in planner geboekte tijden, en die tijden blijven bezet.`,
    editMoved: (booked: string, shown: string) => `Geboekt ${booked}; de agenda toont ${shown}`,
    editRemoved: (booked: string) => `Geboekt ${booked}; uit de agenda verwijderd`,
    editCancelled: (booked: string) => `Geboekt ${booked}; in de agenda geannuleerd`,
    editsFix: (id: number) =>
      `Een boeking wijzigt u in planner, niet in de agenda-app (planner bookings move <referentie> <nieuwe tijd>, of planner bookings cancel <referentie>). Om de tijden van planner terug in de agenda te schrijven, voert u planner calendar repair ${id} uit.`,
  },
} as const;

WORDS satisfies Record<Locale, Translation<(typeof WORDS)['en']>>; // every word in every locale (domain/locales.ts)

/** What the practice's mail about edits of planner's events in a calendar app is written from. */
export interface CalendarEditsFacts {
  settings: Pick<Settings, 'practiceName' | 'timeZone' | 'locale' | 'notifyEmail'>;
  calendarId: number;
  label: string;
  scheduleName: string;
  /** Each booking whose event was moved or removed in the app: its reference, and its times (local). */
  edits: readonly {
    reference: string;
    kind: 'moved' | 'removed' | 'cancelled';
    booked: string;
    shown: string | null;
  }[];
}

/**
 * Returns the practice's mail that planner's events in a calendar were moved or removed in a calendar app (once per
 * edit: app/calendars/calendar-edits.ts): which bookings, what planner holds and what the calendar shows, and what to do.
 */
export function calendarEditsAlert(facts: CalendarEditsFacts): OutgoingMessage {
  const { settings } = facts;
  const words = WORDS[settings.locale];
  const subject = words.editsSubject(facts.label, facts.edits.length);
  const zone = ` (${settings.timeZone})`;
  const content: MailContent = {
    lang: settings.locale,
    title: subject,
    heading: settings.practiceName ?? '',
    intro: [words.edits(facts.label, facts.scheduleName)],
    rows: facts.edits.map((edit) => [
      edit.reference,
      edit.shown !== null
        ? words.editMoved(edit.booked + zone, edit.shown + zone)
        : edit.kind === 'cancelled'
          ? words.editCancelled(edit.booked + zone)
          : words.editRemoved(edit.booked + zone),
    ]),
    manage: false,
    after: [words.editsFix(facts.calendarId)],
    footer: [],
  };
  return practiceNotice(settings, subject, content);
}

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
          facts.provider ? words.fix(facts.calendarId) : words.writeFix(facts.calendarId),
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
  return practiceNotice(settings, subject, content);
}

/** What the practice's mail about a calendar whose account needs reconnecting is written from. */
export interface CalendarReconnectFacts {
  settings: Pick<Settings, 'practiceName' | 'timeZone' | 'locale' | 'notifyEmail'>;
  label: string;
  scheduleName: string;
  /** Why (the line the provider's answer gave, without secrets). */
  error: string;
  /** The command that reconnects it. */
  command: string;
}

/**
 * Returns the practice's mail, sent once, that a Google or Microsoft calendar's access is gone (revoked, expired,
 * unshared): it does not heal by waiting, so it is sent at once, not after an hour of failing.
 */
export function calendarReconnectAlert(facts: CalendarReconnectFacts): OutgoingMessage {
  const { settings } = facts;
  const words = WORDS[settings.locale];
  const subject = words.reconnectSubject(facts.label);
  const content: MailContent = {
    lang: settings.locale,
    title: subject,
    heading: settings.practiceName ?? '',
    intro: [words.reconnect(facts.label, facts.scheduleName), words.reconnectHolds, words.reconnectFix(facts.command)],
    rows: [[words.error, facts.error]],
    manage: false,
    after: [],
    footer: [],
  };
  return practiceNotice(settings, subject, content);
}

/** The practice's notice of `content`, to its notify address, without a calendar file. */
function practiceNotice(
  settings: Pick<Settings, 'notifyEmail'>,
  subject: string,
  content: MailContent,
): OutgoingMessage {
  return {
    kind: 'notice',
    recipient: settings.notifyEmail!,
    subject,
    text: textMail(content),
    html: htmlMail(content),
    ics: '',
  };
}
