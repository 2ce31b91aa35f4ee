/**
 * The practitioner's own calendars: added, listed, synced and removed, and the busy times they give the
 * engine. A sync fetches (calendar/fetch.ts, conditionally), reads the busy times over the schedule's window
 * (calendar/busy.ts, in slices that give the event loop back) and writes only what changed, in one transaction with
 * the calendar's state. A sync that fails keeps the busy times it had: a calendar that cannot be read never frees a
 * busy time. After an hour of failing, the practice is mailed once, and once more when the calendar reads again.
 */
import type { PlannerEvent } from '../../calendar/busy.ts';
import { type FetchLimits, type FetchState, fetchCalendar } from '../../calendar/fetch.ts';
import type { ProviderAccount, ProviderName, ProviderSecret, ProviderState } from '../../calendar/provider.ts';
import { checkCalendarUrl } from '../../calendar/url.ts';
import { nameMessage, nameProblem, SYNC_EVERY_DEFAULT_MINUTES, SYNC_EVERY_MAX_MINUTES } from '../../domain/checks.ts';
import { SECONDS_PER_DAY } from '../../domain/days.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { calendarAlert } from '../../mail/calendar-alert.ts';
import { type Pump, startPump } from '../../queue/pump.ts';
import {
  applyBusyChanges,
  BUSY_PAGE_ROWS,
  BUSY_WRITE_ROWS,
  type BusyChanges,
  type BusySpan,
  busyChanges,
  busyPieces,
  countGeneration,
  deleteBusy,
  dropUncounted,
  storedBusyPage,
  switchGeneration,
} from '../../store/busy-times.ts';
import { dropWrites, queueUpcoming, queueWritten } from '../../store/calendar-writes.ts';
import {
  type CalendarDetails,
  type CalendarKind,
  type CalendarRow,
  deleteCalendar,
  dueCalendars,
  findCalendar,
  insertCalendar,
  listCalendars,
  markAlerted,
  markFailing,
  markSynced,
  markTried,
  type NewCalendar,
  reconnected,
  updateCalendar,
} from '../../store/calendars.ts';
import { enqueue } from '../../store/outbox.ts';
import type { Schedule } from '../../store/schedules.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';
import { noticeEdits } from './calendar-edits.ts';
import {
  busyWindow,
  type CalendarView,
  type ConflictView,
  calendarConflicts,
  scheduleOf,
  viewOf,
} from './calendar-views.ts';
import { ALERT_AFTER_SECONDS, CALENDAR_POLL_MS } from './policy.ts';
import {
  accountOf,
  isProvider,
  newAccount,
  noteReconnect,
  providerRow,
  providerUrl,
  reconnectCommand,
  type StoredAccount,
} from './providers.ts';

/** What a sync may be given instead of the defaults: the limits (tests make the time-out short). */
export interface SyncOptions {
  limits?: Partial<FetchLimits>;
  /** false: the outcome lists no conflicts (the server's loop, which shows none, does not look for them). */
  conflicts?: boolean;
}

/** Returns the one line of a failed fetch, read or write, never with a secret of `calendar` in it. */
export function failureLine(error: unknown, calendar: { url: string; password: string | null }): string {
  let line = String((error as Error)?.message ?? error).split('\n', 1)[0]!;
  for (const secret of [calendar.url, calendar.password, ...secretParts(calendar.password)])
    if (secret) line = line.split(secret).join('…');
  return line;
}

/** The secrets inside a provider's account (calendar/provider.ts ProviderSecret, JSON): a key, a token, a secret. */
function secretParts(password: string | null): string[] {
  if (!password?.startsWith('{')) return [];
  try {
    const { privateKey, refreshToken, clientSecret } = JSON.parse(password) as Record<string, unknown>;
    return [privateKey, refreshToken, clientSecret].filter((part): part is string => typeof part === 'string');
  } catch {
    return [];
  }
}

/**
 * What a calendar's last successful sync remembers: the fetch's own state (ETag, ctag, …), and up to which instant
 * and in which zone its busy times were read. A recurring event keeps giving busy times as the window moves on
 * without its calendar changing, and a floating or all-day one moves with the zone: so "nothing changed" is asked
 * only while the window stays within what was read, in the same zone; else the calendar is read whole again.
 */
