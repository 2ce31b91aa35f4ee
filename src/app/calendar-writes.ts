/**
 * Every booking in the practitioner's own calendar (issue 38). A calendar added with `--write-bookings` receives each
 * booking of its schedule: the triggers of migration 13 queue a write in every change's own transaction (whoever
 * makes it: the API, the pages, the CLI, an erase), and this worker, the mail and webhook workers' loop
 * (queue/outbox-loop.ts), makes the calendar's event match the booking as it is when it writes: booked → the event
 * (PUT, calendar/write.ts), cancelled, erased or writing turned off → no event (DELETE). So changes are written in
 * order, a create and a cancel while the calendar was down end with no event, and a crash loses nothing (a write not
 * recorded is written again over the same resource, never a copy). A calendar that cannot be written is retried,
 * never given up: a late write is still right. After an hour of failing the practice is mailed once, and once when
 * it writes again; `calendar list`, `status` and `doctor` say how many bookings wait and why.
 */
import { CalendarWriteError, deleteEvent, eventHref, putEvent } from '../calendar/write.ts';
import { submittedFields } from '../domain/submission.ts';
import { practitionerEventIcs } from '../mail/calendar.ts';
import { calendarAlert } from '../mail/calendar-alert.ts';
import { startLanedLoop, type LanedQueue } from '../queue/outbox-loop.ts';
import type { Pump } from '../queue/pump.ts';
import { BASE_SECONDS, decideRetry, type AttemptOutcome, type RetrySettings } from '../queue/retry-policy.ts';
import { invalid } from '../errors.ts';
import {
  claimWrite,
  countEvents,
  dueWrites,
  forgetEvent,
  markWriteFailed,
  markWriteRetry,
  markWritten,
  queueWritten,
  recordEvent,
  writeCounts,
  type DueWrite,
} from '../store/calendar-writes.ts';
import { findCalendar, listCalendars, markWriteAlerted, updateCalendar, type CalendarRow } from '../store/calendars.ts';
import { feedBookingById } from '../store/feed-rows.ts';
import { listFields } from '../store/fields.ts';
import { enqueue } from '../store/outbox.ts';
import { findSchedule } from '../store/schedules.ts';
import { ALERT_AFTER_SECONDS, failureLine } from './calendars.ts';
import { isConfigured, requireConfigured } from './configured.ts';
import { unixSeconds, type AppContext } from './context.ts';

/** A worker holds a write this long (a write takes at most 20 s: calendar/write.ts); if it dies, another takes it. */
const LEASE_SECONDS = 120;
/** Calendar writes are never given up: a late one is still right (issue 38). */
const NEVER = Number.POSITIVE_INFINITY;
/** How often the worker looks whether a calendar has failed long enough to mail the practice, or writes again. */
const ALERT_CHECK_MS = 60_000;
/**
 * How many calendars are written at once, each its own writes one at a time: a calendar that hangs holds one of them
 * for at most a write's time-out (20 s), then waits without one (at most a minute: queue/outbox-loop.ts), so the
 * others' writes go on.
 */
export const WRITE_LANES = 4;
/** The retry policy of calendar writes: a 30 s base doubling up to an hour, never given up (a late write is still right). */
const WRITE_RETRY: RetrySettings = { baseSeconds: BASE_SECONDS, giveUpAfterSeconds: NEVER };

export interface CalendarWriterOptions {
  log: (line: string) => void;
  nowMs?: () => number;
  /** The retry policy's settings (PLANNER_CALENDAR_RETRY_SECONDS in the runtime; default: a 30 s base). */
  retry?: RetrySettings;
  pollMs?: number;
}

