import type { Command } from 'commander';
import { addAnyBooking, addBooking, listBookingsFrom, requireBooking } from '../../app/bookings.ts';
import { cancelBooking, moveBooking } from '../../app/lifecycle.ts';
import { bookingReminders } from '../../app/reminders.ts';
import { bookingHistory, localOfStored, type BookingHistory } from '../../app/booking-history.ts';
import { invalid } from '../../errors.ts';
import { requireConfigured } from '../../app/configured.ts';
import { utcText } from '../../domain/days.ts';
import { formatLocal, isSlotText } from '../../domain/dates.ts';
import { bookingJson, id, print, printJson, printTable, readContext, withContext } from '../shared.ts';
import { explainingRefusal } from './slots.ts';

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
    const by = entry.by === null ? 'by someone not recorded (before planner kept a history)' : `by ${entry.by}`;
    return `${entry.localAt} ${entry.kind} ${by}${entry.previousLocalStart === null ? '' : ` from ${entry.previousLocalStart}`}`;
  });
  if (history.unrecorded > 0) lines.push(`${history.unrecorded} earlier change(s) made before planner kept a history`);
  return lines.map((line, index) => `  ${index === 0 ? 'history  ' : '         '} ${line}`);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `planner bookings add any <reason-id> <slot>`: books with whoever is free, and says who. */
async function addAny(
  command: Command,
  reasonText: string,
  slotText: string,
  options: { field: string[]; json?: boolean },
): Promise<void> {
  const reasonId = id(reasonText, 'reason-id');
  const slot = slotArgument(slotText);
  await withContext(command, (ctx) => {
    const created = explainingRefusal(ctx, () => addAnyBooking(ctx, { reasonId, slot, values: options.field }));
    const zone = requireConfigured(ctx).timeZone;
    if (options.json)
      printJson({
        id: created.bookingId,
        reference: created.reference,
        customerId: created.customerId,
        start: utcText(created.startAt),
        schedule: { id: created.scheduleId, name: created.scheduleName },
      });
    else
      print(
        `Booked ${created.bookingId} (${created.reference}) with ${created.scheduleName} (schedule ${created.scheduleId}) for ${formatLocal(new Date(created.startAt * 1000), zone)} ${zone}. Its e-mails are in the outbox.`,
      );
  });
}