interface SyncState extends FetchState {
  readTo?: number;
  zone?: string;
  /** A provider's calendar: what its last read remembers (calendar/provider.ts). */
  provider?: ProviderState;
}

/** How far past the window a sync reads: a calendar that never changes is read whole once a day. */
const READ_AHEAD_SECONDS = SECONDS_PER_DAY;

/** What a read needs of a calendar: where it is and how to log in, and what its last read remembers. */
interface Readable {
  url: string;
  user: string | null;
  password: string | null;
  allowInsecure: boolean;
  /** undefined: not known yet (an address being added: the server is asked). */
  kind: CalendarKind | undefined;
  fetchState: string;
}

/**
 * Fetches and reads a calendar: its busy times cut into pieces, or `unchanged`. Throws with one line. A provider's
 * calendar (`account`) is read through its API, as iCalendar texts the same reader reads.
 */
async function readCalendar(
  ctx: AppContext,
  calendar: Readable,
  schedule: Schedule,
  options: SyncOptions,
  account?: ProviderAccount,
) {
  const zone = requireConfigured(ctx).timeZone;
  const window = busyWindow(schedule, unixSeconds(ctx.now()));
  const { readTo, zone: readIn, ...last } = JSON.parse(calendar.fetchState) as SyncState;
  const sameWindow = readTo !== undefined && window.to <= readTo && readIn === zone;
  const read = { from: window.from, to: window.to + READ_AHEAD_SECONDS };
  const fetchedAtMs = ctx.now().getTime();
  let fetched:
    | { kind: CalendarKind; unchanged: true; state: object }
    | { kind: CalendarKind; unchanged: false; texts: string[]; state: object };
  if (account) {
    const { openProvider } = await import('../../calendar/provider.ts');
    const client = await openProvider(account);
    const provided = await client.read(sameWindow ? (last as SyncState).provider : undefined, read);
    fetched = { kind: account.provider, ...provided, state: { provider: provided.state } };
  } else {
    const source = {
      url: calendar.url,
      user: calendar.user ?? undefined,
      password: calendar.password ?? undefined,
      allowInsecure: calendar.allowInsecure,
    };
    const kind = calendar.kind === 'ics' || calendar.kind === 'caldav' ? calendar.kind : undefined;
    fetched = await fetchCalendar(source, kind, sameWindow ? last : {}, read, options.limits);
  }
  if (fetched.unchanged)
    return { kind: fetched.kind, state: { ...fetched.state, readTo, zone } as SyncState, busy: undefined };
  // The reader (ical.js) is loaded at the first read: a server without calendars never holds it.
  const { busyTimesSliced } = await import('../../calendar/busy.ts');
  const planner: PlannerEvent[] = [];
  const busy = await busyTimesSliced(fetched.texts, { zone, from: read.from, to: read.to, planner });
  return {
    kind: fetched.kind,
    state: { ...fetched.state, readTo: read.to, zone } as SyncState,
    busy: busyPieces(busy),
    /** Planner's own events as the calendar holds them, over `read`, fetched from `fetchedAtMs` on. */
    planner: { events: planner, ...read, fetchedAtMs },
  };
}

/** The account of `calendar` when it is a provider's (its reads and writes go through the provider's API). */
function accountIfProvider(ctx: AppContext, calendar: CalendarRow): StoredAccount | undefined {
  return isProvider(calendar.kind) ? accountOf(ctx, calendar) : undefined;
}

/** Gives the event loop a turn. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Works out what turns the kept busy times of `calendarId` into `wanted`, reading them a page at a time between
 * turns of the event loop (a sync never holds it for long). The transaction then writes only the changes;
 * should another process have written meanwhile, the changes still leave every wanted piece there (applyBusyChanges),
 * and the next sync removes what is left over: a busy time is never freed by it.
 */
async function changesTo(ctx: AppContext, calendarId: number, wanted: readonly BusySpan[]): Promise<BusyChanges> {
  const kept: BusySpan[] = [];
  for (
    let page = storedBusyPage(ctx.store, calendarId, undefined, BUSY_PAGE_ROWS);
    ;
    page = storedBusyPage(ctx.store, calendarId, page.at(-1), BUSY_PAGE_ROWS)
  ) {
    kept.push(...page);
    await turn();
    if (page.length < BUSY_PAGE_ROWS) return busyChanges(kept, wanted);
  }
}

