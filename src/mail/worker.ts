import type { Store } from '../store/db.ts';
import { claim, dueMessages, markFailed, markRetry, markSent, type OutboxEntry } from '../store/outbox.ts';
import type { Settings } from '../store/settings.ts';
import { addressOf } from '../domain/checks.ts';
import { createMailer, describeFailure, isPermanentFailure, type Mailer } from './sender.ts';
import { retryDelay, startPump } from '../queue/pump.ts';

/** How long the worker keeps retrying one message before it marks it failed. */
export const GIVE_UP_AFTER_SECONDS = 48 * 3600;
/** A sender holds a message this long; if it dies meanwhile, another may send it. */
const LEASE_SECONDS = 120;

export interface OutboxWorkerOptions {
  store: Store;
  settings: () => Settings;
  log: (line: string) => void;
  /** First retry delay; doubles per attempt up to an hour (default 30 s). */
  retryBaseSeconds?: number;
  /** How often it looks for due messages (default 1 s); `kick()` looks at once. */
  pollMs?: number;
  nowMs?: () => number;
}

export interface OutboxWorker {
  /** Looks for due messages now (after a booking), without waiting for the next poll. */
  kick(): void;
  /** Delivers what is due now and resolves when that pass has finished. */
  flush(): Promise<void>;
  /** Stops polling and resolves when the delivery in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Starts delivering the outbox in the background of `planner serve`: due messages go out over SMTP one by one;
 * connection errors, time-outs and 4xx answers are retried with exponential back-off for 48 hours; 5xx answers
 * mark the message failed with the reason. Without SMTP settings, messages wait. Nothing here can fail a booking.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const nowMs = options.nowMs ?? Date.now;
  const base = options.retryBaseSeconds ?? 30;
  let mailer: { url: string; mailer: Mailer } | undefined;

  const mailerFor = (url: string): Mailer => {
    if (mailer?.url !== url) {
      mailer?.mailer.close();
      mailer = { url, mailer: createMailer(url) };
    }
    return mailer.mailer;
  };

  async function deliver(entry: OutboxEntry, settings: Settings & { mailUrl: string }): Promise<void> {
    const { store } = options;
    const from = settings.mailFrom ?? settings.notifyEmail ?? '';
    const domain = addressOf(from).split('@')[1] || 'planner.invalid';
    try {
      // A stable Message-ID per message: a receiver can drop the copy of a retry it had already taken.
      await mailerFor(settings.mailUrl).send(from, entry, `<outbox-${entry.id}-${entry.retryFrom}@${domain}>`);
      markSent(store, entry.id, new Date(nowMs()).toISOString());
    } catch (error) {
      const reason = describeFailure(error);
      const now = Math.floor(nowMs() / 1000);
      if (isPermanentFailure(error)) {
        markFailed(store, entry.id, reason);
        options.log(`planner: mail ${entry.id} (${entry.kind}) failed for good: ${reason}`);
      } else if (now - entry.retryFrom >= GIVE_UP_AFTER_SECONDS) {
        markFailed(store, entry.id, `gave up after ${GIVE_UP_AFTER_SECONDS / 3600} hours: ${reason}`);
        options.log(`planner: mail ${entry.id} (${entry.kind}) failed: gave up after 48 hours: ${reason}`);
      } else {
        const delay = retryDelay(entry.attempts + 1, base);
        markRetry(store, entry.id, reason, now + Math.ceil(delay));
        options.log(`planner: mail ${entry.id} (${entry.kind}) not delivered, next try in ${Math.ceil(delay)} s: ${reason}`);
      }
    }
  }

  const pump = startPump(
    async () => {
      const settings = options.settings();
      if (!settings.mailUrl) return false; // not configured: the messages wait
      const now = Math.floor(nowMs() / 1000);
      const batch = dueMessages(options.store, now, 20);
      for (const entry of batch) {
        if (pump.stopped()) return false;
        if (!claim(options.store, entry.id, now, now + LEASE_SECONDS)) continue; // another server took it
        await deliver(entry, settings as Settings & { mailUrl: string });
      }
      return batch.length === 20; // more may be waiting
    },
    { pollMs: options.pollMs ?? 1000, log: options.log, what: 'outbox' },
  );
  return {
    kick: pump.kick,
    flush: pump.flush,
    async stop() {
      await pump.stop();
      mailer?.mailer.close();
    },
  };
}
