/**
 * Booking on the booking page as a use case (src/app/pages/page-booking.ts), in-process on a fixed clock, no server:
 * what it offers, the abuse rules in their order, the booking once per form, a series, and the confirmation.
 */
import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { createContext } from '../../src/app/context.ts';
import { enableBookingPage, FORM_MAX_SECONDS, PER_HOUR_WINDOW_SECONDS } from '../../src/app/pages/booking-page.ts';
import {
  book,
  bookedBy,
  bookSeries,
  createPageBooker,
  fieldsOf,
  formProblem,
  freeSlot,
  limitProblem,
  type Offer,
  offersOf,
  type PageForm,
  seriesDates,
  submissionOf,
  trapProblem,
  weeksOf,
} from '../../src/app/pages/page-booking.ts';
import { confirmation, eventFile } from '../../src/app/pages/page-confirmation.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { addReason, changeReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { openStore } from '../../src/store/db.ts';
import { snapshot, tempDb } from '../helpers.ts';

/** Monday 2026-06-01, 08:00 in Berlin. */
const START = Date.parse('2026-06-01T06:00:00Z');

/**
 * A practice on a clock the test moves: Dr. Weber (Mon-Fri 09:00-12:00) with a check-up and a course of up to 4
 * weekly dates, Physio (Mon 09:00-10:00) with the same check-up; the self-service page and the booking page on with
 * `limits` (`--per-hour`, `--per-email`); the page's state with a form taking at least 3 s.
 */
function practice(limits: { perHour?: string; perEmail?: string } = {}) {
  const file = tempDb();
  let nowMs = START;
  const ctx = createContext(openStore(file), () => new Date(nowMs));
  initInstallation(ctx, {
    practiceName: 'Praxis',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@p.example',
    locale: 'en',
  });
  const weber = addSchedule(ctx, { name: 'Dr. Weber', daysAhead: 30, noticeMinutes: 0, stepMinutes: 30, capacity: 1 });
  const physio = addSchedule(ctx, { name: 'Physio', daysAhead: 30, noticeMinutes: 0, stepMinutes: 30, capacity: 1 });
  const checkUp = addReason(ctx, [weber, physio], { name: 'Check-up', durationMinutes: 30 });
  const course = addReason(ctx, weber, { name: 'Course', durationMinutes: 60 });
  changeReason(ctx, course, { seriesMax: 4 });
  setHours(ctx, weber, 'mon-fri', '09:00-12:00');
  setHours(ctx, physio, 'mon', '09:00-10:00');
  enablePortal(ctx, { url: 'https://booking.example' });
  const page = enableBookingPage(ctx, limits);
  const booker = createPageBooker(ctx, { nowMs: () => nowMs, formMinSeconds: 3 });
  const offers = offersOf(ctx, page, 'en');
  const offer = (scheduleId: number, reasonId: number) =>
    offers.find((one) => one.scheduleId === scheduleId && one.reasonId === reasonId)!;
  let forms = 0;
  /** A form the page made `age` seconds ago. */
  const form = (age = 10): PageForm => ({
    key: `form-${++forms}`.padEnd(22, 'x'),
    issuedAt: Math.floor(nowMs / 1000) - age,
  });
  /** What a form asks to book: `local` of `offer`, for `email`, from `client`. */
  const order = (chosen: Offer, local: string, email: string, client = '10.0.0.1', sent = form()) => ({
    page,
    form: sent,
    offer: chosen,
    slot: freeSlot(ctx, chosen, local)!,
    submission: { first_name: 'Ada', last_name: 'L', email },
    client,
  });
  const later = (seconds: number) => {
    nowMs += seconds * 1000;
  };
  return { file, ctx, page, booker, offers, offer, form, order, later, weber, physio, checkUp, course };
}

