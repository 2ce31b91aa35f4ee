import type { Command } from 'commander';
import { addSchedule, changeSchedule, removeSchedule, schedules } from '../../app/practice/schedules.ts';
import { NOTICE_MAX_MINUTES, STEP_MAX_MINUTES, STEP_MIN_MINUTES } from '../../domain/checks.ts';
import type { Schedule, ScheduleValues } from '../../store/schedules.ts';
import { id, minutes, print, printJson, printTable, readContext, whole, withContext } from '../shared.ts';

interface ScheduleOptions {
  name?: string;
  daysAhead?: string;
  notice?: string;
  step?: string;
  capacity?: string;
  json?: boolean;
}

/** Returns the values given as options, converted and named for the use case. */
function scheduleValues(options: ScheduleOptions): Partial<ScheduleValues> {
  const values: Partial<ScheduleValues> = {};
  if (options.name !== undefined) values.name = options.name;
  if (options.daysAhead !== undefined) values.daysAhead = whole(options.daysAhead, '--days-ahead');
  if (options.notice !== undefined)
    values.noticeMinutes = minutes(options.notice, '--notice', { min: 0, max: NOTICE_MAX_MINUTES });
  if (options.step !== undefined)
    values.stepMinutes = minutes(options.step, '--step', { min: STEP_MIN_MINUTES, max: STEP_MAX_MINUTES });
  if (options.capacity !== undefined) values.capacity = whole(options.capacity, '--capacity');
  return values;
}

function withScheduleOptions(command: Command): Command {
  return command
    .option('--days-ahead <n>', 'look-ahead in days (default 60)')
    .option(
      '--notice <duration>',
      'minimum notice before a slot: 90, 90m, 1h30m, 12h or 2d (a bare number counts minutes; default 60)',
    )
    .option(
      '--step <duration>',
      'time between candidate starts: 15, 15m or 1h (a bare number counts minutes; default 15)',
    )
    .option('--capacity <n>', 'bookings that may overlap (default 1)');
}

function printSchedule(schedule: Schedule): void {
  print(
    `schedule ${schedule.id} "${schedule.name}": ${schedule.daysAhead} days ahead, ${schedule.noticeMinutes} min notice, ` +
      `${schedule.stepMinutes} min step, capacity ${schedule.capacity}`,
  );
}

export function registerSchedule(program: Command): void {
  const schedule = program.command('schedule').description('appointment schedules (calendars)');
  withScheduleOptions(schedule.command('add').description('add a schedule').argument('<name>'))
    .option('--json', 'print {"id": …}')
    .action(async (name: string, options: ScheduleOptions, command: Command) => {
      const values = { ...scheduleValues(options), name };
      const newId = await withContext(command, (ctx) => addSchedule(ctx, values));
      if (options.json) printJson({ id: newId });
      else print(`Added schedule ${newId} "${name.trim()}".`);
    });
  schedule
    .command('list')
    .description('list the schedules')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const list = await readContext(command, (ctx) => schedules(ctx));
      if (options.json) printJson(list);
      else
        printTable(
          ['ID', 'NAME', 'DAYS AHEAD', 'NOTICE (MIN)', 'STEP (MIN)', 'CAPACITY'],
          list.map((s) => [s.id, s.name, s.daysAhead, s.noticeMinutes, s.stepMinutes, s.capacity]),
          'No schedules yet. Add one: planner schedule add <name>',
        );
    });
  withScheduleOptions(schedule.command('set').description('change a schedule').argument('<id>'))
    .option('--name <name>', 'new name')
    .option('--json', 'print the schedule as JSON')
    .action(async (idText: string, options: ScheduleOptions, command: Command) => {
      const scheduleId = id(idText, 'schedule id');
      const values = scheduleValues(options);
      const changed = await withContext(command, (ctx) => changeSchedule(ctx, scheduleId, values));
      if (options.json) printJson(changed);
      else printSchedule(changed);
    });
  schedule
    .command('remove')
    .description('remove a schedule (refused while it has future bookings, unless --force; bookings are kept)')
    .argument('<id>')
    .option('--force', 'remove even with future bookings')
    .action(async (idText: string, options: { force?: boolean }, command: Command) => {
      const scheduleId = id(idText, 'schedule id');
      await withContext(command, (ctx) => removeSchedule(ctx, scheduleId, Boolean(options.force)));
      print(`Removed schedule ${scheduleId}.`);
    });
}
