/**
 * What `planner status` prints, read in one place: the settings, the outbox's and the webhooks' health, and the
 * counts of what the installation holds. `planner api status` shows its `api` part; the words are
 * src/cli/commands/status.ts's.
 */

import { type OutboxCounts, outboxCounts } from '../../store/outbox.ts';
import type { BookingPageSettings, PortalSettings, Settings } from '../../store/settings.ts';
import { type Counts, countRows } from '../../store/stats.ts';
import { webhookHealth } from '../../store/webhooks.ts';
import { type CalendarView, calendars } from '../calendars/calendar-views.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { type DeskStatus, deskStatus } from '../desk/desk.ts';
import { isConfigured } from '../practice/configured.ts';
import { mailTransportVerdict } from './health.ts';

/** What `planner status` shows. Never contains the token. */
export interface Status
  extends Pick<
    Settings,
    'practiceName' | 'timeZone' | 'locale' | 'languages' | 'notifyEmail' | 'address' | 'phone' | 'website'
  > {
  database: string;
  schemaVersion: number;
  configured: boolean;
  api: { enabled: boolean; tokenPresent: boolean; tokenCreatedAt: string | null; rateLimitPerMinute: number };
  /**
   * The outbox: waiting, scheduled reminders, failed, and waiting after a failed attempt (since, last error); and
   * whether the SMTP password may travel unencrypted (`mailTransportVerdict`).
   */
  mail: { configured: boolean; from: string | null; passwordInClear: boolean } & OutboxCounts;
  /** The customers' self-service page (null while off) and the reminder offsets in minutes. */
  portal: PortalSettings | null;
  /** The public booking page (null while off). */
  bookingPage: BookingPageSettings | null;
  /**
   * The front desk as `planner desk status` tells it: on or off, its address, how many staff (and of them enrolled),
   * how many sessions are open. Null before `planner init`, when there is no desk to tell of.
   */
  desk: DeskStatus | null;
  /** Months after its end that a booking is anonymised (null: off). */
  retentionMonths: number | null;
  reminderOffsets: number[];
  /** The reverse proxies whose X-Forwarded-For is believed (`planner proxy set`); empty: none. */
  trustedProxies: string[];
  /** Every hook, with deliveries waiting (and how many of those are being retried) or failed: a failing hook shows here. */
  webhooks: { id: number; url: string; waiting: number; retrying: number; failed: number; lastError: string | null }[];
  /** The practitioner's own calendars (masked), each ok or failing, with the bookings their busy times overlap. */
  calendars: CalendarView[];
  counts: Counts;
}

/** Returns the installation's state at a glance. */
export function getStatus(ctx: AppContext): Status {
  const settings = ctx.settings();
  return {
    database: ctx.store.file,
    schemaVersion: ctx.store.schemaVersion(),
    configured: isConfigured(settings),
    practiceName: settings.practiceName,
    timeZone: settings.timeZone,
    locale: settings.locale,
    languages: settings.languages,
    notifyEmail: settings.notifyEmail,
    address: settings.address,
    phone: settings.phone,
    website: settings.website,
    api: {
      enabled: settings.apiEnabled,
      tokenPresent: settings.tokenHash !== null,
      tokenCreatedAt: settings.tokenCreatedAt,
      rateLimitPerMinute: settings.rateLimit,
    },
    mail: {
      configured: settings.mailUrl !== null,
      from: settings.mailFrom,
      passwordInClear: mailTransportVerdict(settings.mailUrl)?.why === 'password-in-clear',
      ...outboxCounts(ctx.store, unixSeconds(ctx.now())),
    },
    portal: settings.portal,
    bookingPage: settings.bookingPage,
    desk: isConfigured(settings) ? deskStatus(ctx) : null,
    retentionMonths: settings.retentionMonths,
    reminderOffsets: settings.reminderOffsets,
    trustedProxies: settings.trustedProxies === '' ? [] : settings.trustedProxies.split(','),
    webhooks: webhookHealth(ctx.store).map(({ webhookId, ...health }) => ({ id: webhookId, ...health })),
    calendars: isConfigured(settings) ? calendars(ctx) : [],
    counts: countRows(ctx.store, unixSeconds(ctx.now())),
  };
}
