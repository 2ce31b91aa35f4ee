/**
 * The Google Calendar client (src/calendar/google.ts) over HTTP against the fake Google (fake-google.ts): tokens,
 * writes (one event per booking, 409, 412, lost answers), reads (full, by sync token, 410), rate limits, refusals,
 * the key file and the consent flow. Fixed instants throughout.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { busyTimesOf, type PlannerEvent } from '../../src/calendar/busy.ts';
import { CalendarFetchError } from '../../src/calendar/fetch.ts';
import {
  exchangeGoogleCode,
  googleClient,
  googleConsentUrl,
  googleEventId,
  readServiceAccountKey,
  referenceOfEventId,
} from '../../src/calendar/google.ts';
import {
  type ProviderAccount,
  ProviderAuthError,
  type ProviderEvent,
  type ProviderSecret,
} from '../../src/calendar/provider.ts';
import { CalendarWriteError, CHECK_SUMMARY } from '../../src/calendar/write.ts';
import { type FakeGoogle, fakeGoogle } from './fake-google.ts';

const AT = Date.UTC(2026, 2, 2, 9) / 1000; // Monday 2 March 2026, 09:00 UTC
const HOUR = 3600;
const DAY = 86_400;
const WINDOW = { from: AT - DAY, to: AT + 14 * DAY };
const ZONE = 'Europe/Berlin';

let fake: FakeGoogle;
beforeAll(async () => {
  fake = await fakeGoogle();
  process.env.PLANNER_TEST_GOOGLE_BASE = fake.url;
});

let accounts = 0;
/** A new service account with a calendar shared with it as `role`; its client and key. */
function serviceCalendar(role: 'writer' | 'reader' | 'none' = 'writer') {
  const email = `planner-${++accounts}@practice-1234.iam.gserviceaccount.com`;
  const calendarId = `cal${accounts}@group.calendar.google.com`;
  const keyFile = fake.serviceAccountKey(email);
  fake.share(calendarId, email, role);
  const secret = readServiceAccountKey(keyFile);
  const account: ProviderAccount = { provider: 'google', calendarId, secret, saveSecret: () => {} };
  return { email, calendarId, keyFile, secret, client: googleClient(account) };
}

let references = 0;
function booking(overrides: Partial<ProviderEvent> = {}): ProviderEvent {
  const reference = `A${String(++references).padStart(15, '0')}`.replace(/0/g, '7');
  return {
    reference,
    summary: 'Anna Example: Massage',
    description: 'Booked by planner',
    location: 'Room 2',
    startAt: AT,
    endAt: AT + HOUR,
    zone: ZONE,
    ...overrides,
  };
}

/** The busy times of `texts` over WINDOW, and planner's own events among them. */
function busyOf(texts: string[]) {
  const planner: PlannerEvent[] = [];
  const busy = busyTimesOf(texts, { zone: ZONE, ...WINDOW, planner });
  return { busy: busy.map(({ startAt, endAt }) => [startAt, endAt]), planner };
}

/** What a promise rejected with. */
async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('it did not fail');
}

describe('event ids', () => {
  test('planner and the hex of the reference: base32hex, 5–1024 long, and back', () => {
    const id = googleEventId('K7M2Q9XW4HZP3N8B');
    expect(id).toMatch(/^[a-v0-9]{5,1024}$/);
    expect(id).toBe(`planner${Buffer.from('k7m2q9xw4hzp3n8b').toString('hex')}`);
    expect(referenceOfEventId(id)).toBe('K7M2Q9XW4HZP3N8B');
    expect(referenceOfEventId('plannercheck0a1b')).toBeUndefined();
    expect(referenceOfEventId('abc123def456')).toBeUndefined();
  });
});

