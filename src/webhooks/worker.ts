import type { Store } from '../store/db.ts';
import { retryDelay, startPump, type Pump } from '../queue/pump.ts';
import { claimDelivery, dueDeliveries, findWebhook, markDelivered, markDeliveryFailed, markDeliveryRetry, type Delivery } from '../store/webhooks.ts';
import { postWebhook } from './sender.ts';

/** How long deliveries of one event are retried before they are marked failed (the issue asks for at least 24 h). */
export const WEBHOOK_GIVE_UP_SECONDS = 48 * 3600;
/** Time-out of one attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A sender holds a delivery this long (longer than an attempt can take); if it dies, another may send it. */
const LEASE_SECONDS = 60;

export interface WebhookWorkerOptions {
  store: Store;
  log: (line: string) => void;
  /** First retry delay in seconds; doubles per attempt up to an hour (default 30). */
  retryBaseSeconds?: number;
  pollMs?: number;
  timeoutMs?: number;
  nowMs?: () => number;
}

/**
 * Delivers webhook events in the background of `planner serve`, at least once: due deliveries are POSTed one by
 * one; a 2xx answer counts as delivered; anything else (another status, a refused connection, a time-out) is
 * retried with exponential back-off for 48 hours, then marked failed and reported by `planner status`. A hook is
 * never disabled: its later events are still tried.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): Pump {
  const nowMs = options.nowMs ?? Date.now;
  const base = options.retryBaseSeconds ?? 30;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  async function deliver(delivery: Delivery): Promise<void> {
    const { store } = options;
    const hook = findWebhook(store, delivery.webhookId);
    if (!hook) return; // removed meanwhile: its deliveries went with it
    let reason: string;
    try {
      const answer = await postWebhook(hook, delivery, { timeoutMs, nowMs: nowMs() });
      if (answer.status >= 200 && answer.status < 300) {
        markDelivered(store, delivery.id, new Date(nowMs()).toISOString());
        return;
      }
      reason = `HTTP ${answer.status}`;
    } catch (error) {
      reason = (error as Error).message;
    }
    const now = Math.floor(nowMs() / 1000);
    if (now - delivery.retryFrom >= WEBHOOK_GIVE_UP_SECONDS) {
      markDeliveryFailed(store, delivery.id, `gave up after ${WEBHOOK_GIVE_UP_SECONDS / 3600} hours: ${reason}`);
      options.log(`planner: webhook delivery ${delivery.id} (${delivery.type}) to hook ${hook.id} failed: gave up after 48 hours: ${reason}`);
      return;
    }
    const delay = Math.ceil(retryDelay(delivery.attempts + 1, base));
    markDeliveryRetry(store, delivery.id, reason, now + delay);
    options.log(`planner: webhook delivery ${delivery.id} (${delivery.type}) to hook ${hook.id} not delivered, next try in ${delay} s: ${reason}`);
  }

  const pump = startPump(
    async () => {
      const now = Math.floor(nowMs() / 1000);
      const batch = dueDeliveries(options.store, now, 20);
      for (const delivery of batch) {
        if (pump.stopped()) return false;
        if (!claimDelivery(options.store, delivery.id, now, now + LEASE_SECONDS)) continue;
        await deliver(delivery);
      }
      return batch.length === 20;
    },
    { pollMs: options.pollMs ?? 1000, log: options.log, what: 'webhook queue' },
  );
  return pump;
}