/** Deletes the busy times of `calendarId` that do not count, a transaction of BUSY_WRITE_ROWS at a time. */
async function dropAllUncounted(ctx: AppContext, calendarId: number): Promise<void> {
  while (ctx.store.tx(() => dropUncounted(ctx.store, calendarId, BUSY_WRITE_ROWS)) === BUSY_WRITE_ROWS) await turn();
}

/**
 * Writes `busy` as a new generation of `calendar`'s busy times, a transaction of BUSY_WRITE_ROWS at a time with a
 * turn of the event loop between: none of it counts until the sync switches to it. What an unfinished one (a kill)
 * left is deleted first. `whole()`, asked in the switching transaction, says that the generation holds exactly what
 * was written (no other process's sync wrote or deleted beside it).
 */
async function stageGeneration(
  ctx: AppContext,
  calendar: CalendarRow,
  busy: readonly BusySpan[],
): Promise<{ generation: number; whole(): boolean }> {
  await dropAllUncounted(ctx, calendar.id);
  const generation = calendar.generation + 1;
  const target = { id: calendar.id, scheduleId: calendar.scheduleId, generation };
  for (let from = 0; from < busy.length; from += BUSY_WRITE_ROWS) {
    ctx.store.tx(() =>
      applyBusyChanges(ctx.store, target, { remove: [], add: busy.slice(from, from + BUSY_WRITE_ROWS) }),
    );
    await turn();
  }
  return { generation, whole: () => countGeneration(ctx.store, calendar.id, generation) === busy.length };
}

/** What `planner calendar add` was given. */
export interface CalendarInput {
  label?: string;
  user?: string;
  password?: string;
  everyMinutes?: number;
  allowInsecure: boolean;
  /** Every booking of the schedule is written into the calendar too: CalDAV only, checked by a write. */
  writeBookings?: boolean;
  /** What each written event tells of the customer (default `minimal`: NEW_CALENDAR_DETAILS). */
  details?: CalendarDetails;
}

/**
 * What a new calendar's events tell of the customer: the reason, the first name and the reference. Data
 * minimisation (GDPR Art. 5(1)(c) and 25(2)): the practitioner's calendar is copied to every device and service it
 * syncs with, and the full answers are one command away (`bookings show`, the desk); `--details full` writes them.
 */
export const NEW_CALENDAR_DETAILS: CalendarDetails = 'minimal';

/** Throws `invalid` unless `details` is one of `full` and `minimal`. */
export function checkDetails(details: string): CalendarDetails {
  if (details !== 'full' && details !== 'minimal') throw invalid(`--details takes full or minimal (got "${details}")`);
  return details;
}

/**
 * Throws `invalid` unless planner may write into `calendar` (a CalDAV collection, or a provider's calendar through
 * `account`, that takes a test event).
 */
async function requireWritable(
  ctx: AppContext,
  calendar: { url: string; user: string | null; password: string | null; allowInsecure: boolean },
  kind: CalendarKind,
  account?: ProviderAccount,
): Promise<void> {
  if (account) {
    const { openProvider } = await import('../../calendar/provider.ts');
    const { CalendarWriteError } = await import('../../calendar/write.ts');
    try {
      await (await openProvider(account)).checkWritable(ctx.now(), requireConfigured(ctx).timeZone);
    } catch (error) {
      const left = error instanceof CalendarWriteError && error.leftCheckEvent;
      throw invalid(
        `planner may not write into that calendar, ${left ? 'nothing was added' : 'nothing was changed'}: ${failureLine(error, calendar)}`,
      );
    }
    return;
  }
  if (kind !== 'caldav') {
    throw invalid(
      "that is an iCalendar (.ics) address, which planner can read but not write: give the calendar's CalDAV address (Nextcloud, Fastmail, iCloud, Radicale, Baïkal) for --write-bookings, or leave it out",
    );
  }
  const { checkWritable, CalendarWriteError } = await import('../../calendar/write.ts');
  try {
    await checkWritable(
      {
        url: calendar.url,
        user: calendar.user ?? undefined,
        password: calendar.password ?? undefined,
        allowInsecure: calendar.allowInsecure,
      },
      ctx.now(),
      requireConfigured(ctx).timeZone,
    );
  } catch (error) {
    // Planner's file is unchanged either way; a test event its DELETE could not remove is named in the line.
    const left = error instanceof CalendarWriteError && error.leftCheckEvent;
    throw invalid(
      `planner may not write into that calendar, ${left ? 'nothing was added' : 'nothing was changed'}: ${failureLine(error, calendar)}`,
    );
  }
}

