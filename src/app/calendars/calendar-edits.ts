/**
 * Edits in the practitioner's calendar app of the events planner wrote. A booking is changed in planner (the desk,
 * the CLI, the customer's page), not in the calendar: there the customer, the mails and the other practitioners'
 * times would not follow. So the read side (app/calendars/calendars.ts) compares each event planner wrote with what the
 * calendar holds now: one moved to another time, or removed (or cancelled in the app), is recorded with what the
 * calendar showed, shown by `calendar list`, `status` and `doctor`, and mailed to the practice once; `calendar repair`
 * writes planner's state back (app/calendars/calendar-writes.ts), as the booking's next change would.
 */
import type { PlannerEvent } from '../../calendar/busy.ts';
import { formatLocal } from '../../domain/dates.ts';
import { calendarEditsAlert } from '../../mail/calendar-alert.ts';
import { type EventEdit, markEditsMailed, type SeenEdit, setEdit, writtenEvents } from '../../store/calendar-writes.ts';
import type { CalendarRow } from '../../store/calendars.ts';
import { enqueue } from '../../store/outbox.ts';
import { findSchedule } from '../../store/schedules.ts';
import type { Settings } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';

/** An edit as the outputs show it: the booking, what planner holds and what the calendar showed, local times. */
export interface EditView {
  calendarId: number;
  reference: string;
  kind: EventEdit['kind'];
  /** The booking as planner holds it: `YYYY-MM-DD HH:MM–HH:MM`. */
  booked: string;
  /** Where the calendar shows it instead (moved); null when removed or cancelled. */
  shown: string | null;
  /** When a read first showed it, ISO. */
  seenAt: string;
}

/** `YYYY-MM-DD HH:MM–HH:MM` of a span in `zone` (both dates when it ends on another day). */
export function localSpan(startAt: number, endAt: number, zone: string): string {
  const start = formatLocal(new Date(startAt * 1000), zone);
  const end = formatLocal(new Date(endAt * 1000), zone);
  return `${start}–${end.slice(0, 10) === start.slice(0, 10) ? end.slice(11) : end}`;
}

/** Returns how an edit is shown, its times in `zone`. */
export function editView(edit: SeenEdit, zone: string): EditView {
  return {
    calendarId: edit.calendarId,
    reference: edit.reference,
    kind: edit.edit.kind,
    booked: localSpan(edit.startAt, edit.endAt, zone),
    shown: edit.edit.kind === 'moved' ? localSpan(edit.edit.startAt, edit.edit.endAt, zone) : null,
    seenAt: new Date(edit.seenAt * 1000).toISOString(),
  };
}

/**
 * What the calendar holds of a booking's event against what planner wrote: null when it is as written (at the
 * booking's time), an edit when it is elsewhere, cancelled or missing; undefined when the read cannot tell (the
 * booking lies outside what was read, so its event would not have come back either way).
 */
export function editOf(
  booking: { startAt: number; endAt: number },
  seen: PlannerEvent | undefined,
  read: { from: number; to: number },
): EventEdit | null | undefined {
  if (seen?.cancelled) return { kind: 'cancelled' };
  if (seen) {
    return seen.startAt === booking.startAt && seen.endAt === booking.endAt
      ? null
      : { kind: 'moved', startAt: seen.startAt, endAt: seen.endAt };
  }
  return booking.endAt > read.from && booking.startAt < read.to ? { kind: 'removed' } : undefined;
}

