/**
 * The desk's routes that find customers, show free times, book a caller and move or cancel a booking (desk.ts has
 * login, enrolment, the day and one booking; desk-visit.ts the plumbing). Each reads its input, calls one use case of
 * app/desk/ (which calls the one of the CLI and the API), and answers one page; a change answers 303 to the booking's
 * page (Post/Redirect/Get). A time taken meanwhile keeps what was typed and shows the next free times.
 */
import { getQuery, getRouterParam, type H3Event } from 'h3';
import { anySlotsOfDay, freeTimesAny, NoPractitionerFree } from '../app/bookings/any-practitioner.ts';
import { freeTimes, SlotNotFree } from '../app/bookings/availability.ts';
import { SeriesNotFree } from '../app/bookings/series.ts';
import { dayPlus, deskBooking, visibleSchedules } from '../app/desk/agenda.ts';
import {
  deskBook,
  deskCancel,
  deskFields,
  deskMove,
  mayChange,
  offeredReasons,
  PHONE_FIELD,
  phoneProblem,
  resendConfirmation,
  timeCheck,
} from '../app/desk/book.ts';
import { deskCustomer, deskCustomers } from '../app/desk/customers.ts';
import { submissionOf } from '../app/pages/page-booking.ts';
import { parsePlainInt } from '../domain/checks.ts';
import { formatLocal, isDay, isSlotText, localDay } from '../domain/dates.ts';
import { isLocale, servedIn } from '../domain/languages.ts';
import type { Locale } from '../domain/locales.ts';
import { SERIES_COUNT } from '../domain/series.ts';
import { AppError } from '../errors.ts';
import { type Entry, typedFields, typedIn, typedRows } from '../portal/book-form.ts';
import { BOOK_WORDS, fieldError } from '../portal/book-words.ts';
import {
  type BookCarry,
  bookDetailsPage,
  bookReviewPage,
  cancelPage,
  customerPage,
  customersPage,
  moveConfirmPage,
  type TimeNote,
  type TimesTarget,
  timesPage,
} from '../portal/desk-book-pages.ts';
import { deskWords } from '../portal/desk-words.ts';
import { dayWords } from '../portal/kit.ts';
import type { Booking } from '../store/bookings.ts';
import type { FormField } from '../store/fields.ts';
import {
  answer,
  BASE,
  clockOf,
  type DeskDoor,
  notFound,
  readDeskForm,
  routeBooking,
  seeOther,
  type Visit,
} from './desk-visit.ts';

/** Days of free times a page shows. */
const TIMES_DAYS = 7;

/** The local `YYYY-MM-DD HH:MM` of an instant in the practice's zone. */
const localOf = (visit: Visit, unix: number) => formatLocal(new Date(unix * 1000), visit.settings.timeZone);

/** A query value as text ('' when absent or repeated). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// --- Customers ---------------------------------------------------------------------------------------------------

/** GET /desk/customers?q=: the search and its matches. */
export function customers(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const q = text(getQuery(event).q).trim();
  const matches = q.length >= 2 && q.length <= 200 ? deskCustomers(door.ctx, visit.person, q) : undefined;
  return answer(customersPage({ signed: visit.signed, q, matches, mayBook: mayChange(visit.person) }));
}

/** GET /desk/customers/:id: one customer (404 when the person sees none of their bookings, as when none exist). */
export function customer(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const id = parsePlainInt(getRouterParam(event, 'id') ?? '');
  const view = id === undefined ? undefined : deskCustomer(door.ctx, visit.person, id);
  if (!view) return answer(notFound(visit.settings));
  const clock = clockOf(visit.settings.timeZone);
  const when = (booking: Booking) => `${localOf(visit, booking.startAt)}–${clock(booking.endAt)}`;
  return answer(customerPage({ signed: visit.signed, ...view, mayBook: mayChange(visit.person), when }));
}

// --- Free times --------------------------------------------------------------------------------------------------