/**
 * Adds a calendar to a schedule after one successful sync; when that fails, throws its one line and writes
 * nothing. The kind (an .ics address or a CalDAV collection) is found by asking the server.
 */
export async function addCalendar(
  ctx: AppContext,
  scheduleId: number,
  urlText: string,
  input: CalendarInput,
  options: SyncOptions = {},
): Promise<CalendarView> {
  requireConfigured(ctx);
  const schedule = scheduleOf(ctx, scheduleId);
  const url = checkCalendarUrl(urlText, input.allowInsecure);
  const everyMinutes = checkEvery(input.everyMinutes);
  const label = (input.label ?? new URL(url).hostname).trim();
  const problem = nameProblem(label);
  if (problem) throw invalid(nameMessage('--name', problem));
  if (input.password !== undefined && !input.user) throw invalid('a password needs a user name: give --user <name>');
  if (input.user && !input.password) {
    throw invalid(
      '--user needs a password: type it at the prompt, or give it with --password-stdin or PLANNER_CALENDAR_PASSWORD',
    );
  }
  const same = listCalendars(ctx.store).find((calendar) => calendar.scheduleId === scheduleId && calendar.url === url);
  if (same)
    throw new AppError(
      'conflict',
      `calendar ${same.id} already reads this address for schedule ${scheduleId} (planner calendar list)`,
    );
  const secrets = { url, password: input.password ?? null };
  let read;
  try {
    read = await readCalendar(
      ctx,
      { ...secrets, user: input.user ?? null, allowInsecure: input.allowInsecure, kind: undefined, fetchState: '{}' },
      schedule,
      options,
    );
  } catch (error) {
    throw invalid(`the calendar could not be read, nothing was added: ${failureLine(error, secrets)}`);
  }
  if (input.writeBookings)
    await requireWritable(ctx, { ...secrets, user: input.user ?? null, allowInsecure: input.allowInsecure }, read.kind);
  return storeAdded(ctx, {
    scheduleId,
    label,
    kind: read.kind,
    url,
    user: input.user ?? null,
    password: input.password ?? null,
    everyMinutes,
    allowInsecure: input.allowInsecure,
    fetchState: JSON.stringify(read.state),
    createdAt: ctx.now().toISOString(),
    syncedAt: unixSeconds(ctx.now()),
    writeBookings: input.writeBookings === true,
    details: input.details ?? NEW_CALENDAR_DETAILS,
    busy: read.busy ?? [],
  });
}

/**
 * Stores a calendar just read (`add`, `connect`) with the busy times of that read, in one transaction, its upcoming
 * bookings queued to be written when it receives them; returns it as shown.
 */
function storeAdded(ctx: AppContext, calendar: NewCalendar & { busy: BusySpan[] }): CalendarView {
  const { busy, ...row } = calendar;
  const id = ctx.store.tx(() => {
    const added = insertCalendar(ctx.store, row);
    applyBusyChanges(ctx.store, { id: added, scheduleId: row.scheduleId, generation: 0 }, { remove: [], add: busy });
    if (row.writeBookings) queueUpcoming(ctx.store, added, row.syncedAt!, ctx.now().toISOString());
    return added;
  });
  return viewOf(ctx, findCalendar(ctx.store, id)!, calendarConflicts(ctx, id));
}

/** What `planner calendar connect` was given besides the account. */
export interface ConnectInput {
  label?: string;
  everyMinutes?: number;
  writeBookings?: boolean;
  details?: CalendarDetails;
  /** Who the account is (the calendar's or the signed-in address): what lists show beside it. */
  accountName: string;
}

/** Throws `invalid` unless `everyMinutes` is an interval a sync may have; returns it (default: the default). */
function checkEvery(everyMinutes: number | undefined): number {
  const every = everyMinutes ?? SYNC_EVERY_DEFAULT_MINUTES;
  if (!Number.isInteger(every) || every < 1 || every > SYNC_EVERY_MAX_MINUTES) {
    throw invalid(`--every must be from 1 to ${SYNC_EVERY_MAX_MINUTES} minutes (got ${every})`);
  }
  return every;
}

