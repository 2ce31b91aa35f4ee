import type { Command } from 'commander';
import { type BookingHistory, bookingHistory, localOfStored } from '../../app/bookings/booking-history.ts';
import { addAnyBooking, addBooking, addSeries, listBookingsFrom, requireBooking } from '../../app/bookings/bookings.ts';
import type { CreatedBooking } from '../../app/bookings/create-booking.ts';
import { cancelBooking, cancelSeries, moveBooking } from '../../app/bookings/lifecycle.ts';
import { type CreatedSeries, type NotFreeDate, SeriesNotFree, seriesOfBooking } from '../../app/bookings/series.ts';
import type { AppContext } from '../../app/context.ts';
import { bookingReminders } from '../../app/messages/reminders.ts';
import { requireConfigured } from '../../app/practice/configured.ts';
import { formatLocal, isSlotText } from '../../domain/dates.ts';
import { utcText } from '../../domain/days.ts';
import { repeatDays, SERIES_COUNT } from '../../domain/series.ts';
import { AppError, invalid } from '../../errors.ts';
import type { Booking } from '../../store/bookings.ts';
import { bookingJson, id, print, printJson, printTable, readContext, whole, withContext } from '../shared.ts';
import { explainingRefusal, reasonText } from './slots.ts';

/** Returns a slot argument as `YYYY-MM-DD HH:MM:SS` (seconds may be left out, `8:00` is `08:00`), or refuses it. */
function slotArgument(text: string): string {
  const written = text.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d):/, '$1 0$2:');
  const slot = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(written) ? `${written}:00` : written;
  if (!isSlotText(slot)) throw invalid(`"${text}" is not a local time YYYY-MM-DD HH:MM:SS`);
  return slot;
}

/** The lines of a booking's history: `  history   2026-01-05 10:12 moved by customer from 2026-01-20 09:00`. */
function historyLines(history: BookingHistory): string[] {
  const lines = history.entries.map((entry) => {
    const by =
      entry.by === null
        ? 'by someone not recorded (before planner kept a history)'
        : entry.staff
          ? `by ${entry.staff.name} (${entry.staff.role}, front desk)`
          : `by ${entry.by}`;
    return `${entry.localAt} ${entry.kind} ${by}${entry.previousLocalStart === null ? '' : ` from ${entry.previousLocalStart}`}`;
  });
  if (history.unrecorded > 0) lines.push(`${history.unrecorded} earlier change(s) made before planner kept a history`);
  return lines.map((line, index) => `  ${index === 0 ? 'history  ' : '         '} ${line}`);
}

/** Returns a series' interval and count from `--repeat` and `--count` (both or neither), or undefined for one booking. */
function seriesOptions(options: {
  repeat?: string;
  count?: string;
  skipTaken?: boolean;
}): { intervalDays: number; count: number; skipTaken: boolean } | undefined {
  if (options.repeat === undefined && options.count === undefined) {
    if (options.skipTaken) throw invalid('--skip-taken is for a series: give --repeat and --count too');
    return undefined;
  }
  if (options.repeat === undefined) throw invalid('--count needs --repeat: the time between the dates (1w, 2w, 7d)');
  if (options.count === undefined)
    throw invalid(`--repeat needs --count: how many dates (${SERIES_COUNT.min} to ${SERIES_COUNT.max})`);
  const days = repeatDays(options.repeat);
  if (days === undefined)
    throw invalid(
      `--repeat must be whole days or weeks from 1d to 52w, such as 1w, 2w or 7d (got "${options.repeat}")`,
    );
  const count = whole(options.count, '--count');
  if (count < SERIES_COUNT.min || count > SERIES_COUNT.max)
    throw invalid(`--count must be from ${SERIES_COUNT.min} to ${SERIES_COUNT.max} (got "${options.count}")`);
  return { intervalDays: days, count, skipTaken: options.skipTaken === true };
}

/**
 * Prints one booking made by `bookings add` (with a schedule id or `any`): as JSON (id, reference, customer, UTC start,
 * the practitioner, the reason), or the line that says with whom, when, what and for whom, read back from the booking.
 */
