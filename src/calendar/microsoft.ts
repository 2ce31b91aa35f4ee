/**
 * Microsoft 365 and Outlook.com calendars (issue 48): Microsoft Graph v1.0 with the Microsoft identity platform's
 * device-code flow (RFC 8628 as Microsoft documents it: planner is a public client, it holds no secret of its own),
 * as plain HTTPS requests through the outbound policy (src/outbound/request.ts), no client library, no redirect
 * followed.
 *
 * - Sign-in: `startDeviceLogin` asks for a code the practitioner enters at Microsoft's page, `finishDeviceLogin`
 *   polls the token endpoint at the interval Microsoft gives until they did (or declined, or the code expired).
 * - Tokens: Microsoft renews the refresh token on every use; the new one is saved (`saveSecret`) before the access
 *   token is used. Access tokens are kept in memory until a minute before they expire, under every refresh token of
 *   their chain (the secret a client was made with may be an older one of the chain: never a second account's).
 * - Writes: a new event is POSTed with `transactionId` `planner-<reference>`, which Graph keeps so that a retried
 *   create gets the event the first one made; a change is PATCHed with If-Match of the `@odata.etag` planner wrote
 *   (412: read, write again; 404: deleted in Outlook, created again).
 * - Reads: `calendarView/delta` over a window a little wider than asked (its window is fixed by the first request),
 *   then its deltaLink; where delta is refused (400/501) `calendarView` whole on every read.
 * - Throttling (429, 503 with Retry-After) waits and tries again when it fits the deadline, at most 3 times.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import {
  failureLine,
  type OutboundAnswer,
  OutboundError,
  type OutboundLimits,
  type OutboundSession,
  openSession,
  send,
} from '../outbound/request.ts';
import { CalendarFetchError } from './fetch.ts';
import {
  eventBody,
  type GraphEvent,
  graphDateTime,
  type HeldEvent,
  heldOf,
  meets,
  PLANNER_PROPERTY_ID,
  sameAsWritten,
  textOf,
} from './microsoft-events.ts';
import {
  type EventRef,
  type MicrosoftDevice,
  type ProviderAccount,
  ProviderAuthError,
  type ProviderClient,
  type ProviderEvent,
  type ProviderRead,
  type ProviderState,
  type ProviderWritten,
  plainCode,
  providerBase,
} from './provider.ts';
import { CalendarWriteError, CHECK_SUMMARY, testWrite } from './write.ts';

/** What planner asks the account for: its calendars, and a refresh token (offline_access). */
export const MICROSOFT_SCOPE = 'offline_access openid profile https://graph.microsoft.com/Calendars.ReadWrite';

/** One write (with its token request, a 412's read and write again), one read (every page), one sign-in request. */
export const MICROSOFT_LIMITS = {
  write: { timeoutMs: 20_000, maxBytes: 1024 * 1024, maxRedirects: 0 },
  read: { timeoutMs: 60_000, maxBytes: 10 * 2 ** 20, maxRedirects: 0 },
} satisfies Record<string, OutboundLimits>;

/** A read stops with one line past these. */
export const MAX_PAGES = 50;
export const MAX_EVENTS = 20_000;

/** How much wider than asked the window of a delta read is, after it: its deltaLink serves while the window moves. */
const DELTA_AHEAD_SECONDS = 7 * 86_400;
const USER_AGENT = 'planner-calendar/1';
const MAX_THROTTLED = 3;

type Kind = 'read' | 'write' | 'login';

/** One operation's requests: one deadline, and its failures as the operation's error. */
interface Call {
  session: OutboundSession;
  deadlineMs: number;
  kind: Kind;
}

function open(kind: Kind): Call {
  const limits = kind === 'read' ? MICROSOFT_LIMITS.read : MICROSOFT_LIMITS.write;
  const { base, allowInsecure } = providerBase('microsoft', 'api');
  const session = openSession({ url: base, allowInsecure }, limits, USER_AGENT, () => {
    throw new Error('planner follows no redirect from Microsoft');
  });
  return { session, deadlineMs: Date.now() + limits.timeoutMs, kind };
}

