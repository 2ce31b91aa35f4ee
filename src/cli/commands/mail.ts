import type { Command } from 'commander';
import { mailQueue, mailSettings, retryMail, sendTestMail, setMail } from '../../app/mail.ts';
import { id, print, printJson, printTable, withContext } from '../shared.ts';

export function registerMail(program: Command): void {
  const mail = program.command('mail').description('booking e-mails: SMTP settings and the outbox');
  mail
    .command('set')
    .description('set the SMTP server, e.g. `mail set smtp://user:pass@mail.example.com:587 --from "Praxis <desk@praxis.example>"`')
    .argument('<smtp-url>', 'smtp://… (STARTTLS when offered) or smtps://… (TLS)')
    .requiredOption('--from <address>', 'sender, e.g. "Praxis Dr. Weber <desk@praxis.example>"')
    .action(async (url: string, options: { from: string }, command: Command) => {
      const shown = await withContext(command, (ctx) => {
        setMail(ctx, url, options.from);
        return mailSettings(ctx);
      });
      print(`Mail goes out through ${shown.url} from ${shown.from}. Try it: planner mail test <address>`);
    });
  mail
    .command('show')
    .description('show the SMTP settings (password masked)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const shown = await withContext(command, (ctx) => mailSettings(ctx));
      if (options.json) printJson(shown);
      else print(shown.configured ? `url   ${shown.url}\nfrom  ${shown.from}` : 'Mail is not configured: planner mail set <smtp-url> --from <address>');
    });
  mail
    .command('test')
    .description('send a test message now and show the SMTP server’s answer')
    .argument('<to>', 'recipient address')
    .action(async (to: string, _options: unknown, command: Command) => {
      const answer = await withContext(command, (ctx) => sendTestMail(ctx, to));
      print(`Sent. The server answered: ${answer}`);
    });
  mail
    .command('queue')
    .description('list the messages not sent yet (waiting, retrying, failed)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const entries = await withContext(command, (ctx) => mailQueue(ctx));
      if (options.json) {
        printJson(entries.map(({ text: _text, html: _html, ics: _ics, ...entry }) => entry));
        return;
      }
      printTable(
        ['ID', 'KIND', 'TO', 'STATUS', 'ATTEMPTS', 'NEXT TRY (UTC)', 'LAST ERROR'],
        entries.map((e) => [
          e.id,
          e.kind,
          e.recipient,
          e.status,
          e.attempts,
          e.status === 'pending' ? new Date(e.nextAttemptAt * 1000).toISOString().slice(0, 19).replace('T', ' ') : '',
          e.lastError ?? '',
        ]),
        'The outbox is empty: every message has been sent.',
      );
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
