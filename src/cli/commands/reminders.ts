import type { Command } from 'commander';
import { reminderDeadlineWarning, setReminders, showReminders } from '../../app/messages/reminders.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';
import { visible } from '../terminal.ts';

export function registerReminders(program: Command): void {
  const reminders = program
    .command('reminders')
    .description('reminder e-mails to customers before their appointment (a new installation: 48h before)');
  reminders
    .command('set')
    .description(
      'set when reminders go out, e.g. `reminders set 24h,2h`, or `reminders set off`. Each offset is 1m to 30d ' +
        '(units m, h, d; at most 5) and counts real hours: 24h is 86,400 seconds, also across a daylight-saving ' +
        'change. A booking made inside an offset’s window skips that reminder. The offsets apply to bookings made ' +
        'or moved afterwards: existing bookings are NOT rescheduled and keep the reminders they have (also after `off`)',
    )
    .argument(
      '<offsets>',
      'comma-separated offsets before the start, largest first or not (e.g. 24h,2h or 2d,90m), or off',
    )
    .action(async (offsets: string, _options: unknown, command: Command) => {
      const { set, warning } = await withContext(command, (ctx) => ({
        set: setReminders(ctx, offsets),
        warning: reminderDeadlineWarning(ctx),
      }));
      print(
        set.minutes.length === 0
          ? 'Reminders are off for bookings made or moved from now on.'
          : `Reminders go out ${set.offsets.replaceAll(',', ', ')} before each appointment booked or moved from now on.`,
        `${set.scheduled} reminder(s) already scheduled keep their times (existing bookings are not rescheduled).`,
      );
      if (warning) process.stderr.write(`planner: warning: ${visible(warning)}\n`);
    });
  reminders
    .command('show')
    .description('show the reminder offsets and how many reminders are scheduled')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const shown = await readContext(command, (ctx) => showReminders(ctx));
      if (options.json) printJson(shown);
      else
        print(
          `offsets    ${shown.offsets}`,
          `scheduled  ${shown.scheduled} reminder(s) not yet due (planner mail queue lists them)`,
        );
    });
}