/** The reasons the person's schedules offer, and for `reasonId` the schedules offering it. */
function choices(door: DeskDoor, visit: Visit, reasonId: number | undefined) {
  const schedules = visibleSchedules(door.ctx, visit.person);
  const seen = new Set(schedules.map((schedule) => schedule.id));
  const reasons = offeredReasons(door.ctx).filter((reason) => reason.scheduleIds.some((id) => seen.has(id)));
  const reason = reasons.find((one) => one.id === reasonId) ?? reasons[0];
  const offering = reason ? schedules.filter((schedule) => reason.scheduleIds.includes(schedule.id)) : [];
  return { reasons, reason, offering };
}

/**
 * GET /desk/times?reason=&schedule=&from=&for=|move=: the engine's free times for a reason with a practitioner or
 * any, from a day on; each leads to the booking form (`for`: a customer's latest booking fills it) or to a move.
 */
export function times(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const query = getQuery(event);
  const moving = text(query.move) ? deskBooking(door.ctx, visit.person, text(query.move)) : undefined;
  if (text(query.move) && (!moving || !mayChange(visit.person))) return answer(notFound(visit.settings));
  const target: TimesTarget = moving
    ? { kind: 'move', reference: moving.reference }
    : { kind: 'book', ...(text(query.for) ? { for: text(query.for) } : {}) };
  const { reasons, reason, offering } = choices(door, visit, parsePlainInt(text(query.reason)) ?? moving?.reasonId);
  const today = localDay(new Date(door.nowMs()), visit.settings.timeZone);
  const from = isDay(text(query.from)) && text(query.from) >= today ? text(query.from) : today;
  const asked = text(query.schedule) === 'any' ? 'any' : parsePlainInt(text(query.schedule));
  const schedule: number | 'any' =
    asked === 'any' && !moving && offering.length > 1
      ? 'any'
      : (offering.find((one) => one.id === asked)?.id ??
        (moving && offering.some((one) => one.id === moving.scheduleId) ? moving.scheduleId : undefined) ??
        (offering.length > 1 && !moving ? 'any' : (offering[0]?.id ?? 'any')));
  const base = {
    signed: visit.signed,
    reasons: reasons.map(({ id, name }) => ({ id, name })),
    schedules: offering.map(({ id, name }) => ({ id, name })),
    from,
    target,
    mayOutside: mayChange(visit.person),
    mayBook: mayChange(visit.person),
  };
  if (!reason) return answer(timesPage({ ...base, reasonId: 0, schedule, days: [] }));
  const found =
    schedule === 'any'
      ? freeTimesAny(
          door.ctx,
          reason.id,
          { fromDay: from, days: TIMES_DAYS },
          offering.map((one) => one.id),
        )
      : freeTimes(door.ctx, schedule, reason.id, { fromDay: from, days: TIMES_DAYS });
  const next = dayPlus(from, TIMES_DAYS);
  return answer(
    timesPage({
      ...base,
      reasonId: reason.id,
      schedule,
      days: found.days,
      ...(next <= found.lastDay ? { later: next } : {}),
    }),
  );
}

// --- Booking a caller ----------------------------------------------------------------------------------------------

/** The booking's choice as the form carries it, checked: a schedule (or any), a reason, a local slot. */
interface Choice {
  carry: BookCarry;
  schedule: number | 'any';
  reasonId: number;
  slot: string;
}

/** The choice of a query or form (`slot`, or `day` and `time` from the other-time form), or undefined. */
function choiceOf(read: (name: string) => string): Choice | undefined {
  const schedule = read('schedule') === 'any' ? 'any' : parsePlainInt(read('schedule'));
  const reasonId = parsePlainInt(read('reason'));
  const slot = read('slot') || (read('day') && read('time') ? `${read('day')} ${read('time')}:00` : '');
  if (schedule === undefined || reasonId === undefined || !isSlotText(slot)) return undefined;
  const forRef = read('for');
  return {
    carry: { schedule: String(schedule), reason: String(reasonId), slot, ...(forRef ? { for: forRef } : {}) },
    schedule,
    reasonId,
    slot,
  };
}