export function registerBookings(program: Command): void {
  const group = program.command('bookings').description('see the bookings');
  group
    .command('list')
    .description(
      'list bookings from a day on (default: today, in the practice time zone); on a terminal the table fits its width',
    )
    .option('--schedule <id>', 'only this schedule')
    .option('--from <day>', 'first local day, YYYY-MM-DD (default today)')
    .option('--to <day>', 'last local day, YYYY-MM-DD (inclusive)')
    .option('--status <status>', 'only booked or only cancelled ones')
    .option('--search <text>', 'part of a name, an e-mail, a phone number or a reference, in any case')
    .option('--json', 'print JSON')
    .action(
      async (
        options: { schedule?: string; from?: string; to?: string; status?: string; search?: string; json?: boolean },
        command: Command,
      ) => {
        const scheduleId = options.schedule === undefined ? undefined : id(options.schedule, '--schedule');
        await readContext(command, (ctx) => {
          const zone = requireConfigured(ctx).timeZone;
          const list = listBookingsFrom(ctx, {
            scheduleId,
            fromDay: options.from,
            toDay: options.to,
            status: options.status,
            search: options.search,
          });
          if (options.json) {
            printJson(list.map((item) => bookingJson(item, zone)));
            return;
          }
          const filtered = options.search !== undefined || options.status !== undefined || options.to !== undefined;
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
            filtered ? 'No bookings match.' : 'No bookings from that day on.',
            // The reference, schedule, reason, customer and e-mail; never the phone, which the desk dials (a cut
            // reference is still found by the part shown: `--search`).
            { shrink: [1, 5, 6, 7, 8] },
          );
        });
      },
    );
  group
    .command('add')
    .description(
      'book a slot for a customer, exactly as the API does (same checks, same e-mails); `bookings add any <reason-id> <slot>`: with whichever schedule offering the reason is free then (the fewest booked minutes that day, then the lowest id)',
    )
    .argument('<schedule-id>', 'a schedule id, or `any` (then the reason id and the slot follow)')
    .argument('<reason-id>')
    .argument('<slot>', 'local time "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DD HH:MM")')
    .option('--field <key=value>', 'a form value, e.g. --field first_name=Ada (repeat for each field)', collect, [])
    .option('--json', 'print JSON')
    .action(
      async (
        scheduleText: string,
        reasonText: string,
        slotText: string,
        options: { field: string[]; json?: boolean },
        command: Command,
      ) => {
        if (scheduleText === 'any') {
          await addAny(command, reasonText, slotText, options);
          return;
        }
        const scheduleId = id(scheduleText, 'schedule-id');
        const reasonId = id(reasonText, 'reason-id');
        const slot = slotArgument(slotText);
        await withContext(command, (ctx) => {
          const created = explainingRefusal(ctx, () =>
            addBooking(ctx, { scheduleId, reasonId, slot, values: options.field }),
          );
          const zone = requireConfigured(ctx).timeZone;
          if (options.json)
            printJson({
              id: created.bookingId,
              reference: created.reference,
              customerId: created.customerId,
              start: utcText(created.startAt),
            });
          else
            print(
              `Booked ${created.bookingId} (${created.reference}) for ${formatLocal(new Date(created.startAt * 1000), zone)} ${zone}. Its e-mails are in the outbox.`,
            );
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
        const item = {
          ...bookingJson(booking, zone),
          reminders: bookingReminders(ctx, booking.id),
          history: history.entries,
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
        );
      });
    });
  group
    .command('cancel')
    .description('cancel a booking: it is kept as cancelled, its time is free again at once, the customer is told')
    .argument('<id-or-reference>')
    .option('--reason <text>', 'why (one line; in the customer’s mail and `bookings show`)')
    .option('--no-notify', 'do not e-mail the customer')
    .option('--json', 'print JSON')
    .action(async (key: string, options: { reason?: string; notify: boolean; json?: boolean }, command: Command) => {
      await withContext(command, (ctx) => {
        const zone = requireConfigured(ctx).timeZone;
        const cancelled = cancelBooking(ctx, key, { reason: options.reason, notify: options.notify });
        if (options.json) printJson(bookingJson(cancelled, zone));
        else
          print(
            `Cancelled ${cancelled.id} (${cancelled.reference}) of ${formatLocal(new Date(cancelled.startAt * 1000), zone)} ${zone}. ${options.notify && cancelled.customerEmail ? 'The customer’s mail is in the outbox.' : 'No mail to the customer.'}`,
          );
      });
    });
  group
    .command('move')
    .description('move a booking to another free time, keeping its id and reference; the customer gets an update')
    .argument('<id-or-reference>')
    .argument('<new-slot>', 'local time "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DD HH:MM")')
    .option('--no-notify', 'do not e-mail the customer')
    .option('--force', 'allow a time within the schedule’s minimum notice')
    .option('--json', 'print JSON')
    .action(
      async (
        key: string,
        slotText: string,
        options: { notify: boolean; force?: boolean; json?: boolean },
        command: Command,
      ) => {
        const slot = slotArgument(slotText);
        await withContext(command, (ctx) => {
          const zone = requireConfigured(ctx).timeZone;
          const moved = explainingRefusal(
            ctx,
            () => moveBooking(ctx, key, slot, { notify: options.notify, force: options.force === true }),
            true,
          );
          if (options.json) printJson(bookingJson(moved, zone));
          else
            print(
              `Moved ${moved.id} (${moved.reference}) to ${formatLocal(new Date(moved.startAt * 1000), zone)} ${zone}. ${options.notify && moved.customerEmail ? 'The customer’s update is in the outbox.' : 'No mail to the customer.'}`,
            );
        });
      },
    );
}