/**
 * Adds a Google or Microsoft calendar (`calendarId` of `provider`, reached with `secret`) to a schedule after one
 * successful read (and, to receive bookings, a test write); when either fails, throws its one line and writes
 * nothing. A secret the provider renewed meanwhile is what is stored.
 */
export async function connectCalendar(
  ctx: AppContext,
  scheduleId: number,
  target: { provider: ProviderName; calendarId: string; secret: ProviderSecret },
  input: ConnectInput,
  options: SyncOptions = {},
): Promise<CalendarView> {
  requireConfigured(ctx);
  const schedule = scheduleOf(ctx, scheduleId);
  const everyMinutes = checkEvery(input.everyMinutes);
  const url = providerUrl(target.provider, target.calendarId);
  const label = (input.label ?? input.accountName).trim();
  const problem = nameProblem(label);
  if (problem) throw invalid(nameMessage('--name', problem));
  const same = listCalendars(ctx.store).find((calendar) => calendar.scheduleId === scheduleId && calendar.url === url);
  if (same)
    throw new AppError(
      'conflict',
      `calendar ${same.id} already reads this calendar for schedule ${scheduleId} (planner calendar list; ${reconnectCommand(same)} gives it a new sign-in)`,
    );
  const account = newAccount(target.provider, target.calendarId, target.secret);
  // The new secret is masked in any line a failure gives (failureLine), as a stored one is.
  const readable = {
    url,
    user: input.accountName,
    password: JSON.stringify(target.secret),
    allowInsecure: false,
    kind: target.provider,
    fetchState: '{}',
  };
  let read;
  try {
    read = await readCalendar(ctx, readable, schedule, options, account);
  } catch (error) {
    throw invalid(`the calendar could not be read, nothing was added: ${failureLine(error, readable)}`);
  }
  if (input.writeBookings) await requireWritable(ctx, readable, target.provider, account);
  return storeAdded(ctx, {
    scheduleId,
    label,
    kind: target.provider,
    url,
    user: input.accountName,
    password: JSON.stringify(account.secret),
    everyMinutes,
    allowInsecure: false,
    fetchState: JSON.stringify(read.state),
    createdAt: ctx.now().toISOString(),
    syncedAt: unixSeconds(ctx.now()),
    writeBookings: input.writeBookings === true,
    details: input.details ?? NEW_CALENDAR_DETAILS,
    busy: read.busy ?? [],
  });
}

/**
 * Gives calendar `id` (a Google or Microsoft one) a new sign-in: checked by a read (and a test write when it receives
 * bookings) before anything changes; then it no longer waits for a reconnect, its busy times are read now, and every
 * write that waited is due at once (`deliverWrites` and the server's worker write them, each once: the events' ids
 * and transaction ids are planner's own, so nothing written before the token died is written twice).
 */
export async function reconnectCalendar(
  ctx: AppContext,
  id: number,
  secret: ProviderSecret,
  accountName: string | null,
  options: SyncOptions = {},
): Promise<SyncOutcome> {
  requireConfigured(ctx);
  const calendar = providerRow(ctx, id);
  const account = newAccount(calendar.kind, accountOf(ctx, calendar).calendarId, secret);
  const schedule = scheduleOf(ctx, calendar.scheduleId);
  // Both the stored secret and the new one are masked in any line a failure gives.
  const masked = { url: calendar.url, password: JSON.stringify(secret) };
  try {
    await readCalendar(ctx, { ...calendar, fetchState: '{}' }, schedule, options, account);
  } catch (error) {
    throw invalid(
      `the calendar could not be read with that sign-in, nothing was changed: ${failureLine(failureLine(error, calendar), masked)}`,
    );
  }
  if (calendar.writeBookings) await requireWritable(ctx, { ...calendar, ...masked }, calendar.kind, account);
  ctx.store.tx(() => reconnected(ctx.store, id, JSON.stringify(account.secret), accountName));
  return syncCalendar(ctx, findCalendar(ctx.store, id)!, options);
}

/** What `planner calendar set` changes; what is not given stays. */
export interface CalendarSettingsChange {
  label?: string;
  everyMinutes?: number;
  user?: string;
  password?: string;
  writeBookings?: boolean;
  /** With writeBookings false: delete the events planner wrote (else they stay in the calendar). */
  removeWritten?: boolean;
  details?: CalendarDetails;
}