describe('what the booking page offers', () => {
  it('each reason of each schedule, and first "any practitioner" for a reason two schedules share, for one date only', () => {
    const { offers, checkUp, course, weber, physio } = practice();
    expect(offers.map((one) => [one.scheduleId, one.reasonId, one.anyOf ?? null, one.seriesMax])).toEqual([
      [0, checkUp, [weber, physio], 0],
      [weber, checkUp, null, 0],
      [weber, course, null, 4],
      [physio, checkUp, null, 0],
    ]);
  });

  it('reads the weeks of a series and the typed values as the form sends them', () => {
    const { offer, weber, course, checkUp, ctx } = practice();
    const series = offer(weber, course);
    expect([undefined, '', '1', '4', '5', '0', 'x', ['2'], '04'].map((text) => weeksOf(series, text))).toEqual([
      1,
      1,
      1,
      4,
      undefined,
      undefined,
      undefined,
      undefined,
      4,
    ]);
    expect(weeksOf(offer(weber, checkUp), '2')).toBeUndefined();
    const { submission, errors } = submissionOf(fieldsOf(ctx, 'en'), {
      first_name: 'Ada',
      last_name: '',
      email: 'nope',
    });
    expect(submission).toEqual({ first_name: 'Ada', email: 'nope' });
    expect(Object.keys(errors).sort()).toEqual(['email', 'last_name']);
  });
});

describe('the abuse rules, in the order a form meets them', () => {
  it('a form older than FORM_MAX_SECONDS, or made more than a minute ahead, is stale; a filled honeypot is a trap', () => {
    const { booker, form } = practice();
    expect(formProblem(booker, form(FORM_MAX_SECONDS))).toBeUndefined();
    expect(formProblem(booker, form(FORM_MAX_SECONDS + 1))).toEqual({ why: 'stale' });
    expect(formProblem(booker, form(-60))).toBeUndefined();
    expect(formProblem(booker, form(-61))).toEqual({ why: 'stale' });
    expect(trapProblem('')).toBeUndefined();
    expect(trapProblem('https://spam.example')).toEqual({ why: 'trap' });
  });

  it('a form sent sooner than formMinSeconds after it was made books nothing', () => {
    const { booker, offer, order, form, weber, checkUp, file } = practice();
    const before = snapshot(file);
    expect(
      book(booker, order(offer(weber, checkUp), '2026-06-02 09:00:00', 'ada@example.com', '10.0.0.1', form(2))),
    ).toEqual({ booked: false, why: 'early' });
    expect(snapshot(file)).toEqual(before);
  });

  it('books once per form: sent again, the same booking, replayed, also once the e-mail address holds its share', () => {
    const { booker, ctx, offer, order, weber, checkUp, file } = practice({ perEmail: '1' });
    const asked = order(offer(weber, checkUp), '2026-06-02 09:00:00', 'ada@example.com');
    const first = book(booker, asked);
    expect(first).toMatchObject({ booked: true, replayed: false });
    const reference = (first as { reference: string }).reference;
    expect(bookedBy(ctx, asked.form)).toBe(reference);
    const after = snapshot(file);
    expect(book(booker, asked)).toEqual({ booked: true, reference, replayed: true });
    expect(snapshot(file)).toEqual(after);
  });

  it('takes perHour bookings from one address in the window, then refuses it until the first leaves the window', () => {
    const { booker, page, offer, order, later, weber, checkUp, file } = practice({ perHour: '2', perEmail: '10' });
    const checkUpAt = (local: string, email: string, client = '10.0.0.1') =>
      book(booker, order(offer(weber, checkUp), local, email, client));
    expect(checkUpAt('2026-06-02 09:00:00', 'a@example.com').booked).toBe(true);
    later(10 * 60);
    expect(checkUpAt('2026-06-02 09:30:00', 'b@example.com').booked).toBe(true);
    later(10 * 60);
    const refused = { why: 'per-hour', limit: 2, retryAfterSeconds: PER_HOUR_WINDOW_SECONDS - 20 * 60 };
    expect(limitProblem(booker, page, { email: 'c@example.com' }, '10.0.0.1')).toEqual(refused);
    const before = snapshot(file);
    expect(checkUpAt('2026-06-02 10:00:00', 'c@example.com')).toEqual({ booked: false, ...refused });
    expect(snapshot(file)).toEqual(before);
    // Another address is counted apart; the first booking leaves the window as its hour ends.
    expect(checkUpAt('2026-06-02 10:00:00', 'c@example.com', '10.0.0.2').booked).toBe(true);
    later(40 * 60 - 1);
    expect(limitProblem(booker, page, {}, '10.0.0.1')).toMatchObject({ retryAfterSeconds: 1 });
    later(1);
    expect(limitProblem(booker, page, {}, '10.0.0.1')).toBeUndefined();
    expect(checkUpAt('2026-06-02 10:30:00', 'd@example.com').booked).toBe(true);
  });

  it('holds an e-mail address to perEmail future bookings, made anywhere, in any spelling', () => {
    const { booker, ctx, page, offer, order, weber, checkUp, file } = practice({ perHour: '10', perEmail: '2' });
    createBooking(
      ctx,
      {
        scheduleId: weber,
        reasonId: checkUp,
        slot: '2026-06-03 09:00:00',
        submission: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
      },
      'api',
    );
    expect(book(booker, order(offer(weber, checkUp), '2026-06-02 09:00:00', 'ada@example.com')).booked).toBe(true);
    expect(limitProblem(booker, page, { email: 'ADA@example.com' }, '10.0.0.9')).toEqual({
      why: 'per-email',
      held: 2,
      limit: 2,
    });
    const before = snapshot(file);
    expect(book(booker, order(offer(weber, checkUp), '2026-06-02 09:30:00', 'ADA@example.com'))).toEqual({
      booked: false,
      why: 'per-email',
      held: 2,
      limit: 2,
    });
    expect(snapshot(file)).toEqual(before);
  });

  it('answers a time taken meanwhile as taken, for one practitioner or any, and writes nothing', () => {
    const { booker, ctx, offer, order, weber, physio, checkUp, file } = practice();
    const asked = order(offer(weber, checkUp), '2026-06-08 09:00:00', 'ada@example.com');
    const anyAsked = order(offer(0, checkUp), '2026-06-08 09:00:00', 'bo@example.com');
    const submission = { first_name: 'Cy', last_name: 'L', email: 'cy@example.com' };
    for (const scheduleId of [weber, physio])
      createBooking(ctx, { scheduleId, reasonId: checkUp, slot: '2026-06-08 09:00:00', submission }, 'api');
    const before = snapshot(file);
    expect(book(booker, asked)).toEqual({ booked: false, why: 'taken' });
    expect(book(booker, anyAsked)).toEqual({ booked: false, why: 'taken' });
    expect(snapshot(file)).toEqual(before);
  });
});

