import type { Command } from 'commander';
import { hoursOf, setHours } from '../../app/hours.ts';
import { requireConfigured } from '../../app/configured.ts';
import { formatRange, WEEKDAYS } from '../../domain/hours.ts';
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

export function registerHours(program: Command): void {
  const hours = program.command('hours').description('weekly opening hours of a schedule');
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
          const { week, stranded } = setHours(ctx, scheduleId, days, ranges);
          const zone = requireConfigured(ctx).timeZone;
          if (options.json) {
            printJson({ ...weekObject(week), stranded: stranded.map((item) => strandedJson(item, zone)) });
            return;
          }
          printWeek(week);
          printStranded(stranded, zone);
        });
      },
    );
  hours
    .command('show')
    .description('show the weekly hours of a schedule')
    .argument('<schedule-id>')
    .option('--json', 'print JSON')
    .action(async (scheduleText: string, options: { json?: boolean }, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const week = await readContext(command, (ctx) => hoursOf(ctx, scheduleId));
      if (options.json) printJson(weekObject(week));
      else printWeek(week);
    });
}
