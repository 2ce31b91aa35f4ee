/**
 * Google Calendar through the Calendar API v3 (issue 48), without a client library: a few plain HTTPS requests
 * through planner's outbound policy (google-http.ts), the token from google-auth.ts. Writes follow CalDAV's writer
 * (write.ts): one event per booking at an id planner derives from its reference (google-events.ts), so that a
 * create retried after a lost answer meets its own event (409) instead of making a second; a change is written over
 * the ETag planner last wrote (If-Match), and a 412 reads the event and writes planner's state again. Reads follow
 * Google's sync guide: a full list of the window once, then the changes since its sync token, kept as a compact map
 * in the read's state so that the texts busy.ts reads can be made again from it.
 */
import { randomBytes } from 'node:crypto';
import type { OutboundAnswer } from '../outbound/request.ts';
import { CalendarFetchError } from './fetch.ts';
import { accessToken } from './google-auth.ts';
import {
  checkBody,
  checkEventId,
  eventBody,
  type GoogleEvent,
  googleEventId,
  type HeldEvent,
  heldOf,
  overlaps,
  sameAsWritten,
  textOf,
} from './google-events.ts';
import {
  call,
  GOOGLE_READ_LIMITS,
  GOOGLE_WRITE_LIMITS,
  type GoogleSession,
  jsonOf,
  openGoogleSession,
  reasonOf,
} from './google-http.ts';
import {
  type EventRef,
  type ProviderAccount,
  ProviderAuthError,
  type ProviderClient,
  type ProviderEvent,
  type ProviderRead,
  type ProviderState,
  type ProviderWritten,
  providerBase,
} from './provider.ts';
import { CalendarWriteError, CHECK_SUMMARY, testWrite } from './write.ts';

export { exchangeGoogleCode, googleConsentUrl, readServiceAccountKey } from './google-auth.ts';
export { googleEventId, referenceOfEventId } from './google-events.ts';

/** A read's bounds: pages followed and events held (a calendar beyond them fails the read with a line). */
export const GOOGLE_READ_BOUNDS = { pages: 20, events: 20_000 } as const;

/**
 * How far past the asked window a full read lists: the window moves on with every sync, and while it stays within
 * what the full read listed, the changes since its sync token are all a read needs.
 */
const READ_AHEAD_SECONDS = 7 * 86_400;

/** What a read stores: the sync token, the window its full read listed, and the events it holds (by Google id). */
interface GoogleState {
  syncToken: string;
  from: number;
  to: number;
  events: Record<string, HeldEvent>;
}

const writeFailing = (line: string, answered: boolean) => new CalendarWriteError(line, { answered });
const readFailing = (line: string) => new CalendarFetchError(line);

/** The client of `account`'s Google calendar (provider.ts's ProviderClient). */
export function googleClient(account: ProviderAccount): ProviderClient {
  const api = apiOf(account);
  return {
    read: (state, window) => readCalendar(api, state, window),
    put: (event, ref) => putEvent(api, event, ref),
    remove: (reference, ref) => removeEvent(api, ref?.id ?? googleEventId(reference)),
    checkWritable: (at, zone) => checkWritable(api, at, zone),
  };
}

type Api = ReturnType<typeof apiOf>;

