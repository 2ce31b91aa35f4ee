import type { Command } from 'commander';
import { explainAnyRefusal, freeTimesAny, NoPractitionerFree } from '../../app/bookings/any-practitioner.ts';
import { explainRefusal, freeTimes, type RefusalAdvice, SlotNotFree } from '../../app/bookings/availability.ts';
import type { AppContext } from '../../app/context.ts';
import { extraByDay, openRanges } from '../../domain/availability.ts';
import { formatLocal, isDay } from '../../domain/dates.ts';
import { dayNumber, isoWeekday } from '../../domain/days.ts';
import { formatRange, type MinuteRange, WEEKDAYS } from '../../domain/hours.ts';
import { AppError, invalid } from '../../errors.ts';
import { id, print, printJson, readContext, whole } from '../shared.ts';

const WEEKDAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** What a refusal's words need: the time refused, the schedule, and the engine's input it was checked against. */
type Refused = Pick<SlotNotFree, 'slot' | 'scheduleId' | 'input'>;

/** Returns the slot's day's opening ranges: its weekday's, with the date's extra hours added. */
function rangesOfDay(refused: Refused): readonly MinuteRange[] {
  const day = dayNumber(refused.slot.slice(0, 10));
  return openRanges(refused.input.week, extraByDay(refused.input.extra, day, day), day);
}

/**
 * Returns the opening hours of the slot's weekday as `tue: 09:00-12:00, 14:00-18:00` (or `sun: closed`); on a date
 * with extra hours, that date's: `sat 2026-12-05 with extra hours: 09:00-13:00`.
 */
function hoursOfDay(refused: Refused): string {
  const day = refused.slot.slice(0, 10);
  const weekday = isoWeekday(dayNumber(day));
  const ranges = rangesOfDay(refused);
  const extra = refused.input.extra.some((item) => item.day === day);
  return `${WEEKDAYS[weekday - 1]}${extra ? ` ${day} with extra hours` : ''}: ${ranges.length ? ranges.map(formatRange).join(', ') : 'closed'}`;
}

/** Returns why the time was refused, as a clause for the admin (in the CLI's language). */
export function reasonText(refused: Refused, refusal: RefusalAdvice['refusal'], move = false): string {
  const { input } = refused;
  const zone = input.zone;
  switch (refusal.why) {
    case 'past':
      return `it is in the past (now: ${formatLocal(new Date(input.now * 1000), zone)} ${zone})`;
    case 'notice':
      return (
        `it is within the schedule's minimum notice of ${input.rules.noticeMinutes} minutes (the earliest start is ` +
        `${formatLocal(new Date(refusal.earliest * 1000), zone)})${move ? '; `--force` allows it' : ''}`
      );
    case 'look-ahead':
      return `it is beyond the schedule's look-ahead of ${input.rules.daysAhead} days (the last bookable day is ${refusal.lastDay})`;
    case 'closure': {
      const { closure } = refusal;
      const days = closure.fromDay === closure.toDay ? closure.fromDay : `${closure.fromDay} to ${closure.toDay}`;
      return `schedule ${refused.scheduleId} is closed that day (closure ${closure.id}, ${days}${closure.note ? `: ${closure.note}` : ''})`;
    }
    case 'no-such-time':
      return `${refused.slot.slice(11, 16)} does not exist in ${zone} that day (the clocks go forward)`;
    case 'hours':
      return rangesOfDay(refused).length
        ? `it is outside the opening hours (${hoursOfDay(refused)}; a ${input.durationMinutes}-minute appointment must fit wholly inside)`
        : `it is outside the opening hours (${hoursOfDay(refused)})`;
    case 'grid':
      return `it is off the schedule's ${input.rules.stepMinutes}-minute step: times start every ${input.rules.stepMinutes} minutes from the opening (${hoursOfDay(refused)})`;
    case 'busy':
      return `the practitioner's own calendar is busy then (planner calendar busy ${refused.scheduleId} --from ${refused.slot.slice(0, 10)} shows it)`;
    case 'taken':
      return input.rules.capacity === 1
        ? 'it is taken by another booking'
        : `all ${input.rules.capacity} places at that time are booked`;
    case 'buffer':
      return input.bufferBeforeMinutes || input.bufferAfterMinutes
        ? `it would overlap the time kept free around appointments (this reason keeps ${input.bufferBeforeMinutes} minutes before and ${input.bufferAfterMinutes} after; other bookings keep theirs)`
        : 'it would overlap the time another booking keeps free around it (its buffer)';
  }
}