/** What is booked, in words: the reason, with whom, the day and time. */
function whatOf(door: DeskDoor, visit: Visit, choice: Choice): string {
  const words = deskWords(visit.settings.locale);
  const reason = offeredReasons(door.ctx).find((one) => one.id === choice.reasonId)?.name ?? '';
  const who =
    choice.schedule === 'any'
      ? words.anyPractitioner
      : (visibleSchedules(door.ctx, visit.person).find((one) => one.id === choice.schedule)?.name ?? '');
  const day = dayWords(choice.slot.slice(0, 10), words.dateLocale, 'long');
  return `${reason} · ${who} · ${day}, ${choice.slot.slice(11, 16)}`;
}

/** The engine's word on the choice's time: undefined (free), a warning (outside the rules), or a refusal. */
function noteOf(door: DeskDoor, visit: Visit, choice: Choice, except = 0): TimeNote | undefined {
  const query = (slot: string) => `${BASE}/book?${new URLSearchParams({ ...choice.carry, slot })}`;
  if (choice.schedule === 'any') {
    const free = anySlotsOfDay(door.ctx, choice.reasonId, choice.slot.slice(0, 10)).some(
      (slot) => slot.local === choice.slot,
    );
    return free ? undefined : { refused: 'not-free' };
  }
  const checked = timeCheck(door.ctx, { scheduleId: choice.schedule, reasonId: choice.reasonId }, choice.slot, except);
  if (!checked) return undefined;
  if ('warn' in checked) return { warn: checked.warn.why as TimeNote['warn'] };
  const why = checked.refused.why;
  const known = ['past', 'no-such-time', 'busy', 'taken', 'buffer'].includes(why) ? why : 'not-free';
  return {
    refused: known as TimeNote['refused'],
    next: checked.next.map((slot) => ({ text: `${slot.slice(0, 10)} ${slot.slice(11, 16)}`, href: query(slot) })),
  };
}

/** The record of the customer picked (`for`: a booking of theirs the person sees), for a booking without an address. */
function customerPicked(door: DeskDoor, visit: Visit, choice: Choice): { customerId?: number } {
  const from = choice.carry.for ? deskBooking(door.ctx, visit.person, choice.carry.for) : undefined;
  return from ? { customerId: from.customerId } : {};
}

/** The fields of the desk's form, in the practice's locale. */
function fieldsOf(door: DeskDoor, visit: Visit): FormField[] {
  return deskFields(door.ctx, deskWords(visit.settings.locale).phone);
}

/**
 * The customer's language as the form offers it (none while the practice offers one): the one `chosen`, else the
 * customer's latest booking's (`for`), else the practice's own.
 */
function languageOf(door: DeskDoor, visit: Visit, choice: Choice, chosen: Locale | undefined) {
  const { languages } = visit.settings;
  if (languages.length < 2) return undefined;
  const from = choice.carry.for ? deskBooking(door.ctx, visit.person, choice.carry.for) : undefined;
  return { offered: languages, chosen: chosen ?? servedIn(languages, from?.locale) };
}

/** The language a posted form names, when the practice offers it (else none: the form did not ask). */
function postedLanguage(visit: Visit, form: URLSearchParams): Locale | undefined {
  const text = form.get('language');
  return isLocale(text) && visit.settings.languages.includes(text) ? text : undefined;
}

/** `{ [name]: value }`, or nothing for an undefined value (the pages' options are exact: no `undefined` in them). */
function optional<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [name]: value } as { [P in K]?: V });
}

