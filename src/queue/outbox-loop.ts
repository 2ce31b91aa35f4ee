/**
 * The loop both outboxes share, mail (src/mail/worker.ts) and webhook deliveries (src/webhooks/worker.ts): on each
 * pass of the pump it reads a batch of due items, takes each with a lease (so a second server, or one that died
 * mid-send, cannot send it twice within the lease), tries it once, and records what the retry policy decides: sent,
 * a retry at a later time, or failed. A queue says only how its items are read, taken, tried and recorded.
 * A worker that does not send queued items with retries (one that fetches on a timer) uses the pump (pump.ts) alone.
 */
import { startPump, type Pump } from './pump.ts';
import { decideRetry, DEFAULT_RETRY, type AttemptOutcome, type RetrySettings } from './retry-policy.ts';

/** Items read per pass; a full batch means more may be waiting, and the pump runs another pass at once. */
export const BATCH_SIZE = 20;

/** What the loop needs of an item: its id, and the attempts the retry policy counts. */
export interface QueueItem {
  id: number;
  attempts: number;
  /** Unix seconds its retries are counted from (the 48 h of the retry policy): when it first came due. */
  retryFrom: number;
}

/** One outbox: how its items are read, taken, tried and recorded. Times are Unix seconds. */
export interface OutboxQueue<Item extends QueueItem> {
  /** The queue's name in the log line of a pass that failed ("outbox", "webhook queue"). */
  what: string;
  /** How long a taken item is held by this process: longer than an attempt can take. */
  leaseSeconds: number;
  /** Called once at the start of each pass; false: nothing is tried this pass (mail without SMTP settings). */
  beginPass?(): boolean;
  /** The items due at `now`, at most `limit`, oldest first. */
  due(now: number, limit: number): Item[];
  /** Handles an item that is not to be tried (a reminder come too late) and returns true; else false. */
  settle?(item: Item, now: number): boolean;
  /** Takes the item until `until`; false when another process has it. */
  claim(id: number, now: number, until: number): boolean;
  /** Tries the item once; undefined when there is nothing to try any more (its webhook was removed). */
  attempt(item: Item): Promise<AttemptOutcome | undefined>;
  /** Records the outcome: sent at the ISO time `at`, failed with `reason`, or tried again at `at`. */
  sent(id: number, at: string): void;
  failed(id: number, reason: string): void;
  retry(id: number, reason: string, at: number): void;
  /** The item in a log line ("mail 3 (reminder)"). */
  describe(item: Item): string;
}

/** Starts draining `queue` every `pollMs` and when kicked (pump.ts); the log gets one line per failed attempt. */
export function startOutboxLoop<Item extends QueueItem>(
  queue: OutboxQueue<Item>,
  options: { log: (line: string) => void; nowMs: () => number; retry?: RetrySettings; pollMs?: number },
): Pump {
  const { nowMs, log } = options;
  const retry = options.retry ?? DEFAULT_RETRY;

  const record = (item: Item, outcome: AttemptOutcome) => {
    const decision = decideRetry(outcome, item, Math.floor(nowMs() / 1000), retry);
    if (decision.kind === 'sent') {
      queue.sent(item.id, new Date(nowMs()).toISOString());
    } else if (decision.kind === 'failed') {
      queue.failed(item.id, decision.reason);
      log(`planner: ${queue.describe(item)} failed${decision.permanent ? ' for good' : ''}: ${decision.reason}`);
    } else {
      queue.retry(item.id, decision.reason, decision.at);
      log(`planner: ${queue.describe(item)} not delivered, next try in ${decision.delaySeconds} s: ${decision.reason}`);
    }
  };

  const pump = startPump(
    async () => {
      if (queue.beginPass && !queue.beginPass()) return false;
      const now = Math.floor(nowMs() / 1000);
      const batch = queue.due(now, BATCH_SIZE);
      for (const item of batch) {
        if (pump.stopped()) return false;
        if (queue.settle?.(item, now)) continue;
        // The lease runs from the claim, not from the pass's start: an item reached after slow ones (20 webhooks of
        // 10 s each) would else be claimed with a lease already over, and a second server could send it meanwhile.
        const claimedAt = Math.floor(nowMs() / 1000);
        if (!queue.claim(item.id, claimedAt, claimedAt + queue.leaseSeconds)) continue; // another server took it
        const outcome = await queue.attempt(item);
        if (outcome) record(item, outcome);
      }
      return batch.length === BATCH_SIZE; // more may be waiting
    },
    { pollMs: options.pollMs ?? 1000, log, what: queue.what },
  );
  return pump;
}
