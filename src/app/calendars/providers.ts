/**
 * A practitioner's Google or Microsoft calendar as the rest of the calendars code sees it: the account a calendar row
 * stands for (its API address, its secret renewed in the file as the provider renews it), the one loud state of an
 * account whose consent is gone (`reconnect`: marked by the read or write that found it, mailed once, shown by
 * `calendar list`, `status` and `doctor` with the command that mends it), and that command's end: the new secret
 * checked by a read, then every write that waited made due at once.
 */
import type { ProviderAccount, ProviderName, ProviderSecret } from '../../calendar/provider.ts';
import { invalid, notFound } from '../../errors.ts';
import { calendarReconnectAlert } from '../../mail/calendar-alert.ts';
import {
  type CalendarKind,
  type CalendarRow,
  findCalendar,
  markReconnect,
  markWriteAlerted,
  renewSecret,
} from '../../store/calendars.ts';
import { enqueue } from '../../store/outbox.ts';
import { findSchedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/** Whether `kind` is a provider's calendar, reached through its API. */
export function isProvider(kind: CalendarKind | undefined): kind is ProviderName {
  return kind === 'google' || kind === 'microsoft';
}

const GOOGLE_CALENDARS = 'https://www.googleapis.com/calendar/v3/calendars/';
const MICROSOFT_DEFAULT = 'https://graph.microsoft.com/v1.0/me/calendar';
const MICROSOFT_CALENDARS = 'https://graph.microsoft.com/v1.0/me/calendars/';

/** The API address a provider's calendar is kept under (its `url`): what `calendar list` shows. */
export function providerUrl(provider: ProviderName, calendarId: string): string {
  if (provider === 'google') return `${GOOGLE_CALENDARS}${encodeURIComponent(calendarId)}`;
  return calendarId === '' ? MICROSOFT_DEFAULT : `${MICROSOFT_CALENDARS}${encodeURIComponent(calendarId)}`;
}

/** The calendar's id in its provider, from its `url` (providerUrl). */
function calendarIdOf(url: string): string {
  for (const base of [GOOGLE_CALENDARS, MICROSOFT_CALENDARS])
    if (url.startsWith(base)) return decodeURIComponent(url.slice(base.length));
  return '';
}

/** A stored account, and the secret as the file holds it now (by this process's knowledge). */
export type StoredAccount = ProviderAccount & { stored(): string };

/**
 * The account of a provider's calendar row: a secret the provider renews is stored at once, in its own transaction
 * (a refresh token used once is not used again, so it must outlive whatever the caller does next), and only over the
 * secret it was renewed from: a reconnect committed meanwhile (another process) is never written over by the old
 * sign-in's renewal.
 */
export function accountOf(
  ctx: AppContext,
  calendar: Pick<CalendarRow, 'id' | 'kind' | 'url' | 'password'>,
): StoredAccount {
  let stored = calendar.password ?? '{}';
  const account: StoredAccount = {
    provider: calendar.kind as ProviderName,
    calendarId: calendarIdOf(calendar.url),
    secret: JSON.parse(stored) as ProviderSecret,
    saveSecret: (next) => {
      account.secret = next;
      const text = JSON.stringify(next);
      if (ctx.store.tx(() => renewSecret(ctx.store, calendar.id, text, stored))) stored = text;
    },
    stored: () => stored,
  };
  return account;
}

/** An account not stored yet (`calendar connect`): a renewed secret is kept in memory until the row is written. */
export function newAccount(provider: ProviderName, calendarId: string, secret: ProviderSecret): ProviderAccount {
  const account: ProviderAccount = {
    provider,
    calendarId,
    secret,
    saveSecret: (next) => {
      account.secret = next;
    },
  };
  return account;
}

/**
 * Calendar `id`, a Google or Microsoft one; throws `notFound`, or `invalid` naming what it is instead and how such a
 * calendar gets a new login.
 */
export function providerRow(ctx: AppContext, id: number): CalendarRow & { kind: ProviderName } {
  const calendar = findCalendar(ctx.store, id);
  if (!calendar) throw notFound(`calendar ${id} does not exist (planner calendar list shows them)`);
  if (!isProvider(calendar.kind))
    throw invalid(
      `calendar ${id} is ${calendar.kind === 'caldav' ? 'a CalDAV calendar' : 'an iCalendar address'}, not a Google or Microsoft one: planner calendar set ${id} --user <name> gives it a new login`,
    );
  return calendar as CalendarRow & { kind: ProviderName };
}

/**
 * What `calendar reconnect` needs of calendar `id`: its label, whether it receives bookings, and how it signed in (the
 * stored secret: the same client and flow sign in again). Throws `notFound` or `invalid` (not a provider's calendar).
 */
export function providerCalendar(
  ctx: AppContext,
  id: number,
): { label: string; writeBookings: boolean; secret: ProviderSecret } {
  const calendar = providerRow(ctx, id);
  return {
    label: calendar.label,
    writeBookings: calendar.writeBookings,
    secret: JSON.parse(calendar.password ?? '{}') as ProviderSecret,
  };
}

/** The command that reconnects calendar `calendar`: what `status`, `doctor`, the list and the mail say to run. */
export function reconnectCommand(calendar: Pick<CalendarRow, 'id' | 'password'>): string {
  const secret = JSON.parse(calendar.password ?? '{}') as Partial<ProviderSecret>;
  return secret.type === 'google-service-account'
    ? `planner calendar reconnect ${calendar.id} --key-file <new-key.json>`
    : `planner calendar reconnect ${calendar.id}`;
}

/**
 * Records that `calendar`'s account needs reconnecting, with the line that said so, and mails the practice once, at
 * once: it does not heal by waiting. Only while the file still holds the secret the failing request used (`secret`):
 * a reconnect committed meanwhile is not undone by a request that began before it. The hour-of-failing mail of its
 * writes is counted as sent (the read's is skipped by its caller), so that the practice hears of it once.
 */
export function noteReconnect(ctx: AppContext, calendar: CalendarRow, line: string, secret: string): void {
  const settings = requireConfigured(ctx);
  ctx.store.tx(() => {
    if (!markReconnect(ctx.store, calendar.id, line, secret)) return;
    if (calendar.writeBookings) markWriteAlerted(ctx.store, calendar.id, true);
    if (!settings.notifyEmail) return;
    const message = calendarReconnectAlert({
      settings,
      label: calendar.label,
      scheduleName: findSchedule(ctx.store, calendar.scheduleId)?.name ?? String(calendar.scheduleId),
      error: line,
      command: reconnectCommand(calendar),
    });
    enqueue(ctx.store, null, message, unixSeconds(ctx.now()), ctx.now().toISOString());
  });
}
