/**
 * The practitioner's calendar feed of a schedule: an iCalendar subscription (`<url>/feed/<secret>.ics`) that any
 * calendar app can follow without an account. It carries customer data: the URL is a key, shown once.
 */
import { createHash } from 'node:crypto';
import { lookAhead } from '../../domain/availability.ts';
import { localWithZone } from '../../domain/dates.ts';
import { submittedFields } from '../../domain/submission.ts';
import { AppError, invalid } from '../../errors.ts';
import { feedIcs } from '../../mail/calendar.ts';
import { feedBookings } from '../../store/feed-rows.ts';
import { feedMadeAt, markFeedServed, openFeed, rotateFeedSecret } from '../../store/feeds.ts';
import { listFields } from '../../store/fields.ts';
import { findSchedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { checkPublicUrl } from '../practice/public-url.ts';
import { getSchedule } from '../practice/schedules.ts';

/** How far back the feed reaches: 30 days of past appointments. */
export const FEED_PAST_DAYS = 30;

/**
 * Makes the feed URL of a schedule and returns it (shown once: only the secret's hash is kept). The base is the
 * self-service page's public URL when it is set, else `url` (https, or http for loopback). A schedule that has a
 * feed keeps it unless `rotate`: then the old URL stops working at once.
 */
export function makeFeedUrl(ctx: AppContext, scheduleId: number, options: { rotate: boolean; url?: string }): string {
  const settings = requireConfigured(ctx);
  const base = options.url !== undefined ? checkPublicUrl(options.url) : settings.portal?.url;
  if (!base)
    throw invalid(
      'give the public address with --url https://… (or turn the self-service page on: planner portal enable --url …)',
    );
  return ctx.store.tx(() => {
    getSchedule(ctx, scheduleId);
    const made = feedMadeAt(ctx.store, scheduleId);
    if (made && !options.rotate) {
      throw new AppError(
        'conflict',
        `schedule ${scheduleId} has a feed URL since ${localWithZone(made, settings.timeZone)}; it is shown only when made: pass --rotate for a new one (the old one stops working)`,
      );
    }
    return `${base}/feed/${rotateFeedSecret(ctx.store, scheduleId, ctx.now().toISOString())}.ics`;
  });
}

/** A feed as served: its iCalendar text, a strong ETag of it, and since when this very text has been served. */
export interface Feed {
  ics: string;
  etag: string;
  /**
   * The Last-Modified date: when the feed first served this text (any change of the text moves
   * it, not only a booking's). Undefined when it cannot be given truthfully: when it would lie in the future (two
   * texts within one second: each later text is dated at least a second after the one before, so a client holding
   * the older date never gets a 304 for the newer text) or could not be recorded (the file is read-only or full).
   */
  lastModified: Date | undefined;
}

/**
 * Returns the feed a secret opens, or undefined (an unknown, replaced or malformed secret): the schedule's bookings
 * from 30 days back to the end of its look-ahead, cancelled ones as STATUS:CANCELLED. One indexed range query, and a
 * write only when the text differs from the one last served.
 */
export function feedOf(ctx: AppContext, secret: string): Feed | undefined {
  const opened = openFeed(ctx.store, secret);
  if (opened === undefined) return undefined;
  const settings = requireConfigured(ctx);
  const schedule = findSchedule(ctx.store, opened.scheduleId);
  if (!schedule) return undefined;
  const nowMs = ctx.now().getTime();
  const now = unixSeconds(ctx.now());
  const window = lookAhead({ zone: settings.timeZone, now, rules: schedule });
  const rows = feedBookings(ctx.store, opened.scheduleId, now - FEED_PAST_DAYS * 86_400, window.to);
  const fields = listFields(ctx.store);
  const events = rows.map(({ submission, ...row }) => ({
    ...row,
    fields: submittedFields(fields, submission),
    changedAt: Math.floor(Date.parse(row.changedAt) / 1000),
  }));
  const location = settings.address ? `${settings.practiceName}, ${settings.address}` : '';
  const ics = feedIcs(`${settings.practiceName} – ${schedule.name}`, events, settings.locale, location);
  const etag = `"${createHash('sha256').update(ics).digest('base64url').slice(0, 27)}"`;
  let since = opened.servedSince;
  if (opened.servedEtag !== etag || since === null) {
    try {
      since = markFeedServed(ctx.store, opened.scheduleId, etag, Math.max(nowMs, (since ?? -Infinity) + 1000));
    } catch {
      since = null; // not recorded: served with its ETag only
    }
  }
  const lastModified =
    since !== null && Math.floor(since / 1000) <= Math.floor(nowMs / 1000)
      ? new Date(Math.floor(since / 1000) * 1000)
      : undefined;
  return { ics, etag, lastModified };
}