function printBooked(ctx: AppContext, created: CreatedBooking, zone: string, json: boolean): void {
  const booking = requireBooking(ctx, String(created.bookingId));
  const schedule = { id: booking.scheduleId, name: booking.scheduleName };
  const reason = { id: booking.reasonId, name: booking.reasonName };
  if (json) {
    printJson({
      id: created.bookingId,
      reference: created.reference,
      customerId: created.customerId,
      customerName: booking.customerName,
      start: utcText(created.startAt),
      schedule,
      reason,
    });
    return;
  }
  print(
    `Booked ${created.bookingId} (${created.reference}) with ${schedule.name} (schedule ${schedule.id}) for ${formatLocal(new Date(created.startAt * 1000), zone)} ${zone}: ${reason.name} (reason ${reason.id}), ${booking.customerName || booking.customerEmail || 'no name given'}. Its e-mails are in the outbox.`,
  );
}

/** Returns an interval of days as the admin wrote it: `every week`, `every 2 weeks`, `every 3 days`. */
function everyText(days: number): string {
  if (days % 7 === 0) return days === 7 ? 'every week' : `every ${days / 7} weeks`;
  return days === 1 ? 'every day' : `every ${days} days`;
}

/** Returns one date of a series that is not free, for the admin: the time, why, and the nearest free times that day. */
function notFreeText(refused: SeriesNotFree, date: NotFreeDate): string {
  const zone = refused.input.zone;
  const why = reasonText({ slot: date.slot, scheduleId: refused.scheduleId, input: refused.input }, date.refusal);
  const nearest = date.nearest.length
    ? `; nearest free that day: ${date.nearest.map((slot) => formatLocal(new Date(slot.startAt * 1000), zone).slice(11)).join(', ')}`
    : '; nothing free that day';
  return `${date.slot.slice(0, 16)} (${why}${nearest})`;
}

/** Runs `book`, turning a refused series into the one line that lists each date not free, why, and what to do. */
function explainingSeriesRefusal<T>(book: () => T): T {
  try {
    return book();
  } catch (error) {
    if (!(error instanceof SeriesNotFree)) throw error;
    const dates = error.dates.map((date) => notFreeText(error, date)).join(', ');
    const none = error.dates.length === error.total;
    throw new AppError(
      error.code,
      `the series is not booked: ${none ? `none of its ${error.total} dates is free` : `${error.dates.length} of its ${error.total} dates ${error.dates.length === 1 ? 'is' : 'are'} not free`}: ${dates}. Nothing was booked: ${none ? 'choose another time' : 'book the free dates with --skip-taken, or choose another time'} (planner slots ${error.scheduleId} ${error.reasonId} lists what is free).`,
    );
  }
}

