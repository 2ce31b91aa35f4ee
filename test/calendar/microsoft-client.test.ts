/**
 * The Microsoft client (calendar/microsoft.ts) against the fake identity platform and Graph (fake-microsoft.ts) over
 * HTTP: the device-code sign-in, rotating refresh tokens, writes that a retry never copies, 412 and 404 after edits
 * in Outlook, lost creates removed, throttling, revoked consent, and reads (delta, incremental, whole, 410) read
 * back through busy.ts. Fixed instants in March 2030; no sleeps (the sign-in's waits are a test's function).
 */
import { describe, expect, it } from 'vitest';
import { busyTimesOf, type PlannerEvent } from '../../src/calendar/busy.ts';
import { CalendarFetchError } from '../../src/calendar/fetch.ts';
import { finishDeviceLogin, MICROSOFT_SCOPE, microsoftClient, startDeviceLogin } from '../../src/calendar/microsoft.ts';
import { PLANNER_PROPERTY_ID } from '../../src/calendar/microsoft-events.ts';
import {
  type MicrosoftDevice,
  ProviderAuthError,
  type ProviderEvent,
  type ProviderState,
} from '../../src/calendar/provider.ts';
import { CalendarWriteError } from '../../src/calendar/write.ts';
import { fakeMicrosoft } from './fake-microsoft.ts';

const fake = await fakeMicrosoft();
process.env.PLANNER_TEST_MICROSOFT_BASE = fake.url;
const CLIENT_ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
fake.registerApp(CLIENT_ID, { publicClient: true });
const app = { clientId: CLIENT_ID, tenant: 'common' };

const at = (iso: string) => Date.parse(iso) / 1000;
const WINDOW = { from: at('2030-03-01T00:00:00Z'), to: at('2030-04-01T00:00:00Z') };
const ZONE = 'Europe/Berlin';

let accounts = 0;
/** A connected calendar of a new account: its client, the secrets it saved, the secret it began with. */
function connect(calendarId = '') {
  const name = `practitioner${++accounts}@contoso.example`;
  const secret: MicrosoftDevice = {
    type: 'microsoft-device',
    clientId: CLIENT_ID,
    tenant: 'common',
    refreshToken: fake.signIn(CLIENT_ID, name),
    account: name,
  };
  const saved: MicrosoftDevice[] = [];
  const account = {
    provider: 'microsoft' as const,
    calendarId: calendarId === 'own' ? fake.calendarId(name) : calendarId,
    secret,
    saveSecret: (next: unknown) => saved.push(next as MicrosoftDevice),
  };
  return { name, secret, saved, client: microsoftClient(account), account };
}

const booking = (reference: string, overrides: Partial<ProviderEvent> = {}): ProviderEvent => ({
  reference,
  summary: 'Consultation: Ada Lovelace',
  description: 'Booked through planner.\nReference ' + reference,
  location: 'Room 2',
  startAt: at('2030-03-04T09:00:00Z'),
  endAt: at('2030-03-04T09:30:00Z'),
  zone: ZONE,
  ...overrides,
});

const requestsSince = (mark: number) => fake.requests.slice(mark);
const busyOf = (texts: string[], planner?: PlannerEvent[]) =>
  busyTimesOf(texts, { zone: ZONE, ...WINDOW, ...(planner ? { planner } : {}) }).map((span) => [
    new Date(span.startAt * 1000).toISOString(),
    new Date(span.endAt * 1000).toISOString(),
  ]);
const utc = (iso: string) => ({ dateTime: iso, timeZone: 'UTC' });

