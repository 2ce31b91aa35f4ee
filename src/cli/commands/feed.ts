import type { Command } from 'commander';
import { makeFeedUrl } from '../../app/calendars/feed.ts';
import { id, print, withContext } from '../shared.ts';

export function registerFeed(program: Command): void {
  const feed = program
    .command('feed')
    .description("a schedule's calendar feed (iCalendar) for the practitioner's calendar app");
  feed
    .command('url')
    .description(
      'make the feed URL of a schedule and print it (once: only a hash of its secret is kept). It carries customer ' +
        'names, e-mails and phone numbers: give it only to the practitioner. Uses the self-service page\u2019s public ' +
        'URL, else --url',
    )
    .argument('<schedule-id>')
    .option('--rotate', 'make a new URL; the old one stops working at once')
    .option('--url <public-url>', 'the public https address of planner serve (when the self-service page is off)')
    .action(async (scheduleText: string, options: { rotate?: boolean; url?: string }, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const url = await withContext(command, (ctx) =>
        makeFeedUrl(ctx, scheduleId, { rotate: options.rotate === true, url: options.url }),
      );
      print(
        url,
        `Subscribe to it in the calendar app (it holds customer data: keep it private). ${options.rotate ? 'The previous URL no longer works.' : ''}`.trimEnd(),
      );
    });
}
