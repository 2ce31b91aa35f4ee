import type { Command } from 'commander';
import {
  type MailQueueEntry,
  mailQueue,
  mailSettings,
  retryMail,
  sendTestMail,
  setMail,
  userWithoutPassword,
} from '../../app/messages/mail.ts';
import { requireConfigured } from '../../app/practice/configured.ts';
import { id, print, printJson, printTable, readContext, secretInput, withContext } from '../shared.ts';

/** How many scheduled reminders the table shows (the next ones); --json lists all. */
const SCHEDULED_SHOWN = 20;

export function registerMail(program: Command): void {
  const mail = program.command('mail').description('booking e-mails: SMTP settings and the outbox');
  mail
    .command('set')
    .description(
      'set the SMTP server, e.g. `mail set smtp://desk%40praxis.example@mail.example.com:587 --from "Praxis <desk@praxis.example>"`; ' +
        'the password comes from a prompt, --password-stdin or PLANNER_SMTP_PASSWORD (never the command line, where other users and the shell history see it)',
    )
    .argument(
      '<smtp-url>',
      'smtp://user@host:587 (STARTTLS; required before the password is sent) or smtps://user@host:465 (TLS)',
    )
    .requiredOption('--from <address>', 'sender, e.g. "Praxis Dr. Weber <desk@praxis.example>"')
    .option('--password-stdin', 'read the password from standard input (e.g. from a secrets file: < smtp-password)')
    .option(
      '--send-password-in-clear',
      'INSECURE: send the password also when the server offers no STARTTLS (only on a network you trust)',
    )
    .action(
      async (
        url: string,
        options: { from: string; passwordStdin?: boolean; sendPasswordInClear?: boolean },
        command: Command,
      ) => {
        const password = await smtpPassword(url, options.passwordStdin === true);
        const shown = await withContext(command, (ctx) => {
          setMail(ctx, url, options.from, { password, passwordInClear: options.sendPasswordInClear });
          return mailSettings(ctx);
        });
        print(`Mail goes out through ${shown.url} from ${shown.from}. Try it: planner mail test <address>`);
        if (options.sendPasswordInClear) {
          process.stderr.write(
            'planner: warning: the SMTP password may now travel unencrypted (--send-password-in-clear); planner doctor reports it\n',
          );
        }
      },
    );
  mail
    .command('show')
    .description('show the SMTP settings (password masked)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const shown = await readContext(command, (ctx) => mailSettings(ctx));
      if (options.json) printJson(shown);
      else if (shown.configured) print(`url   ${shown.url}`, `from  ${shown.from}`);
      else print('Mail is not configured: planner mail set <smtp-url> --from <address>');
    });
  mail
    .command('test')
    .description('send a test message now and show the SMTP server’s answer')
    .argument('<to>', 'recipient address')
    .action(async (to: string, _options: unknown, command: Command) => {
      const answer = await readContext(command, (ctx) => sendTestMail(ctx, to));
      print(`Sent. The server answered: ${answer}`);
    });
  mail
    .command('queue')
    .description(
      'list the messages not sent yet: waiting (due now or retrying), then the scheduled reminders (each with its due ' +
        'time and booking), then failed ones, then reminders dropped in the last 7 days because they came due after ' +
        'the appointment had begun; --json prints every entry with its `section`',
    )
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { entries, zone } = await readContext(command, (ctx) => ({
        entries: mailQueue(ctx),
        zone: requireConfigured(ctx).timeZone,
      }));
      if (options.json) {
        printJson(entries.map(({ text: _text, html: _html, ics: _ics, ...entry }) => entry));
        return;
      }
      const of = (section: MailQueueEntry['section']) => entries.filter((entry) => entry.section === section);
      // Every time in the installation's zone, named in the header.
      printTable(
        ['ID', 'KIND', 'TO', 'STATUS', 'ATTEMPTS', `NEXT TRY (${zone})`, 'LAST ERROR'],
        [...of('waiting'), ...of('failed')].map((e) => [
          e.id,
          e.kind,
          e.recipient,
          e.status,
          e.attempts,
          e.status === 'pending' ? e.dueLocal : '',
          e.lastError ?? '',
        ]),
        of('scheduled').length === 0
          ? 'The outbox is empty: every message has been sent.'
          : 'No mail waiting: every message due has been sent.',
      );
      const scheduled = of('scheduled');
      if (scheduled.length > 0) {
        print('', `Scheduled reminders (${scheduled.length}), sent at their time:`);
        const shown = scheduled.slice(0, SCHEDULED_SHOWN);
        printTable(
          ['ID', `DUE (${zone})`, 'BOOKING', 'TO'],
          shown.map((e) => [e.id, e.dueLocal, e.bookingReference ?? '', e.recipient]),
        );
        if (scheduled.length > shown.length)
          print(`… and ${scheduled.length - shown.length} more (planner mail queue --json lists all)`);
      }
      const dropped = of('dropped');
      if (dropped.length > 0) {
        print('', 'Reminders not sent in the last 7 days (they came due too late):');
        printTable(
          ['ID', `DUE (${zone})`, 'BOOKING', 'TO', 'REASON'],
          dropped.map((e) => [e.id, e.dueLocal, e.bookingReference ?? '', e.recipient, e.lastError ?? '']),
        );
      }
    });
  mail
    .command('retry')
    .description('put failed messages back in the queue: one by id, or all')
    .argument('<id|all>')
    .action(async (which: string, _options: unknown, command: Command) => {
      const target = which === 'all' ? 'all' : id(which, 'message id');
      const count = await withContext(command, (ctx) => retryMail(ctx, target));
      print(`${count} message(s) queued again; a running \`planner serve\` sends them.`);
    });
}

/**
 * The SMTP password when it does not come in the URL: from standard input (`--password-stdin`, one line), else
 * `PLANNER_SMTP_PASSWORD`, else a prompt on a terminal, when the URL names a user but no password. Undefined
 * otherwise (`setMail` then says what is missing).
 */
async function smtpPassword(url: string, fromStdin: boolean): Promise<string | undefined> {
  if (fromStdin) return secretInput(true, 'PLANNER_SMTP_PASSWORD', '');
  const user = userWithoutPassword(url);
  if (user === undefined) return undefined; // setMail names what is wrong, if anything
  return secretInput(false, 'PLANNER_SMTP_PASSWORD', `SMTP password of ${user}`);
}