describe('device-code sign-in', () => {
  it('pending, then approved: the secret and the account; the waits are the interval Microsoft gave', async () => {
    const mark = fake.requests.length;
    const login = await startDeviceLogin(app);
    expect(login.message).toContain(login.userCode);
    expect(login.verificationUri).toBe('https://microsoft.com/devicelogin');
    expect(login.intervalSeconds).toBe(5);
    const waits: number[] = [];
    const done = await finishDeviceLogin(login, app, {
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) fake.approve(login.userCode, 'ada@contoso.example');
      },
    });
    expect(done.account).toBe('ada@contoso.example');
    expect(done.secret).toMatchObject({ type: 'microsoft-device', clientId: CLIENT_ID, tenant: 'common' });
    expect(done.secret.refreshToken).toMatch(/^rt-/);
    expect(waits).toEqual([5000, 5000]);
    const sent = requestsSince(mark);
    expect(sent[0]).toMatchObject({ path: '/common/oauth2/v2.0/devicecode', form: { scope: MICROSOFT_SCOPE } });
    expect(sent.slice(1).map((request) => request.form?.grant_type)).toEqual(
      Array(3).fill('urn:ietf:params:oauth:grant-type:device_code'),
    );
  });

  it('slow_down: the interval grows by 5 s', async () => {
    const login = await startDeviceLogin(app);
    fake.slowDown();
    const waits: number[] = [];
    await finishDeviceLogin(login, app, {
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) fake.approve(login.userCode, 'ada@contoso.example');
      },
    });
    expect(waits).toEqual([10_000, 10_000]);
  });

  it('declined, expired at Microsoft, expired before the next poll: one line each saying what to do', async () => {
    const declined = await startDeviceLogin(app);
    await expect(
      finishDeviceLogin(declined, app, { sleep: async () => fake.decline(declined.userCode) }),
    ).rejects.toThrow(/^The sign-in was declined at Microsoft \(authorization_declined\): run the command again/);
    const expired = await startDeviceLogin(app);
    await expect(finishDeviceLogin(expired, app, { sleep: async () => fake.expire(expired.userCode) })).rejects.toThrow(
      /^The code expired before the sign-in was finished \(expired_token\): run the command again/,
    );
    fake.deviceCodeSeconds = 3; // shorter than the interval: no poll after the first
    const short = await startDeviceLogin(app);
    fake.deviceCodeSeconds = 900;
    const waits: number[] = [];
    await expect(finishDeviceLogin(short, app, { sleep: async (ms) => void waits.push(ms) })).rejects.toThrow(
      /expired_token/,
    );
    expect(waits).toEqual([]);
  });

  it('an app registration without public client flows: the line says to allow them', async () => {
    fake.registerApp('confidential-app', { publicClient: false });
    const other = { clientId: 'confidential-app', tenant: 'organizations' };
    const login = await startDeviceLogin(other);
    const error = await finishDeviceLogin(login, other, { sleep: async () => {} }).catch((caught: Error) => caught);
    expect(String(error)).toMatch(/invalid_client AADSTS7000218.*allow public client flows in the app registration/);
    await expect(startDeviceLogin({ clientId: 'unknown-app', tenant: 'common' })).rejects.toThrow(
      /unauthorized_client AADSTS700016/,
    );
  });

  it('cancelled through the signal while it waits (the real timer)', async () => {
    const login = await startDeviceLogin(app);
    const controller = new AbortController();
    const held = fake.hold('/common/oauth2/v2.0/token');
    const finishing = finishDeviceLogin(login, app, { signal: controller.signal });
    await held.arrived;
    held.release();
    controller.abort();
    await expect(finishing).rejects.toThrow(/cancelled/);
  });
});

describe('tokens', () => {
  it('the refresh token is renewed and saved on every use; the old one is not used again; the access token is kept', async () => {
    const { client, secret, saved, account } = connect();
    const mark = fake.refreshTokensUsed.length;
    const first = await client.put(booking('TOKENSA234567890'), undefined);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.refreshToken).not.toBe(secret.refreshToken);
    expect(saved[0]!.account).toBe(secret.account);
    await client.put(booking('TOKENSA234567890', { summary: 'moved' }), first.ref);
    expect(saved).toHaveLength(1); // the access token was kept: no second refresh
    fake.expireAccessTokens();
    await client.remove('TOKENSA234567890', first.ref);
    expect(saved).toHaveLength(2);
    expect(fake.refreshTokensUsed.slice(mark)).toEqual([secret.refreshToken, saved[0]!.refreshToken]);
    // A client made again with the first secret (the caller had not reloaded it) uses the newest of its chain.
    fake.expireAccessTokens();
    const again = microsoftClient({ ...account, saveSecret: (next) => saved.push(next as MicrosoftDevice) });
    await again.read(undefined, WINDOW);
    expect(fake.refreshTokensUsed.slice(mark)).toEqual([
      secret.refreshToken,
      saved[0]!.refreshToken,
      saved[1]!.refreshToken,
    ]);
    expect(saved).toHaveLength(3);
  });

  it('revoked, or expired from inactivity: ProviderAuthError naming the account and the code, never a token', async () => {
    const { client, name } = connect();
    await client.read(undefined, WINDOW);
    fake.revoke(name);
    const error = await client.put(booking('REVOKEDA34567890'), undefined).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as ProviderAuthError).answered).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`^Microsoft refused planner's sign-in for ${name} \\(invalid_grant AADSTS50173\\): .*reconnect`),
    );
    expect((error as Error).message).not.toMatch(/rt-|at-|Bearer/);
    const other = connect();
    fake.expireSignIn(other.name);
    await expect(other.client.read(undefined, WINDOW)).rejects.toThrow(/invalid_grant AADSTS700082/);
  });
});

