import type { Command } from 'commander';
import { reminderDeadlineWarning } from '../../app/messages/reminders.ts';
import { checkCancelUntil, disablePortal, enablePortal, pageRules, portalStatus } from '../../app/pages/portal.ts';
import { invalid } from '../../errors.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';
import { visible } from '../terminal.ts';
import { proxyLine } from './proxy.ts';

function onOff(text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw invalid(`--reschedule must be on or off (got "${text}")`);
}

/** The line that says the page is on, where, and what customers may do there. */
function enabledLine(portal: { url: string; reschedule: boolean; cancelUntilHours: number }): string {
  return `Self-service page enabled at ${portal.url}/manage/…: customers may ${pageRules(portal)} the start.`;
}

export function registerPortal(program: Command): void {
  const portal = program
    .command('portal')
    .description('the self-service page where customers cancel or move their appointment (off until enabled)');
  portal
    .command('enable')
    .description(
      'turn the page on: mails then carry <url>/manage/<token>; a running server sees it at its next request. ' +
        'Changing only some options keeps the others.',
    )
    .option(
      '--url <public-url>',
      'the public https address that reaches `planner serve` (http only for loopback), e.g. https://booking.praxis.example; needed the first time, then kept',
    )
    .option(
      '--cancel-until <duration>',
      'customers may cancel or move until this long before the start: 48 (a bare number counts hours), 48h or 2d (default 24h)',
    )
    .option('--reschedule <on|off>', 'offer moving to another free time (default on); cancelling is always offered')
    .option(
      '--trust-proxy <addresses>',
      'the reverse proxies whose X-Forwarded-For is believed, e.g. 127.0.0.1 (as `planner proxy set`; default none)',
    )
    .action(
      async (
        options: { url?: string; cancelUntil?: string; reschedule?: string; trustProxy?: string },
        command: Command,
      ) => {
        const cancelUntilHours = options.cancelUntil === undefined ? undefined : checkCancelUntil(options.cancelUntil);
        const reschedule = options.reschedule === undefined ? undefined : onOff(options.reschedule);
        const trustProxy = options.trustProxy;
        const { enabled, warning } = await withContext(command, (ctx) => ({
          enabled: enablePortal(ctx, { url: options.url, cancelUntilHours, reschedule, trustProxy }),
          warning: reminderDeadlineWarning(ctx),
        }));
        print(
          enabledLine(enabled),
          ...(enabled.trustedProxies ? [proxyLine(enabled.trustedProxies)] : []),
          'Mails sent from now on carry the link. Route /manage/ to planner in the reverse proxy (README: "Reverse proxy"), then check with planner doctor --url.',
        );
        if (warning) process.stderr.write(`planner: warning: ${visible(warning)}\n`);
      },
    );
  portal
    .command('disable')
    .description('turn the page off: every link answers "not valid", and mails carry no link')
    .action(async (_options: unknown, command: Command) => {
      await withContext(command, (ctx) => disablePortal(ctx));
      print('Self-service page disabled.');
    });
  portal
    .command('status')
    .description('show whether the page is on, its address and rules')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const status = await readContext(command, (ctx) => portalStatus(ctx));
      if (options.json) printJson(status);
      else if (!status.enabled)
        print('Self-service page disabled (planner portal enable --url <public-url> turns it on).');
      else print(enabledLine(status));
    });
}
