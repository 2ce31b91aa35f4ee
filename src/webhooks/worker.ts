import type { Store } from '../store/db.ts';
import { startPump, type Pump } from '../queue/pump.ts';
import { decideRetry, DEFAULT_RETRY, type AttemptOutcome, type RetrySettings } from '../queue/retry-policy.ts';
import { claimDelivery, dueDeliveries, findWebhook, markDelivered, markDeliveryFailed, markDeliveryRetry, type Delivery } from '../store/webhooks.ts';
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
  const retry = options.retry ?? DEFAULT_RETRY;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  async function deliver(delivery: Delivery): Promise<void> {
    const { store } = options;
    const hook = findWebhook(store, delivery.webhookId);
    if (!hook) return; // removed meanwhile: its deliveries went with it
    let outcome: AttemptOutcome;
    try {
      const answer = await postWebhook(hook, delivery, { timeoutMs, nowMs: nowMs() });
      outcome = answer.status >= 200 && answer.status < 300 ? { delivered: true } : { delivered: false, reason: `HTTP ${answer.status}` };
    } catch (error) {
      outcome = { delivered: false, reason: (error as Error).message };
    }
    const decision = decideRetry(outcome, delivery, Math.floor(nowMs() / 1000), retry);
    const what = `webhook delivery ${delivery.id} (${delivery.type}) to hook ${hook.id}`;
    if (decision.kind === 'sent') {
      markDelivered(store, delivery.id, new Date(nowMs()).toISOString());
    } else if (decision.kind === 'failed') {
      markDeliveryFailed(store, delivery.id, decision.reason);
      options.log(`planner: ${what} failed: ${decision.reason}`);
    } else {
      markDeliveryRetry(store, delivery.id, decision.reason, decision.at);
      options.log(`planner: ${what} not delivered, next try in ${decision.delaySeconds} s: ${decision.reason}`);
    }
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
