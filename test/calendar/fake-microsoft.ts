/**
 * The parts of the Microsoft identity platform and Microsoft Graph v1.0 planner uses (issue 48), in the test process,
 * built from Microsoft's published documents (not from what planner sends):
 *
 * - Device authorization grant (learn.microsoft.com, "Microsoft identity platform and the OAuth 2.0 device
 *   authorization grant flow"): `/{tenant}/oauth2/v2.0/devicecode` gives a device and user code; the token endpoint
 *   answers `authorization_pending` until the user signs in at microsoft.com/devicelogin (`approve`), then tokens;
 *   `authorization_declined`, `expired_token`, `bad_verification_code`, RFC 8628's `slow_down`. An app registration
 *   without "Allow public client flows" is refused at the token endpoint with `invalid_client` AADSTS7000218.
 * - Refresh tokens ("refresh tokens in the Microsoft identity platform"): each refresh_token grant returns a new one;
 *   the old ones stay valid until they expire (90 days, AADSTS700082) or are revoked (AADSTS50173).
 * - Events ("event resource type"): `transactionId` "to avoid redundant POST operations in case of client retries":
 *   a POST with a transactionId the calendar holds gives that event back; `@odata.etag` W/"<changeKey>", new on every
 *   change; PATCH with If-Match answers 412 when the etag is stale; DELETE, then 404. A single-value extended
 *   property is found with `$filter=singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')`.
 * - calendarView and calendarView/delta ("event: delta", "get incremental changes to events in a calendar view"):
 *   pages with `@odata.nextLink`, the last with `@odata.deltaLink`; removed events as `{id, @removed}`; a delta link
 *   Graph no longer knows answers 410 (SyncStateNotFound).
 * - Throttling ("Microsoft Graph throttling guidance"): 429 with Retry-After in seconds.
 *
 * One port for both hosts (login's and Graph's paths). Closed after the test file.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { Temporal } from 'temporal-polyfill';
import { heldRequest, listenLocal } from './fake-server.ts';

/**
 * Every property of Graph's event the fake sends or accepts, and the nested types it uses: the schema check
 * (fake-microsoft-schema.test.ts) compares them with @microsoft/microsoft-graph-types. `annotations` are OData's
 * (instance annotations and the delta's `@removed`), not properties of the schema.
 */
export const MICROSOFT_FAKE_SURFACE = {
  /** Sent in an event. */
  eventProperties: [
    'id',
    'createdDateTime',
    'lastModifiedDateTime',
    'changeKey',
    'categories',
    'transactionId',
    'subject',
    'body',
    'bodyPreview',
    'start',
    'end',
    'location',
    'isAllDay',
    'isCancelled',
    'showAs',
    'isReminderOn',
    'iCalUId',
    'type',
    'singleValueExtendedProperties',
  ],
  /** Accepted in a POST or PATCH (anything else: 400, as Graph answers a property its type does not have). */
  writableProperties: [
    'subject',
    'body',
    'location',
    'start',
    'end',
    'isAllDay',
    'showAs',
    'isReminderOn',
    'transactionId',
    'singleValueExtendedProperties',
  ],
  /** The event property, the schema's type of its value, and the properties of it the fake sends or accepts. */
  nested: {
    body: { type: 'ItemBody', properties: ['contentType', 'content'] },
    start: { type: 'DateTimeTimeZone', properties: ['dateTime', 'timeZone'] },
    end: { type: 'DateTimeTimeZone', properties: ['dateTime', 'timeZone'] },
    location: { type: 'Location', properties: ['displayName'] },
    singleValueExtendedProperties: { type: 'SingleValueLegacyExtendedProperty', properties: ['id', 'value'] },
  },
  /** The values of showAs the fake knows (the schema's FreeBusyStatus). */
  showAs: ['free', 'tentative', 'busy', 'oof', 'workingElsewhere', 'unknown'],
  /** OData's annotations, not the schema's: listed apart. */
  annotations: ['@odata.context', '@odata.etag', '@odata.nextLink', '@odata.deltaLink', '@removed'],
} as const;