/** What one write does: makes `calendar`'s event of the booking match the booking now. Throws CalendarWriteError. */
async function reconcile(
  ctx: AppContext,
  calendar: CalendarRow,
  write: DueWrite,
  log: (line: string) => void,
): Promise<void> {
  const booking = feedBookingById(ctx.store, write.bookingId);
  const target = {
    url: calendar.url,
    user: calendar.user ?? undefined,
    password: calendar.password ?? undefined,
    allowInsecure: calendar.allowInsecure,
  };
  const href = write.written?.href ?? (booking ? eventHref(calendar.url, booking.reference) : undefined);
  if (!booking || !href) return; // no such booking (a file edited by hand): nothing to write
  const wanted =
    calendar.writeBookings && booking.scheduleId === calendar.scheduleId && !booking.cancelled && !booking.erased;
  if (!wanted) {
    await deleteEvent(target, href);
    ctx.store.tx(() => forgetEvent(ctx.store, calendar.id, booking.id));
    return;
  }
  const settings = requireConfigured(ctx);
  const fields = submittedFields(listFields(ctx.store), booking.submission);
  const event = { ...booking, fields, changedAt: Math.floor(Date.parse(booking.changedAt) / 1000) };
  const location = settings.address ? `${settings.practiceName}, ${settings.address}` : '';
  const ics = practitionerEventIcs(event, settings.locale, location);
  const written = await putEvent(target, href, ics, write.written ? write.written.etag : undefined);
  ctx.store.tx(() => {
    // A calendar removed while its event was written (`calendar remove --keep-written`) has nothing to record into.
    if (findCalendar(ctx.store, calendar.id))
      recordEvent(ctx.store, calendar.id, booking.id, { href, etag: written.etag, sequence: booking.sequence });
  });
  if (written.overwritten && write.written) {
    log(
      `planner: calendar ${calendar.id} (${calendar.label}): the event of booking ${booking.reference} was changed or removed in the calendar; planner wrote it again`,
    );
  }
}

/** The queue of calendar writes as the outbox loop runs it (the server's worker, and `deliverWrites` for the CLI). */
function writeQueue(ctx: AppContext, options: { log: (line: string) => void }): LanedQueue<DueWrite> {
  const versions = new Map<number, number>();
  return {
    what: 'calendar writes',
    leaseSeconds: LEASE_SECONDS,
    laneOf: (write) => write.calendarId,
    due: (now, limit, lanes) =>
      dueWrites(ctx.store, now, limit, lanes).map((write) => ({ ...write, retryFrom: write.retryFrom || now })),
    claim: (id, now, until) => claimWrite(ctx.store, id, now, until),
    async attempt(write): Promise<AttemptOutcome | undefined> {
      const calendar = findCalendar(ctx.store, write.calendarId);
      if (!calendar) return undefined; // removed meanwhile: its writes went with it
      versions.set(write.id, write.version);
      try {
        await reconcile(ctx, calendar, write, options.log);
        return { delivered: true };
      } catch (error) {
        if (!(error instanceof CalendarWriteError)) throw error;
        return { delivered: false, reason: failureLine(error, calendar), blocksLane: !error.answered };
      }
    },
    sent: (id) => {
      markWritten(ctx.store, id, versions.get(id) ?? -1);
      versions.delete(id);
    },
    failed: (id, reason) => markWriteFailed(ctx.store, id, reason),
    retry: (id, reason, at) => markWriteRetry(ctx.store, id, reason, at),
    describe: (write) => `calendar ${write.calendarId}: the write of booking ${write.bookingId}`,
  };
}

/**
 * Mails the practice once when a calendar's writes have failed for ALERT_AFTER_SECONDS, and once when it writes again
 * (the read side's rule: app/calendars.ts).
 */
export function alertWriteFailures(ctx: AppContext): void {
  const settings = ctx.settings();
  if (!isConfigured(settings)) return; // a file before `planner init` has no calendar
  const counts = writeCounts(ctx.store);
  const now = unixSeconds(ctx.now());
  for (const calendar of listCalendars(ctx.store)) {
    const mine = counts.get(calendar.id);
    const failingSince = mine?.retryingSince ?? null;
    const failing = failingSince !== null && now - failingSince >= ALERT_AFTER_SECONDS;
    if (failing === calendar.writeAlerted || (!failing && mine?.retrying)) continue;
    const schedule = findSchedule(ctx.store, calendar.scheduleId);
    ctx.store.tx(() => {
      if (settings.notifyEmail) {
        const message = calendarAlert({
          settings,
          label: calendar.label,
          scheduleName: schedule?.name ?? String(calendar.scheduleId),
          calendarId: calendar.id,
          failingSince: failingSince ?? now,
          error: mine?.lastError ?? '',
          recovered: !failing,
          writing: { waiting: mine?.waiting ?? 0 },
        });
        enqueue(ctx.store, null, message, now, ctx.now().toISOString());
      }
      markWriteAlerted(ctx.store, calendar.id, failing);
    });
  }
}

