/**
 * What `planner serve` says is on at its start, apart from the status of status.ts: a module of its own, so that the
 * server does not load the status's calendar and desk code with it (issue 49: idle memory).
 */
import { countFeeds } from '../../store/feeds.ts';
import type { AppContext } from '../context.ts';
import { isConfigured } from '../practice/configured.ts';

/**
 * The doors besides the API that are on, as `planner serve` names them at its start: the
 * self-service page's public address (null while off), whether the booking page is served there, how many
 * schedules have a feed (their addresses hold a secret planner does not keep: never shown), and the front desk's
 * public address (null while off: it has its own, which may differ from the page's).
 */
export interface OpenDoors {
  portalUrl: string | null;
  bookingPage: boolean;
  feeds: number;
  deskUrl: string | null;
}

/** Returns the doors that are on besides the API. */
export function openDoors(ctx: AppContext): OpenDoors {
  const settings = ctx.settings();
  return {
    portalUrl: settings.portal?.url ?? null,
    bookingPage: settings.portal !== null && settings.bookingPage !== null,
    feeds: isConfigured(settings) ? countFeeds(ctx.store) : 0,
    deskUrl: settings.desk?.url ?? null,
  };
}
