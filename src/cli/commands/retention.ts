import type { Command } from 'commander';
import { readAudit } from '../../app/customers/audit.ts';
import { changeRetention, checkRetention } from '../../app/customers/erase.ts';
import { formatLocal, isDay } from '../../domain/dates.ts';
import { invalid } from '../../errors.ts';
import { print, printJson, printTable, readContext, withContext } from '../shared.ts';

export function registerRetention(program: Command): void {
  const retention = program
    .command('retention')
    .description(
      'how long personal data is kept: the server anonymises bookings that ended longer ago (off by default)',
    );
  retention
    .command('set')
    .description(
      'anonymise, once a day, the bookings that ended more than <months> months ago (as customer erase does, without cancelling); off: keep them',
    )
    .argument('<months|off>')
    .action(async (text: string, _options: unknown, command: Command) => {
      const months = checkRetention(text);
      await withContext(command, (ctx) => changeRetention(ctx, months));
      print(
        months === null
          ? 'Retention off: bookings keep their personal data until erased.'
          : `Retention ${months} months: a running server anonymises, once a day, the bookings that ended longer ago.`,
      );
    });
  retention
    .command('show')
    .description('show the retention')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const months = await readContext(command, (ctx) => ctx.settings().retentionMonths);
      if (options.json) printJson({ months });
      else
        print(
          months === null
            ? 'Retention off (planner retention set <months>).'
            : `Retention ${months} months after a booking's end.`,
        );
    });
}

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description(
      'who changed what: commands (with the system user), changes of bookings by the API, the page, the CLI and the front desk (by name), exports and erasures',
    )
    .option('--from <day>', 'from this local day on (YYYY-MM-DD, in the practice time zone; default: the last 30 days)')
    .option('--json', 'print JSON')
    .action(async (options: { from?: string; json?: boolean }, command: Command) => {
      if (options.from !== undefined && !isDay(options.from))
        throw invalid(`--from must be a day YYYY-MM-DD (got "${options.from}")`);
      const { entries, timeZone } = await readContext(command, (ctx) => readAudit(ctx, options.from));
      if (options.json) return printJson(entries); // as documented: `at` an ISO instant (UTC)
      // A person reads local times, to the second, the zone in the header (as the lists show theirs).
      printTable(
        [`AT (${timeZone})`, 'BY', 'WHAT'],
        entries.map((entry) => [
          formatLocal(new Date(entry.at), timeZone, true),
          entry.staffName
            ? `${entry.staffName} (${entry.staffRole}, front desk)`
            : `${entry.actor}${entry.osUser ? ` (${entry.osUser})` : ''}`,
          `${entry.action}${entry.reference ? ` ${entry.bookingId} ${entry.reference}` : ''}${entry.detail ? `: ${entry.detail}` : ''}`,
        ]),
        'No entries.',
      );
    });
}
