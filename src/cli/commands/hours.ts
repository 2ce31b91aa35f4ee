import type { Command } from 'commander';
import { requireConfigured } from '../../app/practice/configured.ts';
import {
  type ExtraHoursChange,
  extraHoursOf,
  hoursOf,
  removeExtraHours,
  setExtraHours,
  setHours,
} from '../../app/practice/hours.ts';
import type { ExtraHours } from '../../domain/availability.ts';
import { isDay } from '../../domain/dates.ts';
import { dayNumber, isoWeekday } from '../../domain/days.ts';
import { formatRange, type MinuteRange, WEEKDAYS } from '../../domain/hours.ts';
import { invalid } from '../../errors.ts';
import type { WeeklyHours } from '../../store/hours.ts';
import { id, print, printJson, readContext, withContext } from '../shared.ts';
import { printStranded, strandedJson } from './closure.ts';

/** Returns the week as `{mon: ["09:00-12:00"], …}`. */
function weekObject(week: WeeklyHours): Record<string, string[]> {
  return Object.fromEntries(WEEKDAYS.map((name, index) => [name, week[index + 1]!.map(formatRange)]));
}

function printWeek(week: WeeklyHours): void {
  for (const [name, ranges] of Object.entries(weekObject(week)))
    print(`${name}  ${ranges.length ? ranges.join(', ') : 'closed'}`);
}

/** Returns `09:00-13:00, 15:00-17:00`, or `closed` for none. */
const rangesText = (ranges: readonly MinuteRange[]) => (ranges.length ? ranges.map(formatRange).join(', ') : 'closed');

/** Returns a date with its weekday: `sat 2026-12-05`. */
const dayWithWeekday = (day: string) => `${WEEKDAYS[isoWeekday(dayNumber(day)) - 1]} ${day}`;

/** Returns the extra hours as `{"2026-12-05": ["09:00-13:00"], …}`. */
function extraObject(extra: readonly ExtraHours[]): Record<string, string[]> {
  return Object.fromEntries(extra.map((item) => [item.day, item.ranges.map(formatRange)]));
}

/** Prints what `hours extra` left on the date, the closure that wins over it, and the bookings now outside. */
function printExtraChange(scheduleId: number, change: ExtraHoursChange, zone: string): void {
  const { day, closure } = change;
  print(
    change.extra.length
      ? `Extra hours of schedule ${scheduleId} on ${dayWithWeekday(day)}: ${rangesText(change.extra)} (open that day: ${rangesText(change.open)}).`
      : `Removed the extra hours of schedule ${scheduleId} on ${dayWithWeekday(day)} (${rangesText(change.before)}); open that day: ${rangesText(change.open)}.`,
  );
  if (closure) {
    const days = closure.fromDay === closure.toDay ? closure.fromDay : `${closure.fromDay} to ${closure.toDay}`;
    print(
      `Note: closure ${closure.id} (${days}) closes schedule ${scheduleId} that day, and a closure wins: the day stays closed (\`planner closure remove ${closure.id}\` opens it).`,
    );
  }
  printStranded(change.stranded, zone);
}

export function registerHours(program: Command): void {
  const hours = program.command('hours').description('weekly opening hours of a schedule, and extra hours on dates');
  hours
    .command('set')
    .description(
      'set the hours of some weekdays, e.g. `hours set 1 mon-fri 09:00-12:00,13:00-17:30` or `hours set 1 sun closed`; ' +
        'lists the upcoming bookings now outside the hours, to move or cancel',
    )
    .argument('<schedule-id>')
    .argument('<days>', 'mon-fri, sat, mon,wed, mon-sun')
    .argument('<ranges>', '09:00-12:00,13:00-17:30, 00:00-24:00 or closed')
    .option('--json', 'print the week as JSON, with "stranded": the upcoming bookings now outside the hours')
    .action(
      async (scheduleText: string, days: string, ranges: string, options: { json?: boolean }, command: Command) => {
        const scheduleId = id(scheduleText, 'schedule-id');
        await withContext(command, (ctx) => {
          const { schedule, week, stranded } = setHours(ctx, scheduleId, days, ranges);
          const zone = requireConfigured(ctx).timeZone;
          if (options.json) {
            printJson({ ...weekObject(week), stranded: stranded.map((item) => strandedJson(item, zone)) });
            return;
          }
          print(`Weekly hours of ${schedule.name} (schedule ${schedule.id}):`);
          printWeek(week);
          printStranded(stranded, zone);
        });
      },
    );
  hours
    .command('extra')
    .description(
      'open a date beyond the weekly hours, e.g. `hours extra 1 2026-12-05 09:00-13:00` (a Saturday clinic); added ' +
        "to that weekday's hours; setting a date again replaces its extra hours; `--remove` takes them away; a closure still wins",
    )
    .argument('<schedule-id>')
    .argument('<day>', 'YYYY-MM-DD, today or later')
    .argument('[ranges]', '09:00-13:00 or 09:00-12:00,18:00-20:00')
    .option('--remove', "remove the date's extra hours")
    .option('--json', 'print {"day", "extra", "open", "closure", "stranded"} (with --remove also "removed")')
    .action(
      async (
        scheduleText: string,
        day: string,
        ranges: string | undefined,
        options: { remove?: boolean; json?: boolean },
        command: Command,
      ) => {
        const scheduleId = id(scheduleText, 'schedule-id');
        if (options.remove && ranges !== undefined)
          throw invalid(`give either ranges or --remove, not both (got "${ranges}" and --remove)`);
        if (!options.remove && ranges === undefined)
          throw invalid(
            `give the date's ranges, e.g. \`planner hours extra ${scheduleId} ${isDay(day) ? day : 'YYYY-MM-DD'} 09:00-13:00\`, or --remove`,
          );
        await withContext(command, (ctx) => {
          const change = options.remove
            ? removeExtraHours(ctx, scheduleId, day)
            : setExtraHours(ctx, scheduleId, day, ranges!);
          const zone = requireConfigured(ctx).timeZone;
          if (options.json) {
            printJson({
              day: change.day,
              extra: change.extra.map(formatRange),
              open: change.open.map(formatRange),
              closure: change.closure?.id ?? null,
              ...(options.remove ? { removed: change.before.map(formatRange) } : {}),
              stranded: change.stranded.map((item) => strandedJson(item, zone)),
            });
            return;
          }
          printExtraChange(scheduleId, change, zone);
        });
      },
    );
  hours
    .command('show')
    .description('show the weekly hours of a schedule, then its extra hours on dates from today on')
    .argument('<schedule-id>')
    .option('--json', 'print JSON: the weekdays, and "extra": {"YYYY-MM-DD": ranges}')
    .action(async (scheduleText: string, options: { json?: boolean }, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const { week, extra } = await readContext(command, (ctx) => ({
        week: hoursOf(ctx, scheduleId),
        extra: extraHoursOf(ctx, scheduleId),
      }));
      if (options.json) printJson({ ...weekObject(week), extra: extraObject(extra) });
      else {
        printWeek(week);
        for (const item of extra) print(`${dayWithWeekday(item.day)}  extra ${rangesText(item.ranges)}`);
      }
    });
}
