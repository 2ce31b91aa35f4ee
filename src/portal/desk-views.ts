/**
 * The desk's overviews: one practitioner's week, the absences with the bookings they strand, and the audit log
 * (admin). Built of the kit and desk-pages.ts; no script; pure; stored text through `shown`.
 */
import { escapeHtml } from '../domain/html.ts';
import type { Booking } from '../store/bookings.ts';
import type { Closure } from '../store/closures.ts';
import { type DayColumn, deskPage, navigation, type Signed, shown, stateOf } from './desk-pages.ts';
import { deskWords } from './desk-words.ts';
import { dayWords, hidden, notice, type Page } from './kit.ts';

/** One practitioner's week: a section per day with its appointments and free gaps, and the weeks before and after. */
export function weekPage(options: {
  signed: Signed;
  name: string;
  scheduleId: number;
  monday: string;
  previous: string;
  next: string;
  days: (Omit<DayColumn, 'name' | 'scheduleId'> & { day: string })[];
  clock: (unix: number) => string;
}): Page {
  const { signed, clock } = options;
  const words = deskWords(signed.practice.locale);
  const base = signed.base;
  const sections = options.days
    .map((day, index) => {
      const rows = day.items
        .map((item) =>
          item.kind === 'booking'
            ? `<li class="${stateOf(item.booking)}"><span class="what"><span class="time">${clock(item.booking.startAt)}</span> ` +
              `<a href="${base}/bookings/${item.booking.reference}">${shown(item.booking.customerName || item.booking.reference)}</a></span> ` +
              `<span class="state ${stateOf(item.booking)}">${escapeHtml(words.states[stateOf(item.booking)])}</span></li>`
            : `<li class="gap"><span class="time">${escapeHtml(words.free(clock(item.startAt), clock(item.endAt)))}</span></li>`,
        )
        .join('');
      return (
        `<section class="card" aria-labelledby="d${index}"><h2 id="d${index}"><a href="${base}/day/${day.day}">${escapeHtml(dayWords(day.day, words.dateLocale, 'medium'))}</a></h2>` +
        (day.closed ? `<p>${escapeHtml(words.closed)}</p>` : '') +
        (rows ? `<ol class="day">${rows}</ol>` : day.closed ? '' : `<p>${escapeHtml(words.nothing)}</p>`) +
        `</section>`
      );
    })
    .join('');
  const body =
    navigation(signed, words) +
    `<div class="daynav"><a class="button secondary" href="${base}/week/${options.scheduleId}/${options.previous}">${escapeHtml(words.previousWeek)}</a>` +
    `<a class="button secondary" href="${base}/week/${options.scheduleId}/${options.next}">${escapeHtml(words.nextWeek)}</a></div>` +
    `<div class="columns">${sections}</div>`;
  return deskPage(
    signed.practice,
    words.weekTitle(options.name, dayWords(options.monday, words.dateLocale, 'medium')),
    body,
  );
}

/** The absences from today on, per practitioner, the bookings they strand, and the form to add one. */
export function absencesPage(options: {
  signed: Signed;
  schedules: { id: number; name: string; closures: Closure[] }[];
  stranded: Pick<Booking, 'reference' | 'scheduleName' | 'customerName' | 'startAt'>[];
  when: (unix: number) => string;
  today: string;
  done?: boolean;
  error?: string;
  status?: number;
}): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const base = signed.base;
  const day = (text: string) => dayWords(text, words.dateLocale, 'long');
  const list = options.schedules
    .map(
      (schedule) =>
        `<h3>${shown(schedule.name)}</h3>` +
        (schedule.closures.length
          ? `<ul>${schedule.closures
              .map(
                (closure) =>
                  `<li>${escapeHtml(closure.fromDay === closure.toDay ? day(closure.fromDay) : `${day(closure.fromDay)} – ${day(closure.toDay)}`)}${closure.note ? ` · ${shown(closure.note)}` : ''}</li>`,
              )
              .join('')}</ul>`
          : `<p>${escapeHtml(words.noAbsences)}</p>`),
    )
    .join('');
  const stranded = options.stranded.length
    ? `<section class="card" aria-labelledby="h-stranded"><h2 id="h-stranded">${escapeHtml(words.stranded)}</h2><p>${escapeHtml(words.strandedHint)}</p><ul>` +
      options.stranded
        .map(
          (booking) =>
            `<li><a href="${base}/bookings/${booking.reference}">${escapeHtml(options.when(booking.startAt))} · ${shown(booking.customerName || booking.reference)}</a> · ${shown(booking.scheduleName)}</li>`,
        )
        .join('') +
      `</ul></section>`
    : '';
  const form =
    `<form class="card" method="post" action="${base}/absences">${hidden({ csrf: signed.csrf })}<h2>${escapeHtml(words.addAbsence)}</h2>` +
    `<div class="field"><label for="f-schedule">${escapeHtml(words.practitioner)}</label><select id="f-schedule" name="schedule">` +
    options.schedules.map((schedule) => `<option value="${schedule.id}">${shown(schedule.name)}</option>`).join('') +
    `</select></div>` +
    `<div class="field"><label for="f-from">${escapeHtml(words.from)}</label><input class="text" id="f-from" name="from" type="date" min="${options.today}" value="${options.today}" required></div>` +
    `<div class="field"><label for="f-to">${escapeHtml(words.to)}</label><input class="text" id="f-to" name="to" type="date" min="${options.today}" value="${options.today}" required></div>` +
    `<div class="field"><label for="f-note">${escapeHtml(words.absenceNote)}</label><input class="text" id="f-note" name="note" type="text" maxlength="500"></div>` +
    `<button class="button" type="submit">${escapeHtml(words.add)}</button></form>`;
  const body =
    navigation(signed, words) +
    (options.done ? notice(words.absenceAdded, 'done') : '') +
    (options.error ? notice(options.error) : '') +
    stranded +
    `<section class="card" aria-labelledby="h-absences"><h2 id="h-absences">${escapeHtml(words.absences)}</h2><p class="hint">${escapeHtml(words.absencesHint)}</p>${list}</section>` +
    form;
  return deskPage(signed.practice, words.absences, body, options.status);
}

/** One line of the audit log as the desk shows it. */
export interface AuditRow {
  at: string;
  actor: 'admin' | 'api' | 'customer' | 'server' | 'staff' | 'unknown';
  staff?: string;
  action: string;
  reference: string | null;
  detail: string;
}

/** The audit log (admin): who did what, in local time, newest first. */
export function auditPage(options: { signed: Signed; rows: AuditRow[]; zone: string }): Page {
  const { signed } = options;
  const words = deskWords(signed.practice.locale);
  const rows = options.rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.at)}</td><td>${row.staff ? shown(row.staff) : escapeHtml(words.auditActors[row.actor])}</td>` +
        `<td>${escapeHtml(row.action)}${row.reference ? ` <a href="${signed.base}/bookings/${escapeHtml(row.reference)}">${escapeHtml(row.reference)}</a>` : ''}${row.detail ? `: ${shown(row.detail)}` : ''}</td></tr>`,
    )
    .join('');
  const body =
    navigation(signed, words) +
    `<p class="hint">${escapeHtml(words.auditHint)} (${escapeHtml(options.zone)})</p>` +
    `<div class="card scroll" role="region" aria-label="${escapeHtml(words.audit)}" tabindex="0"><table class="audit"><thead><tr><th scope="col">${escapeHtml(words.auditAt)}</th><th scope="col">${escapeHtml(words.auditWho)}</th><th scope="col">${escapeHtml(words.auditWhat)}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return deskPage(signed.practice, words.audit, body);
}
