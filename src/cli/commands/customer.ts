import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { exportCustomer, findCustomers } from '../../app/customers/customers.ts';
import { eraseCustomer } from '../../app/customers/erase.ts';
import { AppError, invalid } from '../../errors.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';
import { visible } from '../terminal.ts';

export function registerCustomer(program: Command): void {
  const customer = program
    .command('customer')
    .description("a customer's personal data: find a person, and everything planner holds about them");
  customer
    .command('find')
    .description(
      'people by name, e-mail address, phone number or booking reference (as bookings list --search finds bookings), with their bookings counted',
    )
    .argument('<text>')
    .option('--json', 'print JSON')
    .action(async (text: string, options: { json?: boolean }, command: Command) => {
      const found = await readContext(command, (ctx) => findCustomers(ctx, text));
      if (options.json) return printJson(found);
      if (found.length === 0) return print(`No customer holds "${visible(text)}".`);
      print(
        ...found.map(
          (match) =>
            `customer ${match.customerId}  ${visible(match.email ?? '(no e-mail address)')}  ${visible(match.names.join(' / ') || '(no name)')}${match.phones.length ? `  ${visible(match.phones.join(' / '))}` : ''}  ${match.bookings} booking(s): ${match.references.join(', ')}`,
        ),
      );
    });
  customer
    .command('export')
    .description(
      'everything planner holds about a person, as JSON: bookings with every field, mails, webhook deliveries, self-service links, changes',
    )
    .argument('<email-or-reference>')
    .option('--out <file>', 'write the JSON to a file that does not exist yet (default: standard output)')
    .option('--force', 'with --out: replace an existing file')
    .action(async (key: string, options: { out?: string; force?: boolean }, command: Command) => {
      // As `backup`: an existing file is kept unless --force, checked before anything is written (the audit entry).
      const out = options.out === undefined ? undefined : resolve(options.out);
      if (out !== undefined && existsSync(out) && !options.force)
        throw new AppError('conflict', `${out} exists; choose another name or pass --force to replace it`);
      // An export is written to the audit log (by withContext: the command, its user and when).
      const data = await withContext(command, (ctx) => exportCustomer(ctx, key));
      const summary = `customer ${data.customer.id} (${visible(data.customer.email ?? 'no e-mail address')}): ${data.bookings.length} booking(s), ${data.mails.length} mail(s), ${data.webhookDeliveries.length} webhook deliveries, ${data.selfService.length} self-service link(s), ${data.changes.length} change(s)`;
      if (out !== undefined) {
        // A file of its own, 0600 from the first byte ('wx'): a replaced file's mode and a file made meanwhile stay out.
        if (options.force) rmSync(out, { force: true });
        writeFileSync(out, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
        print(`Wrote ${options.out}: ${summary}.`);
      } else {
        process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        process.stderr.write(`${summary}\n`);
      }
    });
  customer
    .command('erase')
    .description(
      "cancels the person's future bookings, then replaces their personal data everywhere with a placeholder; bookings keep time, schedule, reason and status",
    )
    .argument('<email-or-reference>')
    .option('--no-notify', "cancel without mails to the customer (webhooks are told, without the customer's data)")
    .option('--yes', 'do not ask (needed without a terminal)')
    .action(async (key: string, options: { notify: boolean; yes?: boolean }, command: Command) => {
      if (!options.yes) {
        if (!process.stdin.isTTY)
          throw invalid('customer erase cannot be undone: confirm with --yes (no terminal to ask on)');
        const { confirm } = await import('@inquirer/prompts');
        const sure = await confirm({
          message: `Erase the personal data of ${key}, and cancel their future bookings? This cannot be undone.`,
          default: false,
        });
        if (!sure) return print('Nothing erased.');
      }
      const erased = await withContext(command, (ctx) => eraseCustomer(ctx, key, { notify: options.notify }));
      print(
        `Erased customer ${erased.customerId}: ${erased.erased.length} booking(s) keep their time, schedule, reason and status; their personal data is gone from the database.`,
        ...(erased.cancelled.length
          ? [`Cancelled first: ${erased.cancelled.join(', ')} (${toldWords(erased.told, options.notify)}).`]
          : []),
        'Backups and a replica keep older copies until they rotate (README: "Personal data (GDPR)").',
      );
      if (erased.wal === 'replicated') {
        print(
          'Litestream replicates this file (its table _litestream_seq is in it): its replica and the WAL keep the erased data until Litestream replaces them (README: "Personal data (GDPR)").',
        );
      }
      if (erased.notRewritten !== undefined) {
        process.stderr.write(
          `planner: warning: the file could not be rewritten now (${visible(erased.notRewritten)}), so its unused space may still hold a copy of the erased data; planner serve rewrites it within the hour, or run this erase again\n`,
        );
      }
      if (erased.wal === 'busy') {
        process.stderr.write(
          'planner: warning: another process was reading the file (a backup), so its WAL still holds a copy of the erased data; planner serve empties it within the hour, or run this erase again when the reader is done\n',
        );
      }
    });
}

/** What `customer erase` says of the cancellations' mails: sent by the server, not written at all, or not asked for. */
function toldWords(told: boolean, notify: boolean): string {
  if (told)
    return 'the customer is told; those mails wait for planner serve and lose their data once sent or failed for good';
  if (notify)
    return 'mail is not set up, so the customer is not told: no mail with their data waits in the outbox; call them if they should know';
  return 'without mails to the customer';
}