/**
 * Returns the one-line error for a refused time: why, and the next three free times after it (from the engine), with
 * the command that lists more. `move`: the refusal came from `bookings move` (`--force` then skips the notice).
 */
export function refusalError(ctx: AppContext, refused: SlotNotFree, move = false): AppError {
  const advice = explainRefusal(ctx, refused);
  const zone = refused.input.zone;
  const more = `planner slots ${refused.scheduleId} ${refused.reasonId}`;
  const next = advice.next.length
    ? `Next free times: ${advice.next.map((slot) => formatLocal(new Date(slot.startAt * 1000), zone)).join(', ')} (more: ${more} --day ${advice.next[0]!.local.slice(0, 10)})`
    : `No free time after it within the look-ahead (${more} lists what is free)`;
  return new AppError(
    refused.code,
    `${refused.slot} is not a free slot: ${reasonText(refused, advice.refusal, move)}. ${next}.`,
  );
}

/** Runs `book`, turning a refused time into the error that says why and what is free instead. */
export function explainingRefusal<T>(ctx: AppContext, book: () => T, move = false): T {
  try {
    return book();
  } catch (error) {
    if (error instanceof SlotNotFree) throw refusalError(ctx, error, move);
    if (error instanceof NoPractitionerFree) throw anyRefusalError(ctx, error);
    throw error;
  }
}

/**
 * Returns the one-line error for a time no schedule offering the reason has free: why for each schedule, and the
 * next three free times over all of them (with who is free), with the command that lists more.
 */
export function anyRefusalError(ctx: AppContext, refused: NoPractitionerFree): AppError {
  const more = `planner slots any ${refused.reasonId}`;
  if (refused.refusals.length === 0)
    return new AppError(
      refused.code,
      `${refused.slot} is not a free slot: no schedule offers reason ${refused.reasonId} (planner reason set ${refused.reasonId} --schedules <ids>).`,
    );
  const { each, next } = explainAnyRefusal(ctx, refused);
  const zone = refused.refusals[0]!.input.zone;
  const why = each
    .map(({ refused: one, advice }) => `schedule ${one.scheduleId}: ${reasonText(one, advice.refusal, false)}`)
    .join('; ');
  const after = next.length
    ? `Next free times: ${next.map((slot) => `${formatLocal(new Date(slot.startAt * 1000), zone)} (schedule${slot.scheduleIds.length > 1 ? 's' : ''} ${slot.scheduleIds.join(', ')})`).join(', ')} (more: ${more} --day ${next[0]!.local.slice(0, 10)})`
    : `No free time after it within the look-ahead (${more} lists what is free)`;
  return new AppError(refused.code, `${refused.slot} is not free with any schedule that offers it (${why}). ${after}.`);
}

/** Prints `planner slots any`: the free times over every schedule that offers the reason, each with who is free. */
async function printAnyTimes(
  command: Command,
  reasonId: number,
  options: { day?: string; days: number; json?: boolean },
): Promise<void> {
  const times = await readContext(command, (ctx) =>
    freeTimesAny(ctx, reasonId, { fromDay: options.day, days: options.days }),
  );
  if (options.json) {
    printJson({
      timeZone: times.timeZone,
      reason: { id: times.reason.id, name: times.reason.name, durationMinutes: times.reason.durationMinutes },
      schedules: times.schedules.map((schedule) => ({ id: schedule.id, name: schedule.name })),
      days: times.days.map((day) => ({
        day: day.day,
        slots: day.slots.map((slot) => ({ slot: slot.local, schedules: slot.scheduleIds })),
      })),
    });
    return;
  }
  if (times.schedules.length === 0) {
    print(
      `No schedule offers ${times.reason.name} now, so no free times: planner reason set ${reasonId} --schedules <ids>`,
    );
    return;
  }
  if (!times.hasHours) {
    print(
      `None of the schedules that offer ${times.reason.name} has opening hours yet, so no free times: set them, e.g. planner hours set ${times.schedules[0]!.id} mon-fri 09:00-12:00,14:00-18:00`,
    );
    return;
  }
  const who = times.schedules.map((schedule) => `${schedule.name} (${schedule.id})`).join(', ');
  print(
    `Free times for ${times.reason.name} (${times.reason.durationMinutes} min) with any of ${who}, in ${times.timeZone}; after each time, the schedules free then:`,
  );
  for (const day of times.days) {
    const label = `${WEEKDAY_LABELS[isoWeekday(dayNumber(day.day)) - 1]} ${day.day}`;
    print(
      `${label}  ${day.slots.length ? day.slots.map((slot) => `${slot.local.slice(11, 16)} (${slot.scheduleIds.join(',')})`).join(' ') : 'none'}`,
    );
  }
  const first = options.day ?? times.today;
  if (first < times.today) print(`Days before today (${times.today}) have no free times.`);
  if (dayNumber(first) + options.days - 1 > dayNumber(times.lastDay))
    print(`Days after ${times.lastDay} are beyond the schedules' look-ahead.`);
  if (times.days.some((day) => day.slots.length))
    print(
      `Book one with whoever is free: planner bookings add any ${reasonId} "YYYY-MM-DD HH:MM" --field first_name=… --field last_name=… --field email=…`,
    );
}

