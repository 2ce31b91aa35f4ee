import type { Command } from 'commander';
import type { EditView } from '../../app/calendars/calendar-edits.ts';
import {
  busyTimesOfSchedule,
  type ConflictView,
  calendars,
  everyConflict,
} from '../../app/calendars/calendar-views.ts';
import type { CalendarSet, CalendarSettingsChange } from '../../app/calendars/calendars.ts';
import { requireConfigured } from '../../app/practice/configured.ts';
import { SYNC_EVERY_DEFAULT_MINUTES, SYNC_EVERY_MAX_MINUTES } from '../../domain/checks.ts';
import { formatLocal, isDay } from '../../domain/dates.ts';
import { AppError, invalid } from '../../errors.ts';
import {
  id,
  interactive,
  print,
  printJson,
  printTable,
  readContext,
  secretInput,
  whole,
  withContext,
} from '../shared.ts';
import { registerConnect, registerReconnect } from './calendar-connect.ts';

/** What the lists say when there is no calendar. */
const NO_CALENDARS =
  'No calendars. Add one: planner calendar add <schedule-id> <url>, or planner calendar connect <schedule-id> google|microsoft';

/** The longest span `calendar busy --days` lists. */
const BUSY_DAYS_MAX = 400;

/** Prints the bookings that busy times overlap, with what to do about them (nothing when there are none). */
function printConflicts(conflicts: readonly ConflictView[]): void {
  if (conflicts.length === 0) return;
  print(
    `${conflicts.length} upcoming booking(s) overlap a busy time of the practitioner's calendar (planner leaves them as they are; move or cancel them: planner bookings move <reference> <new-slot>, planner bookings cancel <reference>):`,
    ...conflicts.map(
      (conflict) =>
        `  ${conflict.reference}  ${conflict.start}  ${conflict.customerName || 'no name given'}, ${conflict.reasonName}  schedule ${conflict.scheduleId}  calendar ${conflict.calendarId}`,
    ),
  );
}

/**
 * Prints the bookings whose events were moved or removed in a calendar app, with what the calendar shows and what to
 * do (nothing when there are none).
 */
function printEdits(edits: readonly (EditView & { label: string })[]): void {
  if (edits.length === 0) return;
  const calendarIds = [...new Set(edits.map((edit) => edit.calendarId))];
  print(
    `${edits.length} booking(s) were changed in a calendar app, not in planner (the bookings hold: change them in planner; planner calendar repair ${calendarIds.length === 1 ? calendarIds[0] : '<id>'} writes planner's times back):`,
    ...edits.map(
      (edit) =>
        `  ${edit.reference}  booked ${edit.booked}  ${edit.shown === null ? edit.kind : `moved to ${edit.shown}`} in calendar ${edit.calendarId} (${edit.label})`,
    ),
  );
}

interface AddOptions {
  details?: string;
  name?: string;
  user?: string;
  passwordStdin?: boolean;
  every?: string;
  allowInsecure?: boolean;
  writeBookings?: boolean;
  json?: boolean;
}

interface SetOptions {
  details?: string;
  name?: string;
  user?: string;
  passwordStdin?: boolean;
  every?: string;
  writeBookings?: string;
  removeWritten?: boolean;
  json?: boolean;
}

/**
 * Writes what waits for calendar `calendarId` now and says how it went (the server's worker does the rest), with a
 * line for each event it wrote over that was not as planner had written it (changed or removed in an app).
 */
export async function writeNow(
  command: Command,
  calendarId: number,
  what: 'written' | 'deleted',
): Promise<{ line: string; overwritten: string[] }> {
  const { deliverWrites } = await import('../../app/calendars/calendar-writes.ts');
  const overwritten: string[] = [];
  const outcome = await withContext(command, (ctx) =>
    deliverWrites(ctx, calendarId, (line) => overwritten.push(line.replace(/^planner: /, ''))),
  );
  const done = `${outcome.written} event(s) ${what}`;
  const line = outcome.error
    ? `${done}; the rest wait and a running planner serve retries them: ${outcome.error}`
    : `${done}.`;
  return { line, overwritten };
}

