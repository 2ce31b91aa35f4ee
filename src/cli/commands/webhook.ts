import type { Command } from 'commander';
import {
  addWebhook,
  deliveries,
  removeWebhook,
  retryDelivery,
  testWebhook,
  webhooks,
} from '../../app/messages/webhooks.ts';
import { requireConfigured } from '../../app/practice/configured.ts';
import { formatLocal } from '../../domain/dates.ts';
import { id, print, printJson, printTable, readContext, withContext } from '../shared.ts';

export function registerWebhook(program: Command): void {
  const hook = program.command('webhook').description('signed webhooks for new, cancelled and changed bookings');
  hook
    .command('add')
    .description('add a hook; prints its signing secret once')
    .argument('<https-url>')
    .option(
      '--events <list>',
      'booking.created,booking.cancelled,booking.changed,customer.erased (default: the three booking events; customer.erased only when named)',
    )
    .option('--include-customer', 'also send the customer’s name and e-mail (personal data)')
    .option('--allow-insecure', 'allow plain http and local or private addresses (for testing)')
    .option('--json', 'print JSON')
    .action(
      async (
        url: string,
        options: { events?: string; includeCustomer?: boolean; allowInsecure?: boolean; json?: boolean },
        command: Command,
      ) => {
        const added = await withContext(command, (ctx) =>
          addWebhook(ctx, url, {
            events: options.events,
            includeCustomer: options.includeCustomer === true,
            allowInsecure: options.allowInsecure === true,
          }),
        );
        if (options.json) printJson(added);
        else
          print(
            `Webhook ${added.id} added. Its signing secret (shown this once; keep it with the receiver):`,
            added.secret,
          );
      },
    );
  hook
    .command('list')
    .description('list the hooks, with deliveries waiting or failed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const list = await readContext(command, (ctx) => webhooks(ctx));
      if (options.json) {
        printJson(list);
        return;
      }
      printTable(
        ['ID', 'URL', 'EVENTS', 'CUSTOMER', 'WAITING', 'FAILED', 'LAST ERROR'],
        list.map((h) => [
          h.id,
          h.url,
          h.events.join(','),
          h.includeCustomer ? 'yes' : 'no',
          h.waiting,
          h.failed,
          h.lastError ?? '',
        ]),
        'No webhooks. Add one: planner webhook add <https-url>',
      );
    });
  hook
    .command('remove')
    .description('remove a hook (deliveries not yet sent are dropped with it)')
    .argument('<id>')
    .action(async (text: string, _options: unknown, command: Command) => {
      const hookId = id(text);
      await withContext(command, (ctx) => removeWebhook(ctx, hookId));
      print(`Webhook ${hookId} removed.`);
    });
  hook
    .command('test')
    .description('send a signed webhook.test event now and show the receiver’s answer')
    .argument('<id>')
    .action(async (text: string, _options: unknown, command: Command) => {
      const answer = await readContext(command, (ctx) => testWebhook(ctx, id(text)));
      const ok = answer.status >= 200 && answer.status < 300;
      print(
        `Sent event ${answer.eventId}. The receiver answered HTTP ${answer.status}${ok ? ': it works.' : ': deliveries count only with a 2xx answer.'}`,
      );
      if (!ok) process.exitCode = 1;
    });
  hook
    .command('deliveries')
    .description('the latest 100 deliveries, newest first')
    .option('--failed', 'only those that failed for good')
    .option('--json', 'print JSON')
    .action(async (options: { failed?: boolean; json?: boolean }, command: Command) => {
      const { list, zone } = await readContext(command, (ctx) => ({
        list: deliveries(ctx, options.failed === true),
        zone: requireConfigured(ctx).timeZone,
      }));
      if (options.json) {
        printJson(list);
        return;
      }
      printTable(
        // Times in the installation's zone, named in the header, as in `mail queue`.
        ['ID', 'HOOK', 'EVENT', 'EVENT ID', 'STATUS', 'ATTEMPTS', `NEXT TRY (${zone})`, 'LAST ERROR'],
        list.map((d) => [
          d.id,
          d.webhookId,
          d.type,
          d.eventId,
          d.status,
          d.attempts,
          d.status === 'pending' ? formatLocal(new Date(d.nextAttemptAt * 1000), zone) : '',
          d.lastError ?? '',
        ]),
        options.failed ? 'No failed deliveries.' : 'No deliveries yet.',
      );
    });
  hook
    .command('retry')
    .description('send a delivery again (a failed one, or at once instead of at its next try)')
    .argument('<delivery-id>')
    .action(async (text: string, _options: unknown, command: Command) => {
      const deliveryId = id(text, 'delivery-id');
      await withContext(command, (ctx) => retryDelivery(ctx, deliveryId));
      print(`Delivery ${deliveryId} is queued again: a running planner serve sends it within a second.`);
    });
}
