import type { Command } from 'commander';
import { booking, bookings } from '../../app/bookings.ts';
import { requireConfigured } from '../../app/installation.ts';
import { utcText } from '../../domain/days.ts';
import { formatLocal } from '../../domain/values.ts';
import type { Booking } from '../../store/bookings.ts';
import { id, print, printJson, printTable, withContext } from '../shared.ts';

/** Returns the booking for scripts: instants as ISO UTC strings, plus the local start in the installation's zone. */
function bookingJson(item: Booking, zone: string) {
  return {
    ...item,
    start: utcText(item.startAt),
    end: utcText(item.endAt),
    localStart: formatLocal(new Date(item.startAt * 1000), zone),
    timeZone: zone,
  };
}

export function registerBookings(program: Command): void {
  const group = program.command('bookings').description('see the bookings');
  group
    .command('list')
    .description('list bookings from a day on (default: today, in the practice time zone)')
    .option('--schedule <id>', 'only this schedule')
    .option('--from <day>', 'first local day, YYYY-MM-DD')
    .option('--json', 'print JSON')
    .action(async (options: { schedule?: string; from?: string; json?: boolean }, command: Command) => {
      const scheduleId = options.schedule === undefined ? undefined : id(options.schedule, '--schedule');
      await withContext(command, (ctx) => {
        const zone = requireConfigured(ctx).timeZone;
        const list = bookings(ctx, { scheduleId, fromDay: options.from });
        if (options.json) {
          printJson(list.map((item) => bookingJson(item, zone)));
          return;
        }
        printTable(
          ['ID', 'REFERENCE', `START (${zone})`, 'MIN', 'SCHEDULE', 'REASON', 'CUSTOMER', 'EMAIL', 'SOURCE'],
          list.map((b) => [
            b.id,
            b.reference,
            formatLocal(new Date(b.startAt * 1000), zone),
            (b.endAt - b.startAt) / 60,
            b.scheduleName,
            b.reasonName,
            b.customerName,
            b.customerEmail ?? '',
            b.source,
          ]),
          'No bookings from that day on.',
        );
      });
    });
  group
    .command('show')
    .description('show one booking by id or reference')
    .argument('<id-or-reference>')
    .option('--json', 'print JSON')
    .action(async (key: string, options: { json?: boolean }, command: Command) => {
      await withContext(command, (ctx) => {
        const zone = requireConfigured(ctx).timeZone;
        const item = bookingJson(booking(ctx, key), zone);
        if (options.json) {
          printJson(item);
          return;
        }
        print(
          `booking ${item.id} (${item.reference})`,
          `  when      ${item.localStart} ${zone} (${item.start}), ${(item.endAt - item.startAt) / 60} min`,
          `  schedule  ${item.scheduleName} (${item.scheduleId})`,
          `  reason    ${item.reasonName} (${item.reasonId})`,
          `  customer  ${item.customerName} (${item.customerId})${item.customerEmail ? ` <${item.customerEmail}>` : ''}`,
          `  source    ${item.source}, created ${item.createdAt}`,
          ...Object.entries(item.submission).map(([key, value]) => `  ${key.padEnd(9)} ${String(value)}`),
        );
      });
    });
}
