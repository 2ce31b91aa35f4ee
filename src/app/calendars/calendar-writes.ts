/**
 * Every booking in the practitioner's own calendar. A calendar added with `--write-bookings` receives each
 * booking of its schedule: the triggers of migration 13 queue a write in every change's own transaction (whoever
 * makes it: the API, the pages, the CLI, an erase), and this worker, the mail and webhook workers' loop
 * (queue/outbox-loop.ts), makes the calendar's event match the booking as it is when it writes: booked → the event
 * (PUT, calendar/write.ts), cancelled, erased or writing turned off → no event (DELETE). So changes are written in
 * order, a create and a cancel while the calendar was down end with no event, and a crash loses nothing (a write not
 * recorded is written again over the same resource, never a copy). A calendar that cannot be written is retried,
 * never given up: a late write is still right. After an hour of failing the practice is mailed once, and once when
 * it writes again; `calendar list`, `status` and `doctor` say how many bookings wait and why.
 */
import { CalendarWriteError, deleteEvent, eventHref, putEvent } from '../../calendar/write.ts';
import { submittedFields, submittedText } from '../../domain/submission.ts';
import { invalid, notFound } from '../../errors.ts';
import { type FeedEvent, practitionerEventIcs, practitionerProviderEvent } from '../../mail/calendar.ts';
import { calendarAlert } from '../../mail/calendar-alert.ts';
import { type LanedQueue, startLanedLoop } from '../../queue/outbox-loop.ts';
import type { Pump } from '../../queue/pump.ts';
import { type AttemptOutcome, decideRetry, type RetrySettings } from '../../queue/retry-policy.ts';
import {
  catchUp,
  claimWrite,
  countEvents,
  type DueWrite,
  dueWrites,
  forgetEvent,
  markWriteFailed,
  markWriteRetry,
  markWritten,
  queueEdited,
  queueWritten,
  recordEvent,
  seenEdits,
  writeCounts,
  writtenSince,
} from '../../store/calendar-writes.ts';
import {
  type CalendarRow,
  findCalendar,
  listCalendars,
  markWriteAlerted,
  markWriteOutcome,
  updateCalendar,
} from '../../store/calendars.ts';
import { type FeedRow, feedBookingById } from '../../store/feed-rows.ts';
import { listFields } from '../../store/fields.ts';
import { enqueue } from '../../store/outbox.ts';
import { findSchedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { isConfigured, requireConfigured } from '../practice/configured.ts';
import { type EditView, editView, localSpan, overwriteLine, overwrittenLine } from './calendar-edits.ts';
import { failureLine, type SyncOptions, syncCalendar } from './calendars.ts';
import { ALERT_AFTER_SECONDS, ALERT_CHECK_MS, LANE_PAUSE_SECONDS, NEVER, WRITE_LANES, WRITE_RETRY } from './policy.ts';
import { accountOf, isProvider, noteReconnect } from './providers.ts';

/** A worker holds a write this long (a write takes at most 20 s: calendar/write.ts); if it dies, another takes it. */
const LEASE_SECONDS = 120;
export interface CalendarWriterOptions {
  log: (line: string) => void;
  nowMs?: () => number;
  /** The retry policy's settings (PLANNER_CALENDAR_RETRY_SECONDS in the runtime; default: a 30 s base). */
  retry?: RetrySettings;
  pollMs?: number;
}

/**
 * The booking as `calendar`'s event tells it: every answer of the form (`full`), or only the reason, the customer's
 * first name and the reference (`minimal`: nothing more of a customer is copied into whatever the calendar syncs with).
 */
function eventOf(ctx: AppContext, calendar: CalendarRow, booking: FeedRow): FeedEvent {
  const changedAt = Math.floor(Date.parse(booking.changedAt) / 1000);
  if (calendar.details === 'minimal') {
    const firstName = submittedText(booking.submission, 'first_name');
    return { ...booking, customerName: firstName, email: null, phone: '', fields: [], changedAt };
  }
  return { ...booking, fields: submittedFields(listFields(ctx.store), booking.submission), changedAt };
}

/** What one write does: makes `calendar`'s event of the booking match the booking now. Throws CalendarWriteError. */
async function reconcile(
  ctx: AppContext,
  calendar: CalendarRow,
  write: DueWrite,
  log: (line: string) => void,
): Promise<void> {
  const booking = feedBookingById(ctx.store, write.bookingId);
  if (!booking) return; // no such booking (a file edited by hand): nothing to write
  const wanted =
    calendar.writeBookings && booking.scheduleId === calendar.scheduleId && !booking.cancelled && !booking.erased;
  const written = isProvider(calendar.kind)
    ? await writeThroughProvider(ctx, calendar, write, booking, wanted)
    : await writeOverCalDav(ctx, calendar, write, booking, wanted);
  if (!written) {
    ctx.store.tx(() => forgetEvent(ctx.store, calendar.id, booking.id));
    return;
  }
  ctx.store.tx(() => {
    // A calendar removed while its event was written (`calendar remove --keep-written`) has nothing to record into.
    if (findCalendar(ctx.store, calendar.id))
      recordEvent(
        ctx.store,
        calendar.id,
        booking.id,
        { href: written.href, etag: written.etag, sequence: booking.sequence },
        ctx.now().getTime(),
      );
  });
  if (written.overwritten) {
    // Changed or removed in a calendar app (or there while planner had forgotten it: writing turned off and on):
    // what it showed, and what planner wrote over it.
    const zone = requireConfigured(ctx).timeZone;
    const line = await overwriteLine(booking, written.found, write.written !== null, zone);
    if (line) log(`planner: calendar ${calendar.id} (${calendar.label}): ${line}`);
  }
}

/** What a write left in the calendar: where planner's event is and its version; null: no event (deleted). */
type WriteResult = { href: string; etag: string | null; overwritten: boolean; found?: string } | null;

/** The booking's event text and place, in the calendar's details. */
function eventFacts(ctx: AppContext, calendar: CalendarRow, booking: FeedRow) {
  const settings = requireConfigured(ctx);
  const location = settings.address ? `${settings.practiceName}, ${settings.address}` : '';
  return { settings, event: eventOf(ctx, calendar, booking), location };
}

/** A CalDAV calendar's write: a PUT of the booking's resource, or its DELETE (calendar/write.ts). */
async function writeOverCalDav(
  ctx: AppContext,
  calendar: CalendarRow,
  write: DueWrite,
  booking: FeedRow,
  wanted: boolean,
): Promise<WriteResult> {
  const target = {
    url: calendar.url,
    user: calendar.user ?? undefined,
    password: calendar.password ?? undefined,
    allowInsecure: calendar.allowInsecure,
  };
  const href = write.written?.href ?? eventHref(calendar.url, booking.reference);
  if (!wanted) {
    await deleteEvent(target, href);
    return null;
  }
  const { settings, event, location } = eventFacts(ctx, calendar, booking);
  const ics = practitionerEventIcs(event, settings.locale, location);
  const put = await putEvent(target, href, ics, write.written ? write.written.etag : undefined);
  return { href, etag: put.etag, overwritten: put.overwritten, found: put.found };
}

/**
 * A Google or Microsoft calendar's write, through its API (calendar/provider.ts): the event planner recorded (its id
 * and ETag) written over, or made (a create retried finds the one it made); or removed. An account whose consent is
 * gone is marked for reconnecting (and mailed once) before the failure goes back to the queue, which keeps the write.
 */
async function writeThroughProvider(
  ctx: AppContext,
  calendar: CalendarRow,
  write: DueWrite,
  booking: FeedRow,
  wanted: boolean,
): Promise<WriteResult> {
  const { openProvider, ProviderAuthError } = await import('../../calendar/provider.ts');
  const ref = write.written ? { id: write.written.href, etag: write.written.etag } : undefined;
  const account = accountOf(ctx, calendar);
  try {
    const client = await openProvider(account);
    if (!wanted) {
      await client.remove(booking.reference, ref);
      return null;
    }
    const { settings, event, location } = eventFacts(ctx, calendar, booking);
    const put = await client.put(practitionerProviderEvent(event, settings.locale, location, settings.timeZone), ref);
    return { href: put.ref.id, etag: put.ref.etag, overwritten: put.overwritten, found: put.found };
  } catch (error) {
    if (error instanceof ProviderAuthError)
      noteReconnect(ctx, calendar, failureLine(error, calendar), account.stored());
    throw error;
  }
}

/** The queue of calendar writes as the outbox loop runs it (the server's worker, and `deliverWrites` for the CLI). */
function writeQueue(ctx: AppContext, options: { log: (line: string) => void }): LanedQueue<DueWrite> {
  const versions = new Map<number, number>();
  /** The writes being tried, by id: whose calendar an outcome is recorded for. */
  const attempted = new Map<number, DueWrite>();
  const failedNow = (id: number) => {
    const write = attempted.get(id);
    if (write) markWriteOutcome(ctx.store, write.calendarId, false);
    versions.delete(id);
    attempted.delete(id);
  };
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
      attempted.set(write.id, write);
      try {
        await reconcile(ctx, calendar, write, options.log);
        return { delivered: true };
      } catch (error) {
        if (!(error instanceof CalendarWriteError)) throw error;
        return { delivered: false, reason: failureLine(error, calendar), blocksLane: !error.answered };
      }
    },
    sent: (id) => {
      const write = attempted.get(id);
      const now = unixSeconds(ctx.now());
      ctx.store.tx(() => {
        markWritten(ctx.store, id, versions.get(id) ?? -1);
        if (write) {
          markWriteOutcome(ctx.store, write.calendarId, true);
          catchUp(ctx.store, write.calendarId, now);
        }
      });
      versions.delete(id);
      attempted.delete(id);
    },
    failed: (id, reason) => {
      failedNow(id);
      markWriteFailed(ctx.store, id, reason);
    },
    retry: (id, reason, at) => {
      failedNow(id);
      markWriteRetry(ctx.store, id, reason, at);
    },
    describe: (write) => `calendar ${write.calendarId}: the write of booking ${write.bookingId}`,
  };
}