export function registerCalendar(program: Command): void {
  const calendar = program
    .command('calendar')
    .description(
      'the practitioner’s own calendars (iCalendar address, CalDAV, Google or Microsoft): their busy times block booking',
    );
  registerAdd(calendar);
  registerConnect(calendar);
  registerReconnect(calendar);
  registerList(calendar);
  registerSync(calendar);
  registerBusy(calendar);
  registerSet(calendar);
  registerRepair(calendar);
  registerRemove(calendar);
}

/** `planner calendar add`. */
function registerAdd(calendar: Command): void {
  calendar
    .command('add')
    .description('add a calendar to a schedule; syncs it once, and adds nothing when that fails')
    .argument('<schedule-id>')
    .argument(
      '<url>',
      'an iCalendar address (https://…, webcal://…) or a CalDAV calendar collection; told apart by asking the server',
    )
    .option('--name <label>', 'how lists and mails name it (default: the address’s host)')
    .option(
      '--user <name>',
      'user name for the calendar’s server; the password comes from a prompt, --password-stdin or PLANNER_CALENDAR_PASSWORD',
    )
    .option('--password-stdin', 'read the password from the first line of standard input')
    .option(
      '--every <minutes>',
      `minutes between syncs, 1 to ${SYNC_EVERY_MAX_MINUTES}`,
      String(SYNC_EVERY_DEFAULT_MINUTES),
    )
    .option('--allow-insecure', 'allow plain http and local or private addresses (as for webhooks)')
    .option(
      '--write-bookings',
      'also write every booking of the schedule into this calendar (CalDAV only; checked by a test write)',
    )
    .option(
      '--details <full|minimal>',
      'what each written event tells of the customer: minimal (the reason, first name and reference; the default) or full (every answer of the form)',
    )
    .option('--json', 'print JSON')
    .action(async (scheduleText: string, url: string, options: AddOptions, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const everyMinutes = whole(options.every ?? String(SYNC_EVERY_DEFAULT_MINUTES), '--every');
      const { addCalendar, checkDetails } = await import('../../app/calendars/calendars.ts'); // the fetch and the parser: only for these commands
      const details = options.details === undefined ? undefined : checkDetails(options.details);
      if (details && !options.writeBookings) throw invalid('--details goes with --write-bookings');
      const password =
        options.user || options.passwordStdin
          ? await secretInput(
              options.passwordStdin === true,
              'PLANNER_CALENDAR_PASSWORD',
              `Password of ${options.user} for the calendar`,
            )
          : undefined;
      const added = await withContext(command, (ctx) =>
        addCalendar(ctx, scheduleId, url, {
          label: options.name,
          user: options.user,
          password,
          everyMinutes,
          allowInsecure: options.allowInsecure === true,
          writeBookings: options.writeBookings === true,
          details,
        }),
      );
      const written = options.writeBookings ? await writeNow(command, added.id, 'written') : undefined;
      if (options.json) {
        printJson(added);
        return;
      }
      print(
        `Calendar ${added.id} (${added.label}, ${added.kind}, ${added.url}) added to schedule ${scheduleId}: ${added.busy} busy time(s) in the schedule's window now block booking.`,
        `A running planner serve syncs it every ${added.everyMinutes} minute(s); planner calendar busy ${scheduleId} shows what blocks.`,
        ...(written
          ? [
              `It receives every booking of schedule ${scheduleId} from now on; its upcoming bookings: ${written.line}`,
              added.details === 'minimal'
                ? `Each event tells the reason, the customer's first name and the reference (planner calendar set ${added.id} --details full writes every answer of the form).`
                : 'Each event tells the reason, the customer and every answer of the form.',
              ...written.overwritten,
            ]
          : []),
      );
      printConflicts(added.conflicts);
    });
}