describe('refusals', () => {
  it('Graph refuses a fresh token (401), or the calendar (403 ErrorAccessDenied): ProviderAuthError', async () => {
    const refused = connect();
    fake.refuseAccessTokens(refused.name);
    const error = await refused.client.put(booking('REFUSEDA34567890'), undefined).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Microsoft Graph refused planner's access to the calendar of ${refused.name} \\(HTTP 401 InvalidAuthenticationToken\\): connect the calendar again`,
      ),
    );
    const denied = connect();
    fake.denyAccess(denied.name);
    const read = await denied.client.read(undefined, WINDOW).catch((caught: Error) => caught);
    expect(read).toBeInstanceOf(ProviderAuthError);
    expect((read as Error).message).toMatch(/\(HTTP 403 ErrorAccessDenied\)/);
  });

  it('a redirect is not followed: one line', async () => {
    const { client, name } = connect();
    fake.redirectNext('https://elsewhere.example/v1.0/me/calendar/events');
    const error = await client.put(booking('REDIRECT34567890'), undefined).catch((caught: Error) => caught);
    expect((error as CalendarWriteError).answered).toBe(true);
    expect((error as Error).message).toMatch(/redirected planner \(HTTP 302\): planner follows no redirect/);
    expect(fake.events(name)).toEqual([]);
  });
});