describe('a series, and the confirmation', () => {
  it('books the weekly dates as one, or none when a date is taken, saying which', () => {
    const { booker, ctx, offer, order, weber, course, file } = practice();
    const series = offer(weber, course);
    const asked = order(series, '2026-06-02 09:00:00', 'ada@example.com');
    expect(seriesDates(ctx, series, asked.slot, 3).every((date) => date.free)).toBe(true);
    expect(bookSeries(booker, asked, 3)).toMatchObject({ booked: true, replayed: false });
    const taken = order(series, '2026-06-03 09:00:00', 'bo@example.com');
    const submission = { first_name: 'Cy', last_name: 'L', email: 'cy@example.com' };
    createBooking(ctx, { scheduleId: weber, reasonId: course, slot: '2026-06-10 09:00:00', submission }, 'api');
    const dates = [
      { local: '2026-06-03 09:00:00', free: true },
      { local: '2026-06-10 09:00:00', free: false },
      { local: '2026-06-17 09:00:00', free: true },
    ];
    expect(seriesDates(ctx, series, taken.slot, 3)).toEqual(dates);
    const before = snapshot(file);
    expect(bookSeries(booker, taken, 3)).toEqual({ booked: false, why: 'series-taken', dates });
    expect(snapshot(file)).toEqual(before);
  });

  it('confirms with a self-service link made for that answer, none for a form sent again; the calendar file carries it', () => {
    const { booker, ctx, offer, order, weber, checkUp } = practice();
    const booked = book(booker, order(offer(weber, checkUp), '2026-06-02 09:00:00', 'ada@example.com'));
    const reference = (booked as { reference: string }).reference;
    const shown = confirmation(ctx, ctx.settings(), reference, false);
    expect(shown).toMatchObject({ local: '2026-06-02 09:00:00', email: 'ada@example.com' });
    expect(shown.manageUrl).toBe(`https://booking.example/manage/${shown.manageToken}`);
    expect(shown.calendar.google).toContain(encodeURIComponent(shown.manageUrl!));
    expect(confirmation(ctx, ctx.settings(), reference, true).manageUrl).toBeUndefined();
    const file = eventFile(ctx, reference, shown.manageToken)!.replace(/\r\n /g, '');
    expect(file).toContain('METHOD:REQUEST');
    expect(file).toContain(shown.manageUrl!);
    expect(eventFile(ctx, reference)).not.toContain('/manage/');
  });
});