/** `planner calendar list`. */
function registerList(calendar: Command): void {
  calendar
    .command('list')
    .description('list the calendars: address masked, last success, busy times in the window, state')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { list, zone } = await readContext(command, (ctx) => ({
        list: calendars(ctx),
        zone: requireConfigured(ctx).timeZone,
      }));
      if (options.json) {
        printJson(list);
        return;
      }
      const local = (iso: string | null) => (iso ? formatLocal(new Date(iso), zone) : 'never');
      printTable(
        ['ID', 'SCHEDULE', 'LABEL', 'KIND', 'URL', `LAST SUCCESS (${zone})`, 'BUSY', 'STATE', 'WRITES BOOKINGS'],
        list.map((c) => [
          c.id,
          c.scheduleId,
          c.label,
          c.kind,
          c.url,
          local(c.lastSuccess),
          c.busy,
          c.reconnect
            ? `RECONNECT: ${c.reconnect.why}; reconnect: ${c.reconnect.command}`
            : c.state === 'ok'
              ? 'ok'
              : `failing since ${local(c.failingSince)}: ${c.lastError}`,
          !c.writing
            ? 'no'
            : `${c.details === 'minimal' ? 'yes (minimal details)' : 'yes'}, ${
                c.writing.state === 'ok'
                  ? `${c.writing.waiting} waiting`
                  : c.writing.state === 'catching-up'
                    ? `catching up: ${c.writing.waiting} left`
                    : `failing since ${local(c.writing.failingSince)}: ${c.writing.waiting} waiting: ${c.writing.lastError}`
              }`,
        ]),
        NO_CALENDARS,
      );
      // Each calendar's view holds its own (calendars() read them once): all of them, in the order they begin.
      printConflicts(everyConflict(list).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)));
      printEdits(list.flatMap((c) => c.edits.map((edit) => ({ ...edit, label: c.label }))));
    });
}

/** `planner calendar sync`. */
function registerSync(calendar: Command): void {
  calendar
    .command('sync')
    .description('sync now (one calendar, or all); exits 1 when one fails')
    .argument('[id]')
    .option('--json', 'print JSON')
    .action(async (text: string | undefined, options: { json?: boolean }, command: Command) => {
      const calendarId = text === undefined ? undefined : id(text);
      const { syncCalendars } = await import('../../app/calendars/calendars.ts');
      const outcomes = await withContext(command, (ctx) => syncCalendars(ctx, calendarId));
      const failed = outcomes.filter((outcome) => !outcome.ok);
      if (options.json) printJson(outcomes);
      else {
        for (const outcome of outcomes.filter((o) => o.ok)) {
          print(
            outcome.changed
              ? `Calendar ${outcome.id} (${outcome.label}): synced, ${outcome.added} busy time(s) added, ${outcome.removed} removed.`
              : `Calendar ${outcome.id} (${outcome.label}): synced, nothing changed.`,
          );
        }
        if (outcomes.length === 0) print(NO_CALENDARS);
        printConflicts(everyConflict(outcomes));
      }
      if (failed.length > 0) {
        const lines = failed.map(
          (outcome) => `calendar ${outcome.id} (${outcome.label}) could not be synced: ${outcome.error}`,
        );
        throw new AppError(
          'conflict',
          `${lines.join('; ')}; its last busy times still block (planner calendar list shows since when)`,
        );
      }
    });
}

