import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { getStatus, type Status } from '../../app/installation.ts';
import { dbPath, print, printJson, withContext } from '../shared.ts';

function mailLine(mail: Status['mail']): string {
  const waiting = `${mail.pending} message(s) waiting, ${mail.failed} failed${mail.failed ? ' (planner mail queue)' : ''}`;
  return mail.configured
    ? `configured, from ${mail.from} · ${waiting}`
    : `not configured: booking e-mails wait in the outbox until \`planner mail set\` · ${waiting}`;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the state of the installation at a glance')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const file = dbPath(command);
      if (!existsSync(file)) {
        // Looking must not create: a mistyped --db would otherwise leave a new empty file behind.
        if (options.json) printJson({ database: file, exists: false, configured: false });
        else print(`No installation at ${file}. Start with: planner init (or pass --db <file>).`);
        return;
      }
      await withContext(command, (ctx) => {
        const status = getStatus(ctx);
        if (options.json) {
          printJson({ ...status, exists: true });
          return;
        }
        const { api, counts } = status;
        print(
          `database     ${status.database} (schema ${status.schemaVersion})`,
          status.configured
            ? `practice     ${status.practiceName} · ${status.timeZone} · locale ${status.locale} · notices to ${status.notifyEmail}`
            : 'practice     not configured: run `planner init`',
          `api          ${api.enabled ? 'enabled' : 'disabled'} · token ${api.tokenPresent ? `present (created ${api.tokenCreatedAt})` : 'none (planner token new)'} · limit ${api.rateLimitPerMinute}/min`,
          `mail         ${mailLine(status.mail)}`,
          `data         ${counts.schedules} schedule(s), ${counts.reasons} reason(s), ${counts.fields} form field(s), ${counts.customers} customer(s), ${counts.bookings} booking(s) (${counts.upcoming} upcoming)`,
        );
      });
    });
}
