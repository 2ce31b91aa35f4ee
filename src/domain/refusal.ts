/**
 * Questions asked of the availability engine (availability.ts): why it does not offer a time, and which booked
 * appointments the hours and closures no longer allow. Pure. Neither repeats the engine's rules where it can ask
 * the engine instead: a time is refused exactly when the engine does not offer it, and the reason is found by asking
 * it again with rules set aside one at a time.
 */
import {
  type AvailabilityInput,
  type BookedInterval,
  closureOn,
  daySlots,
  EVERY_PLACE,
  extraByDay,
  freeSlots,
  localDayOf,
  lookAhead,
  openRanges,
  rangeInstants,
} from './availability.ts';
import { slotMinute } from './dates.ts';
import { dayNumber, dayText, SECONDS_PER_DAY } from './days.ts';
import { offsetTable, wallToUnix, wallToUnixCompatible } from './zone.ts';

/** A booking as the refusal reads it: what it keeps (buffers included, the engine's interval) and its appointment. */
export interface BookedTime extends BookedInterval {
  appointmentStartAt: number;
  appointmentEndAt: number;
}

/** A closure as the engine reads it; the caller's own type (with its id and note) comes back in a refusal. */
interface ClosedDays {
  fromDay: string;
  toDay: string;
}

/** Why a time is not free, the first rule that excludes it, in this order. */
export type Refusal<C extends ClosedDays = ClosedDays> =
  | { why: 'past' }
  /** Within the minimum notice: `earliest` is the first instant the notice allows. */
  | { why: 'notice'; earliest: number }
  /** After the look-ahead: `lastDay` is its last local day. */
  | { why: 'look-ahead'; lastDay: string }
  | { why: 'closure'; closure: C }
  /** A local time that the zone skips (spring forward). */
  | { why: 'no-such-time' }
  /** The appointment does not fit wholly inside an opening range of that day. */
  | { why: 'hours' }
  /** Inside the hours, but not a start the schedule's step gives (or not on a whole minute). */
  | { why: 'grid' }
  /** A busy time of the practitioner's own calendar meets the appointment or its buffers. */
  | { why: 'busy' }
  /** The appointments booked at that time fill the capacity. */
  | { why: 'taken' }
  /** Only buffers (this reason's, or those other bookings keep) fill the capacity. */
  | { why: 'buffer' };

export type RefusalReason = Refusal['why'];

/** Every reason, in the order the rules are asked (the API's `why` of a series' date). */
export const REFUSAL_REASONS = [
  'past',
  'notice',
  'look-ahead',
  'closure',
  'no-such-time',
  'hours',
  'grid',
  'busy',
  'taken',
  'buffer',
] as const satisfies readonly RefusalReason[];

/**
 * Returns why local `slot` (`YYYY-MM-DD HH:MM:SS`, a real day and time) is not free for `input`, or undefined when
 * the engine offers it. `bookings` are those of the slot's day, as the engine would get them (by kept start).
 */
export function whyNotFree<C extends ClosedDays>(
  input: AvailabilityInput & { closures: readonly C[] },
  slot: string,
  bookings: readonly BookedTime[],
): Refusal<C> | undefined {
  const dayPart = slot.slice(0, 10);
  const seconds = Number(slot.slice(17, 19));
  const minuteSlot = `${slot.slice(0, 17)}00`;
  if (seconds === 0 && freeSlots(input, dayPart, bookings).some((free) => free.local === slot)) return undefined;
  const day = dayNumber(dayPart);
  const wall = day * SECONDS_PER_DAY + slotMinute(slot) * 60 + seconds;
  const table = offsetTable(input.zone, wall - 2 * SECONDS_PER_DAY, wall + 2 * SECONDS_PER_DAY);
  const startAt = wallToUnixCompatible(table, wall);
  const earliest = input.now + input.rules.noticeMinutes * 60;
  if (startAt < input.now) return { why: 'past' };
  if (startAt < earliest) return { why: 'notice', earliest };
  const allowed = lookAhead(input);
  if (day > allowed.lastDay) return { why: 'look-ahead', lastDay: dayText(allowed.lastDay) };
  const closure = closureOn(input.closures as readonly C[], day);
  if (closure) return { why: 'closure', closure };
  if (wallToUnix(table, wall) === undefined) return { why: 'no-such-time' };
  // The engine again, with the clock, the closures and the bookings set aside: only hours and step remain.
  const open: AvailabilityInput = { ...input, now: -Infinity, closures: [] };
  const onGrid = seconds === 0 && daySlots(open, day, []).some((free) => free.local === slot);
  if (!onGrid) {
    const everyMinute = daySlots({ ...open, rules: { ...open.rules, stepMinutes: 1 } }, day, []);
    return everyMinute.some((free) => free.local === minuteSlot) ? { why: 'grid' } : { why: 'hours' };
  }
  // A busy time of the practitioner's calendar, alone, refuses it.
  const busy = bookings.filter((booked) => booked.places === EVERY_PLACE);
  if (busy.length > 0 && !daySlots(open, day, busy).some((free) => free.local === slot)) return { why: 'busy' };
  // Only the capacity is left: the appointments alone, without anyone's buffers, tell taken from buffer.
  const appointments = bookings
    .filter((booked) => booked.places !== EVERY_PLACE)
    .map((booked) => ({ startAt: booked.appointmentStartAt, endAt: booked.appointmentEndAt }))
    .sort((a, b) => a.startAt - b.startAt);
  const withoutBuffers: AvailabilityInput = { ...open, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 };
  return daySlots(withoutBuffers, day, appointments).some((free) => free.local === slot)
    ? { why: 'buffer' }
    : { why: 'taken' };
}

/** Why the hours and closures no longer allow a booked appointment. */
export type Stranding = 'closure' | 'hours';

/**
 * Returns the appointments (`startAt`, `endAt`: the appointment itself, not its buffers) that the schedule's hours and
 * closures no longer allow, each with why: on a closed day, or not wholly inside an opening range of its local day,
 * its extra hours included (the same fit the engine asks of a new booking; buffers need not fit the hours). In the order given.
 */
export function strandedBookings<B extends BookedInterval>(
  rules: Pick<AvailabilityInput, 'zone' | 'week' | 'extra' | 'closures'>,
  bookings: readonly B[],
): { booking: B; why: Stranding }[] {
  if (bookings.length === 0) return [];
  const from = Math.min(...bookings.map((booking) => booking.startAt));
  const to = Math.max(...bookings.map((booking) => booking.endAt));
  const table = offsetTable(rules.zone, from - SECONDS_PER_DAY, to + SECONDS_PER_DAY);
  const extra = extraByDay(rules.extra);
  const stranded: { booking: B; why: Stranding }[] = [];
  for (const booking of bookings) {
    const day = localDayOf(table, booking.startAt);
    if (closureOn(rules.closures, day)) {
      stranded.push({ booking, why: 'closure' });
      continue;
    }
    const fits = openRanges(rules.week, extra, day).some((range) => {
      const { rangeStart, rangeEnd } = rangeInstants(table, day, range);
      return booking.startAt >= rangeStart && booking.endAt <= rangeEnd;
    });
    if (!fits) stranded.push({ booking, why: 'hours' });
  }
  return stranded;
}