describe('writes', () => {
  it('put creates one event as planner writes it: transactionId, the extended property, UTC times, no attendees', async () => {
    const { client, name } = connect();
    const mark = fake.requests.length;
    const written = await client.put(booking('CREATEA234567890'), undefined);
    expect(written.overwritten).toBe(false);
    const [event, ...more] = fake.events(name);
    expect(more).toEqual([]);
    expect(written.ref).toEqual({ id: event!.id, etag: `W/"${event!.changeKey}"` });
    expect(event).toMatchObject({
      subject: 'Consultation: Ada Lovelace',
      body: { contentType: 'text', content: booking('CREATEA234567890').description },
      location: { displayName: 'Room 2' },
      start: { dateTime: '2030-03-04T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-03-04T09:30:00', timeZone: 'UTC' },
      showAs: 'busy',
      isReminderOn: false,
      transactionId: 'planner-CREATEA234567890',
      singleValueExtendedProperties: [{ id: PLANNER_PROPERTY_ID, value: 'CREATEA234567890' }],
    });
    expect(event).not.toHaveProperty('attendees');
    const post = requestsSince(mark).find((request) => request.method === 'POST' && request.path.startsWith('/v1.0'));
    expect(post).toMatchObject({ path: '/v1.0/me/calendar/events' });
    expect(post!.headers.prefer).toContain('outlook.timezone="UTC"');
  });

  it('a create whose answer was lost, tried again: exactly one event (transactionId); edited meanwhile: written over', async () => {
    const { client, name } = connect();
    fake.dropAfterWrite = true;
    const lost = await client.put(booking('LOSTAAA234567890'), undefined).catch((caught: Error) => caught);
    fake.dropAfterWrite = false;
    expect(lost).toBeInstanceOf(CalendarWriteError);
    expect((lost as CalendarWriteError).answered).toBe(false);
    const again = await client.put(booking('LOSTAAA234567890'), undefined);
    expect(again.overwritten).toBe(false);
    expect(fake.events(name).map((event) => event.id)).toEqual([again.ref.id]);

    fake.dropAfterWrite = true;
    await client.put(booking('LOSTBBB234567890'), undefined).catch(() => {});
    fake.dropAfterWrite = false;
    const made = fake.events(name).find((event) => event.transactionId === 'planner-LOSTBBB234567890')!;
    fake.editEvent(name, made.id, { start: utc('2030-03-04T11:00:00'), end: utc('2030-03-04T12:00:00') });
    const over = await client.put(booking('LOSTBBB234567890'), undefined);
    expect(over.overwritten).toBe(true);
    expect(over.found).toContain('DTSTART:20300304T110000Z');
    expect(fake.events(name)).toHaveLength(2);
    expect(fake.events(name).find((event) => event.id === made.id)!.start.dateTime).toBe('2030-03-04T09:00:00');
  });

  it('edited in Outlook (412): read, written over, found as it was; deleted in Outlook (404): created again', async () => {
    const { client, name } = connect();
    const first = await client.put(booking('EDITEDA234567890'), undefined);
    fake.editEvent(name, first.ref.id, { start: utc('2030-03-05T14:00:00'), end: utc('2030-03-05T15:00:00') });
    const moved = booking('EDITEDA234567890', {
      startAt: at('2030-03-06T08:00:00Z'),
      endAt: at('2030-03-06T08:45:00Z'),
    });
    const written = await client.put(moved, first.ref);
    expect(written.overwritten).toBe(true);
    expect(written.found).toContain('UID:EDITEDA234567890@planner');
    expect(written.found).toContain('DTSTART:20300305T140000Z');
    expect(written.ref.id).toBe(first.ref.id);
    expect(written.ref.etag).not.toBe(first.ref.etag);
    const [event] = fake.events(name);
    expect(event!.start.dateTime).toBe('2030-03-06T08:00:00');
    expect(written.ref.etag).toBe(`W/"${event!.changeKey}"`);

    fake.deleteEvent(name, first.ref.id);
    const again = await client.put(moved, written.ref);
    expect(again.overwritten).toBe(true);
    expect(again.found).toBeUndefined();
    expect(fake.events(name).map((each) => each.id)).toEqual([again.ref.id]);
  });

  it('remove with its ref, again (404: no error), and without one after a lost create (found by its property)', async () => {
    const { client, name } = connect();
    const written = await client.put(booking('REMOVEA234567890'), undefined);
    await client.remove('REMOVEA234567890', written.ref);
    expect(fake.events(name)).toEqual([]);
    await client.remove('REMOVEA234567890', written.ref);
    fake.dropAfterWrite = true;
    await client.put(booking('REMOVEB234567890'), undefined).catch(() => {});
    fake.dropAfterWrite = false;
    expect(fake.events(name)).toHaveLength(1);
    const mark = fake.requests.length;
    await client.remove('REMOVEB234567890', undefined);
    expect(fake.events(name)).toEqual([]);
    const search = requestsSince(mark).find((request) => request.method === 'GET')!;
    expect(search.query.$filter).toBe(
      `singleValueExtendedProperties/Any(ep: ep/id eq '${PLANNER_PROPERTY_ID}' and ep/value eq 'REMOVEB234567890')`,
    );
  });

  it('throttled with Retry-After: waited, then done; longer than the deadline, or more than 3 times: one line', async () => {
    const { client, name } = connect();
    await client.read(undefined, WINDOW); // a token first: the throttling is Graph's
    fake.throttle(1, 1);
    const written = await client.put(booking('THROTTL234567890'), undefined);
    expect(fake.events(name).map((event) => event.id)).toEqual([written.ref.id]);
    fake.throttle(1, 120);
    const error = await client.remove('THROTTL234567890', written.ref).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(CalendarWriteError);
    expect((error as CalendarWriteError).answered).toBe(true);
    expect((error as Error).message).toMatch(
      /^127\.0\.0\.1:\d+ is throttling planner's requests \(HTTP 429\); it is tried again later$/,
    );
    fake.throttle(4, 0);
    const mark = fake.requests.length;
    await expect(client.remove('THROTTL234567890', written.ref)).rejects.toThrow(/HTTP 429/);
    expect(requestsSince(mark)).toHaveLength(4);
    fake.throttle(0, 0);
    fake.throttle(1, 120);
    const read = await client.read(undefined, WINDOW).catch((caught: Error) => caught);
    expect(read).toBeInstanceOf(CalendarFetchError);
    expect((read as Error).message).toMatch(/is throttling planner's requests \(HTTP 429\); it is tried again later/);
  });

  it('checkWritable writes a free event of its own and deletes it, also when its create got no answer', async () => {
    const { client, name } = connect();
    const mark = fake.requests.length;
    await client.checkWritable(new Date('2030-03-04T10:00:00Z'), ZONE);
    expect(fake.events(name)).toEqual([]);
    const graph = requestsSince(mark).filter((request) => request.path.startsWith('/v1.0'));
    expect(graph.map((request) => request.method)).toEqual(['POST', 'DELETE']);
    fake.dropAfterWrite = true;
    const error = await client.checkWritable(new Date('2030-03-04T10:00:00Z'), ZONE).catch((caught: Error) => caught);
    fake.dropAfterWrite = false;
    expect((error as CalendarWriteError).answered).toBe(false);
    expect(fake.events(name)).toEqual([]);
    fake.state.down = true;
    const down = await client.checkWritable(new Date('2030-03-04T10:00:00Z'), ZONE).catch((caught: Error) => caught);
    fake.state.down = false;
    expect((down as Error).message).toMatch(/answered HTTP 503/);
  });

  it('a calendar other than the default: its own path', async () => {
    const { client, name } = connect('own');
    const mark = fake.requests.length;
    await client.put(booking('OWNCALA234567890'), undefined);
    const post = requestsSince(mark).find((request) => request.method === 'POST' && request.path.startsWith('/v1.0'));
    expect(post!.path).toBe(`/v1.0/me/calendars/${fake.calendarId(name)}/events`);
  });
});

describe('reads', () => {
  it('whole through calendarView/delta (pages), then unchanged, then added, edited and deleted appointments', async () => {
    const { client, name } = connect();
    const ids: string[] = [];
    for (let day = 0; day < 250; day++) {
      const start = new Date(Date.UTC(2030, 2, 1, 6) + day * 2 * 3600 * 1000).toISOString().slice(0, 19);
      const end = new Date(Date.UTC(2030, 2, 1, 7) + day * 2 * 3600 * 1000).toISOString().slice(0, 19);
      ids.push(fake.addEvent(name, { subject: 'Private', start: utc(start), end: utc(end) }));
    }
    const mark = fake.requests.length;
    const first = await client.read(undefined, WINDOW);
    if (first.unchanged) throw new Error('a first read is never unchanged');
    expect(first.texts).toHaveLength(250);
    expect(busyOf(first.texts)[0]).toEqual(['2030-03-01T06:00:00.000Z', '2030-03-01T07:00:00.000Z']);
    const pages = requestsSince(mark).filter((request) => request.path.endsWith('/calendarView/delta'));
    expect(pages).toHaveLength(2);
    expect(pages[0]!.path).toBe('/v1.0/me/calendarView/delta');
    expect(pages[0]!.headers.prefer).toMatch(/odata\.maxpagesize=200.*outlook\.timezone="UTC"/);
    expect(first.state).toMatchObject({ mode: 'delta' });

    const same = await client.read(first.state, WINDOW);
    expect(same.unchanged).toBe(true);

    fake.addEvent(name, { start: utc('2030-03-20T10:00:00'), end: utc('2030-03-20T11:00:00') });
    fake.editEvent(name, ids[0]!, { start: utc('2030-03-02T05:00:00'), end: utc('2030-03-02T05:30:00') });
    fake.deleteEvent(name, ids[1]!);
    fake.editEvent(name, ids[2]!, { start: utc('2030-06-01T09:00:00'), end: utc('2030-06-01T10:00:00') }); // out: @removed
    const next = await client.read(same.state, WINDOW);
    if (next.unchanged) throw new Error('changed');
    expect(next.texts).toHaveLength(249);
    const busy = busyOf(next.texts);
    expect(busy).toContainEqual(['2030-03-20T10:00:00.000Z', '2030-03-20T11:00:00.000Z']);
    expect(busy).toContainEqual(['2030-03-02T05:00:00.000Z', '2030-03-02T05:30:00.000Z']);
    expect(busy).not.toContainEqual(['2030-03-01T06:00:00.000Z', '2030-03-01T07:00:00.000Z']);
    expect(busy).not.toContainEqual(['2030-03-01T08:00:00.000Z', '2030-03-01T09:00:00.000Z']);
    expect(busy).not.toContainEqual(['2030-03-01T10:00:00.000Z', '2030-03-01T11:00:00.000Z']);
    const incremental = fake.requests.at(-1)!;
    expect(incremental.query.$deltatoken).toBeDefined();
  });

  it("planner's own event is read back with its UID and never busy; all-day, free and cancelled as Outlook has them", async () => {
    const { client, name } = connect();
    await client.put(booking('OWNEVTA234567890'), undefined);
    fake.addEvent(name, {
      isAllDay: true,
      start: utc('2030-03-06T00:00:00'),
      end: utc('2030-03-07T00:00:00'),
    });
    fake.addEvent(name, { showAs: 'free', start: utc('2030-03-07T09:00:00'), end: utc('2030-03-07T10:00:00') });
    fake.addEvent(name, { isCancelled: true, start: utc('2030-03-08T09:00:00'), end: utc('2030-03-08T10:00:00') });
    fake.addEvent(name, { showAs: 'tentative', start: utc('2030-03-09T09:00:00'), end: utc('2030-03-09T10:00:00') });
    const read = await client.read(undefined, WINDOW);
    if (read.unchanged) throw new Error('a first read is never unchanged');
    const all = read.texts.join('');
    expect(all).toContain('UID:OWNEVTA234567890@planner');
    expect(all).toContain('DTSTART;VALUE=DATE:20300306');
    expect(all).toContain('DTEND;VALUE=DATE:20300307');
    expect(all).toContain('TRANSP:TRANSPARENT');
    expect(all).toContain('STATUS:CANCELLED');
    expect(all).not.toContain('Consultation'); // no titles of what is read
    const planner: PlannerEvent[] = [];
    expect(busyOf(read.texts, planner)).toEqual([
      ['2030-03-05T23:00:00.000Z', '2030-03-06T23:00:00.000Z'], // the all-day event: the practice's local day
      ['2030-03-09T09:00:00.000Z', '2030-03-09T10:00:00.000Z'],
    ]);
    expect(planner).toEqual([
      {
        reference: 'OWNEVTA234567890',
        startAt: at('2030-03-04T09:00:00Z'),
        endAt: at('2030-03-04T09:30:00Z'),
        cancelled: false,
      },
    ]);
  });

  it('delta refused (400): calendarView, whole on every read, unchanged when the same; a delta link gone (410): whole again', async () => {
    const { client, name } = connect();
    fake.addEvent(name, { start: utc('2030-03-10T09:00:00'), end: utc('2030-03-10T10:00:00') });
    fake.deltaUnsupported = true;
    const mark = fake.requests.length;
    const whole = await client.read(undefined, WINDOW);
    fake.deltaUnsupported = false;
    if (whole.unchanged) throw new Error('a first read is never unchanged');
    expect(busyOf(whole.texts)).toEqual([['2030-03-10T09:00:00.000Z', '2030-03-10T10:00:00.000Z']]);
    expect(whole.state).toMatchObject({ mode: 'whole' });
    expect(requestsSince(mark).map((request) => request.path)).toContain('/v1.0/me/calendarView');
    const again = await client.read(whole.state, WINDOW);
    expect(again.unchanged).toBe(true);
    expect(fake.requests.at(-1)!.path).toBe('/v1.0/me/calendarView');

    const first = await client.read(undefined, WINDOW);
    fake.expireDeltaLinks();
    fake.addEvent(name, { start: utc('2030-03-11T09:00:00'), end: utc('2030-03-11T10:00:00') });
    const afresh = await client.read(first.state as ProviderState, WINDOW);
    if (afresh.unchanged) throw new Error('read whole again');
    expect(busyOf(afresh.texts)).toHaveLength(2);
    expect(fake.requests.at(-1)!.query.startDateTime).toBe('2030-03-01T00:00:00Z');
  });

  it('a window past the one the delta link covers: a full read of the new window', async () => {
    const { client } = connect();
    const first = await client.read(undefined, WINDOW);
    expect(first.state).toMatchObject({ from: WINDOW.from, to: at('2030-04-08T00:00:00Z') });
    const inside = await client.read(first.state, { from: at('2030-03-02T00:00:00Z'), to: at('2030-04-05T00:00:00Z') });
    expect(inside.unchanged).toBe(true);
    const later = { from: at('2030-03-10T00:00:00Z'), to: at('2030-04-10T00:00:00Z') };
    const moved = await client.read(inside.state, later);
    expect(moved.unchanged).toBe(false);
    expect(fake.requests.at(-1)!.query).toMatchObject({
      startDateTime: '2030-03-10T00:00:00Z',
      endDateTime: '2030-04-17T00:00:00Z',
    });
  });

  it('bounded: more than 50 pages is one line, not a part of the calendar', async () => {
    const { client, name } = connect();
    for (let index = 0; index < 50 * 200 + 1; index++) {
      const start = new Date(Date.UTC(2030, 2, 1) + index * 60_000).toISOString().slice(0, 19);
      const end = new Date(Date.UTC(2030, 2, 1) + (index + 1) * 60_000).toISOString().slice(0, 19);
      fake.addEvent(name, { start: utc(start), end: utc(end) });
    }
    await expect(client.read(undefined, WINDOW)).rejects.toThrow(
      /^127\.0\.0\.1:\d+ gave more than 50 pages: planner reads at most that many$/,
    );
  });
});