type Time = { dateTime: string; timeZone: string };

/** An event as the fake holds it. */
export interface FakeEvent {
  id: string;
  createdDateTime: string;
  lastModifiedDateTime: string;
  changeKey: string;
  categories: string[];
  transactionId?: string;
  subject: string;
  body: { contentType: string; content: string };
  bodyPreview: string;
  start: Time;
  end: Time;
  location: { displayName: string };
  isAllDay: boolean;
  isCancelled: boolean;
  showAs: string;
  isReminderOn: boolean;
  iCalUId: string;
  type: 'singleInstance';
  singleValueExtendedProperties: { id: string; value: string }[];
}

interface Account {
  name: string;
  calendarId: string;
  events: Map<string, FakeEvent & { seq: number }>;
  /** Deleted (or moved out of a view): the change's sequence number. */
  gone: Map<string, number>;
}

interface DeviceCode {
  userCode: string;
  clientId: string;
  expiresAtMs: number;
  state: 'pending' | 'approved' | 'declined' | 'expired' | 'redeemed';
  account?: string;
}

interface DeltaToken {
  account: string;
  calendarId: string;
  from: number;
  to: number;
  seq: number;
}

/** One request as it came. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The form of a login request, its tokens left out. */
  form?: Record<string, string>;
}

const id = (bytes = 12) => randomBytes(bytes).toString('base64url');

/** Unix seconds of Graph's dateTime in its timeZone (UTC or an IANA name, as the fake's tests give them). */
function instant(time: Time): number {
  const local = Temporal.PlainDateTime.from(time.dateTime.slice(0, 19));
  const zone = /^utc$/i.test(time.timeZone) ? 'UTC' : time.timeZone;
  return local.toZonedDateTime(zone).epochMilliseconds / 1000;
}

/** Graph's dateTime in UTC, as with `Prefer: outlook.timezone="UTC"`. */
function utc(time: Time, allDay: boolean): Time {
  if (allDay) return { dateTime: `${time.dateTime.slice(0, 10)}T00:00:00.0000000`, timeZone: 'UTC' };
  return { dateTime: `${new Date(instant(time) * 1000).toISOString().slice(0, 19)}.0000000`, timeZone: 'UTC' };
}

/** Whether two extended property ids are one: `String {guid} Name X`, the GUID in any case, the Name exactly. */
function sameId(a: string, b: string): boolean {
  const guidless = (value: string) => value.replace(/\{[0-9a-f-]+\}/i, (guid) => guid.toLowerCase());
  return guidless(a) === guidless(b);
}

/** Graph's error body. */
const graphError = (code: string, message: string) => JSON.stringify({ error: { code, message } });

/** The identity platform's error body. */
const loginError = (error: string, code: number, text: string) =>
  JSON.stringify({
    error,
    error_description: `AADSTS${code}: ${text} Trace ID: ${id(8)} Correlation ID: ${id(8)} Timestamp: 2026-01-01 00:00:00Z`,
    error_codes: [code],
  });