/** `planner calendar busy`. */
function registerBusy(calendar: Command): void {
  calendar
    .command('busy')
    .description('the busy times planner derived for a schedule, in local time, each with its calendar')
    .argument('<schedule-id>')
    .option('--from <day>', 'first local day, YYYY-MM-DD (default today)')
    .option('--days <n>', `how many days, 1 to ${BUSY_DAYS_MAX}`, '7')
    .option('--json', 'print JSON')
    .action(
      async (scheduleText: string, options: { from?: string; days: string; json?: boolean }, command: Command) => {
        const scheduleId = id(scheduleText, 'schedule-id');
        if (options.from !== undefined && !isDay(options.from))
          throw invalid(`--from must be a day, YYYY-MM-DD (got "${options.from}")`);
        const days = whole(options.days, '--days');
        if (days < 1 || days > BUSY_DAYS_MAX) throw invalid(`--days must be from 1 to ${BUSY_DAYS_MAX} (got ${days})`);
        const { timeZone, busy } = await readContext(command, (ctx) =>
          busyTimesOfSchedule(ctx, scheduleId, options.from, days),
        );
        if (options.json) {
          printJson(busy.map((time) => ({ ...time, timeZone })));
          return;
        }
        printTable(
          [`START (${timeZone})`, 'END', 'CALENDAR'],
          busy.map((time) => [time.start, time.end, `${time.calendarId} ${time.calendar}`]),
          'No busy times in those days.',
        );
      },
    );
}

/** `planner calendar set`. */
function registerSet(calendar: Command): void {
  calendar
    .command('set')
    .description(
      'change a calendar without removing it: its name, interval, login, and whether it receives the bookings',
    )
    .argument('<id>')
    .option(
      '--write-bookings <on|off>',
      'on: write every upcoming booking of the schedule into it, and each new one; off: stop (what was written stays, unless --remove-written)',
    )
    .option('--remove-written', 'with --write-bookings off: delete the events planner wrote into the calendar')
    .option(
      '--details <full|minimal>',
      'what each written event tells of the customer: full (every answer of the form) or minimal (the reason, first name and reference); the events written are written again',
    )
    .option('--name <label>', 'how lists and mails name it')
    .option('--every <minutes>', `minutes between syncs, 1 to ${SYNC_EVERY_MAX_MINUTES}`)
    .option(
      '--user <name>',
      'a new login: the user name; the password comes from a prompt, --password-stdin or PLANNER_CALENDAR_PASSWORD',
    )
    .option('--password-stdin', 'read the new password from the first line of standard input')
    .option('--json', 'print JSON')
    .action(async (text: string, options: SetOptions, command: Command) => {
      const calendarId = id(text);
      const change = await changeOf(options);
      const { setCalendar } = await import('../../app/calendars/calendars.ts');
      const set = await withContext(command, (ctx) => setCalendar(ctx, calendarId, change));
      const written =
        set.queued > 0 || set.rewriting > 0
          ? await writeNow(command, calendarId, 'written')
          : set.removing > 0
            ? await writeNow(command, calendarId, 'deleted')
            : undefined;
      if (options.json) printJson(set);
      else print(...setLines(calendarId, change, set, written), ...(written?.overwritten ?? []));
    });
}

/** What `calendar set`'s options ask to change, checked (the password read from where they say). */
async function changeOf(options: SetOptions): Promise<CalendarSettingsChange> {
  const write = options.writeBookings;
  if (write !== undefined && write !== 'on' && write !== 'off')
    throw invalid(`--write-bookings takes on or off (got "${write}")`);
  const everyMinutes = options.every === undefined ? undefined : whole(options.every, '--every');
  const password =
    options.user || options.passwordStdin
      ? await secretInput(
          options.passwordStdin === true,
          'PLANNER_CALENDAR_PASSWORD',
          `New password${options.user ? ` of ${options.user}` : ''} for the calendar`,
        )
      : undefined;
  const { checkDetails } = await import('../../app/calendars/calendars.ts');
  return {
    details: options.details === undefined ? undefined : checkDetails(options.details),
    label: options.name,
    everyMinutes,
    user: options.user,
    password,
    writeBookings: write === undefined ? undefined : write === 'on',
    removeWritten: options.removeWritten === true,
  };
}