describe('tokens', () => {
  test('a service account signs an RS256 JWT the fake verifies with the key it made; the token is kept', async () => {
    const { client, email, keyFile, calendarId } = serviceCalendar();
    const before = fake.assertions.length;
    const tokenRequests = () => fake.requests.filter((r) => r.path === '/token').length;
    const asked = tokenRequests();
    await client.put(booking(), undefined);
    await client.put(booking(), undefined);
    expect(tokenRequests() - asked).toBe(1);
    const [signed] = fake.assertions.slice(before);
    expect(signed!.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: JSON.parse(keyFile).private_key_id });
    expect(signed!.claims).toMatchObject({
      iss: email,
      scope: 'https://www.googleapis.com/auth/calendar.events',
      aud: 'https://oauth2.googleapis.com/token',
    });
    const claims = signed!.claims as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(3600);
    expect(fake.events(calendarId)).toHaveLength(2);
  });

  test('an expired token is refused (401) and asked anew once', async () => {
    const { client, calendarId } = serviceCalendar();
    await client.put(booking(), undefined);
    fake.expireTokens();
    await client.put(booking(), undefined);
    expect(fake.events(calendarId)).toHaveLength(2);
  });

  test('a revoked service account: ProviderAuthError naming the account and what to do, no secret in it', async () => {
    const { client, email, secret } = serviceCalendar();
    await client.put(booking(), undefined);
    fake.revoke(email);
    const error = await failureOf(client.put(booking(), undefined));
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error.message).toBe(
      `Google refused planner's key for ${email} (invalid_grant): the key was deleted or disabled, or its service account was; create a new JSON key for it in the Google Cloud console, then reconnect the calendar (planner calendar reconnect)`,
    );
    expect((error as ProviderAuthError).answered).toBe(true);
    expect(error.message).not.toContain((secret as { privateKeyId: string }).privateKeyId);
  });

  test('a deleted key: ProviderAuthError', async () => {
    const { client, email, keyFile } = serviceCalendar();
    fake.deleteKey(email, JSON.parse(keyFile).private_key_id);
    const error = await failureOf(client.read(undefined, WINDOW));
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error.message).toMatch(/^Google refused planner's key for .* \(invalid_grant\): the key was deleted/);
  });

  test('a calendar not shared, or shared without "Make changes to events": ProviderAuthError', async () => {
    const unshared = serviceCalendar('none');
    const error = await failureOf(unshared.client.put(booking(), undefined));
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error.message).toBe(
      `the calendar ${unshared.calendarId} is not shared with ${unshared.email} with "Make changes to events" (HTTP 404 notFound): share it so in Google Calendar's settings, then reconnect the calendar`,
    );
    expect(await failureOf(unshared.client.read(undefined, WINDOW))).toBeInstanceOf(ProviderAuthError);
    const reader = serviceCalendar('reader');
    const refused = await failureOf(reader.client.put(booking(), undefined));
    expect(refused).toBeInstanceOf(ProviderAuthError);
    expect(refused.message).toContain('(HTTP 403 requiredAccessLevel)');
    expect(await failureOf(reader.client.checkWritable(new Date(AT * 1000), ZONE))).toBeInstanceOf(ProviderAuthError);
    expect((await reader.client.read(undefined, WINDOW)).unchanged).toBe(false);
  });
});