/**
 * Mails the practice once when a calendar's writes have failed for ALERT_AFTER_SECONDS, and once when it writes again
 * (the read side's rule: app/calendars/calendars.ts).
 */
export function alertWriteFailures(ctx: AppContext): void {
  const settings = ctx.settings();
  if (!isConfigured(settings)) return; // a file before `planner init` has no calendar
  const counts = writeCounts(ctx.store);
  const now = unixSeconds(ctx.now());
  for (const calendar of listCalendars(ctx.store)) {
    // An account to reconnect has had its one mail (providers.ts noteReconnect); its writes wait for the reconnect.
    if (calendar.reconnect !== null) continue;
    const mine = counts.get(calendar.id);
    const failingSince = mine?.retryingSince ?? null;
    // Catching up (the last write succeeded after the last that failed) is not failing: no mail that it fails.
    const catchingUp = calendar.writeLastOk === true;
    const failing = failingSince !== null && !catchingUp && now - failingSince >= ALERT_AFTER_SECONDS;
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
          provider: isProvider(calendar.kind),
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
      pauseSeconds: LANE_PAUSE_SECONDS,
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

/** What `calendar repair` did: the edits it found, what it wrote over each, and how the writing went. */
export interface RepairOutcome {
  id: number;
  label: string;
  /** The edits the read before the repair showed. */
  edits: EditView[];
  /** One line per event planner wrote over: the booking, what the calendar showed and what planner wrote. */
  overwritten: string[];
  /** Events written back (by this command, or by a running planner serve that took the write first). */
  written: number;
  /** Why some were not written back (the rest wait for a running planner serve). */
  error: string | null;
}

/** How long a repair waits for writes a running planner serve took first: a write's time-out, and a little. */
const REPAIR_WAIT_MS = 25_000;

/**
 * Writes planner's state back over what a calendar app changed of its events in calendar `id`, now (`planner calendar
 * repair`): reads the calendar first, so that the edits are the calendar's as it is now, then writes each edited
 * booking again (moved back to its time, or written again where removed), as its next change would. A running
 * planner serve may take some of those writes first: the repair waits for them (at most REPAIR_WAIT_MS), so that it
 * reports every event written back. Throws `invalid` when the calendar does not receive bookings or cannot be read
 * (nothing is written then).
 */
export async function repairCalendar(ctx: AppContext, id: number, options: SyncOptions = {}): Promise<RepairOutcome> {
  const settings = requireConfigured(ctx);
  const calendar = findCalendar(ctx.store, id);
  if (!calendar) throw notFound(`calendar ${id} does not exist (planner calendar list shows them)`);
  if (!calendar.writeBookings)
    throw invalid(
      `calendar ${id} does not receive bookings, so planner has nothing of its own there to repair (planner calendar set ${id} --write-bookings on writes them)`,
    );
  const read = await syncCalendar(ctx, calendar, { ...options, conflicts: false });
  if (!read.ok) throw invalid(`calendar ${id} could not be read, nothing was written: ${read.error}`);
  const startedMs = ctx.now().getTime();
  const now = unixSeconds(ctx.now());
  const edits = seenEdits(ctx.store, now, id);
  ctx.store.tx(() => queueEdited(ctx.store, id, now, ctx.now().toISOString()));
  const outcome = await deliverWrites(ctx, id);
  const ids = edits.map((edit) => edit.bookingId);
  let state = writtenSince(ctx.store, id, ids, startedMs);
  // Only when this command's own writes went through: a calendar that failed them fails the server's alike.
  for (const until = Date.now() + REPAIR_WAIT_MS; !outcome.error && state.waiting.length > 0 && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = writtenSince(ctx.store, id, ids, startedMs);
  }
  const written = new Set(state.written);
  const zone = settings.timeZone;
  return {
    id,
    label: calendar.label,
    edits: edits.map((edit) => editView(edit, zone)),
    overwritten: edits
      .filter((edit) => written.has(edit.bookingId))
      .map((edit) => overwrittenLine(edit.reference, localSpan(edit.startAt, edit.endAt, zone), edit.edit, zone)),
    written: written.size,
    error: outcome.error
      ? `${edits.length - written.size} event(s) not written back yet; a running planner serve retries them: ${outcome.error}`
      : written.size < edits.length
        ? `${edits.length - written.size} event(s) are still being written by a running planner serve (planner calendar list shows when they are)`
        : null,
  };
}