/** The requests of one account's calendar: each with a token, a refused token asked once more. */
function apiOf(account: ProviderAccount) {
  const base = `${providerBase('google', 'api').base}/calendar/v3/calendars/${encodeURIComponent(account.calendarId)}/events`;
  const host = new URL(base).host;
  const who =
    account.secret.type === 'google-service-account'
      ? account.secret.clientEmail
      : 'the Google account that connected it';

  /** The calendar refuses planner: not shared (404), shared without "Make changes to events" (403), token refused. */
  const notShared = (answer: OutboundAnswer): ProviderAuthError => {
    const reason = reasonOf(answer);
    const status = `HTTP ${answer.status}${reason ? ` ${reason}` : ''}`;
    if (answer.status === 401)
      return new ProviderAuthError(
        `Google refused planner's access token for ${who} (${status}): reconnect the calendar (planner calendar reconnect)`,
      );
    return new ProviderAuthError(
      `the calendar ${account.calendarId} is not shared with ${who} with "Make changes to events" (${status}): share it so in Google Calendar's settings, then reconnect the calendar`,
    );
  };

  /** Sends one request with the account's token; a 401 gets a fresh token once, then is the account's failure. */
  const request = async (
    gs: GoogleSession,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<OutboundAnswer> => {
    const url = `${base}${path}`;
    const all = {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...headers,
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    let answer: OutboundAnswer | undefined;
    for (const fresh of [false, true]) {
      const token = await accessToken(gs, account.secret, fresh);
      answer = await call(gs, method, url, { ...all, authorization: `Bearer ${token}` }, text);
      if (answer.status !== 401) break;
    }
    // Google's usage limits of a calendar (403 quotaExceeded) last hours: not waited out here, and not a refusal.
    if (answer!.status === 403 && reasonOf(answer!) === 'quotaExceeded')
      throw gs.fail(`${host} is limiting planner's requests (HTTP 403 quotaExceeded); it is tried again later`, true);
    if (answer!.status === 401) throw notShared(answer!);
    if (answer!.status === 403) {
      const reason = reasonOf(answer!);
      // A refusal of the calendar's sharing needs a reconnect; the API turned off in the project, or another limit,
      // does not: a reconnect would not mend it, and it is no reason to tell the practice so.
      if (reason === undefined || ACCESS_REASONS.has(reason)) throw notShared(answer!);
      if (reason === 'accessNotConfigured')
        throw gs.fail(
          `${host} refused planner's request (HTTP 403 accessNotConfigured): the Google Calendar API is not enabled in the key's project; enable it (Google Cloud console, APIs & Services → Library); it is tried again later`,
          true,
        );
      throw gs.fail(`${host} refused planner's request (HTTP 403 ${reason}); it is tried again later`, true);
    }
    return answer!;
  };

  /** The line of an answer no operation expects: the host, the status and Google's reason. */
  const unexpected = (gs: GoogleSession, answer: OutboundAnswer, what: string): Error => {
    const reason = reasonOf(answer);
    return gs.fail(`${host} answered HTTP ${answer.status}${reason ? ` ${reason}` : ''} to ${what}`, true);
  };

  return { base, host, request, notShared, unexpected };
}

/** Google's reasons of a 403 that refuse the calendar to the account (its sharing, its access level). */
const ACCESS_REASONS = new Set([
  'forbidden',
  'requiredAccessLevel',
  'insufficientPermissions',
  'forbiddenForNonOrganizer',
]);

const ok = (answer: OutboundAnswer) => answer.status >= 200 && answer.status < 300;
const eventPath = (id: string) => `/${encodeURIComponent(id)}`;
/** Nobody is invited to planner's events, and nobody is told of a change to them. */
const QUIET = '?sendUpdates=none';

/** The written event's ref: its id and the etag of Google's answer. */
function refOf(gs: GoogleSession, api: Api, id: string, answer: OutboundAnswer): EventRef {
  const event = jsonOf<GoogleEvent>(gs, api.base, answer);
  return { id, etag: typeof event.etag === 'string' && event.etag !== '' ? event.etag : null };
}

/** Creates planner's event; a 409 (it is there: a lost answer's create, or kept deleted) is written over. */
async function insert(gs: GoogleSession, api: Api, body: GoogleEvent, event: ProviderEvent): Promise<ProviderWritten> {
  const answer = await api.request(gs, 'POST', QUIET, {}, body);
  if (ok(answer)) return { ref: refOf(gs, api, body.id!, answer), overwritten: false };
  if (answer.status === 409) return overwrite(gs, api, body, event, false);
  if (answer.status === 404) throw api.notShared(answer);
  throw api.unexpected(gs, answer, 'planner creating its event');
}

/**
 * Reads the event at planner's id and writes planner's state over it (If-Match of what it read). `changed`: a 412
 * said it is not as planner wrote it; else (a 409) it is overwritten only when it differs from what planner writes.
 * An event deleted meanwhile is created anew; one changed again meanwhile (another 412) is read again, a few times.
 */
async function overwrite(
  gs: GoogleSession,
  api: Api,
  body: GoogleEvent,
  event: ProviderEvent,
  changed: boolean,
): Promise<ProviderWritten> {
  const id = body.id!;
  for (let round = 0; round < 3; round++) {
    const answer = await api.request(gs, 'GET', eventPath(id));
    if (answer.status === 404 || answer.status === 410) {
      const again = await api.request(gs, 'POST', QUIET, {}, body);
      if (ok(again)) return { ref: refOf(gs, api, id, again), overwritten: true };
      if (again.status === 409) continue;
      throw api.unexpected(gs, again, 'planner creating its event');
    }
    if (answer.status !== 200) throw api.unexpected(gs, answer, 'planner reading its event');
    const held = jsonOf<GoogleEvent>(gs, api.base, answer);
    const same = !changed && sameAsWritten(held, event);
    const written = await api.request(
      gs,
      'PUT',
      `${eventPath(id)}${QUIET}`,
      typeof held.etag === 'string' ? { 'if-match': held.etag } : {},
      body,
    );
    if (written.status === 412) continue;
    if (!ok(written)) throw api.unexpected(gs, written, 'planner writing its event');
    const found = held.status === 'cancelled' || same ? undefined : heldOf({ ...held, id });
    return {
      ref: refOf(gs, api, id, written),
      overwritten: !same,
      ...(found ? { found: textOf(found) } : {}),
    };
  }
  throw gs.fail(`${api.host} kept changing planner's event while planner wrote it; it is tried again later`, true);
}

/** provider.ts's `put`. */
async function putEvent(api: Api, event: ProviderEvent, ref: EventRef | undefined): Promise<ProviderWritten> {
  const gs = openGoogleSession(GOOGLE_WRITE_LIMITS, writeFailing);
  const id = ref?.id ?? googleEventId(event.reference);
  const body = eventBody(id, event);
  if (ref === undefined) return insert(gs, api, body, event);
  const answer = await api.request(
    gs,
    'PUT',
    `${eventPath(id)}${QUIET}`,
    ref.etag === null ? {} : { 'if-match': ref.etag },
    body,
  );
  if (ok(answer)) return { ref: refOf(gs, api, id, answer), overwritten: false };
  if (answer.status === 412) return overwrite(gs, api, body, event, true);
  if (answer.status === 404 || answer.status === 410) {
    // Deleted in the app and not kept: made again. Whatever the create finds, planner's event was not as it wrote it.
    const made = await insert(gs, api, body, event);
    return { ...made, overwritten: true };
  }
  throw api.unexpected(gs, answer, 'planner writing its event');
}

/** provider.ts's `remove`: an event already deleted (404, 410) is no error. */
async function removeEvent(api: Api, id: string): Promise<void> {
  const gs = openGoogleSession(GOOGLE_WRITE_LIMITS, writeFailing);
  const answer = await api.request(gs, 'DELETE', `${eventPath(id)}${QUIET}`);
  if (ok(answer) || answer.status === 404 || answer.status === 410) return;
  throw api.unexpected(gs, answer, 'planner deleting its event');
}

/**
 * provider.ts's `checkWritable`: a free event of planner's own, created and deleted at once, as write.ts's
 * checkWritable does with CalDAV; deleted on every path (after a create that got no answer too).
 */
async function checkWritable(api: Api, at: Date, zone: string): Promise<void> {
  const hex = randomBytes(8).toString('hex');
  const id = checkEventId(hex);
  await testWrite(
    async () => {
      const gs = openGoogleSession(GOOGLE_WRITE_LIMITS, writeFailing);
      const answer = await api.request(gs, 'POST', QUIET, {}, checkBody(id, CHECK_SUMMARY, at, zone));
      if (answer.status === 404) throw api.notShared(answer);
      if (!ok(answer)) throw api.unexpected(gs, answer, 'planner creating its test event');
    },
    () => removeEvent(api, id),
    { at, zone, app: 'Google Calendar' },
  );
}

/** The stored state of an earlier read, when it is one this code wrote (else a full read). */
function stateOf(state: ProviderState | undefined): GoogleState | undefined {
  if (!state) return undefined;
  const { syncToken, from, to, events } = state as Partial<GoogleState>;
  if (typeof syncToken !== 'string' || typeof from !== 'number' || typeof to !== 'number') return undefined;
  if (events === null || typeof events !== 'object') return undefined;
  return { syncToken, from, to, events };
}

/** What one list (its pages) gave: the events changed or listed, and the token of the next incremental read. */
interface Listed {
  items: (GoogleEvent & { id: string })[];
  syncToken: string;
}

/** One page of a list: its events (those with an id), and the token of the next page or of the next read. */
function pageOf(gs: GoogleSession, api: Api, answer: OutboundAnswer) {
  const body = jsonOf<{ items?: unknown; nextPageToken?: unknown; nextSyncToken?: unknown }>(gs, api.base, answer);
  const items = (Array.isArray(body.items) ? (body.items as GoogleEvent[]) : []).filter(
    (item): item is GoogleEvent & { id: string } => typeof item?.id === 'string',
  );
  const token = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return { items, nextPageToken: token(body.nextPageToken), nextSyncToken: token(body.nextSyncToken) };
}

const tooMany = (gs: GoogleSession, api: Api) =>
  gs.fail(
    `${api.host} holds more than ${GOOGLE_READ_BOUNDS.events} events in the window: planner reads at most that many`,
    true,
  );

/**
 * Lists the events with `query` (a window, or a sync token) and follows its pages, within GOOGLE_READ_BOUNDS;
 * `gone` when Google no longer knows the sync token (410: a full read is needed).
 */
async function list(gs: GoogleSession, api: Api, query: Record<string, string>): Promise<Listed | 'gone'> {
  const items: Listed['items'] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < GOOGLE_READ_BOUNDS.pages; page++) {
    const search = new URLSearchParams({ singleEvents: 'true', maxResults: '2500', ...query });
    if (pageToken) search.set('pageToken', pageToken);
    const answer = await api.request(gs, 'GET', `?${search}`);
    if (answer.status === 410 && query.syncToken) return 'gone';
    if (answer.status === 404) throw api.notShared(answer);
    if (answer.status !== 200) throw api.unexpected(gs, answer, "planner's list of events");
    const listed = pageOf(gs, api, answer);
    items.push(...listed.items);
    if (items.length > GOOGLE_READ_BOUNDS.events) throw tooMany(gs, api);
    pageToken = listed.nextPageToken;
    if (pageToken) continue;
    if (!listed.nextSyncToken)
      throw gs.fail(`${api.host} answered planner's list of events without a sync token`, true);
    return { items, syncToken: listed.nextSyncToken };
  }
  throw gs.fail(
    `${api.host} answered more than ${GOOGLE_READ_BOUNDS.pages} pages of events: planner reads at most that many`,
    true,
  );
}

/** Applies listed events to `held`: cancelled ones and those outside [from, to) leave it, the others replace. */
function apply(held: Record<string, HeldEvent>, items: Listed['items'], from: number, to: number): void {
  for (const item of items) {
    const event = item.status === 'cancelled' ? undefined : heldOf(item);
    if (event && overlaps(event, from, to)) held[item.id] = event;
    else delete held[item.id];
  }
}

/** The texts of the held events within [from, to), in a stable order. */
function textsOf(state: GoogleState, window: { from: number; to: number }): string[] {
  return Object.keys(state.events)
    .sort()
    .map((id) => state.events[id]!)
    .filter((event) => overlaps(event, window.from, window.to))
    .map(textOf);
}

/** provider.ts's `read`: the changes since the stored sync token when its window still covers this one, else all. */
async function readCalendar(
  api: Api,
  state: ProviderState | undefined,
  window: { from: number; to: number },
): Promise<ProviderRead> {
  const gs = openGoogleSession(GOOGLE_READ_LIMITS, readFailing);
  const known = stateOf(state);
  if (known && known.from <= window.from && window.to <= known.to) {
    const changes = await list(gs, api, { syncToken: known.syncToken });
    if (changes !== 'gone') {
      const next: GoogleState = { ...known, syncToken: changes.syncToken, events: { ...known.events } };
      if (changes.items.length === 0) return { unchanged: true, state: { ...next } };
      apply(next.events, changes.items, next.from, next.to);
      if (Object.keys(next.events).length > GOOGLE_READ_BOUNDS.events) throw tooMany(gs, api);
      return { unchanged: false, texts: textsOf(next, window), state: { ...next } };
    }
  }
  const to = window.to + READ_AHEAD_SECONDS;
  const listed = await list(gs, api, {
    timeMin: new Date(window.from * 1000).toISOString(),
    timeMax: new Date(to * 1000).toISOString(),
  });
  if (listed === 'gone') throw gs.fail(`${api.host} answered HTTP 410 to a full list of events`, true);
  const next: GoogleState = { syncToken: listed.syncToken, from: window.from, to, events: {} };
  apply(next.events, listed.items, next.from, next.to);
  return { unchanged: false, texts: textsOf(next, window), state: { ...next } };
}