/** The form filled from the customer's latest booking (`for`), or fresh (each field's default). */
function entryFor(door: DeskDoor, visit: Visit, fields: FormField[], forRef: string | undefined): Entry {
  const from = forRef ? deskBooking(door.ctx, visit.person, forRef) : undefined;
  if (!from) return { values: null, errors: {} };
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = from.submission[field.key];
    if (typeof value === 'string') values[field.key] = value;
    else if (value === true) values[field.key] = 'on';
  }
  return { values, errors: {} };
}

/** GET /desk/book?schedule=&reason=&slot= (or day= and time=)&for=: the caller's details for that time. */
export function bookStep(door: DeskDoor, event: H3Event, visit: Visit): Response {
  if (!mayChange(visit.person)) return answer(notFound(visit.settings));
  const query = getQuery(event);
  const choice = choiceOf((name) => text(query[name]));
  if (!choice) return answer(notFound(visit.settings));
  const fields = fieldsOf(door, visit);
  return answer(
    detailsPage(door, visit, choice, {
      entry: entryFor(door, visit, fields, choice.carry.for),
      fields,
      note: noteOf(door, visit, choice),
      confirmation: true,
      weeks: 1,
    }),
  );
}

/** The details page of `choice` with what was typed, its errors, and the engine's word on the time. */
function detailsPage(
  door: DeskDoor,
  visit: Visit,
  choice: Choice,
  state: {
    entry: Entry;
    fields: FormField[];
    note?: TimeNote;
    confirmation: boolean;
    weeks: number;
    status?: number;
    language?: Locale;
  },
) {
  const series =
    choice.schedule !== 'any' && !state.note?.warn ? { max: SERIES_COUNT.max, weeks: state.weeks } : undefined;
  return bookDetailsPage({
    signed: visit.signed,
    carry: choice.carry,
    what: whatOf(door, visit, choice),
    fields: state.fields,
    entry: state.entry,
    confirmation: state.confirmation,
    ...optional('language', languageOf(door, visit, choice, state.language)),
    ...(series ? { series } : {}),
    ...(state.note ? { note: state.note } : {}),
    ...(state.status ? { status: state.status } : {}),
  });
}

/**
 * What a posted booking form holds: the desk's fields, what was typed, the confirmation (only where there is an
 * address: the review says so), the weeks of a series, the submission and each field's problem (the practice's
 * checks, and a phone without an e-mail address).
 */
function postedBooking(door: DeskDoor, visit: Visit, form: URLSearchParams) {
  const fields = fieldsOf(door, visit);
  const typed = typedIn(fields, form);
  const confirmation = form.get('confirm') === 'on' && (typed.email ?? '').trim() !== '';
  const weeks = Math.min(Math.max(parsePlainInt(form.get('weeks') ?? '') ?? 1, 1), SERIES_COUNT.max);
  const { submission, errors } = submissionOf(fields, typed);
  if (phoneProblem(submission) && !errors[PHONE_FIELD])
    errors[PHONE_FIELD] = deskWords(visit.settings.locale).phoneRequired;
  return { fields, typed, confirmation, weeks, submission, errors, language: postedLanguage(visit, form) };
}

/**
 * POST /desk/book: `step=review` checks the form (the practice's checks, and a phone without an e-mail address) and
 * shows the review, with the warning of a time outside the rules; `step=edit` goes back to the form; `step=confirm`
 * books (outside the rules only when ticked). A time taken meanwhile: the form again, as typed, with the next free times.
 */