describe('put and remove', () => {
  test('a create writes one event at the derived id: nobody invited, busy, in the zone', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    const written = await client.put(event, undefined);
    expect(written.overwritten).toBe(false);
    expect(written.ref.id).toBe(googleEventId(event.reference));
    const [held] = fake.events(calendarId);
    expect(written.ref.etag).toBe(held!.etag);
    expect(held).toMatchObject({
      id: googleEventId(event.reference),
      summary: event.summary,
      description: event.description,
      location: 'Room 2',
      start: { dateTime: '2026-03-02T10:00:00+01:00', timeZone: ZONE }, // Google answers in the zone
      end: { dateTime: '2026-03-02T11:00:00+01:00', timeZone: ZONE },
      status: 'confirmed',
      transparency: 'opaque',
    });
    expect(held).not.toHaveProperty('attendees');
    const insert = fake.requests.findLast((r) => r.method === 'POST' && r.path.endsWith('/events'));
    expect(insert!.query).toEqual({ sendUpdates: 'none' });
  });

  test('a create whose answer was lost, retried, makes exactly one event (409, held as written: not overwritten)', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    fake.dropAfterWrite = true;
    const lost = await failureOf(client.put(event, undefined));
    fake.dropAfterWrite = false;
    expect(lost).toBeInstanceOf(CalendarWriteError);
    expect((lost as CalendarWriteError).answered).toBe(false);
    const written = await client.put(event, undefined);
    expect(written).toEqual({
      ref: { id: googleEventId(event.reference), etag: expect.any(String) },
      overwritten: false,
    });
    expect(fake.events(calendarId)).toHaveLength(1);
  });

  test('a create that meets an event changed in the app (409): written over, and what it held found', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    await client.put(event, undefined);
    fake.editEvent(calendarId, googleEventId(event.reference), {
      start: { dateTime: '2026-03-02T11:00:00+01:00' },
      end: { dateTime: '2026-03-02T12:00:00+01:00' },
    });
    const written = await client.put(event, undefined); // planner forgot its ref (a crash before it was stored)
    expect(written.overwritten).toBe(true);
    const { planner } = busyOf([written.found!]);
    expect(planner).toEqual([expect.objectContaining({ reference: event.reference, startAt: AT + HOUR })]);
    expect(fake.events(calendarId)[0]!.start).toEqual({ dateTime: '2026-03-02T10:00:00+01:00', timeZone: ZONE });
  });

  test('a create that meets an event deleted earlier (kept cancelled, 409): made confirmed again, nothing found', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    await client.put(event, undefined);
    fake.deleteEvent(calendarId, googleEventId(event.reference));
    expect(fake.events(calendarId)).toHaveLength(0);
    const written = await client.put(event, undefined);
    expect(written.overwritten).toBe(true);
    expect(written.found).toBeUndefined();
    expect(fake.events(calendarId)).toHaveLength(1);
  });

  test('a change over an event moved in the app (412): read, written again, overwritten with what it held', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    const first = await client.put(event, undefined);
    const unchanged = await client.put({ ...event, summary: 'Anna Example: Long massage' }, first.ref);
    expect(unchanged.overwritten).toBe(false);
    fake.editEvent(calendarId, first.ref.id, {
      start: { dateTime: '2026-03-03T09:00:00Z' },
      end: { dateTime: '2026-03-03T10:30:00Z' },
    });
    const written = await client.put({ ...event, endAt: AT + 2 * HOUR }, unchanged.ref);
    expect(written.overwritten).toBe(true);
    expect(busyOf([written.found!]).planner).toEqual([
      expect.objectContaining({ reference: event.reference, startAt: AT + DAY, endAt: AT + DAY + 1.5 * HOUR }),
    ]);
    const [held] = fake.events(calendarId);
    expect(held).toMatchObject({ end: { dateTime: '2026-03-02T12:00:00+01:00' }, etag: written.ref.etag });
    const ifMatch = fake.requests.filter((r) => r.method === 'PUT').map((r) => r.headers['if-match']);
    expect(ifMatch.slice(-2)).toEqual([unchanged.ref.etag, expect.any(String)]);
  });

  test('an event changed in the app between planner reading and writing it (409, then 412): read again', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    const id = googleEventId(event.reference);
    await client.put(event, undefined);
    const held = fake.hold(`/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events/${id}`, 'PUT');
    const writing = client.put(event, undefined);
    await held.arrived;
    fake.editEvent(calendarId, id, { summary: 'Moved by the practitioner', location: 'Room 9' });
    held.release();
    const written = await writing;
    expect(written.overwritten).toBe(true);
    expect(busyOf([written.found!]).planner).toEqual([expect.objectContaining({ reference: event.reference })]);
    expect(fake.events(calendarId)).toEqual([expect.objectContaining({ summary: event.summary, location: 'Room 2' })]);
    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(id)).slice(-2);
    // the first PUT carried the ETag read before the edit (412), the second the one read after it
    expect(puts[0]!.headers['if-match']).toEqual(expect.any(String));
    expect(puts[1]!.headers['if-match']).not.toBe(puts[0]!.headers['if-match']);
  });

  test('a change of an event that is not there (404): made again, overwritten, nothing found', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    const written = await client.put(event, { id: googleEventId(event.reference), etag: '"1"' });
    expect(written).toMatchObject({ overwritten: true });
    expect(written.found).toBeUndefined();
    expect(fake.events(calendarId)).toHaveLength(1);
  });

  test('remove twice, and remove of one never made: no error', async () => {
    const { client, calendarId } = serviceCalendar();
    const event = booking();
    const { ref } = await client.put(event, undefined);
    await client.remove(event.reference, ref);
    await client.remove(event.reference, ref);
    await client.remove(booking().reference, undefined);
    expect(fake.events(calendarId)).toHaveLength(0);
    const deletes = fake.requests.filter((r) => r.method === 'DELETE').slice(-3);
    expect(deletes.map((r) => r.path.split('/').at(-1))).toEqual([ref.id, ref.id, expect.stringMatching(/^planner/)]);
  });

  test('checkWritable deletes its test event after an insert whose answer was lost, and fails as that', async () => {
    const { client, calendarId } = serviceCalendar();
    fake.dropAfterWrite = true;
    const error = await failureOf(client.checkWritable(new Date(AT * 1000), ZONE));
    fake.dropAfterWrite = false;
    expect(error).toBeInstanceOf(CalendarWriteError);
    expect((error as CalendarWriteError).answered).toBe(false);
    expect((error as CalendarWriteError).leftCheckEvent).toBe(false);
    expect(fake.events(calendarId)).toHaveLength(0);
  });

  test('checkWritable writes a free event of its own and deletes it', async () => {
    const { client, calendarId } = serviceCalendar();
    await client.checkWritable(new Date(AT * 1000), ZONE);
    expect(fake.events(calendarId)).toHaveLength(0);
    const insert = fake.requests.findLast((r) => r.method === 'POST' && r.path.endsWith('/events'));
    expect(insert).toBeDefined();
    const deleted = fake.requests.findLast((r) => r.method === 'DELETE');
    expect(deleted!.path).toMatch(/\/events\/plannercheck[0-9a-f]{16}$/);
    expect(CHECK_SUMMARY).toBe('planner checks that it may write here');
  });
});

