/**
 * A booking's history as `planner bookings show` and the desk tell it: each change, who made it (admin, customer,
 * api, or a person at the desk by name and role) and, for a move, the time it had before; all in the installation's local time.
 */
import { formatLocal } from '../../domain/dates.ts';
import { utcText } from '../../domain/days.ts';
import { type BookingActor, type BookingEventKind, bookingEvents } from '../../store/booking-events.ts';
import type { Booking } from '../../store/bookings.ts';
import type { AppContext } from '../context.ts';

/** One change of a booking, with its times written for people and for scripts. */
export interface HistoryEntry {
  kind: BookingEventKind;
  /** The instant of the change (ISO UTC) and the same in local time (`YYYY-MM-DD HH:MM`). */
  at: string;
  localAt: string;
  /** Null: made before planner recorded who made a change. */
  by: BookingActor | null;
  /** A move: the start it had before (ISO UTC, and local); else null. */
  previousStart: string | null;
  previousLocalStart: string | null;
  /** Actor 'staff': the person at the desk, by name and role. */
  staff?: { name: string; role: string };
}

/** A booking's history: its recorded changes, oldest first, and how many earlier changes left no record. */
export interface BookingHistory {
  entries: HistoryEntry[];
  /** Moves made before planner kept a history (migration 9): counted by the booking's sequence only. */
  unrecorded: number;
}

/** Returns an ISO instant as stored in local time (`YYYY-MM-DD HH:MM`), or the text as it is when it is no instant. */
export function localOfStored(iso: string, zone: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : formatLocal(new Date(at), zone);
}

/** Returns the history of `booking` in `zone`. */
export function bookingHistory(ctx: AppContext, booking: Booking, zone: string): BookingHistory {
  const events = bookingEvents(ctx.store, booking.id);
  const local = (instant: number) => formatLocal(new Date(instant * 1000), zone);
  const entries = events.map((event) => {
    const at = Date.parse(event.at) / 1000;
    return {
      kind: event.kind,
      at: Number.isNaN(at) ? event.at : utcText(Math.floor(at)),
      localAt: localOfStored(event.at, zone),
      by: event.actor,
      previousStart: event.previousStartAt === null ? null : utcText(event.previousStartAt),
      previousLocalStart: event.previousStartAt === null ? null : local(event.previousStartAt),
      ...(event.staff ? { staff: event.staff } : {}),
    };
  });
  // Every move and the cancellation raised the sequence by one; those without an entry came before the record (the
  // desk's marks and notes leave the sequence as it is).
  const changes = entries.filter((entry) => entry.kind === 'moved' || entry.kind === 'cancelled').length;
  return { entries, unrecorded: Math.max(0, booking.sequence - changes) };
}