/** What `calendar set` did: the calendar as it is now, and what it queued to be written or removed. */
export interface CalendarSet {
  view: CalendarView;
  /** Bookings queued to be written (writing turned on). */
  queued: number;
  /** Events queued to be deleted (writing turned off with removeWritten). */
  removing: number;
  /** Writing was turned off and what was written stays in the calendar. */
  leftWritten: boolean;
  /** Events queued to be written again with other details (`details` changed while writing). */
  rewriting: number;
  /** Writing was asked on while already on: nothing to do (edits in the app are `calendar repair`'s). */
  alreadyWriting: boolean;
}

/** Throws `invalid` naming what `change` gets wrong of `calendar`; returns its new label, trimmed (if any). */
function checkChange(calendar: CalendarRow, change: CalendarSettingsChange): string | undefined {
  const label = change.label?.trim();
  const problem = label === undefined ? undefined : nameProblem(label);
  if (problem) throw invalid(nameMessage('--name', problem));
  if (change.everyMinutes !== undefined) checkEvery(change.everyMinutes);
  if (change.removeWritten && change.writeBookings !== false)
    throw invalid('--remove-written goes with --write-bookings off');
  if (isProvider(calendar.kind) && (change.user !== undefined || change.password !== undefined))
    throw invalid(
      `calendar ${calendar.id} is reached through ${calendar.kind === 'google' ? 'Google' : 'Microsoft'}'s sign-in, not a user and password: ${reconnectCommand(calendar)} gives it a new one`,
    );
  if (change.password !== undefined && !(change.user ?? calendar.user))
    throw invalid('a password needs a user name: give --user <name>');
  if (change.user !== undefined && change.password === undefined) {
    throw invalid(
      '--user needs the password: type it at the prompt, or give it with --password-stdin or PLANNER_CALENDAR_PASSWORD',
    );
  }
  return label;
}

/**
 * Changes a calendar without removing it: its name, interval, login (checked by reading the calendar with it first;
 * nothing is changed when that fails) and whether it receives the bookings (turned on: checked by a test write, and
 * every upcoming booking of the schedule is queued; turned off: what was written stays, unless `removeWritten`).
 */
export async function setCalendar(
  ctx: AppContext,
  id: number,
  change: CalendarSettingsChange,
  options: SyncOptions = {},
): Promise<CalendarSet> {
  requireConfigured(ctx);
  const calendar = findCalendar(ctx.store, id) ?? calendarNotFound(id);
  const label = checkChange(calendar, change);
  const login = { user: change.user ?? calendar.user, password: change.password ?? calendar.password };
  const next = { ...calendar, ...login };
  if (change.user !== undefined || change.password !== undefined) {
    try {
      await readCalendar(
        ctx,
        { ...next, kind: calendar.kind, fetchState: '{}' },
        scheduleOf(ctx, calendar.scheduleId),
        options,
      );
    } catch (error) {
      throw invalid(`the calendar could not be read with that login, nothing was changed: ${failureLine(error, next)}`);
    }
  }
  const turnOn = change.writeBookings === true && !calendar.writeBookings;
  const turnOff = change.writeBookings === false && calendar.writeBookings;
  if (turnOn) await requireWritable(ctx, next, calendar.kind, accountIfProvider(ctx, calendar));
  const nowAt = unixSeconds(ctx.now());
  const at = ctx.now().toISOString();
  const newDetails = change.details !== undefined && change.details !== calendar.details;
  const counts = ctx.store.tx(() => {
    updateCalendar(ctx.store, id, {
      label,
      everyMinutes: change.everyMinutes,
      user: change.user,
      password: change.password,
      writeBookings: change.writeBookings,
      details: change.details,
    });
    if (turnOn) return { queued: queueUpcoming(ctx.store, id, nowAt, at), removing: 0, rewriting: 0 };
    if (turnOff && change.removeWritten) return { queued: 0, removing: queueWritten(ctx.store, id, at), rewriting: 0 };
    if (turnOff) dropWrites(ctx.store, id);
    // Other details while writing: every event written is written again with them (the worker writes the booking as
    // it is, in the calendar's details).
    if (newDetails && calendar.writeBookings && !turnOff)
      return { queued: 0, removing: 0, rewriting: queueWritten(ctx.store, id, at) };
    return { queued: 0, removing: 0, rewriting: 0 };
  });
  const view = viewOf(ctx, findCalendar(ctx.store, id)!, calendarConflicts(ctx, id));
  return {
    view,
    ...counts,
    leftWritten: turnOff && !change.removeWritten,
    alreadyWriting: change.writeBookings === true && calendar.writeBookings,
  };
}