/** Starts the fake; `url` is its base address (PLANNER_TEST_MICROSOFT_BASE). */
export async function fakeMicrosoft() {
  const apps = new Map<string, { publicClient: boolean }>();
  const accounts = new Map<string, Account>();
  const deviceCodes = new Map<string, DeviceCode>();
  const refreshTokens = new Map<string, { account: string; clientId: string }>();
  const accessTokens = new Map<string, string>();
  const deltaTokens = new Map<string, DeltaToken>();
  const pages = new Map<string, { items: unknown[]; size: number; last: Record<string, unknown>; base: string }>();
  /** Refresh tokens revoked (a sign-in made after the revocation is a new consent: its tokens are good). */
  const revoked = new Set<string>();
  const expiredSignIns = new Set<string>();
  /** Accounts whose access tokens Graph refuses (401) though the sign-in renews them; whose calendar it denies (403). */
  const refusedTokens = new Set<string>();
  const denied = new Set<string>();
  let redirects: string[] = [];
  const holds: { prefix: string; arrive: () => void; released: Promise<void> }[] = [];
  let seq = 0;
  let throttles = { left: 0, seconds: 0 };
  let slowDownNext = false;

  const accountOf = (name: string): Account => {
    let account = accounts.get(name);
    if (!account) {
      account = { name, calendarId: `AAMkCal-${id(6)}`, events: new Map(), gone: new Map() };
      accounts.set(name, account);
    }
    return account;
  };

  /** An event's JSON as Graph gives it (its extended properties only when asked for). */
  const eventJson = (event: FakeEvent, select?: string[]): Record<string, unknown> => {
    const { singleValueExtendedProperties: _, transactionId, ...rest } = event;
    const full: Record<string, unknown> = {
      '@odata.etag': `W/"${event.changeKey}"`,
      ...rest,
      ...(transactionId ? { transactionId } : {}),
      start: utc(event.start, event.isAllDay),
      end: utc(event.end, event.isAllDay),
    };
    delete full.seq;
    if (!select) return full;
    return Object.fromEntries(
      Object.entries(full).filter(([key]) => key === 'id' || key === '@odata.etag' || select.includes(key)),
    );
  };

  const touch = (account: Account, event: FakeEvent & { seq: number }) => {
    event.seq = ++seq;
    event.changeKey = id(9);
    event.lastModifiedDateTime = new Date().toISOString();
    account.events.set(event.id, event);
  };

  const newEvent = (fields: Partial<FakeEvent>): FakeEvent & { seq: number } => ({
    id: `AAMkAGI${id(24)}`,
    createdDateTime: new Date().toISOString(),
    lastModifiedDateTime: new Date().toISOString(),
    changeKey: id(9),
    categories: [],
    subject: '',
    body: { contentType: 'text', content: '' },
    bodyPreview: '',
    start: { dateTime: '2026-01-01T00:00:00', timeZone: 'UTC' },
    end: { dateTime: '2026-01-01T00:00:00', timeZone: 'UTC' },
    location: { displayName: '' },
    isAllDay: false,
    isCancelled: false,
    showAs: 'busy',
    isReminderOn: true,
    iCalUId: `040000008200E00074C5B7101A82E008${randomBytes(28).toString('hex').toUpperCase()}`,
    type: 'singleInstance',
    singleValueExtendedProperties: [],
    ...fields,
    seq: 0,
  });

  /** The problem with a POST or PATCH body, as Graph words it; undefined for none. */
  const invalid = (body: Record<string, unknown>): string | undefined => {
    const writable: readonly string[] = MICROSOFT_FAKE_SURFACE.writableProperties;
    const nested = MICROSOFT_FAKE_SURFACE.nested as Record<string, { type: string; properties: readonly string[] }>;
    for (const [key, value] of Object.entries(body)) {
      if (!writable.includes(key)) return `The property '${key}' does not exist on type 'microsoft.graph.event'.`;
      const type = nested[key];
      if (!type || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value])
        for (const inner of Object.keys(item as object))
          if (!type.properties.includes(inner))
            return `The property '${inner}' does not exist on type 'microsoft.graph.${type.type}'.`;
    }
    const showAs: readonly string[] = MICROSOFT_FAKE_SURFACE.showAs;
    if (body.showAs !== undefined && !showAs.includes(String(body.showAs)))
      return `Requested value '${body.showAs}' was not found.`;
    return undefined;
  };

  const inView = (event: FakeEvent, from: number, to: number) =>
    instant(event.start) < to && Math.max(instant(event.end), instant(event.start)) > from;

  const fake = {
    url: '',
    /** `down`: 503 to everything (an outage). */
    state: { down: false },
    /** calendarView/delta answers 400 (an account where delta is not offered). */
    deltaUnsupported: false,
    /** A create or change is stored, then its connection destroyed without an answer. */
    dropAfterWrite: false,
    /** The device code's lifetime and polling interval the devicecode endpoint gives. */
    deviceCodeSeconds: 900,
    pollIntervalSeconds: 5,
    requests: [] as FakeRequest[],
    /** Every refresh token a refresh_token grant was made with, in order. */
    refreshTokensUsed: [] as string[],
    /** Registers an app (client id); `publicClient`: "Allow public client flows" in its registration. */
    registerApp(clientId: string, options: { publicClient: boolean }) {
      apps.set(clientId, { publicClient: options.publicClient });
    },
    /** The user signs in as `account` at microsoft.com/devicelogin with `userCode` and consents. */
    approve(userCode: string, account: string) {
      const code = [...deviceCodes.values()].find((entry) => entry.userCode === userCode);
      if (!code) throw new Error(`no device login with the code ${userCode}`);
      accountOf(account);
      code.state = 'approved';
      code.account = account;
    },
    /** The user declines at microsoft.com/devicelogin. */
    decline(userCode: string) {
      const code = [...deviceCodes.values()].find((entry) => entry.userCode === userCode);
      if (code) code.state = 'declined';
    },
    /** The code's 15 minutes are over. */
    expire(userCode: string) {
      const code = [...deviceCodes.values()].find((entry) => entry.userCode === userCode);
      if (code) code.state = 'expired';
    },
    /** The next device-code poll is answered `slow_down`. */
    slowDown() {
      slowDownNext = true;
    },
    /** A refresh token of `account` for `clientId` (as a finished sign-in gives). */
    signIn(clientId: string, account: string): string {
      accountOf(account);
      const token = `rt-${id(24)}`;
      refreshTokens.set(token, { account, clientId });
      return token;
    },
    /**
     * Revokes `account`'s sign-ins so far: their refresh tokens AADSTS50173, their access tokens 401. A sign-in after
     * it is a new consent, whose tokens are good.
     */
    revoke(account: string) {
      for (const [token, held] of refreshTokens) if (held.account === account) revoked.add(token);
      for (const [token, name] of accessTokens) if (name === account) accessTokens.delete(token);
    },
    /** `account`'s refresh tokens expire from inactivity (AADSTS700082). */
    expireSignIn(account: string) {
      expiredSignIns.add(account);
    },
    /** Every access token expires (Graph answers 401 to them). */
    expireAccessTokens() {
      accessTokens.clear();
    },
    /** Graph answers 401 to every access token of `account`, new ones too (a token for another audience). */
    refuseAccessTokens(account: string) {
      refusedTokens.add(account);
    },
    /** Graph answers 403 ErrorAccessDenied for `account`'s calendar (consent without Calendars.ReadWrite). */
    denyAccess(account: string) {
      denied.add(account);
    },
    /** The next Graph request is answered 302 to `location`. */
    redirectNext(location: string) {
      redirects.push(location);
    },
    /** The next `count` Graph requests are answered 429 with Retry-After `seconds`. */
    throttle(count: number, seconds: number) {
      throttles = { left: count, seconds };
    },
    /** Every delta link given so far is no longer known (410). */
    expireDeltaLinks() {
      deltaTokens.clear();
    },
    /** Holds the next request whose path begins with `prefix` until `release()`; `arrived` when it came. */
    hold(prefix: string) {
      const { arrived, arrive, released, release } = heldRequest();
      holds.push({ prefix, arrive, released });
      return { arrived, release };
    },
    /** The id of `account`'s default calendar. */
    calendarId(account: string): string {
      return accountOf(account).calendarId;
    },
    /** Adds an appointment as Outlook would (the practitioner's own); its id. */
    addEvent(account: string, fields: Partial<FakeEvent>): string {
      const target = accountOf(account);
      const event = newEvent(fields);
      touch(target, event);
      return event.id;
    },
    /** Changes an event as Outlook would (a new changeKey). */
    editEvent(account: string, eventId: string, patch: Partial<FakeEvent>) {
      const target = accountOf(account);
      const event = target.events.get(eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      touch(target, { ...event, ...patch });
    },
    /** Deletes an event as Outlook would. */
    deleteEvent(account: string, eventId: string) {
      const target = accountOf(account);
      if (target.events.delete(eventId)) target.gone.set(eventId, ++seq);
    },
    /** `account`'s events now, as Graph gives them. */
    events(account: string): FakeEvent[] {
      return [...accountOf(account).events.values()].map((event) => {
        const { seq: _, ...rest } = event;
        return structuredClone(rest);
      });
    },
  };

  /** The identity platform: devicecode and token. */
  const login = (endpoint: string, form: URLSearchParams, response: ServerResponse) => {
    const json = (status: number, body: string) =>
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    const clientId = form.get('client_id') ?? '';
    const app = apps.get(clientId);
    if (!app)
      return json(
        400,
        loginError(
          'unauthorized_client',
          700016,
          `Application with identifier '${clientId}' was not found in the directory 'fake'.`,
        ),
      );
    if (endpoint === 'devicecode') {
      const deviceCode = `dc-${id(32)}`;
      const userCode = randomBytes(6).toString('hex').slice(0, 9).toUpperCase();
      deviceCodes.set(deviceCode, {
        userCode,
        clientId,
        expiresAtMs: Date.now() + fake.deviceCodeSeconds * 1000,
        state: 'pending',
      });
      return json(
        200,
        JSON.stringify({
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: 'https://microsoft.com/devicelogin',
          expires_in: fake.deviceCodeSeconds,
          interval: fake.pollIntervalSeconds,
          message: `To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code ${userCode} to authenticate.`,
        }),
      );
    }
    if (!app.publicClient)
      return json(
        401,
        loginError(
          'invalid_client',
          7000218,
          "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
        ),
      );
    let account: string;
    const grant = form.get('grant_type');
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      const code = deviceCodes.get(form.get('device_code') ?? '');
      if (!code || code.clientId !== clientId)
        return json(400, loginError('bad_verification_code', 70019, 'Verification code was not recognized.'));
      if (code.state === 'pending' && Date.now() >= code.expiresAtMs) code.state = 'expired';
      if (code.state === 'expired')
        return json(400, loginError('expired_token', 70020, 'The provided value for the input parameter was expired.'));
      if (code.state === 'declined')
        return json(400, loginError('authorization_declined', 70017, 'The user declined the authorization request.'));
      if (code.state === 'redeemed')
        return json(400, loginError('invalid_grant', 54005, 'OAuth2 Authorization code was already redeemed.'));
      if (slowDownNext) {
        slowDownNext = false;
        return json(400, loginError('slow_down', 70016, 'The client is polling too quickly.'));
      }
      if (code.state === 'pending')
        return json(
          400,
          loginError('authorization_pending', 70016, 'The provided request has not yet been authorized by the user.'),
        );
      code.state = 'redeemed';
      account = code.account!;
    } else if (grant === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      fake.refreshTokensUsed.push(token);
      const held = refreshTokens.get(token);
      if (!held || held.clientId !== clientId)
        return json(400, loginError('invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.'));
      if (revoked.has(token))
        return json(
          400,
          loginError(
            'invalid_grant',
            50173,
            'The provided grant has expired due to it being revoked, a fresh auth token is needed.',
          ),
        );
      if (expiredSignIns.has(held.account))
        return json(400, loginError('invalid_grant', 700082, 'The refresh token has expired due to inactivity.'));
      account = held.account;
    } else {
      return json(400, loginError('unsupported_grant_type', 70003, 'The app requested an unsupported grant type.'));
    }
    const refreshToken = fake.signIn(clientId, account);
    const accessToken = `at-${id(24)}`;
    accessTokens.set(accessToken, account);
    const claims = { aud: clientId, iss: 'https://login.microsoftonline.com/fake/v2.0', preferred_username: account };
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return json(
      200,
      JSON.stringify({
        token_type: 'Bearer',
        scope: 'https://graph.microsoft.com/Calendars.ReadWrite',
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: accessToken,
        refresh_token: refreshToken,
        id_token: `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`,
      }),
    );
  };

  /** A page of `items` from `start`, with a nextLink or (at the end) `last`'s annotations. */
  const page = (
    base: string,
    items: unknown[],
    size: number,
    last: Record<string, unknown>,
  ): Record<string, unknown> => {
    if (items.length <= size) return { value: items, ...last };
    const skip = id(12);
    pages.set(skip, { items: items.slice(size), size, last, base });
    return { value: items.slice(0, size), '@odata.nextLink': `${base}?$skiptoken=${skip}` };
  };

  /** The page size a request asks for: `Prefer: odata.maxpagesize`, else $top, else 10. */
  const pageSize = (headers: IncomingHttpHeaders, query: URLSearchParams): number => {
    const prefer = /odata\.maxpagesize=(\d+)/.exec(String(headers.prefer ?? ''));
    return Number(prefer?.[1] ?? query.get('$top') ?? 10) || 10;
  };

  /** calendarView/delta: a first request (a window) or a delta link. */
  const delta = (account: Account, base: string, query: URLSearchParams, size: number) => {
    const tokenId = query.get('$deltatoken');
    let token: DeltaToken;
    let items: unknown[];
    if (tokenId !== null) {
      const known = deltaTokens.get(tokenId);
      if (!known || known.account !== account.name)
        return {
          status: 410,
          body: graphError('SyncStateNotFound', 'The sync state generation is not found. Resync required.'),
        };
      // As "event: delta" documents: changed events in the range as they are; under @removed (reason deleted) those
      // deleted since, and those outside the range added, changed or deleted since.
      token = { ...known, seq };
      items = [];
      const removed = (goneId: string) => ({ id: goneId, '@removed': { reason: 'deleted' } });
      for (const event of account.events.values())
        if (event.seq > known.seq)
          items.push(inView(event, known.from, known.to) ? eventJson(event) : removed(event.id));
      for (const [goneId, at] of account.gone) if (at > known.seq) items.push(removed(goneId));
    } else {
      const from = Date.parse(query.get('startDateTime') ?? '') / 1000;
      const to = Date.parse(query.get('endDateTime') ?? '') / 1000;
      if (Number.isNaN(from) || Number.isNaN(to))
        return {
          status: 400,
          body: graphError('ErrorInvalidParameters', 'startDateTime and endDateTime are required.'),
        };
      const inside = [...account.events.values()].filter((event) => inView(event, from, to));
      token = {
        account: account.name,
        calendarId: account.calendarId,
        from,
        to,
        seq,
      };
      items = inside.map((event) => eventJson(event));
    }
    const next = id(16);
    deltaTokens.set(next, token);
    return {
      status: 200,
      body: JSON.stringify(page(base, items, size, { '@odata.deltaLink': `${base}?$deltatoken=${next}` })),
    };
  };

  /** calendarView: the events over the window, sorted by start. */
  const view = (account: Account, base: string, query: URLSearchParams, size: number) => {
    const from = Date.parse(query.get('startDateTime') ?? '') / 1000;
    const to = Date.parse(query.get('endDateTime') ?? '') / 1000;
    if (Number.isNaN(from) || Number.isNaN(to))
      return { status: 400, body: graphError('ErrorInvalidParameters', 'startDateTime and endDateTime are required.') };
    const select = query.get('$select')?.split(',');
    const items = [...account.events.values()]
      .filter((event) => inView(event, from, to))
      .sort((a, b) => instant(a.start) - instant(b.start))
      .map((event) => eventJson(event, select));
    return { status: 200, body: JSON.stringify(page(base, items, size, {})) };
  };

  /** `$filter=singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')` on the calendar's events. */
  const filtered = (account: Account, query: URLSearchParams) => {
    const filter = query.get('$filter') ?? '';
    const match =
      /^singleValueExtendedProperties\/Any\((\w+): \1\/id eq '((?:[^']|'')*)' and \1\/value eq '((?:[^']|'')*)'\)$/.exec(
        filter,
      );
    if (!match) return { status: 400, body: graphError('ErrorInvalidUrlQueryFilter', 'The filter is not supported.') };
    const [, , propertyId, value] = match.map((part) => part.replace(/''/g, "'"));
    const select = query.get('$select')?.split(',');
    const items = [...account.events.values()]
      .filter((event) =>
        event.singleValueExtendedProperties.some(
          // As documented: the id's Name is matched case-sensitively (its GUID is a GUID), the value case-insensitively.
          (property) => sameId(property.id, propertyId!) && property.value.toLowerCase() === value!.toLowerCase(),
        ),
      )
      .map((event) => eventJson(event, select));
    return { status: 200, body: JSON.stringify({ value: items }) };
  };

  /** POST of an event: a transactionId the calendar holds gives that event back. */
  const create = (account: Account, body: Record<string, unknown>) => {
    const problem = invalid(body);
    if (problem) return { status: 400, body: graphError('RequestBodyRead', problem), stored: false };
    const transactionId = typeof body.transactionId === 'string' ? body.transactionId : undefined;
    const same = transactionId
      ? [...account.events.values()].find((event) => event.transactionId === transactionId)
      : undefined;
    if (same) return { status: 201, body: JSON.stringify(eventJson(same)), stored: false };
    const event = newEvent(body as Partial<FakeEvent>);
    event.bodyPreview = event.body.content.slice(0, 255);
    touch(account, event);
    return { status: 201, body: JSON.stringify(eventJson(event)), stored: true };
  };

  const patch = (account: Account, eventId: string, body: Record<string, unknown>, ifMatch: string | undefined) => {
    const event = account.events.get(eventId);
    if (!event)
      return {
        status: 404,
        body: graphError('ErrorItemNotFound', 'The specified object was not found in the store.'),
        stored: false,
      };
    if (ifMatch !== undefined && ifMatch !== `W/"${event.changeKey}"`)
      return {
        status: 412,
        body: graphError(
          'ErrorIrresolvableConflict',
          'The change key passed in the request does not match the current change key for the item.',
        ),
        stored: false,
      };
    const problem = invalid(body);
    if (problem) return { status: 400, body: graphError('RequestBodyRead', problem), stored: false };
    if (body.transactionId !== undefined && body.transactionId !== event.transactionId)
      return {
        status: 400,
        body: graphError('ErrorInvalidRequest', 'The transactionId cannot be changed.'),
        stored: false,
      };
    const next = { ...event, ...(body as Partial<FakeEvent>) };
    touch(account, next);
    return { status: 200, body: JSON.stringify(eventJson(next)), stored: true };
  };

  /** Microsoft Graph: the account is the access token's. */
  const graph = (
    method: string,
    path: string,
    query: URLSearchParams,
    headers: IncomingHttpHeaders,
    body: Record<string, unknown>,
    base: string,
  ): { status: number; body: string; stored?: boolean; headers?: Record<string, string> } => {
    const location = redirects.shift();
    if (location) return { status: 302, body: '', headers: { location } };
    if (throttles.left > 0) {
      throttles.left--;
      return {
        status: 429,
        body: graphError('TooManyRequests', 'Application is over its MailboxConcurrency limit.'),
        headers: { 'retry-after': String(throttles.seconds) },
      };
    }
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const name = bearer ? accessTokens.get(bearer) : undefined;
    if (!name)
      return {
        status: 401,
        body: graphError('InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
      };
    if (refusedTokens.has(name))
      return { status: 401, body: graphError('InvalidAuthenticationToken', 'Invalid audience.') };
    if (denied.has(name))
      return {
        status: 403,
        body: graphError('ErrorAccessDenied', 'Access is denied. Check credentials and try again.'),
      };
    const account = accountOf(name);
    const item = /^\/v1\.0\/me\/events\/([^/]+)$/.exec(path);
    if (item) {
      const eventId = decodeURIComponent(item[1]!);
      const event = account.events.get(eventId);
      if (method === 'PATCH') return patch(account, eventId, body, headers['if-match'] as string | undefined);
      if (!event)
        return {
          status: 404,
          body: graphError('ErrorItemNotFound', 'The specified object was not found in the store.'),
        };
      if (method === 'GET') return { status: 200, body: JSON.stringify(eventJson(event)) };
      if (method === 'DELETE') {
        fake.deleteEvent(name, eventId);
        return { status: 204, body: '' };
      }
      return { status: 405, body: graphError('ErrorInvalidRequest', 'Method not allowed.') };
    }
    const calendar =
      /^\/v1\.0\/me(?:\/calendar|\/calendars\/([^/]+))?\/(events|calendarView|calendarView\/delta)$/.exec(path);
    if (!calendar) return { status: 404, body: graphError('ResourceNotFound', 'Resource not found for the segment.') };
    if (calendar[1] !== undefined && decodeURIComponent(calendar[1]) !== account.calendarId)
      return { status: 404, body: graphError('ErrorItemNotFound', 'The specified object was not found in the store.') };
    const what = calendar[2];
    const size = pageSize(headers, query);
    const link = `${base}${path}`;
    const skip = query.get('$skiptoken');
    if (method === 'GET' && skip !== null && what !== 'events') {
      const rest = pages.get(skip);
      if (!rest) return { status: 400, body: graphError('ErrorInvalidUrlQuery', 'The skip token is not valid.') };
      pages.delete(skip);
      return { status: 200, body: JSON.stringify(page(rest.base, rest.items, rest.size, rest.last)) };
    }
    if (what === 'calendarView/delta' && method === 'GET') {
      if (fake.deltaUnsupported)
        return { status: 400, body: graphError('ErrorInvalidRequest', 'Delta is not supported for this mailbox.') };
      return delta(account, link, query, size);
    }
    if (what === 'calendarView' && method === 'GET') return view(account, link, query, size);
    if (what === 'events' && method === 'GET') return filtered(account, query);
    if (what === 'events' && method === 'POST') return create(account, body);
    return { status: 405, body: graphError('ErrorInvalidRequest', 'Method not allowed.') };
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      const isLogin = /^\/[^/]+\/oauth2\/v2\.0\/(devicecode|token)$/.exec(url.pathname);
      const form = isLogin ? new URLSearchParams(text) : undefined;
      fake.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        ...(form
          ? {
              form: Object.fromEntries([...form].filter(([key]) => key !== 'refresh_token' && key !== 'device_code')),
            }
          : {}),
      });
      const held = holds.findIndex((hold) => url.pathname.startsWith(hold.prefix));
      if (held >= 0) {
        const [hold] = holds.splice(held, 1);
        hold!.arrive();
        await hold!.released;
      }
      if (fake.state.down) return response.writeHead(503).end();
      if (isLogin) return login(isLogin[1]!, form!, response);
      let body: Record<string, unknown> = {};
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return response.writeHead(400).end(graphError('BadRequest', 'Unable to read JSON request payload.'));
        }
      }
      const answer = graph(request.method ?? 'GET', url.pathname, url.searchParams, request.headers, body, fake.url);
      if (answer.stored && fake.dropAfterWrite) return request.socket.destroy();
      response
        .writeHead(answer.status, {
          ...(answer.body ? { 'content-type': 'application/json; odata.metadata=minimal' } : {}),
          ...answer.headers,
        })
        .end(answer.body);
    });
  });
  fake.url = await listenLocal(server);
  return fake;
}

export type FakeMicrosoft = Awaited<ReturnType<typeof fakeMicrosoft>>;
