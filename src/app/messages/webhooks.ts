import { invalid, notFound } from '../../errors.ts';
import {
  DEFAULT_EVENTS,
  type Delivery,
  deleteWebhook,
  EVENT_TYPES,
  type EventType,
  findDelivery,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  requeueDelivery,
  webhookHealth,
} from '../../store/webhooks.ts';
import { type EventPayload, newEventId } from '../../webhooks/events.ts';
import { postWebhook } from '../../webhooks/sender.ts';
import { newWebhookSecret } from '../../webhooks/sign.ts';
import { checkWebhookUrl } from '../../webhooks/url.ts';
import { WEBHOOK_TIMEOUT_MS } from '../../webhooks/worker.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/** Parses `--events a,b` (default: the three booking events; `customer.erased` is opt-in), refusing unknown names. */
export function parseEvents(text: string | undefined): EventType[] {
  if (text === undefined) return [...DEFAULT_EVENTS];
  const names = [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.find((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (unknown !== undefined || names.length === 0)
    throw invalid(`--events takes ${EVENT_TYPES.join(', ')} (comma-separated)${unknown ? `, not "${unknown}"` : ''}`);
  return names as EventType[];
}

/** Adds a hook and returns its id and signing secret (shown this once; it signs every delivery). */
export function addWebhook(
  ctx: AppContext,
  url: string,
  options: { events?: string; includeCustomer: boolean; allowInsecure: boolean },
): { id: number; secret: string } {
  requireConfigured(ctx);
  const checked = checkWebhookUrl(url, options.allowInsecure);
  const events = parseEvents(options.events);
  const secret = newWebhookSecret();
  const id = insertWebhook(ctx.store, {
    url: checked,
    secret,
    events,
    includeCustomer: options.includeCustomer,
    allowInsecure: options.allowInsecure,
    createdAt: ctx.now().toISOString(),
  });
  return { id, secret };
}

function requireWebhook(ctx: AppContext, id: number) {
  const hook = findWebhook(ctx.store, id);
  if (!hook) throw notFound(`webhook ${id} does not exist (see \`planner webhook list\`)`);
  return hook;
}

/** The hooks (never their secrets), each with what is waiting or failed. */
export function webhooks(ctx: AppContext) {
  requireConfigured(ctx);
  const health = new Map(webhookHealth(ctx.store).map((row) => [row.webhookId, row]));
  return listWebhooks(ctx.store).map(({ secret: _secret, ...hook }) => {
    const state = health.get(hook.id);
    return { ...hook, waiting: state?.waiting ?? 0, failed: state?.failed ?? 0, lastError: state?.lastError ?? null };
  });
}

export function removeWebhook(ctx: AppContext, id: number): void {
  requireConfigured(ctx);
  deleteWebhook(ctx.store, requireWebhook(ctx, id).id);
}

/** Sends a signed `webhook.test` event now (not through the queue) and returns the receiver's HTTP status. */
export async function testWebhook(ctx: AppContext, id: number): Promise<{ status: number; eventId: string }> {
  requireConfigured(ctx);
  const hook = requireWebhook(ctx, id);
  const eventId = newEventId();
  const payload: EventPayload = {
    id: eventId,
    type: 'webhook.test',
    created_at: ctx.now().toISOString(),
    data: { webhook_id: hook.id },
  };
  try {
    const answer = await postWebhook(
      hook,
      { id: 'test', eventId, type: 'webhook.test', payload: JSON.stringify(payload) },
      { timeoutMs: WEBHOOK_TIMEOUT_MS, nowMs: ctx.now().getTime() },
    );
    return { status: answer.status, eventId };
  } catch (error) {
    throw invalid(`webhook ${id} (${hook.url}) could not be reached: ${(error as Error).message}`);
  }
}

/** The latest 100 deliveries, newest first (payload left out). */
export function deliveries(ctx: AppContext, failedOnly: boolean): Omit<Delivery, 'payload'>[] {
  requireConfigured(ctx);
  return listDeliveries(ctx.store, { failedOnly, limit: 100 }).map(({ payload: _payload, ...delivery }) => delivery);
}

/** Queues a delivery again, due at once (a running `planner serve` sends it within a second). */
export function retryDelivery(ctx: AppContext, id: number): void {
  requireConfigured(ctx);
  const delivery = findDelivery(ctx.store, id);
  if (!delivery) throw notFound(`delivery ${id} does not exist (see \`planner webhook deliveries\`)`);
  if (delivery.status === 'pending' && delivery.attempts === 0)
    throw invalid(`delivery ${id} is already waiting to be sent`);
  requeueDelivery(ctx.store, id, unixSeconds(ctx.now()));
}
