/**
 * The loop both outboxes share, mail (src/mail/worker.ts) and webhook deliveries (src/webhooks/worker.ts): on each
 * pass of the pump it reads a batch of due items, takes each with a lease (so a second server, or one that died
 * mid-send, cannot send it twice within the lease), tries it once, and records what the retry policy decides: sent,
 * a retry at a later time, or failed. A queue says only how its items are read, taken, tried and recorded.
 * A queue whose items go to many receivers (calendar writes: one practitioner's calendar each) runs them in lanes:
 * each receiver's items one at a time, in order, and several receivers side by side, so one that hangs or fails holds
 * only its own items (`startLanedLoop`).
 * A worker that does not send queued items with retries (one that fetches on a timer) uses the pump (pump.ts) alone.
 */
import { type Pump, startPump } from './pump.ts';
import {
  type AttemptOutcome,
  DEFAULT_RETRY,
  decideRetry,
  type RetryDecision,
  type RetrySettings,
} from './retry-policy.ts';

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

interface LoopOptions {
  log: (line: string) => void;
  nowMs: () => number;
  retry?: RetrySettings;
  pollMs?: number;
}

/**
 * Records what the retry policy decides after `outcome` (one log line for each attempt that failed); returns the
 * decision.
 */
function recorder<Item extends QueueItem>(queue: OutboxQueue<Item>, options: LoopOptions) {
  const { nowMs, log } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  return (item: Item, outcome: AttemptOutcome): RetryDecision => {
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
    return decision;
  };
}

/**
 * Takes `item` with a lease and tries it once, recording the outcome; undefined when another process took it or
 * there was nothing to try. The lease runs from the claim, not from the pass's start: an item reached after slow ones
 * (20 webhooks of 10 s each) would else be claimed with a lease already over, and a second server could send it
 * meanwhile.
 */
async function tryOnce<Item extends QueueItem>(
  queue: OutboxQueue<Item>,
  item: Item,
  options: LoopOptions,
  record: (item: Item, outcome: AttemptOutcome) => RetryDecision,
): Promise<{ outcome: AttemptOutcome; decision: RetryDecision } | undefined> {
  const claimedAt = Math.floor(options.nowMs() / 1000);
  if (!queue.claim(item.id, claimedAt, claimedAt + queue.leaseSeconds)) return undefined; // another server took it
  const outcome = await queue.attempt(item);
  return outcome && { outcome, decision: record(item, outcome) };
}

/** Starts draining `queue` every `pollMs` and when kicked (pump.ts); the log gets one line per failed attempt. */
export function startOutboxLoop<Item extends QueueItem>(queue: OutboxQueue<Item>, options: LoopOptions): Pump {
  const record = recorder(queue, options);

  const pump = startPump(
    async () => {
      if (queue.beginPass && !queue.beginPass()) return false;
      const now = Math.floor(options.nowMs() / 1000);
      const batch = queue.due(now, BATCH_SIZE);
      for (const item of batch) {
        if (pump.stopped()) return false;
        if (queue.settle?.(item, now)) continue;
        await tryOnce(queue, item, options, record);
      }
      return batch.length === BATCH_SIZE; // more may be waiting
    },
    { pollMs: options.pollMs ?? 1000, log: options.log, what: queue.what },
  );
  return pump;
}

/** A queue whose items go to many receivers, each item to the receiver its lane names. */
export interface LanedQueue<Item extends QueueItem> extends OutboxQueue<Item> {
  /** The receiver an item goes to (a calendar's id). */
  laneOf(item: Item): number;
  /** The items due at `now`, at most `limit`, oldest first: of `lane` alone, or of every lane but those in `except`. */
  due(now: number, limit: number, lanes?: { only?: number; except?: readonly number[] }): Item[];
}

/**
 * Starts draining a queue of many receivers in lanes: each receiver's items one at a time, oldest first, and at most
 * `lanes` receivers at once, so that a receiver that hangs holds only its own lane. An attempt the receiver did not
 * answer (`blocksLane`: a time-out) pauses its lane until that item's retry, at most `pauseSeconds`, since its
 * other items would hang the same way and hold a lane each time; a failure that was answered (one event refused, a
 * 503) does not pause it. Every `pollMs`, when kicked, and when a lane ends, free lanes take the receivers with the
 * oldest due items.
 */
export function startLanedLoop<Item extends QueueItem>(
  queue: LanedQueue<Item>,
  options: LoopOptions & { lanes: number; pauseSeconds: number },
): Pump {
  const record = recorder(queue, options);
  const seconds = () => Math.floor(options.nowMs() / 1000);
  const running = new Map<number, Promise<void>>();
  /** Lanes whose receiver failed as a whole, until when (Unix seconds). */
  const paused = new Map<number, number>();

  const runLane = async (lane: number, first: Item): Promise<void> => {
    for (let item: Item | undefined = first; item && !pump.stopped(); ) {
      if (!queue.settle?.(item, seconds())) {
        const tried = await tryOnce(queue, item, options, record);
        if (tried && !tried.outcome.delivered && tried.outcome.blocksLane && tried.decision.kind === 'retry') {
          paused.set(lane, Math.min(tried.decision.at, seconds() + options.pauseSeconds));
          return;
        }
      }
      [item] = queue.due(seconds(), 1, { only: lane });
    }
  };
  const start = (lane: number, first: Item) => {
    const run = runLane(lane, first)
      .catch((error: unknown) =>
        options.log(`planner: the ${queue.what} could not be read: ${(error as Error).message}`),
      )
      .finally(() => {
        running.delete(lane);
        pump.kick(); // a lane is free: the receivers waiting for one start now, not at the next poll
      });
    running.set(lane, run);
  };

  const pump = startPump(
    async () => {
      if (queue.beginPass && !queue.beginPass()) return false;
      const now = seconds();
      for (const [lane, until] of paused) if (until <= now) paused.delete(lane);
      if (running.size >= options.lanes) return false;
      const batch = queue.due(now, BATCH_SIZE, { except: [...running.keys(), ...paused.keys()] });
      for (const item of batch) {
        if (running.size >= options.lanes || pump.stopped()) return false;
        const lane = queue.laneOf(item);
        if (!running.has(lane)) start(lane, item);
      }
      return batch.length === BATCH_SIZE && running.size < options.lanes; // more receivers may be waiting
    },
    { pollMs: options.pollMs ?? 1000, log: options.log, what: queue.what },
  );
  const lanesDone = async () => {
    while (running.size > 0) await Promise.all(running.values());
  };
  return {
    kick: pump.kick,
    async flush() {
      await pump.flush();
      await lanesDone();
    },
    async stop() {
      await pump.stop();
      await lanesDone();
    },
    stopped: pump.stopped,
  };
}
