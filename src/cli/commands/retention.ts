import type { Command } from 'commander';
import { changeRetention, checkRetention } from '../../app/erase.ts';
import { readAudit } from '../../app/audit.ts';
import { requireConfigured } from '../../app/configured.ts';
import { invalid } from '../../errors.ts';
import { isDay } from '../../domain/dates.ts';
import { visible } from '../terminal.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';

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
      'who changed what: commands (with the system user), changes of bookings by the API, the page and the CLI, exports and erasures',
    )
    .option('--from <day>', 'from this day on (YYYY-MM-DD, UTC; default: the last 30 days)')
    .option('--json', 'print JSON')
    .action(async (options: { from?: string; json?: boolean }, command: Command) => {
      if (options.from !== undefined && !isDay(options.from))
        throw invalid(`--from must be a day YYYY-MM-DD (got "${options.from}")`);
      const entries = await readContext(command, (ctx) => {
        requireConfigured(ctx);
        const from = options.from
          ? `${options.from}T00:00:00.000Z`
          : new Date(ctx.now().getTime() - 30 * 86_400_000).toISOString();
        return readAudit(ctx, from);
      });
      if (options.json) return printJson(entries);
      if (entries.length === 0) return print('No entries.');
      print(
        ...entries.map(
          (entry) =>
            `${entry.at}  ${entry.actor}${entry.osUser ? ` (${visible(entry.osUser)})` : ''}  ${entry.action}${entry.reference ? ` ${entry.bookingId} ${entry.reference}` : ''}${entry.detail ? `: ${entry.detail}` : ''}`,
        ),
      );
    });
}
