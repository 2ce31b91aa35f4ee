/**
 * Group commit of bookings. Bookings asked for in the same turn of the event loop (concurrent POST
 * /bookings) are written in one transaction, each in its own savepoint, and share one write lock and one fsync:
 * the commit with `synchronous = FULL` was the largest single cost of a booking. Each answer is sent only after
 * the commit, so a 201 still means the booking, its mails and its webhook events are on disk; a member that fails
 * is rolled back alone and answered with its own error, as if it had been alone.
 */
import { asAppError } from '../../errors.ts';
import type { GroupOutcome, Store } from '../../store/db.ts';

/** At most this many bookings share a transaction: the write lock is not held for long. */
export const GROUP_LIMIT = 32;

interface Waiting {
  run: () => unknown;
  done: (value: any) => void;
  fail: (error: unknown) => void;
}

/**
 * Returns `join(run)`: runs `run` (a use case that writes through `store.tx`) in the next group commit and
 * resolves with its result once that commit is durable; rejects with its error, or with a storage error when the
 * transaction could not be committed (`what` names the change for the log).
 */
export function createCommitGroup(store: Store, what: string) {
  let waiting: Waiting[] = [];
  const flush = () => {
    const members = waiting.splice(0, GROUP_LIMIT);
    if (waiting.length > 0) setImmediate(flush);
    let outcomes: GroupOutcome<unknown>[];
    try {
      outcomes = store.group(members.map((member) => member.run));
    } catch (error) {
      outcomes = members.map(() => ({ ok: false, error })); // never leave a request waiting
    }
    outcomes.forEach((outcome, index) => {
      const member = members[index]!;
      if (outcome.ok) member.done(outcome.value);
      else member.fail(asAppError(outcome.error, what));
    });
  };
  return <T>(run: () => T): Promise<T> =>
    new Promise<T>((done, fail) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ run, done, fail });
    });
}
