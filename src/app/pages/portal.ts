/**
 * The customer's self-service page (`/manage/<token>`): turning it on and off, opening a booking by a link's token,
 * and the customer's cancel and move. The changes are `cancelBooking` and `moveBooking` of lifecycle.ts (the same
 * transaction, rules, mails and webhooks as `planner bookings cancel|move`), with the actor `customer` and the
 * booking's sequence as the customer saw it, so a form sent twice makes one change.
 */

import { randomBytes } from 'node:crypto';
import type { FreeSlot } from '../../domain/availability.ts';
import { isNote, LINE_BREAK } from '../../domain/checks.ts';
import { isSlotText } from '../../domain/dates.ts';
import { changeDeadline, deadlineState } from '../../domain/deadline.ts';
import { durationIn } from '../../domain/durations.ts';
import { customerLanguage, textIn } from '../../domain/languages.ts';
import type { Locale } from '../../domain/locales.ts';
import { AppError, invalid, valueOrInvalid } from '../../errors.ts';
import { type Booking, findBooking } from '../../store/bookings.ts';
import { bookingOfManageToken } from '../../store/manage-links.ts';
import { findReason } from '../../store/reasons.ts';
import { findSchedule, listSchedules } from '../../store/schedules.ts';
import type { Occurrence } from '../../store/series.ts';
import { type PortalSettings, setPortal } from '../../store/settings.ts';
import { availableDays, availableSlots, SlotNotFree } from '../bookings/availability.ts';
import { keepLanguage } from '../bookings/language.ts';
import { cancelBooking, cancelSeries, moveBooking, TooLate } from '../bookings/lifecycle.ts';
import { seriesOfBooking } from '../bookings/series.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { type ConfiguredSettings, requireConfigured } from '../practice/configured.ts';
import { checkProxyList, trustProxies } from '../practice/proxies.ts';
import { checkPublicUrl } from '../practice/public-url.ts';

/** Hours before the start until which a customer may cancel or move, unless `--cancel-until` says otherwise. */
export const DEFAULT_CANCEL_UNTIL_HOURS = 24;
/** A link opens its booking until this long after the appointment's end; then it is as unknown as a wrong one. */
export const LINK_LIFETIME_SECONDS = 30 * 86_400;

/**
 * What the page lets a customer do, as `planner status`, `planner doctor` and `planner portal` say it: "cancel or
 * move until 24 h before" (without "or move" when moving is off).
 */
export function pageRules(portal: Pick<PortalSettings, 'reschedule' | 'cancelUntilHours'>): string {
  return `cancel${portal.reschedule ? ' or move' : ''} until ${portal.cancelUntilHours} h before`;
}

/**
 * Returns the hours of `--cancel-until` (0 to 8760): a duration as every option takes it (`48`, `48h`, `2d`), where
 * a bare number counts hours (as it always has here); kept in whole hours. Else throws naming the option and value.
 */
export function checkCancelUntil(text: string): number {
  const minutes = valueOrInvalid(durationIn(text, '--cancel-until', { min: 0, max: 8760 * 60, bare: 'hours' }));
  if (minutes % 60 !== 0) throw invalid(`--cancel-until is kept in whole hours (got "${text}"): write e.g. 2 or 2h`);
  return minutes / 60;
}

/**
 * Turns the page on (or changes its settings); what is not given keeps its current value (first time: 24 h, on;
 * the URL must be given the first time, and after `portal disable`). `trustProxy` (`--trust-proxy`) sets the
 * trusted proxies in the same transaction, as `planner proxy set` does.
 */
export function enablePortal(
  ctx: AppContext,
  options: { url?: string; cancelUntilHours?: number; reschedule?: boolean; trustProxy?: string },
): PortalSettings & { trustedProxies?: string[] } {
  const settings = requireConfigured(ctx);
  const url = options.url ?? settings.portal?.url;
  if (url === undefined)
    throw invalid('give the public address the first time: planner portal enable --url https://booking.praxis.example');
  const portal: PortalSettings = {
    url: options.url === undefined ? url : checkPublicUrl(url),
    cancelUntilHours: options.cancelUntilHours ?? settings.portal?.cancelUntilHours ?? DEFAULT_CANCEL_UNTIL_HOURS,
    reschedule: options.reschedule ?? settings.portal?.reschedule ?? true,
  };
  const proxies = options.trustProxy === undefined ? undefined : checkProxyList(options.trustProxy, '--trust-proxy');
  return ctx.store.tx(() => {
    setPortal(ctx.store, portal, () => randomBytes(32).toString('base64url'));
    return { ...portal, ...(proxies === undefined ? {} : { trustedProxies: trustProxies(ctx, proxies) }) };
  });
}

