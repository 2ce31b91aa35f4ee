import type { Command } from 'commander';
import { type DeskStatus, deskStatus, disableDesk, enableDesk, setDesk } from '../../app/desk/desk.ts';
import { formatDuration } from '../../domain/durations.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';

function sessionsLine(lengths: { idleMinutes: number; maxMinutes: number }): string {
  return `Sessions end after ${formatDuration(lengths.idleMinutes)} without a request, and ${formatDuration(lengths.maxMinutes)} after login.`;
}

function statusLines(status: DeskStatus): string[] {
  if (!status.enabled)
    return ['Front desk disabled (planner desk enable --url <public-url> turns it on).', sessionsLine(status)];
  return [
    `Front desk enabled at ${status.url}`,
    sessionsLine(status),
    `${status.staff} staff (${status.enrolled} enrolled), ${status.sessions} session(s) open.`,
  ];
}

export function registerDesk(program: Command): void {
  const desk = program
    .command('desk')
    .description(
      'the front desk at <public-url>/desk/: the day, callers booked and moved, behind a login (off until enabled)',
    );
  desk
    .command('enable')
    .description('turn the desk on; staff then log in at <url>/desk/ (planner staff add gives each a link)')
    .option(
      '--url <public-url>',
      'the public https address that reaches `planner serve` (http only for loopback); needed the first time unless the self-service page has one, then kept',
    )
    .action(async (options: { url?: string }, command: Command) => {
      const enabled = await withContext(command, (ctx) => enableDesk(ctx, options.url));
      print(
        `Front desk enabled at ${enabled.url}/desk/`,
        'Route /desk/ to planner in the reverse proxy (README: "Reverse proxy"), then add staff: planner staff add <email> --name <name> --role reception',
      );
    });
  desk
    .command('disable')
    .description('turn the desk off: every session ends, and /desk/ says it is off')
    .action(async (_options: unknown, command: Command) => {
      const ended = await withContext(command, (ctx) => disableDesk(ctx));
      print(`Front desk disabled; ${ended} session(s) ended.`);
    });
  desk
    .command('status')
    .description('show whether the desk is on, its address, its sessions, and how many staff')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const status = await readContext(command, (ctx) => deskStatus(ctx));
      if (options.json) printJson(status);
      else print(...statusLines(status));
    });
  desk
    .command('set')
    .description('how long a session lasts: --idle without a request (default 1h), --max after login (default 12h)')
    .option('--idle <duration>', 'e.g. 30m or 1h (5m to 24h)')
    .option('--max <duration>', 'e.g. 8h or 12h (5m to 168h)')
    .action(async (options: { idle?: string; max?: string }, command: Command) => {
      const lengths = await withContext(command, (ctx) => setDesk(ctx, options));
      print(sessionsLine(lengths));
    });
}