describe('rate limits', () => {
  test('two limited answers are waited out (0.5 s, 1 s); more fail as one line, answered', async () => {
    const { client, calendarId } = serviceCalendar();
    await client.put(booking(), undefined); // the token first: the limit is the API's
    fake.rateLimit(2);
    await client.put(booking(), undefined);
    expect(fake.events(calendarId)).toHaveLength(2);
    fake.rateLimit(10);
    const error = await failureOf(client.put(booking(), undefined));
    fake.rateLimit(0);
    expect(error).toBeInstanceOf(CalendarWriteError);
    expect(error).not.toBeInstanceOf(ProviderAuthError);
    expect((error as CalendarWriteError).answered).toBe(true);
    expect(error.message).toBe(
      `${new URL(fake.url).host} is limiting planner's requests (HTTP 403 rateLimitExceeded); it is tried again later`,
    );
  }, 15_000);

  test("the calendar's usage limits (403 quotaExceeded): a line at once, not a refusal", async () => {
    const { client } = serviceCalendar();
    await client.put(booking(), undefined);
    fake.rateLimit(1, 'quotaExceeded');
    const error = await failureOf(client.put(booking(), undefined));
    expect(error).toBeInstanceOf(CalendarWriteError);
    expect(error).not.toBeInstanceOf(ProviderAuthError);
    expect(error.message).toBe(
      `${new URL(fake.url).host} is limiting planner's requests (HTTP 403 quotaExceeded); it is tried again later`,
    );
  });

  test('an outage (503) fails a read as a CalendarFetchError line after the back-off', async () => {
    const { client } = serviceCalendar();
    fake.state.down = true;
    const error = await failureOf(client.read(undefined, WINDOW));
    fake.state.down = false;
    expect(error).toBeInstanceOf(CalendarFetchError);
    expect(error.message).toBe(`${new URL(fake.url).host} is unavailable (HTTP 503); it is tried again later`);
  }, 15_000);
});

