/**
 * Absences at the desk: a practitioner's days off are the schedule's closures (`planner closure add`), shown from
 * today on with the bookings they strand, each to be moved or cancelled from its page. A practitioner adds their own;
 * reception and admin anyone's. Every absence added here is in the audit log under the person's name.
 */
import { localDay } from '../../domain/dates.ts';
import { notFound } from '../../errors.ts';
import { insertAudit } from '../../store/audit.ts';
import type { Closure } from '../../store/closures.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { type AddedClosures, addClosure, closuresOf, type StrandedBooking, strandedOf } from '../practice/hours.ts';
import { type DeskPerson, seesSchedule, visibleSchedules } from './agenda.ts';

/** The absences of the schedules `person` sees, from today on, and the bookings they strand. */
export function deskAbsences(
  ctx: AppContext,
  person: DeskPerson,
): { schedules: { id: number; name: string; closures: Closure[] }[]; stranded: StrandedBooking[] } {
  const today = localDay(ctx.now(), requireConfigured(ctx).timeZone);
  const schedules = visibleSchedules(ctx, person).map((schedule) => ({
    id: schedule.id,
    name: schedule.name,
    closures: closuresOf(ctx, schedule.id).filter((closure) => closure.toDay >= today),
  }));
  const stranded = strandedOf(
    ctx,
    schedules.map((schedule) => schedule.id),
  ).filter((booking) => booking.why === 'closure');
  return { schedules, stranded };
}

/** Adds an absence of `scheduleId` (a practitioner: their own only) from `fromDay` to `toDay`, as `closure add`. */
export function addAbsence(
  ctx: AppContext,
  person: DeskPerson,
  absence: { scheduleId: number; fromDay: string; toDay: string; note: string },
): AddedClosures {
  if (!seesSchedule(person, absence.scheduleId)) throw notFound(`schedule ${absence.scheduleId} not found`);
  return ctx.store.tx(() => {
    const added = addClosure(ctx, absence.scheduleId, absence.fromDay, absence.toDay, absence.note);
    insertAudit(ctx.store, {
      at: ctx.now().toISOString(),
      actor: 'staff',
      osUser: null,
      action: 'closure add',
      bookingId: null,
      reference: null,
      detail: `schedule ${absence.scheduleId} ${absence.fromDay} to ${absence.toDay}`,
      staffId: person.id,
    });
    return added;
  });
}