export async function bookPost(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  if (!mayChange(visit.person)) return answer(notFound(visit.settings));
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  const choice = choiceOf((name) => form.get(name) ?? '');
  if (!choice) return answer(notFound(visit.settings));
  const { fields, typed, confirmation, weeks, submission, errors, language } = postedBooking(door, visit, form);
  const bookWords = BOOK_WORDS[visit.settings.locale];
  const shownErrors = Object.fromEntries(
    Object.entries(errors).map(([key, error]) => [key, fieldError(bookWords, error)]),
  );
  const note = noteOf(door, visit, choice);
  const again = (status: number, extra: { note?: TimeNote; errors?: Record<string, string> } = {}) =>
    answer(
      detailsPage(door, visit, choice, {
        entry: { values: typed, errors: extra.errors ?? {} },
        fields,
        note: extra.note ?? note,
        confirmation,
        weeks,
        status,
        ...optional('language', language),
      }),
    );
  const step = form.get('step');
  if (step === 'edit') return again(200);
  if (Object.keys(errors).length > 0) return again(400, { errors: shownErrors });
  if (note?.refused) return again(409);
  const review = (status: number, error?: string) =>
    answer(
      bookReviewPage({
        signed: visit.signed,
        carry: choice.carry,
        what: whatOf(door, visit, choice),
        rows: typedRows(bookWords, fields, typed),
        typed: typedFields(fields, typed),
        confirmation,
        ...optional('language', language),
        weeks: note?.warn || choice.schedule === 'any' ? 1 : weeks,
        ...(note ? { note } : {}),
        ...(error ? { error } : {}),
        status,
      }),
    );
  if (step !== 'confirm') return review(200);
  const outside = note?.warn !== undefined;
  if (outside && form.get('outside') !== 'on') return review(400, deskWords(visit.settings.locale).outsideRequired);
  try {
    const made = deskBook(
      door.ctx,
      visit.person,
      {
        schedule: choice.schedule,
        reasonId: choice.reasonId,
        slot: choice.slot,
        submission,
        confirmation,
        outsideHours: outside,
        ...(weeks > 1 && !outside && choice.schedule !== 'any' ? { weeks } : {}),
        ...customerPicked(door, visit, choice),
        // The practice's own is kept as none: such a customer follows the practice's language, as every other.
        ...optional('locale', language === visit.settings.languages[0] ? undefined : language),
      },
      fields,
    );
    door.afterBooking();
    const reference = 'bookings' in made ? made.bookings[0]!.reference : made.reference;
    return seeOther(`${BASE}/bookings/${reference}?done=${'bookings' in made ? 'series' : 'booked'}`);
  } catch (error) {
    if (error instanceof SlotNotFree || error instanceof NoPractitionerFree || error instanceof SeriesNotFree)
      return again(409, { note: noteOf(door, visit, choice) ?? { refused: 'taken' } });
    if (error instanceof AppError && error.code === 'invalid' && error.field)
      return again(400, { errors: { [error.field]: fieldError(bookWords, error.message) } });
    throw error;
  }
}

// --- Move, cancel, the confirmation again --------------------------------------------------------------------------

/** The booking of the route that the person may change (reception, admin), still booked; else undefined (404). */
function changeable(door: DeskDoor, event: H3Event, visit: Visit): Booking | undefined {
  const booking = routeBooking(door, event, visit);
  return booking && mayChange(visit.person) && booking.status === 'booked' ? booking : undefined;
}

/** The move page of `booking` to `slot` with `schedule`, with the engine's word on the time. */
function movePage(
  door: DeskDoor,
  visit: Visit,
  booking: Booking,
  slot: string,
  schedule: number,
  status?: number,
  error?: string,
) {
  const choice: Choice = {
    carry: { schedule: String(schedule), reason: String(booking.reasonId), slot },
    schedule,
    reasonId: booking.reasonId,
    slot,
  };
  const note = noteOf(door, visit, choice, booking.id);
  const clock = clockOf(visit.settings.timeZone);
  const moveNote =
    note?.next && note.refused
      ? {
          ...note,
          next: note.next.map((one) => ({
            ...one,
            href: `${BASE}/bookings/${booking.reference}/move?${new URLSearchParams({ schedule: String(schedule), slot: `${one.text}:00` })}`,
          })),
        }
      : note;
  return moveConfirmPage({
    signed: visit.signed,
    booking,
    from: `${localOf(visit, booking.startAt)}–${clock(booking.endAt)} · ${booking.scheduleName}`,
    to: whatOf(door, visit, choice),
    slot,
    schedule: String(schedule),
    hasEmail: booking.customerEmail !== null,
    ...(moveNote ? { note: moveNote } : {}),
    ...(status ? { status } : {}),
    ...(error ? { error } : {}),
  });
}

