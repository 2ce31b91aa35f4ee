/**
 * The practitioner's own calendars (migration 10): where each is fetched from, how often, and how its
 * last syncs went. Its busy times are in busy-times.ts. The URL and password are secrets: this module hands them
 * only to the sync (app/calendars/calendars.ts), which masks them in everything it shows.
 */
import type { Store } from './db.ts';

/** An iCalendar address, a CalDAV collection, or a provider's calendar through its API (calendar/provider.ts). */
export type CalendarKind = 'ics' | 'caldav' | 'google' | 'microsoft';

/** A calendar as the sync reads it, secrets included. */
export interface CalendarRow {
  id: number;
  scheduleId: number;
  label: string;
  kind: CalendarKind;
  url: string;
  user: string | null;
  password: string | null;
  everyMinutes: number;
  allowInsecure: boolean;
  /** What the last fetch remembers (ETag, Last-Modified, ctag, sync-token), as JSON. */
  fetchState: string;
  createdAt: string;
  /** The last successful sync, Unix seconds. */
  syncedAt: number | null;
  triedAt: number | null;
  failingSince: number | null;
  lastError: string | null;
  alerted: boolean;
  /** The generation of busy times that counts (store/busy-times.ts). */
  generation: number;
  /** Every booking of the schedule is written into this calendar. */
  writeBookings: boolean;
  /** The practice was mailed that writing into it fails. */
  writeAlerted: boolean;
  /** What each written event tells of the customer (migration 18). */
  details: CalendarDetails;
  /** Whether the last write into it succeeded; null before the first. */
  writeLastOk: boolean | null;
  /** Why its account needs reconnecting (a token revoked or expired, the calendar unshared); null: it does not. */
  reconnect: string | null;
}

/** `full`: every answer of the form; `minimal`: the reason, the customer's first name and the reference. */
export type CalendarDetails = 'full' | 'minimal';

interface Row {
  id: number;
  schedule_id: number;
  label: string;
  kind: CalendarKind;
  url: string;
  user_name: string | null;
  password: string | null;
  every_minutes: number;
  allow_insecure: number;
  fetch_state: string;
  created_at: string;
  synced_at: number | null;
  tried_at: number | null;
  failing_since: number | null;
  last_error: string | null;
  alerted: number;
  generation: number;
  write_bookings: number;
  write_alerted: number;
  details: CalendarDetails;
  write_last_ok: number | null;
  reconnect: string | null;
}

function toCalendar(row: Row): CalendarRow {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    label: row.label,
    kind: row.kind,
    url: row.url,
    user: row.user_name,
    password: row.password,
    everyMinutes: row.every_minutes,
    allowInsecure: row.allow_insecure === 1,
    fetchState: row.fetch_state,
    createdAt: row.created_at,
    syncedAt: row.synced_at,
    triedAt: row.tried_at,
    failingSince: row.failing_since,
    lastError: row.last_error,
    alerted: row.alerted === 1,
    generation: row.generation,
    writeBookings: row.write_bookings === 1,
    writeAlerted: row.write_alerted === 1,
    details: row.details,
    writeLastOk: row.write_last_ok === null ? null : row.write_last_ok === 1,
    reconnect: row.reconnect,
  };
}

const COLUMNS = `id, schedule_id, label, kind, url, user_name, password, every_minutes, allow_insecure, fetch_state, created_at,
  synced_at, tried_at, failing_since, last_error, alerted, generation, write_bookings, write_alerted, details, write_last_ok, reconnect`;

/** Returns every calendar, by id. */
export function listCalendars(store: Store): CalendarRow[] {
  return (store.sql(`SELECT ${COLUMNS} FROM calendars ORDER BY id`).all() as unknown as Row[]).map(toCalendar);
}

/** Whether the installation has any calendar (the server loads its calendar workers only then). */
export function hasCalendars(store: Store): boolean {
  return store.sql('SELECT 1 FROM calendars LIMIT 1').get() !== undefined;
}

/** Returns the calendar with `id`. */
export function findCalendar(store: Store, id: number): CalendarRow | undefined {
  const row = store.sql(`SELECT ${COLUMNS} FROM calendars WHERE id = ?`).get(id);
  return row ? toCalendar(row as unknown as Row) : undefined;
}

/**
 * Returns the calendars whose next sync is due at `now` (never tried, or tried `every_minutes` or longer ago), of
 * schedules that were not removed.
 */
export function dueCalendars(store: Store, now: number): CalendarRow[] {
  const rows = store
    .sql(
      `SELECT ${COLUMNS} FROM calendars WHERE (tried_at IS NULL OR tried_at + every_minutes * 60 <= ?)
       AND schedule_id IN (SELECT id FROM schedules WHERE removed_at IS NULL) ORDER BY id`,
    )
    .all(now);
  return (rows as unknown as Row[]).map(toCalendar);
}

/** What `planner calendar add` writes: a calendar that has just synced once. */
export type NewCalendar = Pick<
  CalendarRow,
  | 'scheduleId'
  | 'label'
  | 'kind'
  | 'url'
  | 'user'
  | 'password'
  | 'everyMinutes'
  | 'allowInsecure'
  | 'fetchState'
  | 'createdAt'
  | 'syncedAt'
> & {
  writeBookings?: boolean;
  /** Default `full`: app/calendars/calendars.ts gives a new calendar's. */
  details?: CalendarDetails;
};

