/**
 * What the HTML doors are given (door-routes.ts gives each the same): the feed and the self-service page take a part
 * of it, the booking page all of it.
 */
import type { H3Event } from 'h3';
import type { DaysCache } from '../app/bookings/days-cache.ts';
import type { AppContext } from '../app/context.ts';

/** What every door is given. */
export interface DoorOptions {
  /** The context, its settings following other processes' writes. */
  ctx: AppContext;
  nowMs: () => number;
  /** Where a failure is reported (one line, never a token or secret). */
  log: (line: string) => void;
  /** The client's address, for the throttles per address (client-address.ts). */
  clientAddress: (event: H3Event) => string;
  /** After a booking or a change: the workers send its mails and webhook events now. */
  afterBooking: () => void;
  bodyTimeoutMs: number;
  /** The cache of free days GET /api/days answers from (the booking page shows the same days). */
  daysCache: DaysCache;
  /** The shortest time between a form made and sent (the booking page's; tests of the flow pass 0). */
  formMinSeconds?: number;
}

/** What the self-service page is given. */
export type PortalDoorOptions = Pick<
  DoorOptions,
  'ctx' | 'nowMs' | 'log' | 'clientAddress' | 'afterBooking' | 'bodyTimeoutMs'
>;

/** What the calendar feed is given. */
export type FeedDoorOptions = Pick<DoorOptions, 'ctx' | 'nowMs' | 'log' | 'clientAddress'>;
