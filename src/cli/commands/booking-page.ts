import type { Command } from 'commander';
import {
  type BookingPageOptions,
  type BookingPageStatus,
  bookingPageStatus,
  disableBookingPage,
  enableBookingPage,
} from '../../app/pages/booking-page.ts';
import type { BookingPageSettings } from '../../store/settings.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';

/** The lines that say where the page is and what it offers and refuses. */
function describe(page: BookingPageSettings & { url: string | null }): string[] {
  return [
    `Booking page enabled at ${page.url ?? '(no public address: planner portal enable --url <public-url>)'}: ${page.schedules === 'all' ? 'every schedule' : `schedule${page.schedules.length === 1 ? '' : 's'} ${page.schedules.join(', ')}`}.`,
    `Embedding: ${page.embedFrom.length ? `allowed from ${page.embedFrom.join(', ')}` : 'not allowed (--embed-from <origin> allows a site to show it in a frame)'}.`,
    `Privacy notice: ${page.privacyUrl ?? 'none (--privacy-url <url> adds a consent line that links it)'}.`,
    `Abuse limits: ${page.perHour} booking(s) an hour per address, ${page.perEmail} future booking(s) per e-mail address; forms 3 s to 2 h old; a honeypot field.`,
    `Look: ${page.colour ? `buttons in ${page.colour}` : "planner's blue buttons (--colour #rrggbb sets the practice's own)"}; ${page.logo ? 'the practice’s logo on every page' : 'no logo (--logo <file> adds a PNG, JPEG or WebP of at most 100 KiB and 2000 pixels on a side)'}.`,
  ];
}

export function registerBookingPage(program: Command): void {
  const page = program
    .command('booking-page')
    .description(
      'the public booking page at <public-url>/book/ for practices without an integrator (off until enabled)',
    );
  page
    .command('enable')
    .description(
      "turn the page on (served by planner serve at the self-service page's public address); changing only some options keeps the others",
    )
    .option('--schedules <ids|all>', 'the schedules it offers: ids separated by commas, or all (default all)')
    .option(
      '--embed-from <origins>',
      'the sites that may show it in a frame, e.g. https://www.praxis.example (none: no site)',
    )
    .option(
      '--privacy-url <url>',
      "the practice's privacy notice, linked from a consent line on the form (none: no line)",
    )
    .option('--per-hour <n>', 'bookings accepted from one client address in an hour (default 5)')
    .option(
      '--per-email <n>',
      'the page takes no booking for an e-mail address that holds this many future bookings, however made (default 3)',
    )
    .option(
      '--colour <#rrggbb>',
      'the colour of its buttons and day frames, dark enough for white text (4.5:1); default: planner’s blue',
    )
    .option(
      '--logo <file>',
      'a logo shown on every page: PNG, JPEG or WebP, at most 100 KiB and 2000 pixels on a side (none: no logo)',
    )
    .action(async (options: BookingPageOptions, command: Command) => {
      const enabled = await withContext(command, (ctx) => enableBookingPage(ctx, options));
      print(
        ...describe(enabled),
        'Route /book/ to planner in the reverse proxy (README: "The booking page"); a running server shows it at its next request.',
      );
    });
  page
    .command('disable')
    .description('turn the page off: /book/ answers "not found"; bookings made there stay')
    .action(async (_options: unknown, command: Command) => {
      await withContext(command, (ctx) => disableBookingPage(ctx));
      print('Booking page disabled.');
    });
  page
    .command('status')
    .description('show whether the page is on, its address, what it offers and its limits')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const status: BookingPageStatus = await readContext(command, (ctx) => bookingPageStatus(ctx));
      if (options.json) printJson(status);
      else if (!status.enabled) print('Booking page disabled (planner booking-page enable turns it on).');
      else
        print(
          ...describe(status),
          ...(status.offers.length
            ? status.offers.map((offer) => `  ${offer.id} ${offer.name}: ${offer.reasons.join(', ')}`)
            : ['  Nothing to book: no schedule it offers has hours and a reason (planner schedule list).']),
        );
    });
}