/** What one sync did. */
export interface SyncOutcome {
  id: number;
  label: string;
  ok: boolean;
  /** false: the server said nothing changed (304, the same ctag or sync-token), or what it gave was the same. */
  changed: boolean;
  added: number;
  removed: number;
  /** The failure's one line (ok false). */
  error: string | null;
  /** Upcoming bookings a busy time of this calendar overlaps, after the sync. */
  conflicts: ConflictView[];
}

/**
 * Records a failed sync of `calendar` (failing since its first failure, with the line) and mails the practice once it
 * has failed for ALERT_AFTER_SECONDS (not when `mail` is false: an account to reconnect has its own mail).
 */
function recordFailure(
  ctx: AppContext,
  calendar: CalendarRow,
  scheduleName: string,
  line: string,
  options: { mail: boolean },
): void {
  const settings = requireConfigured(ctx);
  const now = unixSeconds(ctx.now());
  ctx.store.tx(() => {
    markFailing(ctx.store, calendar.id, now, line);
    const since = calendar.failingSince ?? now;
    if (options.mail && !calendar.alerted && now - since >= ALERT_AFTER_SECONDS && settings.notifyEmail) {
      const message = calendarAlert({
        settings,
        label: calendar.label,
        scheduleName,
        calendarId: calendar.id,
        failingSince: since,
        error: line,
        recovered: false,
      });
      enqueue(ctx.store, null, message, now, ctx.now().toISOString());
      markAlerted(ctx.store, calendar.id);
    }
  });
}

/**
 * Syncs one calendar now. On success its busy times become what the calendar says (only the changed ones written)
 * and it is no longer failing; on failure its busy times stay, and it is marked failing since its first failure.
 * Mails the practice when it has failed for ALERT_AFTER_SECONDS (once), and when it reads again after that.
 */
export async function syncCalendar(
  ctx: AppContext,
  calendar: CalendarRow,
  options: SyncOptions = {},
): Promise<SyncOutcome> {
  const schedule = scheduleOf(ctx, calendar.scheduleId);
  const settings = requireConfigured(ctx);
  markTried(ctx.store, calendar.id, unixSeconds(ctx.now()));
  let read;
  const account = accountIfProvider(ctx, calendar);
  try {
    read = await readCalendar(ctx, calendar, schedule, options, account);
  } catch (error) {
    const line = failureLine(error, calendar);
    // An account whose consent is gone is mailed once, at once (noteReconnect), and not again after an hour.
    const reconnect = (error as { reconnect?: boolean }).reconnect === true;
    if (reconnect && account) noteReconnect(ctx, calendar, line, account.stored());
    recordFailure(ctx, calendar, schedule.name, line, { mail: !reconnect && calendar.reconnect === null });
    return outcomeOf(ctx, calendar, options, { error: line });
  }
  const changes = read.busy && (await changesTo(ctx, calendar.id, read.busy));
  // Many changes: a new generation, written in small transactions, that the last one switches to.
  const staged =
    changes && changes.add.length + changes.remove.length > BUSY_WRITE_ROWS
      ? await stageGeneration(ctx, calendar, read.busy!)
      : undefined;
  const now = unixSeconds(ctx.now());
  const written = ctx.store.tx(() => {
    let counts = { added: 0, removed: 0 };
    if (staged) {
      if (!staged.whole() || !switchGeneration(ctx.store, calendar.id, calendar.generation, staged.generation))
        return undefined;
      counts = { added: changes!.add.length, removed: changes!.remove.length };
    } else if (findCalendar(ctx.store, calendar.id)?.generation !== calendar.generation) {
      return undefined; // another process switched generations while this one read: its changes are of a dead set
    } else if (changes) {
      counts = applyBusyChanges(ctx.store, calendar, changes);
    }
    if (read.planner) noticeEdits(ctx, settings, calendar, read.planner.events, { ...read.planner, now });
    if (calendar.alerted && settings.notifyEmail) {
      const message = calendarAlert({
        settings,
        label: calendar.label,
        scheduleName: schedule.name,
        calendarId: calendar.id,
        failingSince: calendar.failingSince ?? now,
        error: calendar.lastError ?? '',
        recovered: true,
      });
      enqueue(ctx.store, null, message, now, ctx.now().toISOString());
    }
    markSynced(ctx.store, calendar.id, now, JSON.stringify(read.state));
    return counts;
  });
  if (staged) await dropAllUncounted(ctx, calendar.id);
  if (!written)
    return outcomeOf(ctx, calendar, options, {
      error: 'another sync of this calendar wrote at the same time: nothing was changed, the next sync reads it again',
    });
  return outcomeOf(ctx, calendar, options, written);
}

