/**
 * A calendar's numbers in one place: how often a failed write is retried and for how long, how many calendars are
 * written at once and how long one that does not answer waits, and when the practice is told. The curve itself
 * (base, 2 × base, 4 × base … at most MAX_DELAY_SECONDS, an hour) is `decideRetry` in queue/retry-policy.ts; the
 * server's first delay may be set by PLANNER_CALENDAR_RETRY_SECONDS (app/operations/runtime.ts), the CLI's writes
 * (`deliverWrites`) keep WRITE_RETRY's.
 */
import { BASE_SECONDS, type RetrySettings } from '../../queue/retry-policy.ts';

/**
 * How often the server looks for calendars whose sync is due (one query; calendars added or removed count at once),
 * and, until the installation has a calendar, whether it has one (app/operations/runtime.ts).
 */
export const CALENDAR_POLL_MS = 5_000;
/** Calendar writes are never given up: a late one is still right. */
export const NEVER = Number.POSITIVE_INFINITY;
/** The retry policy of calendar writes: a 30 s base doubling up to an hour, never given up. */
export const WRITE_RETRY: RetrySettings = { baseSeconds: BASE_SECONDS, giveUpAfterSeconds: NEVER };
/**
 * How many calendars are written at once, each its own writes one at a time: a calendar that hangs holds one of them
 * for at most a write's time-out (20 s, calendar/write.ts), then waits without one (LANE_PAUSE_SECONDS), so the
 * others' writes go on.
 */
export const WRITE_LANES = 4;
/** The longest a calendar's writes wait after its server did not answer: a new write of it is tried within a minute. */
export const LANE_PAUSE_SECONDS = 60;
/** How long a calendar's reads, or its writes, fail before the practice is mailed (once, and once when it works again). */
export const ALERT_AFTER_SECONDS = 3600;
/** How often the writer looks whether a calendar has failed long enough to mail the practice, or writes again. */
export const ALERT_CHECK_MS = 60_000;
/** After this long failing, a calendar's writes are `stuck` (`status` and `doctor` say so loudly; still retried). */
export const STUCK_AFTER_SECONDS = 48 * 3600;
