import { startOutboxLoop } from '../queue/outbox-loop.ts';
import type { Pump } from '../queue/pump.ts';
import type { AttemptOutcome, RetrySettings } from '../queue/retry-policy.ts';
import type { Store } from '../store/db.ts';
import {
  claimDelivery,
  type Delivery,
  dueDeliveries,
  findWebhook,
  markDelivered,
  markDeliveryFailed,
  markDeliveryRetry,
} from '../store/webhooks.ts';
import { postWebhook } from './sender.ts';

/** Time-out of one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A sender holds a delivery this long (longer than an attempt can take); if it dies, another may send it. */
const LEASE_SECONDS = 60;

export interface WebhookWorkerOptions {
  store: Store;
  log: (line: string) => void;
  /** The retry policy's settings (the runtime reads them from the environment; default: a 30 s base). */
  retry?: RetrySettings;
  pollMs?: number;
  timeoutMs?: number;
  nowMs?: () => number;
}

/**
 * Delivers webhook events in the background of `planner serve`, at least once: due deliveries are POSTed one by
 * one; a 2xx answer counts as delivered; anything else (another status, a refused connection, a time-out) is
 * retried with exponential back-off (src/queue/retry-policy.ts), then marked failed and reported by
 * `planner status`. A hook is never disabled: its later events are still tried.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): Pump {
  const nowMs = options.nowMs ?? Date.now;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const { store } = options;

  async function attempt(delivery: Delivery): Promise<AttemptOutcome | undefined> {
    const hook = findWebhook(store, delivery.webhookId);
    if (!hook) return undefined; // removed meanwhile: its deliveries went with it
    try {
      const answer = await postWebhook(hook, delivery, { timeoutMs, nowMs: nowMs() });
      return answer.status >= 200 && answer.status < 300
        ? { delivered: true }
        : { delivered: false, reason: `HTTP ${answer.status}` };
    } catch (error) {
      return { delivered: false, reason: (error as Error).message };
    }
  }

  return startOutboxLoop<Delivery>(
    {
      what: 'webhook queue',
      leaseSeconds: LEASE_SECONDS,
      due: (now, limit) => dueDeliveries(store, now, limit),
      claim: (id, now, until) => claimDelivery(store, id, now, until),
      attempt,
      sent: (id, at) => markDelivered(store, id, at),
      failed: (id, reason) => markDeliveryFailed(store, id, reason),
      retry: (id, reason, at) => markDeliveryRetry(store, id, reason, at),
      describe: (delivery) => `webhook delivery ${delivery.id} (${delivery.type}) to hook ${delivery.webhookId}`,
    },
    { log: options.log, nowMs, retry: options.retry, pollMs: options.pollMs },
  );
}
