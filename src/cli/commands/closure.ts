import type { Command } from 'commander';
import { addClosure, closuresOf, removeClosure } from '../../app/hours.ts';
import { id, print, printJson, printTable, readContext, withContext } from '../shared.ts';

export function registerClosure(program: Command): void {
  const closure = program.command('closure').description('days a schedule is closed (holidays, absences)');
  closure
    .command('add')
    .description('close a schedule on one day or from one day to another (inclusive)')
    .argument('<schedule-id>')
    .argument('<from-day>', 'YYYY-MM-DD')
    .argument('[to-day]', 'YYYY-MM-DD, inclusive')
    .option('--note <text>', 'why, for the admin')
    .option('--json', 'print {"id": …}')
    .action(
      async (scheduleText: string, fromDay: string, toDay: string | undefined, options: { note?: string; json?: boolean }, command: Command) => {
        const scheduleId = id(scheduleText, 'schedule-id');
        const newId = await withContext(command, (ctx) => addClosure(ctx, scheduleId, fromDay, toDay, options.note ?? ''));
        if (options.json) printJson({ id: newId });
        else print(`Added closure ${newId}: schedule ${scheduleId} closed ${toDay && toDay !== fromDay ? `${fromDay} to ${toDay}` : fromDay}.`);
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
      else printTable(['ID', 'FROM', 'TO', 'NOTE'], list.map((c) => [c.id, c.fromDay, c.toDay, c.note]));
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