describe('read', () => {
  test('full, then unchanged, then the changes of the app, then 410: a full read again', async () => {
    const { client, calendarId } = serviceCalendar();
    const own = booking();
    await client.put(own, undefined);
    const dentist = fake.addEvent(calendarId, {
      summary: 'Dentist',
      start: { dateTime: '2026-03-03T08:00:00+01:00', timeZone: ZONE },
      end: { dateTime: '2026-03-03T09:00:00+01:00', timeZone: ZONE },
    });
    fake.addEvent(calendarId, {
      summary: 'Far away',
      start: { dateTime: '2026-06-01T08:00:00Z' },
      end: { dateTime: '2026-06-01T09:00:00Z' },
    });
    const full = await client.read(undefined, WINDOW);
    if (full.unchanged) throw new Error('a full read is never unchanged');
    const first = busyOf(full.texts);
    expect(first.busy).toEqual([[AT + DAY - 2 * HOUR, AT + DAY - HOUR]]);
    expect(first.planner).toEqual([expect.objectContaining({ reference: own.reference, startAt: AT })]);
    expect(full.texts.join('')).toContain(`UID:${own.reference}@planner`);
    const listed = fake.requests.findLast((r) => r.path.endsWith('/events') && r.method === 'GET');
    expect(listed!.query).toMatchObject({ singleEvents: 'true', maxResults: '2500', timeMin: expect.any(String) });

    const same = await client.read(full.state, WINDOW);
    expect(same.unchanged).toBe(true);
    const incremental = fake.requests.findLast((r) => r.path.endsWith('/events') && r.method === 'GET');
    expect(Object.keys(incremental!.query).sort()).toEqual(['maxResults', 'singleEvents', 'syncToken']);

    fake.addEvent(calendarId, {
      summary: 'Lunch',
      start: { dateTime: '2026-03-04T12:00:00Z' },
      end: { dateTime: '2026-03-04T13:00:00Z' },
    });
    fake.editEvent(calendarId, dentist.id, {
      start: { dateTime: '2026-03-05T08:00:00Z' },
      end: { dateTime: '2026-03-05T08:30:00Z' },
    });
    const changed = await client.read(same.state, WINDOW);
    if (changed.unchanged) throw new Error('changed');
    expect(busyOf(changed.texts).busy).toEqual([
      [AT + 2 * DAY + 3 * HOUR, AT + 2 * DAY + 4 * HOUR],
      [AT + 3 * DAY - HOUR, AT + 3 * DAY - HOUR / 2],
    ]);
    fake.deleteEvent(calendarId, dentist.id);
    const deleted = await client.read(changed.state, WINDOW);
    if (deleted.unchanged) throw new Error('changed');
    expect(busyOf(deleted.texts).busy).toEqual([[AT + 2 * DAY + 3 * HOUR, AT + 2 * DAY + 4 * HOUR]]);
    expect(busyOf(deleted.texts).planner).toHaveLength(1);

    fake.expireSyncTokens();
    const again = await client.read(deleted.state, WINDOW);
    if (again.unchanged) throw new Error('a full read is never unchanged');
    expect(again.texts).toEqual(deleted.texts);
    const lists = fake.requests.filter((r) => r.path.endsWith('/events') && r.method === 'GET').slice(-2);
    expect(lists.map((r) => r.query.syncToken !== undefined)).toEqual([true, false]);
  });

  test('a window beyond the one the full read listed reads in full again', async () => {
    const { client } = serviceCalendar();
    const full = await client.read(undefined, WINDOW);
    const later = await client.read(full.state, { from: WINDOW.from + 30 * DAY, to: WINDOW.to + 30 * DAY });
    expect(later.unchanged).toBe(false);
    const list = fake.requests.findLast((r) => r.path.endsWith('/events') && r.method === 'GET');
    expect(list!.query.syncToken).toBeUndefined();
  });

  test('all-day events as dates, free and working-location events transparent, instances distinct', async () => {
    const { client, calendarId } = serviceCalendar();
    fake.addEvent(calendarId, { summary: 'Holiday', start: { date: '2026-03-04' }, end: { date: '2026-03-05' } });
    fake.addEvent(calendarId, {
      summary: 'Free',
      transparency: 'transparent',
      start: { dateTime: '2026-03-02T14:00:00Z' },
      end: { dateTime: '2026-03-02T15:00:00Z' },
    });
    fake.addEvent(calendarId, {
      summary: 'Office',
      eventType: 'workingLocation',
      start: { date: '2026-03-03' },
      end: { date: '2026-03-04' },
    });
    for (const day of ['2026-03-09', '2026-03-10'])
      fake.addEvent(calendarId, {
        summary: 'Weekly',
        recurringEventId: 'weekly0001',
        originalStartTime: { dateTime: `${day}T07:00:00Z` },
        start: { dateTime: `${day}T07:00:00Z` },
        end: { dateTime: `${day}T08:00:00Z` },
      });
    const read = await client.read(undefined, WINDOW);
    if (read.unchanged) throw new Error('full');
    const all = read.texts.join('\n');
    expect(all).toContain('DTSTART;VALUE=DATE:20260304');
    expect(all.match(/TRANSP:TRANSPARENT/g)).toHaveLength(2);
    expect(all).toContain('UID:weekly0001@google.com/20260309T070000Z');
    const holiday = Date.UTC(2026, 2, 3, 23) / 1000; // 4 March in Berlin
    expect(busyOf(read.texts).busy).toEqual([
      [holiday, holiday + DAY],
      [Date.UTC(2026, 2, 9, 7) / 1000, Date.UTC(2026, 2, 9, 8) / 1000],
      [Date.UTC(2026, 2, 10, 7) / 1000, Date.UTC(2026, 2, 10, 8) / 1000],
    ]);
  });

  test('a full read follows the pages (more than 2,500 events)', async () => {
    const { client, calendarId } = serviceCalendar();
    for (let i = 0; i < 2600; i++)
      fake.addEvent(calendarId, {
        summary: `e${i}`,
        start: { dateTime: new Date((AT + i * 60) * 1000).toISOString() },
        end: { dateTime: new Date((AT + i * 60 + 30) * 1000).toISOString() },
      });
    const read = await client.read(undefined, WINDOW);
    if (read.unchanged) throw new Error('full');
    expect(read.texts).toHaveLength(2600);
    const lists = fake.requests.filter(
      (r) => r.path === `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`,
    );
    expect(lists.map((r) => r.query.pageToken !== undefined)).toEqual([false, true]);
  });
  test('more than 20 pages: a CalendarFetchError line', async () => {
    const { client, calendarId } = serviceCalendar();
    for (let i = 0; i < 21; i++)
      fake.addEvent(calendarId, {
        start: { dateTime: new Date((AT + i * HOUR) * 1000).toISOString() },
        end: { dateTime: new Date((AT + i * HOUR + 60) * 1000).toISOString() },
      });
    fake.maxPageSize = 1;
    const error = await failureOf(client.read(undefined, WINDOW));
    fake.maxPageSize = 2500;
    expect(error).toBeInstanceOf(CalendarFetchError);
    expect(error.message).toBe(
      `${new URL(fake.url).host} answered more than 20 pages of events: planner reads at most that many`,
    );
  });
});

