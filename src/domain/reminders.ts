/**
 * Reminder offsets: how long before an appointment its reminders are due. Pure: `parseOffsets` reads what
 * `planner reminders set` takes (`24h,2h`, each a duration as every option takes it: `90`, `90m`, `1h30m`, `2d`;
 * or `off`) and returns problems as values.
 */
import { reminderInTime } from './deadline.ts';
import { formatDuration, parseDuration } from './durations.ts';

/** The shortest and longest offset, in minutes (1 minute to 30 days), and how many an installation may have. */
export const MIN_OFFSET_MINUTES = 1;
export const MAX_OFFSET_MINUTES = 30 * 24 * 60;
export const MAX_OFFSETS = 5;

/** Returns the offsets of `text` in minutes, largest first (`off`: none), or the problem in one line. */
export function parseOffsets(text: string): { ok: true; minutes: number[] } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'off') return { ok: true, minutes: [] };
  const parts = trimmed.split(',').map((part) => part.trim());
  const minutes: number[] = [];
  for (const part of parts) {
    const parsed = parseDuration(part); // a bare number counts minutes, as for every other duration
    if (!parsed.ok)
      return {
        ok: false,
        error: `"${part}" is not an offset: write durations such as 24h,2h or 1h30m (a bare number counts minutes), or off`,
      };
    const value = parsed.value;
    if (value < MIN_OFFSET_MINUTES || value > MAX_OFFSET_MINUTES)
      return { ok: false, error: `"${part}" is out of range: each offset is from 1m to 30d` };
    if (minutes.includes(value)) return { ok: false, error: `"${part}" is given twice (${formatOffset(value)})` };
    minutes.push(value);
  }
  if (minutes.length > MAX_OFFSETS)
    return { ok: false, error: `at most ${MAX_OFFSETS} offsets, not ${minutes.length}` };
  return { ok: true, minutes: minutes.sort((a, b) => b - a) };
}

/**
 * Returns an offset as written back to the user: `2d` from 2 days up, else `24h`, `90m` (a day reads as 24h); any
 * other in days, hours and minutes (`35h50m` is `1d11h50m`, never `2150m`).
 */
export function formatOffset(minutes: number): string {
  if (minutes % (24 * 60) === 0 && minutes >= 2 * 24 * 60) return `${minutes / (24 * 60)}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  if (minutes < 2 * 60) return `${minutes}m`;
  return formatDuration(minutes);
}

/** Returns the offsets as `planner reminders set` takes them: `24h,2h`, or `off`. */
export function formatOffsets(minutes: readonly number[]): string {
  return minutes.length === 0 ? 'off' : minutes.map(formatOffset).join(',');
}

/**
 * Returns when each reminder of an appointment starting at `startAt` is due (Unix seconds, real seconds: a day
 * before is 86,400 s before, across a daylight-saving change too), leaving out those not after `now` (the booking
 * was made inside that offset's window).
 */
export function reminderTimes(
  startAt: number,
  offsets: readonly number[],
  now: number,
): { offsetMinutes: number; dueAt: number }[] {
  return offsets
    .map((offsetMinutes) => ({ offsetMinutes, dueAt: startAt - offsetMinutes * 60 }))
    .filter(({ dueAt }) => dueAt > now);
}

/**
 * Returns the offsets (minutes) whose reminder arrives when the self-service page no longer allows a change: due at
 * or after its deadline of `cancelUntilHours` before the start (`reminderInTime` in domain/deadline.ts). Such a
 * reminder gives the phone number instead of the link (mail/messages.ts manageActionAt); `reminders set` and
 * `portal enable` warn about them.
 */
export function offsetsAfterDeadline(offsets: readonly number[], cancelUntilHours: number): number[] {
  return offsets.filter((minutes) => !reminderInTime(minutes, cancelUntilHours));
}

/** Why a reminder was not sent: the outbox `last_error` of a `dropped` reminder. */
export const DROPPED = {
  cancelled: 'booking cancelled',
  moved: 'booking moved',
  begun: 'the appointment had begun when the reminder came due',
  cancelledAtDue: 'the booking was cancelled when the reminder came due',
} as const;

/**
 * Why a due reminder is not sent after all (its booking was cancelled, or its appointment has begun), or undefined:
 * send it. Asked by the mail worker of every due message, with its booking as it is when it is due.
 */
export function reminderTooLate(
  message: { kind: string; booking: { startAt: number; cancelled: boolean } | null },
  now: number,
): string | undefined {
  if (message.kind !== 'reminder' || message.booking === null) return undefined;
  if (message.booking.cancelled) return DROPPED.cancelledAtDue;
  if (message.booking.startAt <= now) return DROPPED.begun;
  return undefined;
}

/** The reasons of reminders dropped by a change to their booking, not by the sender (`planner mail queue` leaves them out). */
export const DROPPED_BY_CHANGE: readonly string[] = [DROPPED.cancelled, DROPPED.moved];