/** Prints a booked series: each date with its booking, and the dates skipped. */
function printSeries(made: CreatedSeries, zone: string, json: boolean): void {
  const local = (unix: number) => formatLocal(new Date(unix * 1000), zone);
  if (json) {
    printJson({
      series: { id: made.seriesId, reference: made.reference, intervalDays: made.intervalDays },
      bookings: made.bookings.map((booking) => ({
        id: booking.bookingId,
        reference: booking.reference,
        customerId: booking.customerId,
        start: utcText(booking.startAt),
        localStart: local(booking.startAt),
      })),
      skipped: made.skipped.map((date) => ({
        slot: date.slot,
        why: date.refusal.why,
        nearest: date.nearest.map((slot) => slot.local),
      })),
    });
    return;
  }
  print(
    `Booked series ${made.seriesId} (${made.reference}): ${made.skipped.length ? `${made.bookings.length} of ${made.bookings.length + made.skipped.length} dates,` : `${made.bookings.length} appointments`} ${everyText(made.intervalDays)}, times in ${zone}.`,
    ...made.bookings.map((booking) => `  ${local(booking.startAt)}  ${booking.bookingId} (${booking.reference})`),
    ...made.skipped.map((date) => `  ${date.slot.slice(0, 16)}  skipped: not free (${date.refusal.why})`),
    'Their e-mails are in the outbox: one confirmation with every date.',
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `planner bookings add any <reason-id> <slot>`: books with whoever is free, and says who. */
async function addAny(
  command: Command,
  reasonText: string,
  slotText: string,
  options: { field: string[]; language?: string; json?: boolean },
): Promise<void> {
  const reasonId = id(reasonText, 'reason-id');
  const slot = slotArgument(slotText);
  await withContext(command, (ctx) => {
    const order = { reasonId, slot, values: options.field, language: options.language };
    const created = explainingRefusal(ctx, () => addAnyBooking(ctx, order));
    printBooked(ctx, created, requireConfigured(ctx).timeZone, options.json === true);
  });
}

/** The options of `bookings list`, as typed. */
interface ListOptions {
  schedule?: string;
  from?: string;
  to?: string;
  today?: boolean;
  week?: boolean;
  status?: string;
  search?: string;
  json?: boolean;
}

/** Returns a customer's short form in a narrow table: the first name's initial and the whole surname (`A. Lovelace`). */
function initialAndSurname(booking: Booking): string {
  const initial = Array.from(booking.customerFirstName.trim())[0];
  const surname = booking.customerLastName.trim();
  if (surname === '') return booking.customerName;
  return initial === undefined ? surname : `${initial}. ${surname}`;
}

/**
 * Prints `bookings list` as a table. A narrow terminal cuts the reference, schedule, reason and e-mail first; the
 * customer keeps the whole surname (`A. Lovelace`), never cut; the phone is never cut (the desk dials it).
 */
function printBookingTable(list: Booking[], zone: string, filtered: boolean): void {
  printTable(
    [
      'ID',
      'REFERENCE',
      'STATUS',
      `START (${zone})`,
      'MIN',
      'SCHEDULE',
      'REASON',
      'CUSTOMER',
      'EMAIL',
      'PHONE',
      'SOURCE',
    ],
    list.map((b) => [
      b.id,
      b.reference,
      b.status,
      formatLocal(new Date(b.startAt * 1000), zone),
      (b.endAt - b.startAt) / 60,
      b.scheduleName,
      b.reasonName,
      b.customerName,
      b.customerEmail ?? '',
      b.customerPhone,
      b.source,
    ]),
    filtered ? 'No bookings match.' : 'No bookings from that day on (cancelled ones: --status all).',
    // A cut reference is still found by the part shown: `--search`.
    { shrink: [1, 5, 6, 7, 8], short: { column: 7, cells: list.map(initialAndSurname) } },
  );
}

export function registerBookings(program: Command): void {
  const group = program.command('bookings').description('see the bookings');
  group
    .command('list')
    .description(
      'list bookings from a day on (default: today, in the practice time zone); cancelled ones only with --status; on a terminal the table fits its width',
    )
    .option('--schedule <id>', 'only this schedule')
    .option('--from <day>', 'first local day, YYYY-MM-DD or today (default today)')
    .option('--to <day>', 'last local day, YYYY-MM-DD or today (inclusive)')
    .option('--today', 'only today (the practice time zone)')
    .option('--week', 'only this week: Monday to Sunday of the week holding today (the practice time zone)')
    .option(
      '--status <status>',
      'booked (default), cancelled or all: cancelled bookings are left out unless asked for (in --json too)',
    )
    .option('--search <text>', 'part of a name, an e-mail, a phone number or a reference, in any case')
    .option('--json', 'print JSON')
    .action(async (options: ListOptions, command: Command) => {
      const scheduleId = options.schedule === undefined ? undefined : id(options.schedule, '--schedule');
      if (options.today && options.week) throw invalid('give --today or --week, not both');
      const period = options.today ? 'today' : options.week ? 'week' : undefined;
      await readContext(command, (ctx) => {
        const zone = requireConfigured(ctx).timeZone;
        const list = listBookingsFrom(ctx, {
          scheduleId,
          fromDay: options.from,
          toDay: options.to,
          period,
          status: options.status,
          search: options.search,
        });
        if (options.json) printJson(list.map((item) => bookingJson(item, zone)));
        else {
          const { search, status, to, today, week } = options;
          printBookingTable(
            list,
            zone,
            [search, status, to, today, week].some((given) => given !== undefined),
          );
        }
      });
    });
  group
    .command('add')
    .description(
      'book a slot for a customer, exactly as the API does (same checks, same e-mails); with --repeat and --count, a series at the same time; `bookings add any <reason-id> <slot>`: with whichever schedule offering the reason is free then (the fewest booked minutes that day, then the lowest id)',
    )
    .argument('<schedule-id>', 'a schedule id, or `any` (then the reason id and the slot follow)')
    .argument('<reason-id>')
    .argument('<slot>', 'local time "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DD HH:MM"); for a series, its first date')
    .option('--field <key=value>', 'a form value, e.g. --field first_name=Ada (repeat for each field)', collect, [])
    .option('--repeat <interval>', 'a series: the time between its dates, whole days or weeks (1w, 2w, 7d)')
    .option(`--count <n>`, `a series: how many dates (${SERIES_COUNT.min} to ${SERIES_COUNT.max})`)
    .option(
      '--skip-taken',
      'a series: book the free dates and list the others, whatever keeps them (taken, closed, beyond the look-ahead); default: all or nothing',
    )
    .option(
      '--language <lang>',
      "the customer's language, one the practice offers (practice set --languages): their mails and page (default: the practice's own)",
    )
    .option('--json', 'print JSON')
    .action(
      async (
        scheduleText: string,
        reasonText: string,
        slotText: string,
        options: {
          field: string[];
          repeat?: string;
          count?: string;
          skipTaken?: boolean;
          language?: string;
          json?: boolean;
        },
        command: Command,
      ) => {
        if (scheduleText === 'any') {
          // A course stays with one practitioner (a move keeps them too): a series names its schedule.
          if (options.repeat !== undefined || options.count !== undefined || options.skipTaken)
            throw invalid('a series is booked with one practitioner: give the schedule id instead of any');
          await addAny(command, reasonText, slotText, options);
          return;
        }
        const scheduleId = id(scheduleText, 'schedule-id');
        const reasonId = id(reasonText, 'reason-id');
        const slot = slotArgument(slotText);
        const series = seriesOptions(options);
        await withContext(command, (ctx) => {
          const zone = requireConfigured(ctx).timeZone;
          if (series) {
            const made = explainingSeriesRefusal(() =>
              addSeries(ctx, {
                scheduleId,
                reasonId,
                slot,
                ...series,
                values: options.field,
                language: options.language,
              }),
            );
            printSeries(made, zone, options.json === true);
            return;
          }
          const created = explainingRefusal(ctx, () =>
            addBooking(ctx, { scheduleId, reasonId, slot, values: options.field, language: options.language }),
          );
          printBooked(ctx, created, zone, options.json === true);
        });
      },
    );
  group
    .command('show')
    .description('show one booking by id or reference, with its reminders (due time and status)')
    .argument('<id-or-reference>')
    .option('--json', 'print JSON')
    .action(async (key: string, options: { json?: boolean }, command: Command) => {
      await readContext(command, (ctx) => {
        const zone = requireConfigured(ctx).timeZone;
        const booking = requireBooking(ctx, key);
        const history = bookingHistory(ctx, booking, zone);
        const series = seriesOfBooking(ctx, booking);
        const item = {
          ...bookingJson(booking, zone),
          reminders: bookingReminders(ctx, booking.id),
          history: history.entries,
          ...(series && {
            series: {
              id: series.id,
              reference: series.reference,
              intervalDays: series.intervalDays,
              dates: series.dates.map((one) => ({
                id: one.id,
                reference: one.reference,
                status: one.status,
                start: utcText(one.startAt),
                localStart: formatLocal(new Date(one.startAt * 1000), zone),
              })),
            },
          }),
        };
        if (options.json) {
          printJson(item);
          return;
        }
        const local = (iso: string | null) => (iso === null ? '' : localOfStored(iso, zone));
        print(
          `booking ${item.id} (${item.reference}), ${item.status}${item.cancelReason ? `: ${item.cancelReason}` : ''}${item.changedAt ? ` (changed ${local(item.changedAt)})` : ''}`,
          `  when      ${item.localStart} ${zone} (${item.start}), ${(item.endAt - item.startAt) / 60} min`,
          `  schedule  ${item.scheduleName} (${item.scheduleId})`,
          `  reason    ${item.reasonName} (${item.reasonId})`,
          `  customer  ${item.customerName} (${item.customerId})${item.customerEmail ? ` <${item.customerEmail}>` : ''}`,
          `  source    ${item.source}, created ${local(item.createdAt)}`,
          ...Object.entries(item.submission).map(([key, value]) => `  ${key.padEnd(9)} ${String(value)}`),
          ...item.reminders.map(
            (r) => `  reminder  ${r.dueLocal} ${zone}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`,
          ),
          ...historyLines(history),
          ...(item.series
            ? [
                `  series    ${item.series.id} (${item.series.reference}), ${item.series.dates.length} dates ${everyText(item.series.intervalDays)}:`,
                ...item.series.dates.map(
                  (date) =>
                    `            ${date.localStart}  ${date.status.padEnd(9)}  ${date.id} (${date.reference})${date.id === item.id ? ' (this one)' : ''}`,
                ),
              ]
            : []),
        );
      });
    });
  group
    .command('cancel')
    .description('cancel a booking: it is kept as cancelled, its time is free again at once, the customer is told')
    .argument('<id-or-reference>')
    .option('--reason <text>', 'why (one line; in the customer’s mail and `bookings show`)')
    .option('--series', 'cancel this date of a series and every later one (one mail to the customer)')
    .option('--no-notify', 'do not e-mail the customer')
    .option('--json', 'print JSON')
    .action(
      async (
        key: string,
        options: { reason?: string; series?: boolean; notify: boolean; json?: boolean },
        command: Command,
      ) => {
        await withContext(command, (ctx) => {
          const zone = requireConfigured(ctx).timeZone;
          const mail = (email: string | null) =>
            options.notify && email ? 'The customer’s mail is in the outbox.' : 'No mail to the customer.';
          if (options.series) {
            const cancelled = cancelSeries(ctx, key, { reason: options.reason, notify: options.notify });
            if (options.json) printJson(cancelled.map((one) => bookingJson(one, zone)));
            else
              print(
                `Cancelled ${cancelled.length === 1 ? 'this date' : `${cancelled.length} dates`} of the series, times in ${zone}:`,
                ...cancelled.map(
                  (one) => `  ${formatLocal(new Date(one.startAt * 1000), zone)}  ${one.id} (${one.reference})`,
                ),
                mail(cancelled[0]!.customerEmail),
              );
            return;
          }
          const cancelled = cancelBooking(ctx, key, { reason: options.reason, notify: options.notify });
          if (options.json) printJson(bookingJson(cancelled, zone));
          else
            print(
              `Cancelled ${cancelled.id} (${cancelled.reference}) of ${formatLocal(new Date(cancelled.startAt * 1000), zone)} ${zone}. ${mail(cancelled.customerEmail)}`,
            );
        });
      },
    );
  group
    .command('move')
    .description('move a booking to another free time, keeping its id and reference; the customer gets an update')
    .argument('<id-or-reference>')
    .argument('<new-slot>', 'local time "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DD HH:MM")')
    .option('--no-notify', 'do not e-mail the customer')
    .option('--force', 'allow a time within the schedule’s minimum notice')
    .option(
      '--schedule <id>',
      'to another practitioner who offers the booking’s reason too (planner reason set <reason-id> --schedules)',
    )
    .option('--json', 'print JSON')
    .action(
      async (
        key: string,
        slotText: string,
        options: { notify: boolean; force?: boolean; schedule?: string; json?: boolean },
        command: Command,
      ) => {
        const slot = slotArgument(slotText);
        const scheduleId = options.schedule === undefined ? undefined : id(options.schedule, '--schedule');
        await withContext(command, (ctx) => {
          const zone = requireConfigured(ctx).timeZone;
          const moved = explainingRefusal(
            ctx,
            () =>
              moveBooking(ctx, key, slot, {
                notify: options.notify,
                force: options.force === true,
                ...(scheduleId === undefined ? {} : { scheduleId }),
              }),
            true,
          );
          if (options.json) printJson(bookingJson(moved, zone));
          else
            print(
              `Moved ${moved.id} (${moved.reference}) to ${formatLocal(new Date(moved.startAt * 1000), zone)} ${zone}${scheduleId === undefined ? '' : ` with ${moved.scheduleName} (schedule ${moved.scheduleId})`}. ${options.notify && moved.customerEmail ? 'The customer’s update is in the outbox.' : 'No mail to the customer.'}`,
            );
        });
      },
    );
}
