import type { Command } from 'commander';
import {
  addReason,
  changeReasonAndSchedules,
  checkSeriesMax,
  reasonsOf,
  removeReason,
} from '../../app/practice/reasons.ts';
import { BUFFER_MAX_MINUTES, DURATION_MAX_MINUTES } from '../../domain/checks.ts';
import { invalid } from '../../errors.ts';
import type { ReasonValues } from '../../store/reasons.ts';
import {
  collect,
  id,
  languagesText,
  minutes,
  print,
  printJson,
  printTable,
  readContext,
  textsByLanguage,
  whole,
  withContext,
} from '../shared.ts';

interface ReasonOptions {
  name?: string[];
  duration?: string;
  bufferBefore?: string;
  bufferAfter?: string;
  description?: string[];
  position?: string;
  series?: string;
  schedules?: string;
  json?: boolean;
}

/** Returns the schedule ids written as `1` or `1,2,3` for `label`, or throws saying how to write them. */
function scheduleIds(text: string, label: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part)))
    throw invalid(`${label} must be schedule ids separated by commas, e.g. 1 or 1,2,3 (got "${text}")`);
  return parts.map((part) => id(part, label));
}

/** Returns `schedule 1` or `schedules 1, 2 and 3`. */
function schedulesText(ids: readonly number[]): string {
  if (ids.length === 1) return `schedule ${ids[0]}`;
  return `schedules ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
}

/** What --duration and the buffers may be, in minutes (`45`, `45m`, `1h30m`). */
const DURATION = { min: 1, max: DURATION_MAX_MINUTES };
const BUFFER = { min: 0, max: BUFFER_MAX_MINUTES };

/** The buffers given as options (only those given). */
function buffersOf(options: Pick<ReasonOptions, 'bufferBefore' | 'bufferAfter'>): {
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
} {
  return {
    ...(options.bufferBefore === undefined
      ? {}
      : { bufferBeforeMinutes: minutes(options.bufferBefore, '--buffer-before', BUFFER) }),
    ...(options.bufferAfter === undefined
      ? {}
      : { bufferAfterMinutes: minutes(options.bufferAfter, '--buffer-after', BUFFER) }),
  };
}

function bufferText(before: number, after: number): string {
  return before || after ? `, buffers ${before} min before, ${after} min after` : '';
}

/** What the booking page offers of a reason as a series, as `reason list` and `reason set` say it. */
function seriesText(max: number): string {
  return max === 0 ? 'off' : `up to ${max} weekly`;
}

export function registerReason(program: Command): void {
  const reason = program.command('reason').description('reasons (services) of a schedule, with their duration');
  reason
    .command('add')
    .description('add a reason to a schedule, or one reason offered by several (1,2,3: the same id at each)')
    .argument('<schedule-id>', 'a schedule id, or several separated by commas (1,2,3)')
    .argument('<name>')
    .requiredOption(
      '--duration <duration>',
      'length of the appointment: 45, 45m, 1h30m or 2h (a bare number counts minutes; at most 24h)',
    )
    .option('--description <text>', 'description shown to customers')
    .option(
      '--buffer-before <duration>',
      'time kept free before each appointment: 10, 10m or 1h, 0 to 4h (default 0); may lie outside the opening hours',
    )
    .option(
      '--buffer-after <duration>',
      'time kept free after each appointment: 10, 10m or 1h, 0 to 4h (default 0); may lie outside the opening hours',
    )
    .option('--json', 'print {"id": …}')
    .action(
      async (
        scheduleText: string,
        name: string,
        options: Omit<ReasonOptions, 'description'> & { description?: string },
        command: Command,
      ) => {
        const ids = [...new Set(scheduleIds(scheduleText, 'schedule-id'))];
        const durationMinutes = minutes(options.duration!, '--duration', DURATION);
        const buffers = buffersOf(options);
        const newId = await withContext(command, (ctx) =>
          addReason(ctx, ids, { name, durationMinutes, description: options.description, ...buffers }),
        );
        if (options.json) printJson({ id: newId });
        else
          print(
            `Added reason ${newId} "${name.trim()}" (${durationMinutes} min${bufferText(buffers.bufferBeforeMinutes ?? 0, buffers.bufferAfterMinutes ?? 0)}) to ${schedulesText(ids)}.`,
          );
      },
    );
  reason
    .command('list')
    .description('list the reasons a schedule offers (SCHEDULES: every schedule that offers each)')
    .argument('<schedule-id>')
    .option('--json', 'print JSON')
    .action(async (scheduleText: string, options: { json?: boolean }, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const list = await readContext(command, (ctx) => reasonsOf(ctx, scheduleId));
      if (options.json) printJson(list);
      else
        printTable(
          ['ID', 'NAME', 'MINUTES', 'BUFFERS', 'POSITION', 'SCHEDULES', 'SERIES', 'DESCRIPTION'],
          list.map((r) => [
            r.id,
            r.name,
            r.durationMinutes,
            `${r.bufferBeforeMinutes}/${r.bufferAfterMinutes}`,
            r.position,
            r.scheduleIds.join(','),
            seriesText(r.seriesMax),
            r.description,
          ]),
          `No reasons yet. Add one: planner reason add ${scheduleId} <name> --duration <duration>`,
        );
    });
  reason
    .command('set')
    .description('change a reason')
    .argument('<id>')
    .option('--name <name>', 'new name; --name fr=<name> sets it in one language (fr= alone removes it)', collect)
    .option('--duration <duration>', 'new duration: 45, 45m, 1h30m (a bare number counts minutes)')
    .option(
      '--description <text>',
      'new description ("" clears it); --description fr=<text> sets it in one language',
      collect,
    )
    .option(
      '--buffer-before <duration>',
      'new buffer before, 0 to 4h, e.g. 10 or 10m (applies to bookings made or moved from now on)',
    )
    .option(
      '--buffer-after <duration>',
      'new buffer after, 0 to 4h, e.g. 10 or 10m (applies to bookings made or moved from now on)',
    )
    .option('--position <n>', 'place in the list (1 = first)')
    .option(
      '--series <max>',
      'the booking page offers this reason as up to <max> weekly dates (2 to 52); 0 or off: single bookings only',
    )
    .option(
      '--schedules <ids>',
      'the schedules that offer it, e.g. 1,2,3 (at least one; one that stops offering it keeps its bookings of it)',
    )
    .option('--json', 'print the reason as JSON')
    .action(async (idText: string, options: ReasonOptions, command: Command) => {
      const reasonId = id(idText, 'reason id');
      const changes: Partial<ReasonValues> = {};
      const name = textsByLanguage(options.name, '--name');
      const description = textsByLanguage(options.description, '--description');
      if (name.own !== undefined) changes.name = name.own;
      if (options.duration !== undefined) changes.durationMinutes = minutes(options.duration, '--duration', DURATION);
      if (description.own !== undefined) changes.description = description.own;
      if (options.position !== undefined) changes.position = whole(options.position, '--position');
      Object.assign(changes, buffersOf(options));
      const seriesMax = options.series === undefined ? undefined : checkSeriesMax(options.series);
      const schedules = options.schedules === undefined ? undefined : scheduleIds(options.schedules, '--schedules');
      const { reason: changed, kept } = await withContext(command, (ctx) =>
        changeReasonAndSchedules(
          ctx,
          reasonId,
          {
            ...changes,
            ...(seriesMax === undefined ? {} : { seriesMax }),
            ...(name.texts ? { names: name.texts } : {}),
            ...(description.texts ? { descriptions: description.texts } : {}),
          },
          schedules,
        ),
      );
      if (options.json) printJson(changed);
      else
        print(
          `reason ${changed.id} "${changed.name}"${languagesText(changed.names)}: ${changed.durationMinutes} min${bufferText(changed.bufferBeforeMinutes, changed.bufferAfterMinutes)}, position ${changed.position}${schedules === undefined ? '' : `, offered by ${schedulesText(changed.scheduleIds)}`}${changed.seriesMax ? `, series up to ${changed.seriesMax} weekly dates on the booking page` : seriesMax === 0 ? ', single bookings only on the booking page (no series)' : ''}`,
          ...kept.map(
            (item) =>
              `Schedule ${item.scheduleId} no longer offers it; its ${item.bookings} future booking(s) of it are kept (they can be cancelled, not moved).`,
          ),
        );
    });
  reason
    .command('remove')
    .description('remove a reason (refused while it has future bookings, unless --force; bookings are kept)')
    .argument('<id>')
    .option('--force', 'remove even with future bookings')
    .action(async (idText: string, options: { force?: boolean }, command: Command) => {
      const reasonId = id(idText, 'reason id');
      await withContext(command, (ctx) => removeReason(ctx, reasonId, Boolean(options.force)));
      print(`Removed reason ${reasonId}.`);
    });
}