/** GET /desk/bookings/:reference/move?schedule=&slot= (or day= and time=): the move to confirm. */
export function moveStep(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const booking = changeable(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const query = getQuery(event);
  const slot =
    text(query.slot) || (text(query.day) && text(query.time) ? `${text(query.day)} ${text(query.time)}:00` : '');
  const schedule = parsePlainInt(text(query.schedule)) ?? booking.scheduleId;
  if (!isSlotText(slot)) return answer(notFound(visit.settings));
  return answer(movePage(door, visit, booking, slot, schedule));
}

/** POST /desk/bookings/:reference/move: moves it (outside the rules only when ticked); taken: the move page again. */
export async function move(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  const booking = changeable(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  const slot = form.get('slot') ?? '';
  const schedule = parsePlainInt(form.get('schedule') ?? '') ?? booking.scheduleId;
  const sequence = parsePlainInt(form.get('sequence') ?? '');
  if (!isSlotText(slot) || sequence === undefined) return answer(notFound(visit.settings));
  try {
    deskMove(door.ctx, visit.person, booking.reference, {
      slot,
      scheduleId: schedule,
      notify: form.get('notify') === 'on',
      outsideHours: form.get('outside') === 'on',
      sequence,
    });
  } catch (error) {
    if (error instanceof SlotNotFree) return answer(movePage(door, visit, booking, slot, schedule, 409));
    // Changed meanwhile (a form sent twice, another desk, the API), or already at that time: said on the page.
    if (error instanceof AppError && error.code !== 'storage')
      return answer(
        movePage(door, visit, booking, slot, schedule, error.code === 'invalid' ? 400 : 409, error.message),
      );
    throw error;
  }
  door.afterBooking();
  return seeOther(`${BASE}/bookings/${booking.reference}?done=moved`);
}

/** GET /desk/bookings/:reference/cancel: the cancel form. */
export function cancelStep(door: DeskDoor, event: H3Event, visit: Visit): Response {
  const booking = changeable(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const clock = clockOf(visit.settings.timeZone);
  const when = `${localOf(visit, booking.startAt)}–${clock(booking.endAt)}`;
  return answer(cancelPage({ signed: visit.signed, booking, when }));
}

/** POST /desk/bookings/:reference/cancel: cancels it (its later dates too, when asked), telling the customer or not. */
export async function cancel(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  const booking = changeable(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  const sequence = parsePlainInt(form.get('sequence') ?? '');
  if (sequence === undefined) return answer(notFound(visit.settings));
  try {
    deskCancel(door.ctx, visit.person, booking.reference, {
      reason: form.get('reason') ?? '',
      notify: form.get('notify') === 'on',
      later: form.get('later') === 'on',
      sequence,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'storage') throw error;
    const clock = clockOf(visit.settings.timeZone);
    const when = `${localOf(visit, booking.startAt)}–${clock(booking.endAt)}`;
    const status = error.code === 'invalid' ? 400 : 409;
    return answer(cancelPage({ signed: visit.signed, booking, when, error: error.message, status }));
  }
  door.afterBooking();
  return seeOther(`${BASE}/bookings/${booking.reference}?done=cancelled`);
}

/** POST /desk/bookings/:reference/resend: the confirmation again, as the booking stands. */
export async function resend(door: DeskDoor, event: H3Event, visit: Visit): Promise<Response> {
  const booking = changeable(door, event, visit);
  if (!booking) return answer(notFound(visit.settings));
  const form = await readDeskForm(door, event, visit);
  if (form instanceof Response) return form;
  resendConfirmation(door.ctx, visit.person, booking.reference);
  door.afterBooking();
  return seeOther(`${BASE}/bookings/${booking.reference}?done=resent`);
}