/** Turns the page off: every `/manage/` link answers the not-found page, and mails carry no link. */
export function disablePortal(ctx: AppContext): void {
  requireConfigured(ctx);
  setPortal(ctx.store, null, () => '');
}

/** What `planner portal status` tells (its `--json` too): the page's address and rules, or null ones when off. */
export type PortalStatus =
  | { enabled: true; url: string; cancelUntilHours: number; reschedule: boolean }
  | { enabled: false; url: null; cancelUntilHours: null; reschedule: null };

/** What `planner portal status` shows. */
export function portalStatus(ctx: AppContext): PortalStatus {
  const { portal } = requireConfigured(ctx);
  return portal
    ? { enabled: true, url: portal.url, cancelUntilHours: portal.cancelUntilHours, reschedule: portal.reschedule }
    : { enabled: false, url: null, cancelUntilHours: null, reschedule: null };
}

/**
 * Keeps `locale` (one of the offered languages) as the language of the customer of the link's booking, for it and the
 * other dates of its series: their mails, reminders and pages speak it from now on. Returns false when the practice
 * does not offer it (nothing changed).
 */
export function chooseLanguage(ctx: AppContext, managed: Managed, locale: Locale): boolean {
  if (!ctx.settings().languages.includes(locale)) return false;
  keepLanguage(ctx, managed.series ? managed.series.dates.map((date) => date.id) : [managed.booking.id], locale);
  return true;
}

/** Where a booking stands for its customer: changes are possible only while `open`. */
export type ManagedState = 'open' | 'past-deadline' | 'started' | 'cancelled';

/** A booking opened by a link's token, with what its customer may do now. */
export interface Managed {
  booking: Booking;
  settings: ConfiguredSettings & { portal: PortalSettings };
  state: ManagedState;
  /** The last instant (Unix seconds) a change is possible: the start minus `--cancel-until`. */
  deadline: number;
  /** True when the page offers a move: `--reschedule on`, the state is open, and the booking's schedule and reason still exist. */
  mayMove: boolean;
  /**
   * False when the booking's schedule or reason was removed (`remove --force` keeps the bookings): it keeps its
   * time and can be cancelled, but there is nothing to move it to.
   */
  movable: boolean;
  /**
   * The booking's series, when it is one date of a course: every date by start, with where it stands. The page shows
   * them, each with its own page (the link's own booking at the link's path, `linkedId`; every other date under
   * `date/<reference>`), and offers to cancel this date and the later ones still booked (`laterBooked`) at one go.
   */
  series?: { reference: string; intervalDays: number; dates: SeriesDate[]; laterBooked: number; linkedId: number };
  /**
   * Where several practitioners offer the booking's reason: each schedule that does, the booking's own first, so the
   * customer may move to another; empty where only its own schedule offers it (a move keeps it).
   */
  practitioners: { id: number; name: string }[];
}

/**
 * A date of a series as its page lists it: `past` once it has ended (not "booked"), and `open` while the customer may
 * still change it (booked, before its own deadline, `deadline`).
 */
export interface SeriesDate extends Occurrence {
  state: 'booked' | 'cancelled' | 'past';
  open: boolean;
  deadline: number;
}

function stateOf(booking: Booking, cancelUntilHours: number, now: number): ManagedState {
  return booking.status === 'cancelled' ? 'cancelled' : deadlineState(booking.startAt, cancelUntilHours, now);
}

/**
 * Returns the booking a link's token opens, or, with `reference`, another date of the same series (the link of any
 * date of a series opens every date of it). Undefined when the page is off, the token is malformed or unknown, the
 * reference names no other date of the link's series, or the link has expired: 30 days after the appointment's end,
 * for a series after its last date's end. The page answers all of these alike.
 */
