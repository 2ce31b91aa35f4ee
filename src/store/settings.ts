import { offeredLanguages } from '../domain/languages.ts';
import type { Locale } from '../domain/locales.ts';
import type { Store } from './db.ts';

export type { Locale };

/** The installation's settings: one row. */
export interface Settings {
  practiceName: string | null;
  timeZone: string | null;
  locale: Locale;
  /** The languages customers are served in: the practice's own (`locale`) first, then the others it offers. */
  languages: Locale[];
  notifyEmail: string | null;
  /** Where the practice is, one line ('' when not given): mails, the .ics LOCATION, the page. */
  address: string;
  /** The practice's phone number ('' when not given): mails and the page (a tel: link). */
  phone: string;
  /** The practice's website, an http(s) URL ('' when not given): the page's way back after a cancel. */
  website: string;
  /** When `planner init` completed; null before. */
  configuredAt: string | null;
  apiEnabled: boolean;
  /** argon2id PHC string of the one API token; the token itself is never stored. */
  tokenHash: string | null;
  tokenCreatedAt: string | null;
  /** Requests per minute per token. */
  rateLimit: number;
  mailUrl: string | null;
  mailFrom: string | null;
  /** Minutes before an appointment that its reminders are due, largest first; empty: no reminders. */
  reminderOffsets: number[];
  /** The customer's self-service page: null while it is off. */
  portal: PortalSettings | null;
  /** The key of the page's form tokens (made when the page is first enabled, kept when it is disabled). */
  portalSecret: string | null;
  /** The reverse proxies whose X-Forwarded-For is believed, as domain/proxies.ts writes them ('' for none). */
  trustedProxies: string;
  /** The public booking page (`planner booking-page enable`): null while it is off. */
  bookingPage: BookingPageSettings | null;
  /** Months after its end that the server anonymises a booking (`planner retention set`); null: off. */
  retentionMonths: number | null;
  /** The front desk (`planner desk enable`): null while it is off. */
  desk: DeskSettings | null;
  /** How long a desk session lasts without a request, and in all (minutes), kept while the desk is off too. */
  deskSessions: { idleMinutes: number; maxMinutes: number };
}

/** The front desk's settings: its public base, and how long a session lasts idle and in all (minutes). */
export interface DeskSettings {
  url: string;
  idleMinutes: number;
  maxMinutes: number;
}

/** The public booking page's settings, kept as JSON in `settings.booking_page`. */
export interface BookingPageSettings {
  /** The schedules it offers: 'all' (every bookable one, also those added later) or these ids. */
  schedules: 'all' | number[];
  /** The origins that may show it in a frame (`frame-ancestors`); empty: none. */
  embedFrom: string[];
  /** The practice's privacy notice, linked from the consent line; null: no consent line. */
  privacyUrl: string | null;
  /** Bookings the page accepts from one client address in an hour. */
  perHour: number;
  /** The page books no more for an e-mail address that holds this many future bookings (made anywhere). */
  perEmail: number;
  /** The practice's colour for buttons and day frames (`#rrggbb`); null or absent: planner's blue. */
  colour?: string | null;
  /** The version of the practice's logo (store/booking-logo.ts), shown on every page; null or absent: none. */
  logo?: string | null;
}

/** The self-service page's settings (`planner portal enable`). */
export interface PortalSettings {
  /** The public base URL, without a trailing slash: links are `<url>/manage/<token>`. */
  url: string;
  /** Hours before the start after which the page refuses to cancel or move. */
  cancelUntilHours: number;
  /** Whether customers may move their appointment on the page (cancelling is always offered). */
  reschedule: boolean;
}

interface SettingsRow {
  practice_name: string | null;
  time_zone: string | null;
  locale: Locale;
  languages: string;
  notify_email: string | null;
  address: string;
  phone: string;
  website: string;
  configured_at: string | null;
  api_enabled: number;
  token_hash: string | null;
  token_created_at: string | null;
  rate_limit: number;
  mail_url: string | null;
  mail_from: string | null;
  reminder_offsets: string;
  portal_url: string | null;
  portal_cancel_until: number;
  portal_reschedule: number;
  portal_secret: string | null;
  trusted_proxies: string;
  booking_page: string | null;
  retention_months: number | null;
  desk_url: string | null;
  desk_idle_minutes: number;
  desk_max_minutes: number;
}

/** Returns the settings row. */
export function readSettings(store: Store): Settings {
  const row = store.sql('SELECT * FROM settings WHERE id = 1').get() as unknown as SettingsRow;
  return {
    practiceName: row.practice_name,
    timeZone: row.time_zone,
    locale: row.locale,
    languages: offeredLanguages(row.locale, row.languages === '' ? [] : (row.languages.split(',') as Locale[])),
    notifyEmail: row.notify_email,
    address: row.address,
    phone: row.phone,
    website: row.website,
    configuredAt: row.configured_at,
    apiEnabled: row.api_enabled === 1,
    tokenHash: row.token_hash,
    tokenCreatedAt: row.token_created_at,
    rateLimit: row.rate_limit,
    mailUrl: row.mail_url,
    mailFrom: row.mail_from,
    reminderOffsets: row.reminder_offsets === '' ? [] : row.reminder_offsets.split(',').map(Number),
    portal:
      row.portal_url === null
        ? null
        : { url: row.portal_url, cancelUntilHours: row.portal_cancel_until, reschedule: row.portal_reschedule === 1 },
    portalSecret: row.portal_secret,
    trustedProxies: row.trusted_proxies,
    bookingPage: row.booking_page === null ? null : (JSON.parse(row.booking_page) as BookingPageSettings),
    retentionMonths: row.retention_months,
    desk:
      row.desk_url === null
        ? null
        : { url: row.desk_url, idleMinutes: row.desk_idle_minutes, maxMinutes: row.desk_max_minutes },
    deskSessions: { idleMinutes: row.desk_idle_minutes, maxMinutes: row.desk_max_minutes },
  };
}

