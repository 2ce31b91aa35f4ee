/**
 * The part of Google planner talks to (issue 48), in the test process on one port: the token endpoint (`/token`:
 * the JWT bearer grant of a service account, checked with the public half of a key this fake made; the
 * refresh_token and authorization_code grants), the consent page (`/o/oauth2/v2/auth`, answered as if the user
 * clicked "Allow") and the Calendar API v3's events (`/calendar/v3/calendars/{calendarId}/events[/{eventId}]`).
 *
 * Its shapes are Google's published ones, not the client's: the Event and Events resources and events.list's
 * parameters of the Calendar API v3 reference (fake-google-schema.test.ts checks every field and parameter named in
 * GOOGLE_FAKE_SURFACE against the discovery-generated @googleapis/calendar), the sync guide (a sync token returns
 * what changed since, deleted events as `status: cancelled`; 410 when it is no longer valid), the error bodies of
 * "Handle API errors" (`{"error":{"errors":[{"domain","reason","message"}],"code","message"}}`), and RFC 6749's
 * token errors (`{"error":"invalid_grant"}`). Not modelled: recurrence (an instance is added as one event with its
 * `recurringEventId`), attendees, reminders, calendars' own resources. Closed after the test file.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { heldRequest, listenLocal } from './fake-server.ts';

/** What the fake sends and accepts, by the names of Google's reference (checked by fake-google-schema.test.ts). */
export const GOOGLE_FAKE_SURFACE = {
  /** Fields of an Event resource the fake answers with. */
  eventFieldsSent: [
    'kind',
    'etag',
    'id',
    'status',
    'created',
    'updated',
    'summary',
    'description',
    'location',
    'start',
    'end',
    'originalStartTime',
    'recurringEventId',
    'transparency',
    'iCalUID',
    'sequence',
    'eventType',
  ],
  /** Fields of an Event resource the fake takes in an insert, update or patch (any other: 400). */
  eventFieldsAccepted: [
    'id',
    'status',
    'summary',
    'description',
    'location',
    'start',
    'end',
    'originalStartTime',
    'recurringEventId',
    'transparency',
    'eventType',
  ],
  /** Fields of an EventDateTime (start, end, originalStartTime). */
  dateTimeFields: ['date', 'dateTime', 'timeZone'],
  /** Fields of an Events resource (a page of events.list). */
  eventsFields: [
    'kind',
    'etag',
    'summary',
    'updated',
    'timeZone',
    'accessRole',
    'defaultReminders',
    'items',
    'nextPageToken',
    'nextSyncToken',
  ],
  /** The query parameters events.list takes (any other: 400). */
  listParams: ['singleEvents', 'timeMin', 'timeMax', 'pageToken', 'maxResults', 'syncToken', 'showDeleted'],
  /** The query parameters events.insert, update, patch and delete take. */
  writeParams: ['sendUpdates'],
  /** The methods and paths served under /calendar/v3, as the discovery document writes them. */
  methods: [
    ['POST', '/calendar/v3/calendars/{calendarId}/events'],
    ['GET', '/calendar/v3/calendars/{calendarId}/events'],
    ['GET', '/calendar/v3/calendars/{calendarId}/events/{eventId}'],
    ['PUT', '/calendar/v3/calendars/{calendarId}/events/{eventId}'],
    ['PATCH', '/calendar/v3/calendars/{calendarId}/events/{eventId}'],
    ['DELETE', '/calendar/v3/calendars/{calendarId}/events/{eventId}'],
  ],
} as const;

const SCOPE = 'https://www.googleapis.com/auth/calendar.events';
const AUDIENCE = 'https://oauth2.googleapis.com/token';

type Json = Record<string, unknown>;
export type FakeEvent = Json & { id: string; etag: string; status: string };
type Role = 'writer' | 'reader' | 'none';

/** A request the fake took: the path without its query, the query's parameters, the headers. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
}

/** A Calendar API error body ("Handle API errors"). */
function apiError(code: number, reason: string, message: string, domain = 'global') {
  return { error: { errors: [{ domain, reason, message }], code, message } };
}

const base64url = (value: string) => Buffer.from(value, 'base64url').toString('utf8');
const randomId = () => {
  // base32hex, as Google's own ids: a–v and 0–9
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
};

/** Unix ms of an EventDateTime (a date: its midnight in UTC); NaN when it has neither. */
function msOf(time: unknown): number {
  const { date, dateTime } = (time ?? {}) as { date?: string; dateTime?: string };
  return Date.parse(dateTime ?? (date ? `${date}T00:00:00Z` : ''));
}

