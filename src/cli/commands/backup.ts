import type { Command } from 'commander';
import { backupDatabase } from '../../app/operations/backup.ts';
import { print, readContext } from '../shared.ts';

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('write a consistent copy of the database, also while `planner serve` runs')
    .argument('<file>', 'where the copy goes (it must not exist yet)')
    .option('--force', 'replace an existing file')
    .action(async (target: string, options: { force?: boolean }, command: Command) => {
      const size = await readContext(command, (ctx) => backupDatabase(ctx, target, Boolean(options.force)));
      print(
        `Backed up to ${target} (${Math.ceil(size / 1024)} KiB). To restore: stop planner serve, copy it over the database, start it.`,
      );
    });
}