const sameEdit = (a: EventEdit | null, b: EventEdit | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares every event planner wrote into `calendar` with what a read that began at `fetchedAtMs` found (`seen`, over
 * `read`), inside the sync's transaction: records each edit found or gone, and mails the practice once about the new
 * ones. An event with a write waiting, or written since the read began, is left alone: planner is writing it.
 */
export function noticeEdits(
  ctx: AppContext,
  settings: Settings,
  calendar: CalendarRow,
  seen: readonly PlannerEvent[],
  read: { from: number; to: number; fetchedAtMs: number; now: number },
): void {
  const byReference = new Map(seen.map((event) => [event.reference, event]));
  const unmailed: SeenEdit[] = [];
  for (const event of writtenEvents(ctx.store, calendar.id, read.from)) {
    if (!event.wanted || event.waiting || event.writtenAtMs >= read.fetchedAtMs) continue;
    const edit = editOf(event, byReference.get(event.reference), read);
    if (edit === undefined) continue;
    if (!sameEdit(edit, event.edit)) setEdit(ctx.store, calendar.id, event.bookingId, edit, read.now);
    if (edit && (!sameEdit(edit, event.edit) || !event.editMailed))
      unmailed.push({ calendarId: calendar.id, ...event, edit, seenAt: read.now });
  }
  if (unmailed.length === 0 || !settings.notifyEmail) return;
  const message = calendarEditsAlert({
    settings,
    calendarId: calendar.id,
    label: calendar.label,
    scheduleName: findSchedule(ctx.store, calendar.scheduleId)?.name ?? String(calendar.scheduleId),
    edits: unmailed.map((edit) => editView(edit, settings.timeZone!)),
  });
  enqueue(ctx.store, null, message, read.now, ctx.now().toISOString());
  markEditsMailed(
    ctx.store,
    calendar.id,
    unmailed.map((edit) => edit.bookingId),
  );
}

/**
 * The line that says what planner wrote (`wrote`, local) over its event of booking `reference`: the calendar showed
 * it moved, cancelled, or had lost it (`gone`); or changed in a way planner does not tell (undefined).
 */
export function overwrittenLine(
  reference: string,
  wrote: string,
  showed: EventEdit | 'gone' | undefined,
  zone: string,
) {
  const what = `the event of booking ${reference}`;
  if (showed === 'gone' || showed?.kind === 'removed')
    return `${what} had been removed from the calendar; planner wrote it again (${wrote})`;
  const how =
    showed?.kind === 'moved'
      ? ` (it showed ${localSpan(showed.startAt, showed.endAt, zone)})`
      : showed?.kind === 'cancelled'
        ? ' (it was cancelled there)'
        : '';
  return `${what} had been changed in the calendar${how}; planner wrote its own over it (${wrote})`;
}

/**
 * The line that says what a write put over an event that was not as planner last wrote it (`found`, the calendar's
 * text, or nothing when it was gone); undefined when there is nothing to say: an event planner had forgotten (writing
 * turned off and on) found at the booking's own time.
 */
export async function overwriteLine(
  booking: { reference: string; startAt: number; endAt: number },
  found: string | undefined,
  tracked: boolean,
  zone: string,
): Promise<string | undefined> {
  const wrote = localSpan(booking.startAt, booking.endAt, zone);
  if (found === undefined) return overwrittenLine(booking.reference, wrote, 'gone', zone);
  const { busyTimesOf } = await import('../../calendar/busy.ts');
  const held: PlannerEvent[] = [];
  try {
    const year = 366 * 86_400;
    busyTimesOf([found], { zone, from: booking.startAt - year, to: booking.endAt + year, planner: held });
  } catch {
    // A text planner cannot read: said as changed, without its time.
  }
  const event = held.find((one) => one.reference === booking.reference);
  const edit = event ? editOf(booking, event, { from: 0, to: 0 }) : undefined;
  if (edit === null && !tracked) return undefined;
  return overwrittenLine(booking.reference, wrote, edit ?? undefined, zone);
}

/** One line of a calendar's edits for `status` and `doctor`: how many, and each booking with what the calendar shows. */
export function editsLine(edits: readonly EditView[]): string {
  const each = edits.map((edit) =>
    edit.shown === null
      ? `${edit.reference} (booked ${edit.booked}) ${edit.kind}`
      : `${edit.reference} (booked ${edit.booked}) moved to ${edit.shown}`,
  );
  return `${edits.length} booking(s) changed in a calendar app, not in planner: ${each.join(', ')}`;
}