/**
 * Throws unless every field of `fields` is one the fake sends (GOOGLE_FAKE_SURFACE.eventFieldsSent, their times'
 * dateTimeFields): what the fake holds is what the schema test checked against Google's.
 */
function checkHeld(fields: Json): void {
  for (const [name, value] of Object.entries(fields)) {
    if (!(GOOGLE_FAKE_SURFACE.eventFieldsSent as readonly string[]).includes(name))
      throw new Error(`fake-google holds no field ${name} (GOOGLE_FAKE_SURFACE.eventFieldsSent)`);
    if (name === 'start' || name === 'end' || name === 'originalStartTime')
      for (const part of Object.keys(value as Json))
        if (!(GOOGLE_FAKE_SURFACE.dateTimeFields as readonly string[]).includes(part))
          throw new Error(`fake-google holds no field ${name}.${part} (GOOGLE_FAKE_SURFACE.dateTimeFields)`);
  }
}

/** The calendar's zone: a time without its own zone is answered in it. */
const CALENDAR_ZONE = 'Europe/Berlin';

/** `dateTime` as Google answers it: the instant in the time's zone (or the calendar's), with its offset. */
function inZone(time: unknown): unknown {
  const { dateTime, timeZone } = (time ?? {}) as { dateTime?: string; timeZone?: string };
  const ms = Date.parse(dateTime ?? '');
  if (Number.isNaN(ms)) return time;
  const zone = timeZone ?? CALENDAR_ZONE;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3);
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
  return { ...(time as Json), dateTime: local };
}

