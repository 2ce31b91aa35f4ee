/**
 * What the desk marks on a booking without changing it (no mail, webhook, calendar write or sequence): whether the
 * customer came (arrived, no-show, and undo), and the staff's private note. Each is in the booking's history under
 * the person's name. Rules (the issue leaves them to us): a cancelled booking takes no attendance; "arrived" from the
 * appointment's local day on, "no-show" once it has begun (nobody is missing before their time).
 */
import { localDay } from '../../domain/dates.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { insertBookingEvent } from '../../store/booking-events.ts';
import { type Attendance, type Booking, findBooking, setAttendance, setStaffNote } from '../../store/bookings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { type DeskPerson, deskBooking } from './agenda.ts';

/** The longest staff note, in characters. */
export const STAFF_NOTE_MAX = 2000;

/** Runs `change` on the booking of `reference` that `person` sees, in one write transaction; returns it as it is after. */
function onBooking(
  ctx: AppContext,
  person: DeskPerson,
  reference: string,
  change: (booking: Booking, now: Date) => void,
): Booking {
  return ctx.store.tx(() => {
    const booking = deskBooking(ctx, person, reference);
    if (!booking) throw notFound(`booking ${reference} not found`);
    const now = ctx.now();
    change(booking, now);
    return findBooking(ctx.store, booking.id)!;
  });
}

/** Marks whether the customer of `reference` came (`mark`), or undoes the mark (null). */
export function markAttendance(
  ctx: AppContext,
  person: DeskPerson,
  reference: string,
  mark: Attendance | null,
): Booking {
  const zone = requireConfigured(ctx).timeZone;
  return onBooking(ctx, person, reference, (booking, now) => {
    if (booking.attendance === mark) return; // as marked already: a form sent twice
    if (mark !== null && booking.status !== 'booked')
      throw new AppError('conflict', `booking ${reference} is cancelled: no attendance to mark`);
    if (mark === 'arrived' && localDay(new Date(booking.startAt * 1000), zone) > localDay(now, zone))
      throw new AppError('conflict', `booking ${reference} is on a later day: mark it arrived on its day`);
    if (mark === 'no_show' && booking.startAt > unixSeconds(now))
      throw new AppError('conflict', `booking ${reference} has not begun: mark a no-show once its time has come`);
    setAttendance(ctx.store, booking.id, mark);
    insertBookingEvent(ctx.store, booking.id, {
      at: now.toISOString(),
      kind: mark ?? 'attendance_undone',
      actor: 'staff',
      previousStartAt: null,
      staffId: person.id,
    });
  });
}

/** Sets the staff's private note of `reference` (trimmed; '' removes it). */
export function noteBooking(ctx: AppContext, person: DeskPerson, reference: string, note: string): Booking {
  const text = note.replace(/\r\n?/g, '\n').trim();
  if ([...text].length > STAFF_NOTE_MAX) throw invalid(`the note takes at most ${STAFF_NOTE_MAX} characters`, 'note');
  return onBooking(ctx, person, reference, (booking, now) => {
    if (booking.staffNote === text) return;
    setStaffNote(ctx.store, booking.id, text);
    insertBookingEvent(ctx.store, booking.id, {
      at: now.toISOString(),
      kind: 'noted',
      actor: 'staff',
      previousStartAt: null,
      staffId: person.id,
    });
  });
}
