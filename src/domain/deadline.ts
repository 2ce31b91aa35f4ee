/**
 * The one rule of the self-service page's deadline: a customer may cancel or move a booking until
 * `--cancel-until` hours before its start, up to and including that second, and never once it has begun. The core's
 * change checks it under the write lock (app/bookings/lifecycle.ts), the page shows it (app/pages/portal.ts), each mail's manage
 * line follows it (mail/messages.ts), and `reminders set` warns of the reminders it leaves without a link
 * (domain/reminders.ts). Pure: the clock is passed in.
 */

/** The last instant (Unix seconds) a booking starting at `startAt` may be changed on the page: `cancelUntilHours` before it. */
export function changeDeadline(startAt: number, cancelUntilHours: number): number {
  return startAt - cancelUntilHours * 3600;
}

/** Where a booking stands for a change at `now`: open up to and including its deadline, then past it, then started. */
export type DeadlineState = 'open' | 'past-deadline' | 'started';

/** Returns whether a change at `now` (Unix seconds) is in time for a booking starting at `startAt`. */
export function deadlineState(startAt: number, cancelUntilHours: number, now: number): DeadlineState {
  if (now >= startAt) return 'started';
  return now > changeDeadline(startAt, cancelUntilHours) ? 'past-deadline' : 'open';
}

/**
 * Whether a reminder due `offsetMinutes` before the start still arrives with the page open, so its mail carries the
 * link: only when it is due before the deadline. One due at the deadline's very second is open at that second, but
 * the sender sends a message at its due second at the earliest and the mail's line is decided when it is sent
 * (mail/messages.ts manageActionAt): it nearly always finds the page closed, so it counts as after the deadline.
 */
export function reminderInTime(offsetMinutes: number, cancelUntilHours: number): boolean {
  return offsetMinutes * 60 > cancelUntilHours * 3600;
}