/** Starts the fake on 127.0.0.1:0; `url` serves every host's paths. */
export async function fakeGoogle() {
  const calendars = new Map<
    string,
    { acl: Map<string, Role>; events: Map<string, { event: FakeEvent; seq: number }> }
  >();
  const serviceAccounts = new Map<string, Map<string, KeyObject>>();
  const clients = new Map<string, string>();
  const codes = new Map<string, { clientId: string; redirectUri: string; account: string; refresh: boolean }>();
  const refreshTokens = new Map<string, { clientId: string; account: string }>();
  const accessTokens = new Map<string, { account: string; until: number }>();
  const granted = new Set<string>();
  const revoked = new Set<string>();
  const holds = new Map<string, { arrive: () => void; released: Promise<void> }>();
  let seq = 0;
  let etags = 3181161784712000;
  let syncEpoch = 0;
  let limitedLeft = 0;
  let limitReason = 'rateLimitExceeded';

  /** `down`: every request answers 503 (an outage). */
  const state = { down: false };

  const calendarOf = (calendarId: string) => {
    let calendar = calendars.get(calendarId);
    if (!calendar) {
      calendar = { acl: new Map(), events: new Map() };
      calendars.set(calendarId, calendar);
    }
    return calendar;
  };
  const stamp = () => new Date().toISOString();
  const store = (calendarId: string, event: FakeEvent) => {
    checkHeld(event);
    for (const name of ['start', 'end', 'originalStartTime']) if (event[name]) event[name] = inZone(event[name]);
    event.etag = `"${(etags += 1000)}"`;
    event.updated = stamp();
    calendarOf(calendarId).events.set(event.id, { event, seq: ++seq });
    return event;
  };
  const newEvent = (fields: Json, id: string): FakeEvent => {
    const now = stamp();
    return {
      kind: 'calendar#event',
      etag: '',
      id,
      status: 'confirmed',
      created: now,
      updated: now,
      // the instances of a series share its iCalUID
      iCalUID: `${typeof fields.recurringEventId === 'string' ? fields.recurringEventId : id}@google.com`,
      sequence: 0,
      eventType: 'default',
      ...fields,
    } as FakeEvent;
  };

  const fake = {
    url: '',
    state,
    /** Every request taken, in order. */
    requests: [] as FakeRequest[],
    /** The header and claims of every service-account JWT whose signature verified. */
    assertions: [] as { header: Json; claims: Json }[],
    /** An insert or update is stored, then its connection destroyed without an answer. */
    dropAfterWrite: false,
    /**
     * The most events on one page of events.list, whatever maxResults asks (Google: a page may hold fewer than
     * maxResults, or none, while more match).
     */
    maxPageSize: 2500,
    /** The account the consent page (`/o/oauth2/v2/auth`) consents as. */
    consentAs: 'practitioner@example.com',

    /** The JSON text of a new key file for the service account `email` (a fresh RSA key pair; earlier keys stay). */
    serviceAccountKey(email: string): string {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const keyId = randomBytes(20).toString('hex');
      if (!serviceAccounts.has(email)) serviceAccounts.set(email, new Map());
      serviceAccounts.get(email)!.set(keyId, publicKey);
      return JSON.stringify({
        type: 'service_account',
        project_id: 'planner-test',
        private_key_id: keyId,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: email,
        client_id: String(10n ** 20n + BigInt(serviceAccounts.size)),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: 'https://oauth2.googleapis.com/token',
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        universe_domain: 'googleapis.com',
      });
    },
    /** Deletes the service account's key `keyId` (its JWTs then fail: invalid_grant). */
    deleteKey(email: string, keyId: string) {
      serviceAccounts.get(email)?.delete(keyId);
    },
    /** Registers an OAuth web client; returns its id and secret. */
    oauthClient(): { clientId: string; clientSecret: string } {
      const clientId = `${randomBytes(6).toString('hex')}.apps.googleusercontent.com`;
      const clientSecret = `GOCSPX-${randomBytes(14).toString('base64url')}`;
      clients.set(clientId, clientSecret);
      return { clientId, clientSecret };
    },
    /**
     * The code Google's consent page would send to `redirectUri` after `account` clicked "Allow". Its exchange gives
     * a refresh token at the account's first consent to the client, or when `prompt` is `consent` (as Google does).
     */
    consent(options: {
      clientId: string;
      redirectUri: string;
      state: string;
      account: string;
      prompt?: string;
    }): string {
      const code = `4/${randomBytes(24).toString('base64url')}`;
      const key = `${options.clientId} ${options.account}`;
      const refresh = options.prompt === 'consent' || !granted.has(key);
      granted.add(key);
      revoked.delete(options.account);
      codes.set(code, {
        clientId: options.clientId,
        redirectUri: options.redirectUri,
        account: options.account,
        refresh,
      });
      return code;
    },
    /** The account's consent is removed: its grants answer invalid_grant, its access tokens 401. */
    revoke(account: string) {
      revoked.add(account);
    },
    /** Every access token given so far expires now (a token planner cached is refused: 401). */
    expireTokens() {
      accessTokens.clear();
    },
    /** Shares `calendarId` with `account` (creating the calendar); `none` removes the share. */
    share(calendarId: string, account: string, role: Role) {
      const { acl } = calendarOf(calendarId);
      if (role === 'none') acl.delete(account);
      else acl.set(account, role);
    },
    /**
     * The next `n` API requests answer 403 with `reason` (Google's: rateLimitExceeded, userRateLimitExceeded, or
     * quotaExceeded for the calendar's usage limits).
     */
    rateLimit(
      n: number,
      reason: 'rateLimitExceeded' | 'userRateLimitExceeded' | 'quotaExceeded' = 'rateLimitExceeded',
    ) {
      limitedLeft = n;
      limitReason = reason;
    },
    /** Every sync token given so far is no longer valid: 410 fullSyncRequired. */
    expireSyncTokens() {
      syncEpoch++;
    },
    /**
     * Holds the next request whose path starts with `pathPrefix` (and whose method is `method`, when given) until
     * `release()`, before it is answered; `arrived` resolves when it comes.
     */
    hold(pathPrefix: string, method?: string) {
      const { arrived, arrive, released, release } = heldRequest();
      holds.set(`${method ?? ''} ${pathPrefix}`, { arrive, released });
      return { arrived, release };
    },
    /** An event made in the Google Calendar app (a private appointment); returns it. */
    addEvent(calendarId: string, fields: Json): FakeEvent {
      const id = typeof fields.id === 'string' ? fields.id : randomId();
      return { ...store(calendarId, newEvent(fields, id)) };
    },
    /** An event changed in the app: `patch` merged into it. */
    editEvent(calendarId: string, id: string, patch: Json): FakeEvent {
      const held = calendars.get(calendarId)?.events.get(id);
      if (!held) throw new Error(`no event ${id}`);
      return { ...store(calendarId, { ...held.event, ...patch, sequence: Number(held.event.sequence) + 1 }) };
    },
    /** An event deleted in the app: kept as cancelled, as Google keeps it. */
    deleteEvent(calendarId: string, id: string) {
      fake.editEvent(calendarId, id, { status: 'cancelled' });
    },
    /** The events of `calendarId` that are not cancelled. */
    events(calendarId: string): FakeEvent[] {
      return [...(calendars.get(calendarId)?.events.values() ?? [])]
        .map(({ event }) => ({ ...event }))
        .filter((event) => event.status !== 'cancelled');
    },
  };

  /** The token endpoint: the three grants planner uses; RFC 6749 §5.2 errors. */
  function token(form: URLSearchParams): [number, Json] {
    const grant = form.get('grant_type');
    const give = (account: string, extra: Json = {}): [number, Json] => {
      const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
      accessTokens.set(accessToken, { account, until: Date.now() + 3599_000 });
      return [200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer', ...extra }];
    };
    const refused = (error: string, description: string): [number, Json] => [
      error === 'invalid_client' ? 401 : 400,
      { error, error_description: description },
    ];
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const [head = '', body = '', signature = ''] = (form.get('assertion') ?? '').split('.');
      let header: Json;
      let claims: Json;
      try {
        header = JSON.parse(base64url(head)) as Json;
        claims = JSON.parse(base64url(body)) as Json;
      } catch {
        return refused('invalid_grant', 'Invalid JWT.');
      }
      if (header.alg !== 'RS256') return refused('invalid_grant', 'Invalid JWT: alg.');
      const keys = serviceAccounts.get(String(claims.iss));
      const key = keys?.get(String(header.kid));
      const data = Buffer.from(`${head}.${body}`);
      if (!key || !verify('sha256', data, key, Buffer.from(signature, 'base64url')))
        return refused('invalid_grant', 'Invalid JWT Signature.');
      const now = Date.now() / 1000;
      if (claims.aud !== AUDIENCE) return refused('invalid_grant', 'Invalid JWT: aud.');
      if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.exp < now || claims.iat > now + 60)
        return refused(
          'invalid_grant',
          'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.',
        );
      if (claims.exp - claims.iat > 3600) return refused('invalid_grant', 'Invalid JWT: exp too far.');
      if (!String(claims.scope).split(' ').includes(SCOPE)) return refused('invalid_scope', 'Bad scope.');
      if (revoked.has(String(claims.iss))) return refused('invalid_grant', 'Account disabled.');
      fake.assertions.push({ header, claims });
      return give(String(claims.iss));
    }
    const clientId = form.get('client_id') ?? '';
    if (clients.get(clientId) !== form.get('client_secret')) return refused('invalid_client', 'Unauthorized');
    if (grant === 'refresh_token') {
      const held = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!held || held.clientId !== clientId || revoked.has(held.account))
        return refused('invalid_grant', 'Token has been expired or revoked.');
      return give(held.account, { scope: SCOPE });
    }
    if (grant === 'authorization_code') {
      const held = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!held || held.clientId !== clientId || held.redirectUri !== form.get('redirect_uri'))
        return refused('invalid_grant', 'Bad Request');
      const extra: Json = { scope: SCOPE };
      if (held.refresh) {
        const refreshToken = `1//${randomBytes(32).toString('base64url')}`;
        refreshTokens.set(refreshToken, { clientId, account: held.account });
        extra.refresh_token = refreshToken;
      }
      return give(held.account, extra);
    }
    return refused('unsupported_grant_type', 'Invalid grant_type.');
  }

  /** The consent page: as if the user clicked "Allow", a redirect to `redirect_uri` with the code and state. */
  function consentPage(query: URLSearchParams): [number, Json, Record<string, string>?] {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!clients.has(clientId)) return [401, { error: 'invalid_client' }];
    if (query.get('response_type') !== 'code' || !(query.get('scope') ?? '').split(' ').includes(SCOPE))
      return [400, { error: 'invalid_request' }];
    const code = fake.consent({
      clientId,
      redirectUri,
      state: query.get('state') ?? '',
      account: fake.consentAs,
      prompt: query.get('prompt') ?? undefined,
    });
    const to = new URL(redirectUri);
    to.searchParams.set('state', query.get('state') ?? '');
    to.searchParams.set('code', code);
    to.searchParams.set('scope', SCOPE);
    return [302, {}, { location: to.toString() }];
  }

  /** A sync token: the change sequence it was given at, and the epoch `expireSyncTokens` ends. */
  const syncTokenOf = (at: number) => Buffer.from(`${syncEpoch}:${at}`).toString('base64url');
  const pageTokenOf = (offset: number, at: number) => Buffer.from(`${offset}:${at}`).toString('base64url');
  const numbersOf = (token: string) => base64url(token).split(':').map(Number);

  /** events.list: a window or the changes since a sync token, in pages. */
  function list(calendarId: string, account: string, query: URLSearchParams): [number, Json] {
    for (const name of query.keys())
      if (!(GOOGLE_FAKE_SURFACE.listParams as readonly string[]).includes(name))
        return [400, apiError(400, 'invalid', `Invalid parameter: ${name}`)];
    const syncToken = query.get('syncToken');
    if (syncToken !== null && (query.has('timeMin') || query.has('timeMax')))
      return [400, apiError(400, 'invalid', 'Sync token cannot be combined with timeMin or timeMax.')];
    const asked = Number(query.get('maxResults') ?? 250);
    if (!Number.isInteger(asked) || asked < 1) return [400, apiError(400, 'invalid', 'Invalid maxResults.')];
    const maxResults = Math.min(asked, 2500, fake.maxPageSize);
    let since = -1;
    if (syncToken !== null) {
      const [epoch, at] = numbersOf(syncToken);
      if (epoch !== syncEpoch || !Number.isInteger(at))
        return [410, apiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.')];
      since = at!;
    }
    const [offset = 0, snapshot = seq] = query.has('pageToken') ? numbersOf(query.get('pageToken')!) : [0, seq];
    const timeMin = Date.parse(query.get('timeMin') ?? '');
    const timeMax = Date.parse(query.get('timeMax') ?? '');
    const showDeleted = syncToken !== null || query.get('showDeleted') === 'true';
    const all = [...calendarOf(calendarId).events.values()]
      .filter(({ seq: changed }) => changed > since && changed <= snapshot)
      .map(({ event }) => event)
      .filter((event) => showDeleted || event.status !== 'cancelled')
      // timeMin bounds an event's end, timeMax its start (events.list)
      .filter((event) => Number.isNaN(timeMin) || msOf(event.end) > timeMin)
      .filter((event) => Number.isNaN(timeMax) || msOf(event.start) < timeMax)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const items = all.slice(offset, offset + maxResults);
    const more = offset + maxResults < all.length;
    const page: Json = {
      kind: 'calendar#events',
      etag: `"p${snapshot}"`,
      summary: calendarId,
      updated: stamp(),
      timeZone: CALENDAR_ZONE,
      accessRole: calendarOf(calendarId).acl.get(account),
      defaultReminders: [],
      items,
      ...(more
        ? { nextPageToken: pageTokenOf(offset + maxResults, snapshot) }
        : { nextSyncToken: syncTokenOf(snapshot) }),
    };
    for (const name of Object.keys(page))
      if (!(GOOGLE_FAKE_SURFACE.eventsFields as readonly string[]).includes(name))
        throw new Error(`fake-google sends no field ${name} in Events (GOOGLE_FAKE_SURFACE.eventsFields)`);
    return [200, page];
  }

  /** The fields of an insert's, update's or patch's body; a field Google's Event does not take here: 400. */
  function fieldsOf(body: string): Json | [number, Json] {
    let fields: Json;
    try {
      fields = JSON.parse(body) as Json;
    } catch {
      return [400, apiError(400, 'parseError', 'Parse Error')];
    }
    for (const name of Object.keys(fields))
      if (!(GOOGLE_FAKE_SURFACE.eventFieldsAccepted as readonly string[]).includes(name))
        return [400, apiError(400, 'invalid', `Unknown field: ${name}`)];
    for (const name of ['start', 'end', 'originalStartTime'])
      for (const part of Object.keys((fields[name] ?? {}) as Json))
        if (!(GOOGLE_FAKE_SURFACE.dateTimeFields as readonly string[]).includes(part))
          return [400, apiError(400, 'invalid', `Unknown field: ${name}.${part}`)];
    return fields;
  }

  /** The Calendar API's events: ACL first, then the method. */
  function events(
    method: string,
    calendarId: string,
    eventId: string | undefined,
    query: URLSearchParams,
    headers: IncomingHttpHeaders,
    body: string,
  ): [number, Json?] {
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
    const access = accessTokens.get(bearer);
    if (!access || access.until < Date.now() || revoked.has(access.account))
      return [401, apiError(401, 'authError', 'Invalid Credentials')];
    // `primary` is the signed-in account's own calendar, whose id is the account's address; its owner may write it.
    if (calendarId === 'primary') calendarId = access.account;
    const role = calendarId === access.account ? 'writer' : calendars.get(calendarId)?.acl.get(access.account);
    if (!role) return [404, apiError(404, 'notFound', 'Not Found')];
    if (method !== 'GET' && role !== 'writer')
      return [403, apiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.')];
    if (method !== 'GET')
      for (const name of query.keys())
        if (!(GOOGLE_FAKE_SURFACE.writeParams as readonly string[]).includes(name))
          return [400, apiError(400, 'invalid', `Invalid parameter: ${name}`)];
    const calendar = calendarOf(calendarId);
    if (eventId === undefined) {
      if (method === 'GET') return list(calendarId, access.account, query);
      if (method !== 'POST') return [405];
      const fields = fieldsOf(body);
      if (Array.isArray(fields)) return fields;
      const id = typeof fields.id === 'string' ? fields.id : randomId();
      if (!/^[a-v0-9]{5,1024}$/.test(id)) return [400, apiError(400, 'invalid', 'Invalid resource id value.')];
      if (calendar.events.has(id)) return [409, apiError(409, 'duplicate', 'The requested identifier already exists.')];
      if (Number.isNaN(msOf(fields.start)) || Number.isNaN(msOf(fields.end)))
        return [400, apiError(400, 'required', 'Missing end time.')];
      return [200, store(calendarId, newEvent(fields, id))];
    }
    const held = calendar.events.get(eventId)?.event;
    if (!held) return [404, apiError(404, 'notFound', 'Not Found')];
    if (method === 'GET') return [200, held];
    const ifMatch = headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== held.etag)
      return [412, apiError(412, 'conditionNotMet', 'Precondition Failed', 'global')];
    if (method === 'DELETE') {
      if (held.status === 'cancelled') return [410, apiError(410, 'deleted', 'Resource has been deleted')];
      store(calendarId, { ...held, status: 'cancelled' });
      return [204];
    }
    const fields = fieldsOf(body);
    if (Array.isArray(fields)) return fields;
    const kept = {
      kind: held.kind,
      id: held.id,
      created: held.created,
      iCalUID: held.iCalUID,
      eventType: held.eventType,
    };
    const next =
      method === 'PUT'
        ? { ...kept, status: 'confirmed', ...fields, id: held.id }
        : method === 'PATCH'
          ? { ...held, ...fields, id: held.id }
          : undefined;
    if (!next) return [405];
    return [200, store(calendarId, { ...next, sequence: Number(held.sequence) + 1 } as FakeEvent)];
  }

  const EVENTS_PATH = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/;

  /** Answers one request: [status, JSON body, headers]; `drop`: stored, then the connection is cut. */
  function answer(request: IncomingMessage, path: string, query: URLSearchParams, body: string) {
    const method = request.method ?? 'GET';
    if (state.down) return { status: 503, json: apiError(503, 'backendError', 'Service Unavailable') };
    if (path === '/token' && method === 'POST') {
      const [status, json] = token(new URLSearchParams(body));
      return { status, json };
    }
    if (path === '/o/oauth2/v2/auth' && method === 'GET') {
      const [status, json, headers] = consentPage(query);
      return { status, json, headers };
    }
    const match = EVENTS_PATH.exec(path);
    if (!match) return { status: 404, json: apiError(404, 'notFound', 'Not Found') };
    if (limitedLeft > 0) {
      limitedLeft--;
      return { status: 403, json: apiError(403, limitReason, 'Rate Limit Exceeded', 'usageLimits') };
    }
    const calendarId = decodeURIComponent(match[1]!);
    const eventId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    const [status, json] = events(method, calendarId, eventId, query, request.headers, body);
    const wrote = status === 200 && (method === 'POST' || method === 'PUT' || method === 'PATCH');
    return { status, json, drop: wrote && fake.dropAfterWrite };
  }

  const server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const query = url.searchParams;
      fake.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(query),
        headers: request.headers,
      });
      for (const [key, held] of holds) {
        const [method, prefix = ''] = key.split(' ');
        if ((method && method !== request.method) || !url.pathname.startsWith(prefix)) continue;
        holds.delete(key);
        held.arrive();
        await held.released;
        break;
      }
      const { status, json, headers, drop } = answer(
        request,
        url.pathname,
        query,
        Buffer.concat(chunks).toString('utf8'),
      );
      if (drop) return request.socket.destroy();
      if (json === undefined || status === 204) return response.writeHead(status, headers).end();
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      response.end(JSON.stringify(json));
    });
  });
  fake.url = await listenLocal(server);
  return fake;
}

export type FakeGoogle = Awaited<ReturnType<typeof fakeGoogle>>;