describe('an account that consented through the web flow', () => {
  test('the consent URL, the code exchanged, and the calendar written with the refresh token', async () => {
    const { clientId, clientSecret } = fake.oauthClient();
    const redirectUri = 'https://planner.example.com/calendar/google/back';
    const url = new URL(googleConsentUrl({ clientId, redirectUri, state: 'xyz' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/calendar.events',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: 'xyz',
    });
    fake.consentAs = 'dr.berg@example.com';
    const back = await fetch(url, { redirect: 'manual' });
    const location = new URL(back.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('xyz');
    const secret = await exchangeGoogleCode({
      clientId,
      clientSecret,
      code: location.searchParams.get('code')!,
      redirectUri,
    });
    expect(secret).toMatchObject({ type: 'google-oauth', clientId, clientSecret, refreshToken: expect.any(String) });
    // `primary` is the account's own calendar: its id is the account's address.
    const client = googleClient({ provider: 'google', calendarId: 'primary', secret, saveSecret: () => {} });
    await client.put(booking(), undefined);
    expect(fake.events('dr.berg@example.com')).toHaveLength(1);

    const used = await failureOf(
      exchangeGoogleCode({ clientId, clientSecret, code: location.searchParams.get('code')!, redirectUri }),
    );
    expect(used.message).toMatch(/refused the consent's code \(HTTP 400 invalid_grant\)/);
    const second = fake.consent({ clientId, redirectUri, state: 's', account: 'dr.berg@example.com' });
    const none = await failureOf(exchangeGoogleCode({ clientId, clientSecret, code: second, redirectUri }));
    expect(none.message).toBe(
      "Google gave no refresh token (it gives one at the first consent only): remove planner's access at https://myaccount.google.com/permissions and connect again",
    );

    fake.revoke('dr.berg@example.com');
    const revoked = await failureOf(client.put(booking(), undefined));
    expect(revoked).toBeInstanceOf(ProviderAuthError);
    expect(revoked.message).toContain("Google refused planner's access to the Google account (invalid_grant)");
    expect(revoked.message).not.toContain((secret as { refreshToken: string }).refreshToken);
    expect(revoked.message).not.toContain(clientSecret);
  });
});

describe('readServiceAccountKey', () => {
  const NOT_A_KEY =
    'that is not a Google service account key file: create a JSON key for the service account in the Google Cloud console (IAM → Service accounts → Keys)';
  test.each([
    ['not JSON', 'hello', `${NOT_A_KEY} (it is not JSON)`],
    ['another JSON', '{"type":"authorized_user"}', NOT_A_KEY],
    ['no email', '{"type":"service_account","private_key":"x"}', `${NOT_A_KEY} (it has no client_email)`],
    [
      'no key',
      '{"type":"service_account","client_email":"a@b.iam.gserviceaccount.com"}',
      `${NOT_A_KEY} (it has no private_key)`,
    ],
    [
      'a key that does not load',
      '{"type":"service_account","client_email":"a@b.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----\\n"}',
      'the key file of a@b.iam.gserviceaccount.com holds a private_key that does not load: download a new JSON key for it in the Google Cloud console (IAM → Service accounts → Keys)',
    ],
  ])('%s', (_name, text, line) => {
    expect(() => readServiceAccountKey(text)).toThrow(line);
  });

  test('a key file as Google writes it', () => {
    const text = fake.serviceAccountKey('reader@practice-1234.iam.gserviceaccount.com');
    const secret: ProviderSecret = readServiceAccountKey(text);
    expect(secret).toEqual({
      type: 'google-service-account',
      clientEmail: 'reader@practice-1234.iam.gserviceaccount.com',
      privateKey: JSON.parse(text).private_key,
      privateKeyId: JSON.parse(text).private_key_id,
    });
  });
});
