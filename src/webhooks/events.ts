import { randomUUID } from 'node:crypto';
import { utcText } from '../domain/days.ts';
import type { BookingStatus } from '../store/bookings.ts';
import type { Store } from '../store/db.ts';
import { type EventType, enqueueDelivery, listWebhooks } from '../store/webhooks.ts';

/**
 * Who made a change: the customer on the self-service page, the admin with the CLI, an integrator's API call, or a
 * person at the front desk.
 */
export type Actor = 'customer' | 'admin' | 'api' | 'staff';

/** What an event says of a booking. Times are Unix seconds. */
export interface BookingEventFacts {
  bookingId: number;
  reference: string;
  customerId: number;
  scheduleId: number;
  reasonId: number;
  startAt: number;
  /** The slot before a move (booking.changed only). */
  previousStartAt?: number;
  status: BookingStatus;
  actor: Actor;
  customer: { firstName: string; lastName: string; email: string | null };
}

/** The JSON body of a delivery (documented in the README's webhook guide). */
export interface EventPayload {
  id: string;
  type: EventType | 'webhook.test';
  created_at: string;
  data: Record<string, unknown>;
}

/** Returns the event's `data`: ids, the slot in UTC like the API's, and the customer only when the hook opted in. */
export function eventData(facts: BookingEventFacts, includeCustomer: boolean): Record<string, unknown> {
  return {
    booking_id: facts.bookingId,
    booking_details_id: facts.reference,
    user_id: facts.customerId,
    schedule: facts.scheduleId,
    reason: facts.reasonId,
    slot: utcText(facts.startAt),
    ...(facts.previousStartAt === undefined ? {} : { previous_slot: utcText(facts.previousStartAt) }),
    status: facts.status,
    actor: facts.actor,
    ...(includeCustomer
      ? {
          customer: {
            first_name: facts.customer.firstName,
            last_name: facts.customer.lastName,
            email: facts.customer.email,
          },
        }
      : {}),
  };
}

/** A new event id: stable across retries and across hooks, so receivers can drop duplicates by it. */
export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Writes one delivery of the event for every hook subscribed to `type`. Call inside the transaction that changes
 * the booking: the event exists exactly when the change does.
 */
export function emitBookingEvent(
  store: Store,
  type: EventType,
  facts: BookingEventFacts,
  nowAt: number,
  at: string,
): void {
  const hooks = listWebhooks(store).filter((hook) => hook.events.includes(type));
  if (hooks.length === 0) return;
  const id = newEventId();
  for (const hook of hooks) {
    const payload: EventPayload = { id, type, created_at: at, data: eventData(facts, hook.includeCustomer) };
    enqueueDelivery(store, { webhookId: hook.id, eventId: id, type, payload: JSON.stringify(payload) }, nowAt, at);
  }
}

/**
 * Writes `customer.erased` for every hook that asked for it (opt-in: not among a new hook's default
 * events): the customer's id and their bookings' ids and references only, so that integrators can erase their copies.
 */
export function emitCustomerErased(
  store: Store,
  erased: { customerId: number; bookings: { id: number; reference: string }[] },
  nowAt: number,
  at: string,
): void {
  const hooks = listWebhooks(store).filter((hook) => hook.events.includes('customer.erased'));
  if (hooks.length === 0) return;
  const id = newEventId();
  const data = {
    user_id: erased.customerId,
    bookings: erased.bookings.map((booking) => ({ booking_id: booking.id, booking_details_id: booking.reference })),
  };
  for (const hook of hooks) {
    const payload: EventPayload = { id, type: 'customer.erased', created_at: at, data };
    enqueueDelivery(
      store,
      { webhookId: hook.id, eventId: id, type: 'customer.erased', payload: JSON.stringify(payload) },
      nowAt,
      at,
    );
  }
}