/** The operation's error: a read's CalendarFetchError, a write's CalendarWriteError, a sign-in's Error. */
function fail(call: Call, line: string, answered: boolean): Error {
  if (call.kind === 'read') return new CalendarFetchError(line);
  if (call.kind === 'write') return new CalendarWriteError(line, { answered });
  return new Error(line);
}

/** Sends one request; a failure before an answer, or a redirect, is the operation's one line. */
async function exchange(
  call: Call,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<OutboundAnswer> {
  const host = new URL(url).host;
  let answer: OutboundAnswer;
  try {
    answer = await send(call.session, method, url, headers, body);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const why = error.failure;
    throw fail(
      call,
      failureLine(why, host, call.session.limits, 'an answer'),
      why.kind !== 'timeout' && why.kind !== 'network',
    );
  }
  if (answer.status >= 300 && answer.status < 400)
    throw fail(
      call,
      `${host} redirected planner (HTTP ${answer.status}): planner follows no redirect from Microsoft`,
      true,
    );
  return answer;
}

function jsonOf(answer: OutboundAnswer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(answer.body);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The identity platform's error of a token answer: `error`, and its AADSTS code. */
function loginErrorOf(answer: OutboundAnswer): { error: string; code: string | undefined; shown: string } {
  const json = jsonOf(answer);
  const error = plainCode(json.error) ?? `HTTP ${answer.status}`;
  const codes = Array.isArray(json.error_codes) ? json.error_codes : [];
  const described = /AADSTS(\d+)/.exec(typeof json.error_description === 'string' ? json.error_description : '');
  const code = described?.[1] ?? (codes[0] !== undefined ? String(codes[0]) : undefined);
  return { error, code, shown: code ? `${error} AADSTS${code}` : error };
}

/** What to do about an identity platform error, by its AADSTS code or its error. */
const LOGIN_ADVICE: Record<string, string> = {
  '70008': 'the sign-in expired (unused for 90 days, or older than its maximum age)',
  '700082': 'the sign-in expired (unused for 90 days)',
  '50173': "the account's sign-ins were revoked (a password change, or signed out everywhere)",
  '7000218':
    'the app registration does not allow public client flows: allow public client flows in the app registration (Authentication, "Allow public client flows": Yes)',
  '700016': 'the app registration is not known in this tenant: check the client id and the tenant',
  '90002': 'the tenant is not known: check the tenant (common, organizations, consumers or the tenant id)',
  '65001': "the account has not consented to planner's access to its calendars",
  interaction_required: 'the account must sign in again (a policy such as multi-factor authentication asks for it)',
  consent_required: "the account has not consented to planner's access to its calendars",
  invalid_grant: 'the sign-in is no longer valid',
};

/** The advice for `why`, the AADSTS code's before the error's. */
function adviceOf(why: { error: string; code: string | undefined }): string {
  return (why.code && LOGIN_ADVICE[why.code]) || LOGIN_ADVICE[why.error] || 'Microsoft refused it';
}

/** The errors of the token endpoint that do not heal by waiting: the calendar needs connecting again. */
const REFUSALS = new Set([
  'invalid_grant',
  'interaction_required',
  'consent_required',
  'invalid_client',
  'unauthorized_client',
]);

/** POSTs `form` to the tenant's `endpoint` (devicecode, token) of the identity platform. */
function loginRequest(
  call: Call,
  tenant: string,
  endpoint: 'devicecode' | 'token',
  form: Record<string, string>,
): Promise<OutboundAnswer> {
  const { base } = providerBase('microsoft', 'login');
  return exchange(
    call,
    'POST',
    `${base}/${encodeURIComponent(tenant)}/oauth2/v2.0/${endpoint}`,
    { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    new URLSearchParams(form).toString(),
  );
}

/** A device code the practitioner enters at Microsoft's page (`message` says where), and what polling needs. */
export interface DeviceLogin {
  userCode: string;
  verificationUri: string;
  /** Microsoft's own sentence for the user, in the language it picked. */
  message: string;
  deviceCode: string;
  intervalSeconds: number;
  expiresAtMs: number;
}

/** The app registration and tenant a sign-in is for. */
export interface MicrosoftApp {
  clientId: string;
  /** `common`, `organizations`, `consumers` or the organisation's tenant id. */
  tenant: string;
}

/** Asks the identity platform for a device code (RFC 8628 §3.1). Throws an Error with one line. */
export async function startDeviceLogin(app: MicrosoftApp): Promise<DeviceLogin> {
  const call = open('login');
  const answer = await loginRequest(call, app.tenant, 'devicecode', {
    client_id: app.clientId,
    scope: MICROSOFT_SCOPE,
  });
  const json = jsonOf(answer);
  if (answer.status !== 200 || typeof json.device_code !== 'string' || typeof json.user_code !== 'string') {
    const why = loginErrorOf(answer);
    throw new Error(
      `Microsoft refused to start a sign-in for the app ${app.clientId} (${why.shown}): ${adviceOf(why)}`,
    );
  }
  const verificationUri = String(json.verification_uri ?? 'https://microsoft.com/devicelogin');
  return {
    userCode: json.user_code,
    verificationUri,
    message:
      typeof json.message === 'string'
        ? json.message
        : `To sign in, open ${verificationUri} and enter the code ${json.user_code}.`,
    deviceCode: json.device_code,
    intervalSeconds: Number(json.interval) > 0 ? Number(json.interval) : 5,
    expiresAtMs: Date.now() + (Number(json.expires_in) > 0 ? Number(json.expires_in) : 900) * 1000,
  };
}

/** The id_token's `preferred_username` (its payload decoded, not verified: it is only shown). */
function usernameOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const name = payload?.preferred_username ?? payload?.email ?? payload?.upn;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or rejects when `signal` aborts. */
async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  await sleepFor(ms, undefined, signal ? { signal } : {});
}

/** The line of a poll the identity platform refused for good. */
function pollRefusal(why: { error: string; code: string | undefined; shown: string }, minutes: number): string {
  switch (why.error) {
    case 'authorization_declined':
      return "The sign-in was declined at Microsoft (authorization_declined): run the command again and accept planner's access to the calendar";
    case 'expired_token':
      return `The code expired before the sign-in was finished (expired_token): run the command again and enter the new code within ${minutes} minutes`;
    case 'bad_verification_code':
      return "Microsoft does not know this sign-in's device code (bad_verification_code): run the command again";
    default:
      return `Microsoft refused the sign-in (${why.shown}): ${adviceOf(why)}; then run the command again`;
  }
}

/**
 * Polls the token endpoint for `login` (RFC 8628 §3.4) at its interval (+5 s on `slow_down`) until the practitioner
 * signed in: the secret to store and the account's name (for display). Bounded by the code's expiry and `signal`;
 * `sleep` waits between polls (a test's stands in for the clock). Throws an Error with one line.
 */
export async function finishDeviceLogin(
  login: DeviceLogin,
  app: MicrosoftApp,
  options: { signal?: AbortSignal; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
): Promise<{ secret: MicrosoftDevice; account: string }> {
  const sleep = options.sleep ?? defaultSleep;
  const minutes = Math.max(1, Math.round((login.expiresAtMs - Date.now()) / 60_000));
  let interval = login.intervalSeconds;
  for (;;) {
    if (options.signal?.aborted) throw new Error('The Microsoft sign-in was cancelled before it was finished');
    const answer = await loginRequest(open('login'), app.tenant, 'token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      client_id: app.clientId,
      device_code: login.deviceCode,
    });
    const json = jsonOf(answer);
    if (answer.status === 200 && typeof json.refresh_token === 'string') {
      const account = usernameOf(json.id_token) ?? 'the Microsoft account';
      return {
        secret: {
          type: 'microsoft-device',
          clientId: app.clientId,
          tenant: app.tenant,
          refreshToken: json.refresh_token,
          account,
        },
        account,
      };
    }
    const why = loginErrorOf(answer);
    if (answer.status === 200)
      throw new Error('Microsoft signed in without a refresh token: the app must be allowed offline_access');
    if (why.error === 'slow_down') interval += 5;
    else if (why.error !== 'authorization_pending') throw new Error(pollRefusal(why, minutes));
    if (Date.now() + interval * 1000 >= login.expiresAtMs)
      throw new Error(pollRefusal({ ...why, error: 'expired_token' }, minutes));
    try {
      await sleep(interval * 1000, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw new Error('The Microsoft sign-in was cancelled before it was finished');
      throw error;
    }
  }
}

/** An access token kept in memory, and the newest refresh token of its chain. */
interface TokenEntry {
  refreshToken: string;
  accessToken?: string;
  expiresAtMs: number;
  pending?: Promise<string>;
}

/**
 * The access tokens of this process, under every refresh token of their chain (SHA-256 of client id, tenant and the
 * token): a client made with an older secret of the chain finds the newest, a second account never finds another's.
 */
const TOKENS = new Map<string, TokenEntry>();
const MAX_TOKEN_KEYS = 1000;

function tokenKey(secret: MicrosoftDevice, refreshToken: string): string {
  return createHash('sha256').update(`${secret.clientId}\n${secret.tenant}\n${refreshToken}`).digest('hex');
}

function remember(key: string, entry: TokenEntry): void {
  TOKENS.set(key, entry);
  while (TOKENS.size > MAX_TOKEN_KEYS) TOKENS.delete(TOKENS.keys().next().value!);
}

/** A Graph answer's error code (`error.code`), if it has one. */
function graphCode(answer: OutboundAnswer): string | undefined {
  const error = jsonOf(answer).error as { code?: unknown } | undefined;
  return plainCode(error?.code);
}

/** Retry-After in seconds (a number or an HTTP date); undefined when absent. */
function retryAfterOf(answer: OutboundAnswer): number | undefined {
  const value = answer.headers['retry-after'];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** `id` as one path segment. */
const segment = (id: string) => encodeURIComponent(id);

/** The OData string literal of `text`. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

const PREFER_UTC = 'outlook.timezone="UTC", outlook.body-content-type="text"';

/** What a read keeps for the next one (ProviderState, JSON). */
interface ReadState {
  v: 1;
  /** `delta`: calendarView/delta and its deltaLink; `whole`: delta was refused, every read is whole. */
  mode: 'delta' | 'whole';
  /** The window the deltaLink covers (Unix seconds). */
  from: number;
  to: number;
  deltaLink?: string;
  /** `delta`: what it holds, by event id. */
  events?: Record<string, HeldEvent>;
  /** `whole`: a hash of the texts read last. */
  hash?: string;
}

function readStateOf(state: ProviderState | undefined): ReadState | undefined {
  if (!state || state.v !== 1 || (state.mode !== 'delta' && state.mode !== 'whole')) return undefined;
  if (typeof state.from !== 'number' || typeof state.to !== 'number') return undefined;
  return state as unknown as ReadState;
}

/** The texts of `events` that meet the window. */
function textsOf(events: Record<string, HeldEvent>, window: { from: number; to: number }): string[] {
  return Object.values(events)
    .filter((held) => meets(held, window))
    .map((held) => textOf(held));
}

/**
 * Applies one page's items to `events` (by id: `@removed` ones go, others replace what was kept): how many items it
 * had, or the line of what planner cannot read.
 */
function applyPage(items: unknown, events: Record<string, HeldEvent>, host: string): number | string {
  let changed = 0;
  for (const item of Array.isArray(items) ? (items as GraphEvent[]) : []) {
    if (typeof item.id !== 'string') continue;
    changed++;
    const before = events[item.id];
    if (item['@removed'] !== undefined) {
      delete events[item.id];
      continue;
    }
    const held = heldOf(item, before);
    if (held === 'zoneless')
      return `${host} gave an event in a time zone planner does not know (${item.start?.timeZone})`;
    if (held) events[item.id] = held;
  }
  if (Object.keys(events).length > MAX_EVENTS)
    return `${host} holds more than ${MAX_EVENTS} events over the window: planner reads at most that many`;
  return changed;
}

/** The headers of a Graph request: the access token, JSON. */
function graphHeaders(token: string, json: boolean, headers: Record<string, string>): Record<string, string> {
  return {
    accept: 'application/json',
    authorization: `Bearer ${token}`,
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...headers,
  };
}

/** Whether `answer` is Graph's refusal of planner's access: the calendar needs connecting again. */
function accessRefused(answer: OutboundAnswer): boolean {
  return answer.status === 401 || (answer.status === 403 && graphCode(answer) === 'ErrorAccessDenied');
}

/**
 * How long to wait before trying `answer`'s request again (ms): undefined when it was not throttled (429, 503 with
 * Retry-After), `late` when it was tried MAX_THROTTLED times or the wait does not fit before the deadline.
 */
function throttled(answer: OutboundAnswer, tries: number, deadlineMs: number): number | 'late' | undefined {
  const wait = answer.status === 429 || answer.status === 503 ? retryAfterOf(answer) : undefined;
  if (wait === undefined) return undefined;
  return tries < MAX_THROTTLED && Date.now() + wait * 1000 < deadlineMs - 1000 ? wait * 1000 : 'late';
}

/** The client of `account`'s Microsoft calendar (provider.ts's ProviderClient). */
export function microsoftClient(account: ProviderAccount): ProviderClient {
  if (account.secret.type !== 'microsoft-device') throw new Error('not a Microsoft account');
  let secret: MicrosoftDevice = account.secret;
  const api = providerBase('microsoft', 'api').base;
  const apiHost = new URL(api).host;
  const calendar =
    account.calendarId === '' ? `${api}/v1.0/me/calendar` : `${api}/v1.0/me/calendars/${segment(account.calendarId)}`;
  // The default calendar's view is documented as /me/calendarView (and its delta as /me/calendarView/delta).
  const view = account.calendarId === '' ? `${api}/v1.0/me` : calendar;
  const who = () => secret.account ?? "this calendar's account";

  /** A new access token: the refresh token renewed and saved first. */
  const refresh = async (call: Call, entry: TokenEntry): Promise<string> => {
    const answer = await loginRequest(call, secret.tenant, 'token', {
      grant_type: 'refresh_token',
      client_id: secret.clientId,
      refresh_token: entry.refreshToken,
      scope: MICROSOFT_SCOPE,
    });
    const json = jsonOf(answer);
    if (answer.status !== 200 || typeof json.access_token !== 'string') {
      const why = loginErrorOf(answer);
      if (REFUSALS.has(why.error))
        throw new ProviderAuthError(
          `Microsoft refused planner's sign-in for ${who()} (${why.shown}): ${adviceOf(why)}; connect the calendar again (planner calendar reconnect)`,
        );
      const host = new URL(providerBase('microsoft', 'login').base).host;
      throw fail(call, `${host} answered ${why.shown} to planner's sign-in; it is tried again later`, true);
    }
    const renewed =
      typeof json.refresh_token === 'string' && json.refresh_token !== '' ? json.refresh_token : entry.refreshToken;
    if (renewed !== secret.refreshToken) {
      const next: MicrosoftDevice = { ...secret, refreshToken: renewed };
      account.saveSecret(next); // before the access token is used: the old one is not used again
      secret = next;
    }
    entry.refreshToken = renewed;
    remember(tokenKey(secret, renewed), entry);
    entry.accessToken = json.access_token;
    entry.expiresAtMs = Date.now() + (Number(json.expires_in) > 0 ? Number(json.expires_in) : 3600) * 1000;
    return json.access_token;
  };

  /** An access token: the one kept until a minute before it expires, else a new one (`fresh`). */
  const accessToken = async (call: Call, renew: boolean): Promise<{ token: string; fresh: boolean }> => {
    const key = tokenKey(secret, secret.refreshToken);
    let entry = TOKENS.get(key);
    if (!entry) {
      entry = { refreshToken: secret.refreshToken, expiresAtMs: 0 };
      remember(key, entry);
    }
    if (entry.pending !== undefined) return { token: await entry.pending, fresh: true };
    if (!renew && entry.accessToken && Date.now() < entry.expiresAtMs - 60_000)
      return { token: entry.accessToken, fresh: false };
    const held = entry;
    held.accessToken = undefined;
    held.pending = refresh(call, held).finally(() => {
      held.pending = undefined;
    });
    return { token: await held.pending, fresh: true };
  };

  /** One Graph request with the access token; 401 once more with a new one, throttling waited out when it fits. */
  const graph = async (
    call: Call,
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<OutboundAnswer> => {
    if (!url.startsWith(`${api}/`))
      throw fail(call, `Microsoft Graph gave a link to another host (${new URL(url).host})`, true);
    let renew = false;
    let tries = 0;
    for (;;) {
      const { token, fresh } = await accessToken(call, renew);
      const json = body !== undefined;
      const answer = await exchange(
        call,
        method,
        url,
        graphHeaders(token, json, headers),
        json ? JSON.stringify(body) : undefined,
      );
      if (answer.status === 401 && !fresh) {
        renew = true; // the kept token was refused (revoked, or expired early): once more with a new one
        continue;
      }
      if (accessRefused(answer)) {
        const code = graphCode(answer);
        throw new ProviderAuthError(
          `Microsoft Graph refused planner's access to the calendar of ${who()} (HTTP ${answer.status}${code ? ` ${code}` : ''}): connect the calendar again (planner calendar reconnect), allowing planner to read and write calendars`,
        );
      }
      const wait = throttled(answer, tries, call.deadlineMs);
      if (wait === undefined) return answer;
      if (wait === 'late')
        throw fail(
          call,
          `${apiHost} is throttling planner's requests (HTTP ${answer.status}); it is tried again later`,
          true,
        );
      tries++;
      await sleepFor(wait);
    }
  };

  const refused = (call: Call, answer: OutboundAnswer, what: string): Error => {
    const code = graphCode(answer);
    return fail(call, `${apiHost} answered HTTP ${answer.status}${code ? ` (${code})` : ''} to ${what}`, true);
  };

  const ok = (answer: OutboundAnswer) => answer.status >= 200 && answer.status < 300;
  const refOf = (item: GraphEvent): EventRef => ({ id: String(item.id), etag: item['@odata.etag'] ?? null });
  const writeHeaders = { prefer: PREFER_UTC };

  /** The VCALENDAR of what Graph holds (`found`). */
  const foundOf = (item: GraphEvent): string | undefined => {
    const held = heldOf(item);
    return held && held !== 'zoneless' ? textOf(held, item.subject ?? undefined) : undefined;
  };

  /** PATCHes planner's event over `item` (what Graph holds now): planner's state written over it. */
  const writeOver = async (call: Call, event: ProviderEvent, item: GraphEvent): Promise<ProviderWritten> => {
    const etag = item['@odata.etag'];
    const again = await graph(
      call,
      'PATCH',
      `${api}/v1.0/me/events/${segment(String(item.id))}`,
      { ...writeHeaders, ...(etag ? { 'if-match': etag } : {}) },
      eventBody(event, false),
    );
    if (!ok(again)) throw refused(call, again, 'write the event');
    const found = foundOf(item);
    return { ref: refOf(jsonOf(again) as GraphEvent), overwritten: true, ...(found ? { found } : {}) };
  };

  /** POSTs planner's event; Graph gives the event a create of the same transactionId made, if any. */
  const create = async (call: Call, event: ProviderEvent, overwritten: boolean): Promise<ProviderWritten> => {
    const answer = await graph(call, 'POST', `${calendar}/events`, writeHeaders, eventBody(event, true));
    if (!ok(answer)) throw refused(call, answer, 'create the event');
    const item = jsonOf(answer) as GraphEvent;
    if (typeof item.id !== 'string') throw fail(call, `${apiHost} created the event without giving its id`, true);
    // The event an earlier create made (its answer lost), changed since in Outlook: planner's state over it.
    if (!sameAsWritten(item, event)) return writeOver(call, event, item);
    return { ref: refOf(item), overwritten };
  };

  const put = async (event: ProviderEvent, ref: EventRef | undefined): Promise<ProviderWritten> => {
    const call = open('write');
    if (ref === undefined) return create(call, event, false);
    const href = `${api}/v1.0/me/events/${segment(ref.id)}`;
    const first = await graph(
      call,
      'PATCH',
      href,
      { ...writeHeaders, ...(ref.etag ? { 'if-match': ref.etag } : {}) },
      eventBody(event, false),
    );
    if (ok(first)) return { ref: refOf(jsonOf(first) as GraphEvent), overwritten: false };
    if (first.status === 404) return create(call, event, true); // deleted in Outlook
    if (first.status !== 412) throw refused(call, first, 'write the event');
    const now = await graph(call, 'GET', href, writeHeaders);
    if (now.status === 404) return create(call, event, true);
    if (!ok(now)) throw refused(call, now, 'read the event');
    return writeOver(call, event, jsonOf(now) as GraphEvent);
  };

  /** The ids of the events whose planner property has `value` (a create whose answer was lost). */
  const findByProperty = async (call: Call, value: string): Promise<string[]> => {
    const filter = `singleValueExtendedProperties/Any(ep: ep/id eq ${literal(PLANNER_PROPERTY_ID)} and ep/value eq ${literal(value)})`;
    const answer = await graph(call, 'GET', `${calendar}/events?$filter=${encodeURIComponent(filter)}&$select=id`);
    if (!ok(answer)) throw refused(call, answer, "find planner's event");
    const items = jsonOf(answer).value;
    return Array.isArray(items) ? items.map((item: GraphEvent) => String(item.id)) : [];
  };

  const deleteById = async (call: Call, id: string): Promise<void> => {
    const answer = await graph(call, 'DELETE', `${api}/v1.0/me/events/${segment(id)}`);
    if (ok(answer) || answer.status === 404 || answer.status === 410) return;
    throw refused(call, answer, 'delete the event');
  };

  const remove = async (reference: string, ref: EventRef | undefined): Promise<void> => {
    const call = open('write');
    const ids = ref ? [ref.id] : await findByProperty(call, reference);
    for (const id of ids) await deleteById(call, id);
  };

  const checkWritable = async (at: Date, zone: string): Promise<void> => {
    const id = randomBytes(8).toString('hex');
    const start = Math.floor(at.getTime() / 1000);
    const body = {
      subject: CHECK_SUMMARY,
      start: { dateTime: graphDateTime(start), timeZone: 'UTC' },
      end: { dateTime: graphDateTime(start + 60), timeZone: 'UTC' },
      showAs: 'free',
      isReminderOn: false,
      transactionId: `planner-check-${id}`,
      singleValueExtendedProperties: [{ id: PLANNER_PROPERTY_ID, value: `check-${id}` }],
    };
    let created: string | undefined;
    await testWrite(
      async () => {
        const call = open('write');
        const answer = await graph(call, 'POST', `${calendar}/events`, writeHeaders, body);
        if (!ok(answer)) throw refused(call, answer, 'create its test event');
        const item = jsonOf(answer) as GraphEvent;
        if (typeof item.id === 'string') created = item.id;
      },
      async () => {
        const call = open('write');
        const ids = created ? [created] : await findByProperty(call, `check-${id}`);
        for (const found of ids) await deleteById(call, found);
      },
      { at, zone, app: 'Outlook' },
    );
  };

  /**
   * Follows `url` (a delta request or link) page by page into `events`: `gone` when Graph no longer knows the link
   * (410), `refused` when it does not do delta here (400, 501 on the first page of a full read).
   */
  const followDelta = async (
    call: Call,
    url: string,
    events: Record<string, HeldEvent>,
    full: boolean,
  ): Promise<{ deltaLink: string; changed: number } | 'gone' | 'refused'> => {
    let changed = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await graph(call, 'GET', url, { prefer: `odata.maxpagesize=200, ${PREFER_UTC}` });
      const code = graphCode(answer);
      const gone = answer.status === 410 || code === 'SyncStateNotFound' || code === 'resyncRequired';
      if (gone && !full) return 'gone';
      if (full && page === 0 && (answer.status === 400 || answer.status === 501)) return 'refused';
      if (answer.status !== 200) throw refused(call, answer, 'a read of the calendar');
      const json = jsonOf(answer);
      const applied = applyPage(json.value, events, apiHost);
      if (typeof applied === 'string') throw fail(call, applied, true);
      changed += applied;
      if (typeof json['@odata.deltaLink'] === 'string') return { deltaLink: json['@odata.deltaLink'], changed };
      if (typeof json['@odata.nextLink'] !== 'string')
        throw fail(call, `${apiHost} ended a read without a delta link`, true);
      url = json['@odata.nextLink'];
    }
    throw fail(call, `${apiHost} gave more than ${MAX_PAGES} pages: planner reads at most that many`, true);
  };

  /** calendarView whole (where delta is refused): its texts and the state that says so. */
  const readWhole = async (
    call: Call,
    window: { from: number; to: number },
    before: ReadState | undefined,
  ): Promise<ProviderRead> => {
    const select = '$select=id,start,end,isAllDay,isCancelled,showAs,transactionId,iCalUId';
    let url = `${view}/calendarView?startDateTime=${graphDateTime(window.from)}Z&endDateTime=${graphDateTime(window.to)}Z&$top=200&${select}`;
    const events: Record<string, HeldEvent> = {};
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES)
        throw fail(call, `${apiHost} gave more than ${MAX_PAGES} pages: planner reads at most that many`, true);
      const answer = await graph(call, 'GET', url, { prefer: `odata.maxpagesize=200, ${PREFER_UTC}` });
      if (answer.status !== 200) throw refused(call, answer, 'a read of the calendar');
      const json = jsonOf(answer);
      const applied = applyPage(json.value, events, apiHost);
      if (typeof applied === 'string') throw fail(call, applied, true);
      if (typeof json['@odata.nextLink'] !== 'string') break;
      url = json['@odata.nextLink'];
    }
    const texts = textsOf(events, window);
    const hash = createHash('sha256').update(texts.sort().join('\n')).digest('hex');
    const state: ReadState = { v: 1, mode: 'whole', from: window.from, to: window.to, hash };
    const next = state as unknown as ProviderState;
    if (before?.mode === 'whole' && before.hash === hash) return { unchanged: true, state: next };
    return { unchanged: false, texts, state: next };
  };

  const read = async (
    state: ProviderState | undefined,
    window: { from: number; to: number },
  ): Promise<ProviderRead> => {
    const call = open('read');
    const before = readStateOf(state);
    if (before?.mode === 'whole') return readWhole(call, window, before);
    if (before?.deltaLink && before.events && before.from <= window.from && before.to >= window.to) {
      const events = { ...before.events };
      const result = await followDelta(call, before.deltaLink, events, false);
      if (result !== 'gone' && result !== 'refused') {
        const next = { ...before, deltaLink: result.deltaLink, events } as unknown as ProviderState;
        if (result.changed === 0) return { unchanged: true, state: next };
        return { unchanged: false, texts: textsOf(events, window), state: next };
      }
      // 410: Graph no longer knows the link: a full read again.
    }
    const from = Math.floor(window.from / 86_400) * 86_400;
    const to = Math.ceil(window.to / 86_400) * 86_400 + DELTA_AHEAD_SECONDS;
    const events: Record<string, HeldEvent> = {};
    const result = await followDelta(
      call,
      `${view}/calendarView/delta?startDateTime=${graphDateTime(from)}Z&endDateTime=${graphDateTime(to)}Z`,
      events,
      true,
    );
    if (result === 'refused' || result === 'gone') return readWhole(call, window, undefined);
    const next: ReadState = { v: 1, mode: 'delta', from, to, deltaLink: result.deltaLink, events };
    return { unchanged: false, texts: textsOf(events, window), state: next as unknown as ProviderState };
  };

  return { read, put, remove, checkWritable };
}