export function openManaged(
  ctx: AppContext,
  token: string,
  reference?: string,
  acceptLanguage?: string | null,
): Managed | undefined {
  const settings = ctx.settings();
  if (!settings.portal || settings.configuredAt === null) return undefined;
  const id = bookingOfManageToken(ctx.store, token);
  const linked = id === undefined ? undefined : findBooking(ctx.store, id);
  if (!linked) return undefined;
  const series = seriesOfBooking(ctx, linked);
  const now = unixSeconds(ctx.now());
  const lastEnd = Math.max(linked.endAt, ...(series?.dates.map((date) => date.endAt) ?? []));
  if (now > lastEnd + LINK_LIFETIME_SECONDS) return undefined;
  const other = reference === undefined ? undefined : series?.dates.find((date) => date.reference === reference);
  if (reference !== undefined && (!other || other.id === linked.id)) return undefined;
  const found = other ? findBooking(ctx.store, other.id) : linked;
  if (!found) return undefined;
  // The pages speak the customer's language: the booking's while offered (each of a series' dates has it), else
  // what the reader's browser asks for among the offered, else the practice's; the reason named in it where the
  // practice gave that name.
  const locale = customerLanguage(settings.languages, { chosen: found.locale, acceptLanguage });
  const booking = { ...found, reasonName: textIn(found.reasonName, found.reasonNames, locale) };
  const configured = { ...requireConfigured(ctx), locale } as ConfiguredSettings & { portal: PortalSettings };
  const hours = settings.portal.cancelUntilHours;
  const deadline = changeDeadline(booking.startAt, hours);
  const state = stateOf(booking, hours, now);
  const reason = findReason(ctx.store, booking.reasonId);
  const movable =
    findSchedule(ctx.store, booking.scheduleId) !== undefined &&
    reason?.scheduleIds.includes(booking.scheduleId) === true;
  const offering = movable && reason!.scheduleIds.length > 1 ? listSchedules(ctx.store) : [];
  const practitioners = offering
    .filter((schedule) => reason!.scheduleIds.includes(schedule.id))
    .sort((a, b) => (a.id === booking.scheduleId ? -1 : b.id === booking.scheduleId ? 1 : a.id - b.id))
    .map(({ id, name }) => ({ id, name }));
  return {
    booking,
    practitioners,
    settings: configured,
    state,
    deadline,
    mayMove: state === 'open' && settings.portal.reschedule && movable,
    movable,
    ...(series
      ? {
          series: {
            reference: series.reference,
            intervalDays: series.intervalDays,
            dates: series.dates.map((date) => seriesDate(date, hours, now)),
            linkedId: linked.id,
            laterBooked: series.dates.filter(
              (one) => one.id !== booking.id && one.status === 'booked' && one.startAt >= booking.startAt,
            ).length,
          },
        }
      : {}),
  };
}

/** A date of a series as the page lists it at `now`, under the page's deadline (`hours` before each start). */
function seriesDate(date: Occurrence, hours: number, now: number): SeriesDate {
  const state = date.status === 'cancelled' ? 'cancelled' : date.endAt <= now ? 'past' : 'booked';
  const open = state === 'booked' && deadlineState(date.startAt, hours, now) === 'open';
  return { ...date, state, open, deadline: changeDeadline(date.startAt, hours) };
}

/** Why the page did not make a change. */
export type Refusal =
  | 'past-deadline' // after `--cancel-until`
  | 'started' // the appointment has begun
  | 'cancelled' // it was cancelled (by anyone)
  | 'changed' // the form was for an earlier state of the booking (sent twice, another tab, the admin changed it)
  | 'taken' // the new time is no longer free
  | 'no-reschedule' // moving is switched off
  | 'not-movable' // the booking's schedule or reason was removed: cancelling only
  | 'bad-reason' // a cancel reason too long, or with control characters
  | 'bad-input'; // a slot that is not one

export type Outcome = { ok: true; booking: Booking } | { ok: false; refusal: Refusal };

/** Runs `change` unless the state forbids it; maps the core's refusals to the page's. */
function change(managed: Managed, run: () => Booking): Outcome {
  if (managed.state !== 'open') return { ok: false, refusal: managed.state };
  try {
    return { ok: true, booking: run() };
  } catch (error) {
    if (error instanceof TooLate) return { ok: false, refusal: error.why };
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'conflict') return { ok: false, refusal: 'changed' };
    if (error instanceof SlotNotFree) return { ok: false, refusal: 'taken' }; // the one answer to a taken time
    if (error.code === 'not_found') return { ok: false, refusal: 'not-movable' }; // its schedule or reason went away meanwhile
    if (error.code === 'invalid') return { ok: false, refusal: 'bad-input' };
    throw error;
  }
}

