/**
 * How each part of an installation stands, judged once: `planner status` and `planner doctor` both print these
 * verdicts, each in its own words (status a line per part, doctor a check with its fix), and never judge on their
 * own. A verdict is `ok`, `warn` (works, but something to do) or `fail` (customers or the practice miss something
 * now), with why.
 */
import { passwordMayTravelInClear } from '../../mail/sender.ts';
import type { OutboxCounts } from '../../store/outbox.ts';
import type { Settings } from '../../store/settings.ts';
import type { CalendarView } from '../calendars/calendar-views.ts';

export type Health = 'ok' | 'warn' | 'fail';

/** A verdict: how a part stands, and why (the words are the printer's). */
export interface Verdict<Why extends string> {
  health: Health;
  why: Why;
}

/**
 * The mail: failing while messages wait after a failed attempt (the SMTP server down or refusing); a warning when
 * messages failed for good, or when mail is not set up (booking mails wait); else ok.
 */
export function mailVerdict(
  configured: boolean,
  counts: OutboxCounts,
): Verdict<'not-configured' | 'retrying' | 'failed' | 'ok'> {
  if (counts.retrying > 0) return { health: 'fail', why: 'retrying' };
  if (!configured) return { health: 'warn', why: 'not-configured' };
  if (counts.failed > 0) return { health: 'warn', why: 'failed' };
  return { health: 'ok', why: 'ok' };
}

/**
 * How the mail travels: failing when the SMTP password may travel unencrypted (`--send-password-in-clear`); else ok.
 * None when mail is not set up.
 */
export function mailTransportVerdict(mailUrl: string | null): Verdict<'password-in-clear' | 'ok'> | undefined {
  if (mailUrl === null) return undefined;
  return passwordMayTravelInClear(mailUrl) ? { health: 'fail', why: 'password-in-clear' } : { health: 'ok', why: 'ok' };
}

/** A webhook: failing while deliveries are retried or failed for good; else ok. */
export function webhookVerdict(hook: { retrying: number; failed: number }): Verdict<'failing' | 'ok'> {
  return hook.retrying > 0 || hook.failed > 0 ? { health: 'fail', why: 'failing' } : { health: 'ok', why: 'ok' };
}

/**
 * A calendar not synced for this long, and for three of its intervals, is stale: no planner serve syncs it (a
 * server syncs every calendar at its interval, so three missed ones are no accident).
 */
export const STALE_AFTER_MS = 3_600_000;

/**
 * A practitioner's calendar, read: failing when its last sync failed (its last busy times still block, new events
 * are not seen); a warning when it has not been synced for three of its intervals and STALE_AFTER_MS (no planner
 * serve syncs it); else ok.
 */
export function calendarVerdict(
  calendar: Pick<CalendarView, 'state' | 'lastSuccess' | 'everyMinutes' | 'reconnect'>,
  nowMs: number,
): Verdict<'reconnect' | 'failing' | 'stale' | 'ok'> {
  // Said first and loudest: it does not heal by waiting.
  if (calendar.reconnect) return { health: 'fail', why: 'reconnect' };
  if (calendar.state === 'failing') return { health: 'fail', why: 'failing' };
  const synced = calendar.lastSuccess ? Date.parse(calendar.lastSuccess) : 0;
  if (nowMs - synced > Math.max(3 * calendar.everyMinutes * 60_000, STALE_AFTER_MS))
    return { health: 'warn', why: 'stale' };
  return { health: 'ok', why: 'ok' };
}

/**
 * A practitioner's calendar, written: failing while its writes fail (bookings are not in it), `stuck` after
 * STUCK_AFTER_SECONDS of it (said loudly: planner never gives them up); ok while it takes them, also while it
 * catches up with what waited during an outage; none when it does not receive bookings.
 */
export function calendarWriteVerdict(
  calendar: Pick<CalendarView, 'writing'>,
): Verdict<'stuck' | 'failing' | 'catching-up' | 'ok'> | undefined {
  if (!calendar.writing) return undefined;
  if (calendar.writing.stuck) return { health: 'fail', why: 'stuck' };
  if (calendar.writing.state === 'failing') return { health: 'fail', why: 'failing' };
  if (calendar.writing.state === 'catching-up') return { health: 'ok', why: 'catching-up' };
  return { health: 'ok', why: 'ok' };
}

/**
 * Planner's events in a practitioner's calendar, as its last read showed them: a warning when some were moved or
 * removed in a calendar app (the practitioner's calendar and planner disagree; the bookings hold); none when there
 * are none.
 */
export function calendarEditsVerdict(calendar: Pick<CalendarView, 'edits'>): Verdict<'edited'> | undefined {
  return calendar.edits.length > 0 ? { health: 'warn', why: 'edited' } : undefined;
}

/** The booking page: failing when it is on but not served (the self-service page it lives under is off). */
export function bookingPageVerdict(
  settings: Pick<Settings, 'bookingPage' | 'portal'>,
): Verdict<'off' | 'served' | 'not-served'> {
  if (!settings.bookingPage) return { health: 'ok', why: 'off' };
  return settings.portal ? { health: 'ok', why: 'served' } : { health: 'fail', why: 'not-served' };
}

/** A replica more than this far behind the database fails: the last minute's bookings would be lost with the server. */
export const REPLICA_LAG_LIMIT_SECONDS = 60;

/**
 * Off-site replication (Litestream): off is fine (a choice); failing when its configuration names this database but
 * its replica cannot be read, or when a replica is more than REPLICA_LAG_LIMIT_SECONDS behind the database. The newest
 * position's age alone is no fault: a quiet practice writes nothing for hours, and its replica has it all.
 */
export function replicationVerdict(
  replication:
    | { state: 'off' }
    | { state: 'unreadable' }
    | { state: 'on'; replicas: readonly { lagSeconds: number }[] },
): Verdict<'off' | 'unreadable' | 'behind' | 'ok'> {
  if (replication.state === 'off') return { health: 'ok', why: 'off' };
  if (replication.state === 'unreadable') return { health: 'fail', why: 'unreadable' };
  return replication.replicas.some((replica) => replica.lagSeconds > REPLICA_LAG_LIMIT_SECONDS)
    ? { health: 'fail', why: 'behind' }
    : { health: 'ok', why: 'ok' };
}