/**
 * Writes bookings into the calendars that receive them, in the background of `planner serve`: the writes queued by
 * the bookings' own transactions, each calendar's one at a time and WRITE_LANES calendars at once (a calendar that
 * hangs or fails holds only its own writes), each retried with back-off (queue/retry-policy.ts) and never given up;
 * the practice is mailed after an hour of failing (`alertWriteFailures`).
 */
export function startCalendarWriter(ctx: AppContext, options: CalendarWriterOptions): Pump {
  const nowMs = options.nowMs ?? Date.now;
  let checked = 0;
  const queue = writeQueue(ctx, { log: options.log });
  return startLanedLoop<DueWrite>(
    {
      ...queue,
      beginPass: () => {
        if (nowMs() - checked >= ALERT_CHECK_MS) {
          checked = nowMs();
          alertWriteFailures(ctx);
        }
        return true;
      },
    },
    {
      log: options.log,
      nowMs,
      retry: { ...WRITE_RETRY, ...options.retry, giveUpAfterSeconds: NEVER },
      pollMs: options.pollMs,
      lanes: WRITE_LANES,
    },
  );
}

/**
 * Writes what waits for calendar `calendarId` now, in this process (`planner calendar add --write-bookings`, `set`,
 * `remove`): the same writes the server's worker makes, one at a time, until none is due or one fails. Returns how
 * many were written and the first failure's line.
 */
export async function deliverWrites(
  ctx: AppContext,
  calendarId: number,
  log: (line: string) => void = () => {},
): Promise<{ written: number; error: string | null }> {
  const queue = writeQueue(ctx, { log });
  let written = 0;
  for (let round = 0; round < 10_000; round++) {
    const now = unixSeconds(ctx.now());
    const [write] = queue.due(now, 1, { only: calendarId });
    if (!write) return { written, error: null };
    if (!queue.claim(write.id, now, now + LEASE_SECONDS)) return { written, error: null }; // the server is writing it
    const outcome = await queue.attempt(write);
    if (!outcome) continue;
    if (!outcome.delivered) {
      const decision = decideRetry(outcome, write, now, WRITE_RETRY);
      if (decision.kind === 'retry') queue.retry(write.id, outcome.reason, decision.at);
      return { written, error: outcome.reason };
    }
    queue.sent(write.id, ctx.now().toISOString());
    written++;
  }
  return { written, error: null };
}

/** How many events planner wrote into calendar `id` (what `calendar remove` asks about). */
export function writtenEvents(ctx: AppContext, id: number): number {
  return countEvents(ctx.store, id);
}

/**
 * Deletes the events planner wrote into calendar `id` now, in this process (`calendar remove --remove-written`): its
 * writing is turned off, each event queued for deletion and deleted. Throws `invalid` with the failure's line when
 * the calendar cannot be reached: then nothing else changes (what was deleted stays deleted, and the calendar
 * writes no more; `calendar set <id> --write-bookings on` writes them again).
 */
export async function removeWrittenEvents(ctx: AppContext, id: number): Promise<number> {
  const calendar = findCalendar(ctx.store, id);
  if (!calendar) return 0;
  const at = ctx.now().toISOString();
  ctx.store.tx(() => {
    updateCalendar(ctx.store, id, { writeBookings: false });
    queueWritten(ctx.store, id, at);
  });
  const outcome = await deliverWrites(ctx, id);
  if (outcome.error) {
    throw invalid(
      `planner's events could not be deleted from calendar ${id} (${outcome.written} deleted): ${outcome.error}; the calendar was not removed (give --keep-written to remove it and leave its events)`,
    );
  }
  // Removing the calendar forgets its events: none may be left (one a running server is deleting at this moment).
  const left = countEvents(ctx.store, id);
  if (left > 0) {
    throw invalid(
      `${left} event(s) planner wrote are still in calendar ${id} (${outcome.written} deleted; a running planner serve is deleting the others): the calendar was not removed; run the command again in a minute`,
    );
  }
  return outcome.written;
}