/** What `calendar set` says it did: the change, and what it wrote or deleted now (`written`). */
function setLines(
  calendarId: number,
  change: CalendarSettingsChange,
  set: CalendarSet,
  written: { line: string } | undefined,
): string[] {
  const schedule = set.view.scheduleId;
  const lines = [`Calendar ${calendarId} (${set.view.label}) changed.`];
  if (set.alreadyWriting)
    lines.push(
      `It already receives every booking of schedule ${schedule}: nothing to write. Events changed in a calendar app stay as they are until their booking changes; planner calendar repair ${calendarId} writes planner's times back now.`,
    );
  else if (change.writeBookings === true)
    lines.push(
      `It receives every booking of schedule ${schedule}; its upcoming bookings: ${written?.line ?? 'none to write.'}`,
    );
  if (set.rewriting > 0)
    lines.push(
      `Its events now tell ${change.details === 'minimal' ? "the reason, the customer's first name and the reference" : 'every answer of the form'}; written again: ${written?.line}`,
    );
  if (set.leftWritten)
    lines.push(
      'It no longer receives bookings; the events planner wrote stay in the calendar (planner calendar set --write-bookings off --remove-written deletes them).',
    );
  if (set.removing > 0 || (change.writeBookings === false && change.removeWritten))
    lines.push(`It no longer receives bookings; planner's events: ${written?.line ?? 'none to delete.'}`);
  return lines;
}

/** `planner calendar repair`. */
function registerRepair(calendar: Command): void {
  calendar
    .command('repair')
    .description(
      "write planner's bookings back over its events that were moved or removed in a calendar app (reads the calendar first)",
    )
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (text: string, options: { json?: boolean }, command: Command) => {
      const calendarId = id(text);
      const { repairCalendar } = await import('../../app/calendars/calendar-writes.ts');
      const outcome = await withContext(command, (ctx) => repairCalendar(ctx, calendarId));
      if (options.json) printJson(outcome);
      else if (outcome.edits.length === 0)
        print(
          `Calendar ${calendarId} (${outcome.label}): every event planner wrote is as planner wrote it; nothing to repair.`,
        );
      else
        print(
          `Calendar ${calendarId} (${outcome.label}): ${outcome.written} event(s) written; planner wrote its own over these:`,
          ...outcome.overwritten.map((line) => `  ${line}`),
        );
      if (outcome.error) throw invalid(`calendar ${calendarId}: ${outcome.error}`);
    });
}

/** `planner calendar remove`. */
function registerRemove(calendar: Command): void {
  calendar
    .command('remove')
    .description(
      'remove a calendar: its busy times no longer block; asks whether to delete the events planner wrote into it',
    )
    .argument('<id>')
    .option('--remove-written', 'delete the events planner wrote into the calendar first, without asking')
    .option('--keep-written', 'leave the events planner wrote in the calendar, without asking')
    .action(async (text: string, options: { removeWritten?: boolean; keepWritten?: boolean }, command: Command) => {
      const calendarId = id(text);
      if (options.removeWritten && options.keepWritten)
        throw invalid('give --remove-written or --keep-written, not both');
      const { writtenEvents, removeWrittenEvents } = await import('../../app/calendars/calendar-writes.ts');
      const { removeCalendar } = await import('../../app/calendars/calendars.ts');
      const events = await readContext(command, (ctx) => writtenEvents(ctx, calendarId));
      let remove = options.removeWritten === true;
      if (events > 0 && !options.removeWritten && !options.keepWritten) {
        if (!interactive()) {
          throw invalid(
            `calendar ${calendarId} holds ${events} event(s) planner wrote: give --remove-written to delete them first, or --keep-written to leave them`,
          );
        }
        const { confirm } = await import('@inquirer/prompts');
        remove = await confirm({
          message: `Delete the ${events} event(s) planner wrote into calendar ${calendarId} first?`,
          default: true,
        });
      }
      const deleted = remove ? await withContext(command, (ctx) => removeWrittenEvents(ctx, calendarId)) : 0;
      const removed = await withContext(command, (ctx) => removeCalendar(ctx, calendarId));
      print(
        `Calendar ${calendarId} (${removed.label}) removed: its busy times no longer block.`,
        ...(remove
          ? [`${deleted} event(s) planner wrote were deleted from it.`]
          : events > 0
            ? [`The ${events} event(s) planner wrote stay in it.`]
            : []),
      );
    });
}