/** Inserts a calendar and returns its id. */
export function insertCalendar(store: Store, calendar: NewCalendar): number {
  const result = store
    .sql(
      `INSERT INTO calendars (schedule_id, label, kind, url, user_name, password, every_minutes, allow_insecure, fetch_state, created_at, synced_at, tried_at, write_bookings, details)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      calendar.scheduleId,
      calendar.label,
      calendar.kind,
      calendar.url,
      calendar.user,
      calendar.password,
      calendar.everyMinutes,
      calendar.allowInsecure ? 1 : 0,
      calendar.fetchState,
      calendar.createdAt,
      calendar.syncedAt,
      calendar.syncedAt,
      calendar.writeBookings ? 1 : 0,
      calendar.details ?? 'full',
    );
  return Number(result.lastInsertRowid);
}

/**
 * Records that a sync of `id` begins at `at`, before it fetches: a sync cut off by a crash or a kill leaves
 * the calendar tried, so a restarted server tries it again only after its interval, never in a tight loop.
 */
export function markTried(store: Store, id: number, at: number): void {
  store.sql('UPDATE calendars SET tried_at = ? WHERE id = ?').run(at, id);
}

/**
 * Records a successful sync at `at`: not failing any more, the fetch's new state; no reconnect needed, unless the
 * calendar's writes found it and still fail (a calendar shared to read but not to write reads well: its writes say).
 */
export function markSynced(store: Store, id: number, at: number, fetchState: string): void {
  store
    .sql(
      `UPDATE calendars SET synced_at = ?, tried_at = ?, fetch_state = ?, failing_since = NULL, last_error = NULL, alerted = 0,
         reconnect = CASE WHEN write_bookings = 1 AND write_last_ok = 0 THEN reconnect ELSE NULL END WHERE id = ?`,
    )
    .run(at, at, fetchState, id);
}

/** Records a failed sync at `at` with its one-line error; failing since the first failure after the last success. */
export function markFailing(store: Store, id: number, at: number, error: string): void {
  store
    .sql('UPDATE calendars SET tried_at = ?, failing_since = coalesce(failing_since, ?), last_error = ? WHERE id = ?')
    .run(at, at, error, id);
}

/** Records that the practice was mailed that the calendar is failing. */
export function markAlerted(store: Store, id: number): void {
  store.sql('UPDATE calendars SET alerted = 1 WHERE id = ?').run(id);
}

/** What `planner calendar set` changes of a calendar; what is not given stays. */
export type CalendarChange = Partial<
  Pick<CalendarRow, 'label' | 'everyMinutes' | 'user' | 'password' | 'writeBookings' | 'details'>
>;

/** Changes a calendar's settings (a new login also makes its next sync due at once). */
export function updateCalendar(store: Store, id: number, change: CalendarChange): void {
  const sets: string[] = [];
  const values: (string | number | null)[] = [];
  const set = (column: string, value: string | number | null) => (sets.push(`${column} = ?`), values.push(value));
  if (change.label !== undefined) set('label', change.label);
  if (change.everyMinutes !== undefined) set('every_minutes', change.everyMinutes);
  if (change.user !== undefined) set('user_name', change.user);
  if (change.password !== undefined) set('password', change.password);
  if (change.user !== undefined || change.password !== undefined) set('tried_at', null);
  if (change.writeBookings !== undefined) set('write_bookings', change.writeBookings ? 1 : 0);
  if (change.details !== undefined) set('details', change.details);
  if (sets.length > 0) store.sql(`UPDATE calendars SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
}

/** Records whether the practice was mailed that writing into the calendar fails. */
export function markWriteAlerted(store: Store, id: number, alerted: boolean): void {
  store.sql('UPDATE calendars SET write_alerted = ? WHERE id = ?').run(alerted ? 1 : 0, id);
}

/** Records whether the last write into the calendar succeeded (one that did: its account is not waiting for a reconnect). */
export function markWriteOutcome(store: Store, id: number, ok: boolean): void {
  if (ok) store.sql('UPDATE calendars SET write_last_ok = 1, reconnect = NULL WHERE id = ?').run(id);
  else store.sql('UPDATE calendars SET write_last_ok = 0 WHERE id = ?').run(id);
}

/**
 * Records that the account of calendar `id` needs reconnecting, and why (the first line found: later failures keep
 * it), while it still holds `secret` (the one that failed); returns whether it did not before (the practice is
 * mailed then, once).
 */
export function markReconnect(store: Store, id: number, why: string, secret: string): boolean {
  return (
    store
      .sql('UPDATE calendars SET reconnect = ? WHERE id = ? AND reconnect IS NULL AND password = ?')
      .run(why, id, secret).changes > 0
  );
}

/**
 * A reconnected account: its new secret (and account name), no longer waiting for a reconnect (the admin who ran the
 * command needs no mail that it reads again: the mail that its writes are written again still comes), due to be read
 * at once, and every write that waits for it due at once too.
 */
export function reconnected(store: Store, id: number, secret: string, account: string | null): void {
  store
    .sql(
      'UPDATE calendars SET password = ?, user_name = coalesce(?, user_name), reconnect = NULL, alerted = 0, tried_at = NULL WHERE id = ?',
    )
    .run(secret, account, id);
  store.sql("UPDATE calendar_writes SET next_attempt_at = 0 WHERE calendar_id = ? AND status = 'pending'").run(id);
}

/**
 * Stores a secret the provider renewed (Microsoft's refresh token) of calendar `id`, over `previous` only (the one it
 * was renewed from: a reconnect meanwhile stays); returns whether it did.
 */
export function renewSecret(store: Store, id: number, secret: string, previous: string): boolean {
  return (
    store.sql('UPDATE calendars SET password = ? WHERE id = ? AND password = ?').run(secret, id, previous).changes > 0
  );
}

/** Deletes a calendar (its busy times first: busy-times.ts `deleteBusy`). */
export function deleteCalendar(store: Store, id: number): void {
  store.sql('DELETE FROM calendars WHERE id = ?').run(id);
}
