import type { Command } from 'commander';
import { requireConfigured } from '../../app/practice/configured.ts';
import { addClosure, closuresOf, removeClosure, type StrandedBooking } from '../../app/practice/hours.ts';
import { formatLocal } from '../../domain/dates.ts';
import { invalid } from '../../errors.ts';
import { bookingJson, id, print, printJson, printTable, readContext, withContext } from '../shared.ts';

/** Returns a stranded booking for scripts: the instants as ISO UTC, the local start, and the commands that fix it. */
export function strandedJson(item: StrandedBooking, zone: string) {
  return {
    ...bookingJson(item, zone),
    fix: {
      slots: `planner slots ${item.scheduleId} ${item.reasonId}`,
      move: `planner bookings move ${item.reference} "YYYY-MM-DD HH:MM"`,
      cancel: `planner bookings cancel ${item.reference}`,
    },
  };
}

/**
 * Prints the upcoming bookings that the hours and closures no longer allow (nothing when there are none), with the
 * commands that move or cancel each: those this change left outside, and any an earlier change left there.
 */
export function printStranded(stranded: StrandedBooking[], zone: string): void {
  if (stranded.length === 0) return;
  print(
    stranded.length === 1
      ? 'Warning: 1 upcoming booking is outside the opening hours or on a closed day. It stays booked and the customer has not been told:'
      : `Warning: ${stranded.length} upcoming bookings are outside the opening hours or on a closed day. They stay booked and the customers have not been told:`,
  );
  printTable(
    ['REFERENCE', `START (${zone})`, 'WHY', 'SCHEDULE', 'REASON', 'CUSTOMER', 'PHONE'],
    stranded.map((item) => [
      item.reference,
      formatLocal(new Date(item.startAt * 1000), zone),
      item.why === 'closure' ? 'closed' : 'outside hours',
      `${item.scheduleName} (${item.scheduleId})`,
      `${item.reasonName} (${item.reasonId})`,
      item.customerName,
      item.phone,
    ]),
  );
  print(stranded.length === 1 ? 'Move it to a free time, or cancel it:' : 'Move each to a free time, or cancel it:');
  for (const item of stranded) {
    const fix = strandedJson(item, zone).fix;
    print(`  ${fix.slots}, then ${fix.move}   or   ${fix.cancel}`);
  }
}

/** Returns the schedule (or `all`) and the days of `closure add`'s arguments, by whether `--all-schedules` was given. */
function closureTarget(
  all: boolean,
  args: (string | undefined)[],
): { target: number | 'all'; fromDay: string; toDay: string | undefined } {
  const [first, second, third] = args;
  if (all) {
    if (first === undefined || third !== undefined || /^\d+$/.test(first)) {
      throw invalid(
        'with --all-schedules give only the days: `planner closure add --all-schedules <from-day> [to-day]`',
      );
    }
    return { target: 'all', fromDay: first!, toDay: second };
  }
  if (second === undefined) {
    throw invalid(
      'give the schedule and the day: `planner closure add <schedule-id> <from-day> [to-day]` (or `--all-schedules <from-day> [to-day]`)',
    );
  }
  return { target: id(first!, 'schedule-id'), fromDay: second, toDay: third };
}

export function registerClosure(program: Command): void {
  const closure = program.command('closure').description('days a schedule is closed (holidays, absences)');
  closure
    .command('add')
    .description(
      'close a schedule (or every schedule: --all-schedules) on one day or from one day to another (inclusive); ' +
        'lists the upcoming bookings on those days, to move or cancel',
    )
    .usage('<schedule-id> <from-day> [to-day] [options]  |  --all-schedules <from-day> [to-day] [options]')
    .argument('[schedule-id]', 'the schedule (left out with --all-schedules)')
    .argument('[from-day]', 'YYYY-MM-DD')
    .argument('[to-day]', 'YYYY-MM-DD, inclusive')
    .option('--all-schedules', 'close every schedule, in one change')
    .option('--note <text>', 'why, for the admin')
    .option('--json', 'print {"id": …, "stranded": […]} (with --all-schedules: {"closures": […], "stranded": […]})')
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        third: string | undefined,
        options: { note?: string; json?: boolean; allSchedules?: boolean },
        command: Command,
      ) => {
        const { target, fromDay, toDay } = closureTarget(options.allSchedules === true, [first, second, third]);
        await withContext(command, (ctx) => {
          const added = addClosure(ctx, target, fromDay, toDay, options.note ?? '');
          const zone = requireConfigured(ctx).timeZone;
          const stranded = added.stranded.map((item) => strandedJson(item, zone));
          if (options.json) {
            printJson(
              target === 'all' ? { closures: added.closures, stranded } : { id: added.closures[0]!.id, stranded },
            );
            return;
          }
          const days = toDay && toDay !== fromDay ? `${fromDay} to ${toDay}` : fromDay;
          for (const made of added.closures)
            print(`Added closure ${made.id}: schedule ${made.scheduleId} closed ${days}.`);
          printStranded(added.stranded, zone);
        });
      },
    );
  closure
    .command('list')
    .description('list the closures of a schedule')
    .argument('<schedule-id>')
    .option('--json', 'print JSON')
    .action(async (scheduleText: string, options: { json?: boolean }, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const list = await readContext(command, (ctx) => closuresOf(ctx, scheduleId));
      if (options.json) printJson(list);
      else
        printTable(
          ['ID', 'FROM', 'TO', 'NOTE'],
          list.map((c) => [c.id, c.fromDay, c.toDay, c.note]),
        );
    });
  closure
    .command('remove')
    .description('remove a closure')
    .argument('<id>')
    .action(async (idText: string, _options: unknown, command: Command) => {
      const closureId = id(idText, 'closure id');
      await withContext(command, (ctx) => removeClosure(ctx, closureId));
      print(`Removed closure ${closureId}.`);
    });
}
