/**
 * What `planner serve` does before it says it is serving (issue 49): the work a first request would otherwise do
 * once, done on made-up input. The first GET /slots of a process spent 25 of its 37 ms in ICU, loading the zone's
 * rules and the date formats for the practice's time zone (`Intl.DateTimeFormat`), and most of the rest compiling
 * and first running the engine: costs a compile cache cannot keep. Fifty practices starting together paid them at
 * once in their first requests. Reads only the practice's time zone: no booking, no customer, no schedule.
 */
import { type AvailabilityInput, freeDays, freeSlots, lookAhead } from '../../domain/availability.ts';
import { localDay } from '../../domain/dates.ts';
import { dayText, SECONDS_PER_DAY } from '../../domain/days.ts';
import type { AppContext } from '../context.ts';

/** Weekdays 09:00–17:00, the weekend closed: a week like most practices'. */
const WEEK = [[], ...Array.from({ length: 5 }, () => [{ start: 540, end: 1020 }]), [], []];

/** Runs the availability engine once, in the practice's time zone, on a made-up schedule with one booking. */
export function warmForRequests(ctx: AppContext): void {
  const zone = ctx.settings().timeZone;
  if (!zone) return; // not configured yet: every call answers 503 until `planner init`
  const now = Math.floor(ctx.now().getTime() / 1000);
  localDay(ctx.now(), zone);
  const input: AvailabilityInput = {
    zone,
    now,
    rules: { daysAhead: 14, noticeMinutes: 60, stepMinutes: 15, capacity: 1 },
    week: WEEK,
    extra: [],
    closures: [],
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 5,
  };
  const window = lookAhead(input);
  const booked = [{ startAt: now + 2 * SECONDS_PER_DAY, endAt: now + 2 * SECONDS_PER_DAY + 1800 }];
  freeDays(input, window, booked);
  for (let day = window.firstDay; day < window.firstDay + 3; day++) freeSlots(input, dayText(day), booked);
}