export function registerSlots(program: Command): void {
  program
    .command('slots')
    .description(
      'the free times of a schedule for a reason, day by day in local time: what GET /slots offers (for booking on the phone); `slots any <reason-id>`: over every schedule that offers the reason, with who is free',
    )
    .argument('<schedule-id>', 'a schedule id, or `any` (then the reason id follows)')
    .argument('<reason-id>')
    .option('--day <day>', 'first local day, YYYY-MM-DD (default: today)')
    .option('--days <n>', 'how many days from it', '7')
    .option('--json', 'print JSON: {"timeZone", "days": [{"day", "slots": ["YYYY-MM-DD HH:MM:SS", …]}]}')
    .action(
      async (
        scheduleText: string,
        reasonText: string,
        options: { day?: string; days: string; json?: boolean },
        command: Command,
      ) => {
        const any = scheduleText === 'any';
        const scheduleId = any ? 0 : id(scheduleText, 'schedule-id');
        const reasonId = id(reasonText, 'reason-id');
        if (options.day !== undefined && !isDay(options.day))
          throw invalid(`--day "${options.day}" is not a calendar day YYYY-MM-DD`);
        const days = whole(options.days, '--days');
        if (days < 1) throw invalid(`--days must be 1 or more (got "${options.days}")`);
        if (any) {
          await printAnyTimes(command, reasonId, { day: options.day, days, json: options.json });
          return;
        }
        const times = await readContext(command, (ctx) =>
          freeTimes(ctx, scheduleId, reasonId, { fromDay: options.day, days }),
        );
        if (options.json) {
          printJson({
            timeZone: times.timeZone,
            schedule: { id: times.schedule.id, name: times.schedule.name },
            reason: { id: times.reason.id, name: times.reason.name, durationMinutes: times.reason.durationMinutes },
            days: times.days.map((day) => ({ day: day.day, slots: day.slots.map((slot) => slot.local) })),
          });
          return;
        }
        if (!times.hasHours) {
          // Not "none" for every day: one line that says why, and the command that helps.
          print(
            `${times.schedule.name} has no opening hours yet, so no free times: set them, e.g. planner hours set ${scheduleId} mon-fri 09:00-12:00,14:00-18:00`,
          );
          return;
        }
        print(
          `Free times for ${times.reason.name} (${times.reason.durationMinutes} min) with ${times.schedule.name}, in ${times.timeZone}:`,
        );
        for (const day of times.days) {
          const label = `${WEEKDAY_LABELS[isoWeekday(dayNumber(day.day)) - 1]} ${day.day}`;
          print(`${label}  ${day.slots.length ? day.slots.map((slot) => slot.local.slice(11, 16)).join(' ') : 'none'}`);
        }
        const first = options.day ?? times.today;
        const last = dayNumber(first) + days - 1;
        if (first < times.today) print(`Days before today (${times.today}) have no free times.`);
        if (last > dayNumber(times.lastDay))
          print(
            `Days after ${times.lastDay} are beyond the schedule's look-ahead of ${times.schedule.daysAhead} days.`,
          );
        if (times.days.some((day) => day.slots.length))
          print(
            `Book one: planner bookings add ${scheduleId} ${reasonId} "YYYY-MM-DD HH:MM" --field first_name=… --field last_name=… --field email=…`,
          );
      },
    );
}
