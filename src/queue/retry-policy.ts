/** How long one message or delivery is retried, counted from its first attempt, before it is marked failed. */
export const GIVE_UP_AFTER_SECONDS = 48 * 3600;
/** The first retry delay unless the settings say otherwise; it doubles per attempt. */
export const BASE_SECONDS = 30;
/** The longest wait between two attempts. */
export const MAX_DELAY_SECONDS = 3600;

/** What the runtime reads from the environment (`PLANNER_MAIL_RETRY_SECONDS`, `PLANNER_WEBHOOK_RETRY_SECONDS`). */
export interface RetrySettings {
  /** First retry delay in seconds (may be a fraction: tests retry fast). */
  baseSeconds: number;
  /** How long an item is retried before it fails (default GIVE_UP_AFTER_SECONDS; calendar writes: never). */
  giveUpAfterSeconds?: number;
}

export const DEFAULT_RETRY: RetrySettings = { baseSeconds: BASE_SECONDS };

/**
 * How one attempt ended. `smtpCode`: the SMTP server's reply code, when it answered with one. `blocksLane`: the
 * receiver did not answer (a time-out), so its other items would hang alike (outbox-loop.ts's lanes wait a while).
 */
export type AttemptOutcome =
  | { delivered: true }
  | { delivered: false; reason: string; smtpCode?: number; blocksLane?: boolean };

/** What to do with the item after an attempt. `at` and `delaySeconds` are whole seconds; `reason` is what to store. */
export type RetryDecision =
  | { kind: 'sent' }
  | { kind: 'retry'; at: number; delaySeconds: number; reason: string }
  | { kind: 'failed'; permanent: boolean; reason: string };

/**
 * Returns what follows an attempt at `nowSeconds` of an item first tried at `retryFrom` and tried `attempts` times
 * before: sent; failed for good on an SMTP 5xx answer (it will not change on retry); failed once
 * GIVE_UP_AFTER_SECONDS have passed; else a retry after base, 2 × base, 4 × base … at most MAX_DELAY_SECONDS.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  item: { attempts: number; retryFrom: number },
  nowSeconds: number,
  settings: RetrySettings = DEFAULT_RETRY,
): RetryDecision {
  if (outcome.delivered) return { kind: 'sent' };
  const { reason, smtpCode } = outcome;
  if (smtpCode !== undefined && smtpCode >= 500 && smtpCode < 600) return { kind: 'failed', permanent: true, reason };
  const giveUpAfter = settings.giveUpAfterSeconds ?? GIVE_UP_AFTER_SECONDS;
  if (nowSeconds - item.retryFrom >= giveUpAfter) {
    return { kind: 'failed', permanent: false, reason: `gave up after ${giveUpAfter / 3600} hours: ${reason}` };
  }
  const delaySeconds = Math.ceil(Math.min(settings.baseSeconds * 2 ** item.attempts, MAX_DELAY_SECONDS));
  return { kind: 'retry', at: nowSeconds + delaySeconds, delaySeconds, reason };
}