/** Turns the front desk on at `url`, or off (null); the session lengths are kept either way. */
export function setDeskUrl(store: Store, url: string | null): void {
  store.sql('UPDATE settings SET desk_url = ? WHERE id = 1').run(url);
}

/** Sets how long a desk session lasts without a request, and in all (minutes). */
export function setDeskSessions(store: Store, idleMinutes: number, maxMinutes: number): void {
  store
    .sql('UPDATE settings SET desk_idle_minutes = ?, desk_max_minutes = ? WHERE id = 1')
    .run(idleMinutes, maxMinutes);
}

/** Sets the months after which bookings are anonymised, or turns it off (null). */
export function setRetention(store: Store, months: number | null): void {
  store.sql('UPDATE settings SET retention_months = ? WHERE id = 1').run(months);
}

/** Turns the booking page on with `page`, or off (null). */
export function setBookingPage(store: Store, page: BookingPageSettings | null): void {
  store.sql('UPDATE settings SET booking_page = ? WHERE id = 1').run(page === null ? null : JSON.stringify(page));
}

/** What `planner init` asks and `planner practice set` changes. */
export interface PracticeSettings {
  practiceName: string;
  timeZone: string;
  locale: Locale;
  /** The languages offered to customers, `locale` first (init: that one alone). */
  languages: Locale[];
  notifyEmail: string;
  address: string;
  phone: string;
  website: string;
}

/** The practice's settings in the order of the columns both writes below name. */
function practiceValues(values: PracticeSettings): string[] {
  const { practiceName, timeZone, locale, languages, notifyEmail, address, phone, website } = values;
  const others = languages.filter((one) => one !== locale).join(',');
  return [practiceName, timeZone, locale, others, notifyEmail, address, phone, website];
}

/** Records the answers of `planner init`; returns false when the installation was already configured. */
export function markConfigured(
  store: Store,
  values: PracticeSettings & { reminderOffsets: number[]; at: string },
): boolean {
  const result = store
    .sql(
      `UPDATE settings SET practice_name = ?, time_zone = ?, locale = ?, languages = ?, notify_email = ?, address = ?, phone = ?,
         website = ?, reminder_offsets = ?, configured_at = ?
       WHERE id = 1 AND configured_at IS NULL`,
    )
    .run(...practiceValues(values), values.reminderOffsets.join(','), values.at);
  return result.changes === 1;
}

/** Replaces the practice's settings (`planner practice set`): every value is written, changed or not. */
export function setPractice(store: Store, values: PracticeSettings): void {
  store
    .sql(
      'UPDATE settings SET practice_name = ?, time_zone = ?, locale = ?, languages = ?, notify_email = ?, address = ?, phone = ?, website = ? WHERE id = 1',
    )
    .run(...practiceValues(values));
}

/** Turns the API switch on or off. */
export function setApiEnabled(store: Store, enabled: boolean): void {
  store.sql('UPDATE settings SET api_enabled = ? WHERE id = 1').run(enabled ? 1 : 0);
}

/** Replaces the token hash: the previous token stops working at once. */
export function setTokenHash(store: Store, hash: string, at: string): void {
  store.sql('UPDATE settings SET token_hash = ?, token_created_at = ? WHERE id = 1').run(hash, at);
}

/**
 * Replaces an older form of the token's hash with `to` when the stored hash is still `from` (a rotation in between
 * wins); the token and its creation time stay. Returns true when it was replaced.
 */
export function upgradeTokenHash(store: Store, from: string, to: string): boolean {
  return store.sql('UPDATE settings SET token_hash = ? WHERE id = 1 AND token_hash = ?').run(to, from).changes === 1;
}

/** Sets the requests per minute per token. */
export function setRateLimit(store: Store, perMinute: number): void {
  store.sql('UPDATE settings SET rate_limit = ? WHERE id = 1').run(perMinute);
}

/** Stores the SMTP settings (the URL may carry a password: this file is 0600). */
export function setMailSettings(store: Store, url: string, from: string): void {
  store.sql('UPDATE settings SET mail_url = ?, mail_from = ? WHERE id = 1').run(url, from);
}

/** Sets the reminder offsets (minutes before the start, largest first; empty: off). */
export function setReminderOffsets(store: Store, minutes: number[]): void {
  store.sql('UPDATE settings SET reminder_offsets = ? WHERE id = 1').run(minutes.join(','));
}

/** Turns the self-service page on with `portal` (making its form key once, if there is none), or off (null). */
export function setPortal(store: Store, portal: PortalSettings | null, newSecret: () => string): void {
  if (portal === null) {
    store.sql('UPDATE settings SET portal_url = NULL WHERE id = 1').run();
    return;
  }
  store
    .sql(
      'UPDATE settings SET portal_url = ?, portal_cancel_until = ?, portal_reschedule = ?, portal_secret = coalesce(portal_secret, ?) WHERE id = 1',
    )
    .run(portal.url, portal.cancelUntilHours, portal.reschedule ? 1 : 0, newSecret());
}

/** Sets the trusted reverse proxies (as domain/proxies.ts writes them; '' for none). */
export function setTrustedProxies(store: Store, proxies: string): void {
  store.sql('UPDATE settings SET trusted_proxies = ? WHERE id = 1').run(proxies);
}