/**
 * Cancels the booking for its customer, as `planner bookings cancel` does (the customer's mail, `booking.cancelled`
 * with actor customer). `sequence` is the booking's sequence the form was made for.
 */
export function customerCancel(ctx: AppContext, managed: Managed, sequence: number, reason: string): Outcome {
  const text = typedReason(reason);
  if (text === undefined) return { ok: false, refusal: 'bad-reason' };
  return change(managed, () =>
    cancelBooking(ctx, managed.booking.reference, {
      reason: text || undefined,
      notify: true,
      actor: 'customer',
      expectedSequence: sequence,
      untilHoursBefore: managed.settings.portal.cancelUntilHours,
    }),
  );
}

/** A typed cancel reason as one line (undefined when it is refused: control characters, too long). */
function typedReason(reason: string): string | undefined {
  // A text box sends line breaks as typed: they become spaces (the reason is one line in mails and lists).
  const text = reason.replace(new RegExp(`${LINE_BREAK.source}+`, 'g'), ' ').trim();
  // Control characters (ESC, BEL, NUL, …) are refused, as in every form value: they would drive a terminal.
  return text !== '' && !isNote(text, true) ? undefined : text;
}

/**
 * Cancels the booking and every later date of its series still booked, for its customer, as `planner
 * bookings cancel --series` does: one transaction, one mail to the customer with every date, one notice to the
 * practice. The page's deadline is checked for each date under the write lock (cancelSeries): the later dates start
 * later, so they are in time whenever this one is; this one past its deadline refuses the whole change, as a single
 * cancel would. Returns this booking as it stands after.
 */
export function customerCancelSeries(ctx: AppContext, managed: Managed, sequence: number, reason: string): Outcome {
  if (!managed.series) return { ok: false, refusal: 'bad-input' };
  const text = typedReason(reason);
  if (text === undefined) return { ok: false, refusal: 'bad-reason' };
  return change(managed, () => {
    const cancelled = cancelSeries(ctx, managed.booking.reference, {
      reason: text || undefined,
      notify: true,
      actor: 'customer',
      expectedSequence: sequence,
      untilHoursBefore: managed.settings.portal.cancelUntilHours,
    });
    return cancelled.find((one) => one.id === managed.booking.id) ?? cancelled[0]!;
  });
}

/**
 * Moves the booking for its customer to `slot` (local `YYYY-MM-DD HH:MM:SS`), as `planner bookings move` does
 * without `--force`: the schedule's notice, look-ahead, hours, closures and capacity, the booking itself not counted.
 */
export function customerMove(
  ctx: AppContext,
  managed: Managed,
  sequence: number,
  slot: string,
  scheduleId = managed.booking.scheduleId,
): Outcome {
  if (managed.state === 'open' && !managed.mayMove)
    return { ok: false, refusal: managed.movable ? 'no-reschedule' : 'not-movable' };
  if (!isSlotText(slot) || !mayMoveTo(managed, scheduleId)) return { ok: false, refusal: 'bad-input' };
  return change(managed, () =>
    moveBooking(ctx, managed.booking.reference, slot, {
      notify: true,
      force: false,
      scheduleId,
      actor: 'customer',
      expectedSequence: sequence,
      untilHoursBefore: managed.settings.portal.cancelUntilHours,
    }),
  );
}

/** Whether the customer may move the booking to schedule `id`: its own, or another offering its reason. */
export function mayMoveTo(managed: Managed, id: number): boolean {
  return id === managed.booking.scheduleId || managed.practitioners.some((one) => one.id === id);
}

/** The days with a free time to move to (GET /days's engine and rules, the booking itself not counted). */
export function daysToMoveTo(ctx: AppContext, managed: Managed, scheduleId = managed.booking.scheduleId): string[] {
  return availableDays(ctx, scheduleId, managed.booking.reasonId, managed.booking.id);
}

/** The free times of `day` to move to (GET /slots's), without the booking's own time. */
export function slotsToMoveTo(
  ctx: AppContext,
  managed: Managed,
  day: string,
  scheduleId = managed.booking.scheduleId,
): FreeSlot[] {
  const { booking } = managed;
  return availableSlots(ctx, scheduleId, booking.reasonId, day, booking.id).filter(
    (slot) => scheduleId !== booking.scheduleId || slot.startAt !== booking.startAt,
  );
}