/** The outcome of a sync of `calendar`: what it wrote, or the line it failed with; and the conflicts unless not asked. */
function outcomeOf(
  ctx: AppContext,
  calendar: CalendarRow,
  options: SyncOptions,
  result: { added: number; removed: number } | { error: string },
): SyncOutcome {
  const { added, removed } = 'error' in result ? { added: 0, removed: 0 } : result;
  return {
    id: calendar.id,
    label: calendar.label,
    ok: !('error' in result),
    changed: added + removed > 0,
    added,
    removed,
    error: 'error' in result ? result.error : null,
    conflicts: options.conflicts === false ? [] : calendarConflicts(ctx, calendar.id),
  };
}

/** Syncs the calendar `id`, or every calendar when none is given, one after the other. */
export async function syncCalendars(ctx: AppContext, id?: number, options: SyncOptions = {}): Promise<SyncOutcome[]> {
  requireConfigured(ctx);
  const list = id === undefined ? listCalendars(ctx.store) : [findCalendar(ctx.store, id) ?? calendarNotFound(id)];
  const outcomes: SyncOutcome[] = [];
  for (const calendar of list) outcomes.push(await syncCalendar(ctx, calendar, options));
  return outcomes;
}

function calendarNotFound(id: number): never {
  throw notFound(`calendar ${id} does not exist (planner calendar list shows them)`);
}

/** Removes a calendar and its busy times (the times it blocked are free again at once). */
export function removeCalendar(ctx: AppContext, id: number): CalendarView {
  const calendar = findCalendar(ctx.store, id) ?? calendarNotFound(id);
  const view = viewOf(ctx, calendar, []);
  ctx.store.tx(() => {
    deleteBusy(ctx.store, id);
    deleteCalendar(ctx.store, id);
  });
  return view;
}

/**
 * Syncs each calendar at its interval in the background of `planner serve`, one at a time. Logs a calendar that
 * starts failing, one that reads again, and a sync that changed busy times (one line each, never the address), not
 * every failed attempt.
 */
export function startCalendarSync(
  ctx: AppContext,
  options: { log: (line: string) => void; refresh: () => unknown; pollMs?: number },
): Pump {
  // Only where calendars are: a server without them never loads what this warms.
  if (listCalendars(ctx.store).length > 0) {
    const zone = requireConfigured(ctx).timeZone;
    void import('../../calendar/busy.ts').then(({ warmBusyReader }) => warmBusyReader(zone));
  }
  return startPump(
    async () => {
      options.refresh(); // the installation's zone and notify address as another process may have changed them
      for (const calendar of dueCalendars(ctx.store, unixSeconds(ctx.now()))) {
        const outcome = await syncCalendar(ctx, calendar, { conflicts: false });
        if (!outcome.ok && calendar.failingSince === null)
          options.log(
            `planner: calendar ${calendar.id} (${calendar.label}) could not be synced: ${outcome.error}; its last busy times still block`,
          );
        if (outcome.ok && calendar.failingSince !== null)
          options.log(`planner: calendar ${calendar.id} (${calendar.label}) reads again`);
        if (outcome.changed)
          options.log(
            `planner: calendar ${calendar.id} (${calendar.label}): ${outcome.added} busy time(s) added, ${outcome.removed} removed`,
          );
      }
      return false;
    },
    { pollMs: options.pollMs ?? CALENDAR_POLL_MS, log: options.log, what: 'calendars' },
  );
}
