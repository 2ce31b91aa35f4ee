/**
 * The front desk's door under attack, over plain HTTP against the real server (`planner serve`) and the real CLI
 * (issue 46's security tests): sessions never fixed by the client, forms refused from another site or without the
 * session's token, a TOTP code and a recovery code each used once, an enrolment link once and for 24 hours, the
 * lockout and the address throttle saying and costing the same as any failure, a practitioner's URL to another
 * schedule's booking as one that does not exist, a removed or reset person logged out at once, the cookie's
 * attributes, and customers' text never markup. Each test was seen to fail once against a version of src/ broken in
 * the line it guards.
 *
 * A browser is played by hand (`browser`): its cookies are carried from each `Set-Cookie`, its forms are posted
 * urlencoded with the desk's `Origin`, and it comes from its own address, which the server believes from
 * `X-Forwarded-For` because 127.0.0.1 is a trusted proxy here: each test fails logins from addresses of its own, so
 * the throttle (20 failures a minute per address) only ever answers the test that is about it. TOTP codes are
 * computed from the enrolment page's otpauth URI, as an app does, on the real clock: a code is taken from a step
 * after the last one used and at most one ahead of now, so no test waits for the next step.
 */
import { createHash } from 'node:crypto';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import * as OTPAuth from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  berlinDay,
  bookableDb,
  cliJson,
  cliOk,
  fieldArgs,
  type ServerProcess,
  serve,
  tempDb,
} from '../helpers.ts';

const SESSION = '__Host-planner-desk';
const PENDING = '__Host-planner-desk-login';
const PASSWORD = 'correct horse battery staple';
const FAILED = 'That did not work. Check the address, the password and the code, and try again.';
const FORBIDDEN = 'This form could not be accepted. Reload the page and try again.';
const GONE = 'Link no longer valid';
/** A reference of the right shape that no booking has. */
const NO_SUCH_REFERENCE = 'ZZZZZZZZZZZZZZZZ';
const STEP_MS = 30_000;
/** Logins of each kind the timing test takes the median of. */
const ROUNDS = 9;

/** What the tests share: one practice of two schedules, its server, and the bookings the tests look at. */
interface Practice {
  db: string;
  server: ServerProcess;
  token: string;
  /** Schedule 1, begun an hour ago (attendance may be marked): the forms' target. */
  begun: Booking;
  /** Schedule 2, begun an hour ago: what a practitioner of schedule 1 must not reach. */
  otherSchedule: Booking;
  /** Schedule 1, tomorrow: the customer's name is HTML and a control character. */
  hostile: Booking;
}

interface Booking {
  id: number;
  reference: string;
}

/** An answer as a test reads it. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
  setCookies: string[];
}

/** A person enrolled through the pages: their password, their app (from the URI), their recovery codes. */
interface Person {
  email: string;
  password: string;
  totp: OTPAuth.TOTP;
  /** The last TOTP step used (at enrolment or a login): a code is never taken from it or before. */
  lastStep: number;
  recoveryCodes: string[];
  enrolPath: string;
}

let practice: Practice;
let addresses = 0;
let people = 0;

/** A client address of its own (198.18.0.0/15, for tests), for a browser whose failures count apart from others'. */
const newAddress = () => `198.18.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const stepNow = () => Math.floor(Date.now() / STEP_MS);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Text taken out of the HTML the desk wrote (escapeHtml writes `&#NN;`). */
const fromHtml = (html: string) => html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The rows of `sql` in the practice's file, read beside the running server. */
function rows<T>(sql: string, ...params: SQLInputValue[]): T[] {
  const handle = new DatabaseSync(practice.db, { readOnly: true });
  try {
    return handle.prepare(sql).all(...params) as T[];
  } finally {
    handle.close();
  }
}

/** Writes a fixture into the practice's file (what no command does: a time in the past, a control character). */
function write(sql: string, ...params: SQLInputValue[]): void {
  const handle = new DatabaseSync(practice.db);
  try {
    handle.prepare(sql).run(...params);
  } finally {
    handle.close();
  }
}

/** What a booking is as the desk may change it: its attendance, the staff's note, its history's length. */
function marks(booking: Booking) {
  const [row] = rows<{ attendance: string | null; staff_note: string }>(
    'SELECT attendance, staff_note FROM bookings WHERE id = ?',
    booking.id,
  );
  const [events] = rows<{ n: number }>('SELECT count(*) AS n FROM booking_events WHERE booking_id = ?', booking.id);
  return { ...row, events: events!.n };
}

/** The sessions of `email` in the store: each identifier's hash and whether its second factor was given. */
function sessionsOf(email: string) {
  return rows<{ id_hash: string; verified: number }>(
    'SELECT x.id_hash, x.verified FROM staff_sessions x JOIN staff s ON s.id = x.staff_id WHERE s.email = ? ORDER BY x.verified',
    email,
  );
}

/**
 * Checks the security headers every desk answer carries: a Content-Security-Policy with `frame-ancestors 'none'`
 * and no 'unsafe-inline' (the desk has no inline script or style), no framing, no caching.
 */
function expectDeskHeaders(what: string, headers: Headers): void {
  const policy = headers.get('content-security-policy') ?? '';
  expect(policy, `${what}: content-security-policy`).toContain("frame-ancestors 'none'");
  expect(policy, `${what}: content-security-policy`).toContain("default-src 'none'");
  expect(policy, `${what}: content-security-policy`).not.toContain('unsafe-inline');
  expect(headers.get('x-frame-options'), `${what}: x-frame-options`).toBe('DENY');
  expect(headers.get('cache-control'), `${what}: cache-control`).toBe('no-store');
}

/**
 * A browser at the desk, played by hand: it sends the cookies it was given (a `Max-Age=0` takes one back), posts
 * forms urlencoded with the desk's `Origin` (`headers` add to or replace what it sends), follows no redirect, and
 * comes from `address`. Every answer under /desk is checked for the desk's security headers.
 */
function browser(address = newAddress()) {
  const jar = new Map<string, string>();
  const origin = new URL(practice.server.url).origin;
  async function send(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const headers = new Headers({ 'x-forwarded-for': address });
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    if (form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      headers.set('origin', origin);
    }
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const response = await fetch(`${practice.server.url}${path}`, {
      method,
      headers,
      body: form && new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    const text = await response.text();
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const pair = cookie.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      if (/;\s*Max-Age=0(;|$)/i.test(cookie)) jar.delete(name);
      else jar.set(name, pair.slice(name.length + 1));
    }
    if (path.startsWith('/desk')) expectDeskHeaders(`${method} ${path} (${response.status})`, response.headers);
    return {
      status: response.status,
      headers: response.headers,
      text,
      location: response.headers.get('location'),
      setCookies,
    };
  }
  return {
    address,
    get: (path: string, extra?: Record<string, string>) => send('GET', path, undefined, extra),
    post: (path: string, form: Record<string, string>, extra?: Record<string, string>) =>
      send('POST', path, form, extra),
    cookie: (name: string) => jar.get(name),
    setCookie: (name: string, value: string) => jar.set(name, value),
  };
}

type Browser = ReturnType<typeof browser>;

/** An answer in a line, for a failure's message: its status, where it sends to, its heading and notes. */
function said(answer: Answer): string {
  const heading = /<h1>(.*?)<\/h1>/.exec(answer.text)?.[1];
  const notes = [...answer.text.matchAll(/<p class="(?:note [a-z]+|field-error)"[^>]*>(.*?)<\/p>/g)].map((m) => m[1]);
  return [answer.status, answer.location && `to ${answer.location}`, heading, ...notes]
    .filter(Boolean)
    .map((part) => fromHtml(String(part)))
    .join(' · ');
}

/** The `Set-Cookie` of `name` in an answer, or undefined. */
const setCookieOf = (answer: Answer, name: string) => answer.setCookies.find((one) => one.startsWith(`${name}=`));

/** A TOTP code of `person`'s app from a step after the last one used and at most one after now's (RFC 6238 §5.2). */
function nextCode(person: Person): string {
  const step = Math.max(person.lastStep + 1, stepNow());
  if (step > stepNow() + 1) throw new Error('no fresh TOTP step without waiting: use a recovery code');
  person.lastStep = step;
  return person.totp.generate({ timestamp: step * STEP_MS });
}

/** Adds a person with the CLI and enrols them through the pages: a password, the app's first code, ten recovery codes. */
async function enrol(role: 'reception' | 'practitioner' = 'reception', schedule?: string): Promise<Person> {
  const email = `person${++people}@praxis.example`;
  const added = await cliJson<{ enrol_url: string }>(
    practice.db,
    'staff',
    'add',
    email,
    '--name',
    `Person ${people}`,
    '--role',
    role,
    ...(schedule === undefined ? [] : ['--schedule', schedule]),
  );
  const enrolPath = new URL(added.enrol_url).pathname;
  const client = browser();
  expect((await client.get(enrolPath)).status).toBe(200);
  const chosen = await client.post(`${enrolPath}/password`, { email, password: PASSWORD });
  expect([chosen.status, chosen.location], said(chosen)).toEqual([303, enrolPath]);
  const factor = await client.get(enrolPath);
  const uri = /<dd class="mono">(otpauth:\/\/[^<]+)<\/dd>/.exec(factor.text)?.[1];
  expect(uri, said(factor)).toBeDefined();
  const totp = OTPAuth.URI.parse(fromHtml(uri!)) as OTPAuth.TOTP;
  const step = stepNow();
  const done = await client.post(`${enrolPath}/code`, { code: totp.generate({ timestamp: step * STEP_MS }) });
  expect(done.status, said(done)).toBe(200);
  const recoveryCodes = [...done.text.matchAll(/<li>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})<\/li>/g)].map((m) => m[1]!);
  expect(recoveryCodes).toHaveLength(10);
  return { email, password: PASSWORD, totp, lastStep: step, recoveryCodes, enrolPath };
}

/** The login's first step as a browser takes it: the form, then the address and password posted. */
async function passwordStep(client: Browser, email: string, password: string): Promise<Answer> {
  expect((await client.get('/desk/login')).status).toBe(200);
  return client.post('/desk/login', { email, password });
}

/** Both steps of a login that must succeed; returns the code step's answer (the session's cookie set). */
async function logIn(client: Browser, person: Person, code = nextCode(person)): Promise<Answer> {
  const first = await passwordStep(client, person.email, person.password);
  expect([first.status, first.location], said(first)).toEqual([303, '/desk/login/code']);
  expect((await client.get('/desk/login/code')).status).toBe(200);
  const second = await client.post('/desk/login/code', { code });
  expect([second.status, second.location], said(second)).toEqual([303, '/desk/']);
  return second;
}

/** The session's form token, from the hidden field of today's page (which must open: the session works). */
async function formToken(client: Browser): Promise<string> {
  const today = await client.get('/desk/');
  expect(today.status, said(today)).toBe(200);
  const token = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(today.text)?.[1];
  expect(token, said(today)).toBeDefined();
  return token!;
}

/** Books `customer` with the CLI at `time` tomorrow; returns the booking's id and reference. */
async function book(db: string, schedule: number, time: string, customer: Record<string, string>): Promise<Booking> {
  return cliJson<Booking>(
    db,
    'bookings',
    'add',
    String(schedule),
    '1',
    `${berlinDay(1)} ${time}`,
    ...fieldArgs(customer),
  );
}

/** Moves a booking to have begun an hour ago (the server books only ahead; the desk marks who came). */
function begunAnHourAgo(booking: Booking): void {
  const now = Math.floor(Date.now() / 1000);
  write('UPDATE bookings SET start_at = ?, end_at = ? WHERE id = ?', now - 3600, now - 1800, booking.id);
}

describe('the desk door’s security over HTTP', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const db = tempDb();
    const token = await bookableDb(db, {
      schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }],
      reasons: [{ schedules: [1, 2] }],
    });
    await cliOk(db, 'proxy', 'set', '127.0.0.1');
    const begun = await book(db, 1, '09:00', { first_name: 'Ole', last_name: 'Berg', email: 'ole@example.com' });
    const otherSchedule = await book(db, 2, '09:00', {
      first_name: 'Rosa',
      last_name: 'Sommer',
      email: 'rs@example.com',
    });
    const hostile = await book(db, 1, '10:00', {
      first_name: '<script>alert(1)</script>',
      last_name: 'Kaya',
      email: 'kaya@example.com',
    });
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    practice = { db, server, token, begun, otherSchedule, hostile };
    begunAnHourAgo(begun);
    begunAnHourAgo(otherSchedule);
    // No command takes a control character in a name (`bookings add` refuses it); an older file or a direct write
    // may hold one, and the desk must show it as the CLI does.
    write(
      "UPDATE bookings SET submission = json_set(submission, '$.last_name', 'X' || char(27) || '[2J') WHERE id = ?",
      hostile.id,
    );
  }, 120_000);

  it('never keeps a session identifier the client sent: the one after the code is new, the pending one cleared', async () => {
    const person = await enrol();
    const client = browser();
    const planted = 'A'.repeat(43);
    const plantedPending = 'B'.repeat(43);
    client.setCookie(SESSION, planted);
    client.setCookie(PENDING, plantedPending);
    const first = await passwordStep(client, person.email, person.password);
    expect(first.status, said(first)).toBe(303);
    const pending = client.cookie(PENDING)!;
    expect(pending, 'the pending login gets an identifier of the server’s').not.toBe(plantedPending);
    expect(pending).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = await client.post('/desk/login/code', { code: nextCode(person) });
    expect([second.status, second.location], said(second)).toEqual([303, '/desk/']);
    const session = client.cookie(SESSION)!;
    expect(session, 'the session is not the identifier the client sent before login').not.toBe(planted);
    expect(session, 'the session is not the pending login’s identifier').not.toBe(pending);
    expect(setCookieOf(second, PENDING), 'the pending cookie is cleared in the same answer').toBe(
      `${PENDING}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`,
    );
    expect(client.cookie(PENDING)).toBeUndefined();
    // In the store: one session, verified, under the new identifier's hash; the pending row is gone.
    expect(sessionsOf(person.email)).toEqual([{ id_hash: sha256(session), verified: 1 }]);
    // Neither the planted identifier nor the pending one opens the desk.
    for (const id of [planted, pending]) {
      const other = browser();
      other.setCookie(SESSION, id);
      const answer = await other.get('/desk/');
      expect([answer.status, answer.location], `${id} opens no session`).toEqual([303, '/desk/login']);
    }
    // Logging in again from the signed-in browser (a tab of the login left open): a new identifier again.
    const again = await client.post('/desk/login', { email: person.email, password: person.password });
    expect([again.status, again.location], said(again)).toEqual([303, '/desk/login/code']);
    const renewed = await client.post('/desk/login/code', { code: person.recoveryCodes[0]! });
    expect([renewed.status, renewed.location], said(renewed)).toEqual([303, '/desk/']);
    expect(setCookieOf(renewed, SESSION)).toBeDefined();
    expect(client.cookie(SESSION), 'a login from a signed-in browser gets a new identifier').not.toBe(session);
    expect(sessionsOf(person.email).map((row) => row.id_hash)).toContain(sha256(client.cookie(SESSION)!));
  });

  it('refuses a POST from another site, or without the session’s form token, with 403, and changes nothing', async () => {
    const person = await enrol();
    const client = browser();
    await logIn(client, person);
    const csrf = await formToken(client);
    const session = client.cookie(SESSION)!;
    const path = `/desk/bookings/${practice.begun.reference}`;
    const posts: { action: string; form: Record<string, string> }[] = [
      { action: 'attendance', form: { mark: 'arrived' } },
      { action: 'note', form: { note: 'Came by bus' } },
      { action: 'logout', form: {} },
    ];
    const refusals: {
      why: string;
      fields: (csrf: string) => Record<string, string>;
      headers?: Record<string, string>;
    }[] = [
      {
        why: 'Origin of another site',
        fields: (token) => ({ csrf: token }),
        headers: { origin: 'https://evil.example' },
      },
      {
        why: 'Sec-Fetch-Site: cross-site',
        fields: (token) => ({ csrf: token }),
        headers: { 'sec-fetch-site': 'cross-site' },
      },
      {
        why: 'a wrong form token',
        fields: (token) => ({ csrf: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }),
      },
      { why: 'a made-up form token', fields: () => ({ csrf: 'Q'.repeat(43) }) },
      { why: 'no form token', fields: () => ({}) },
    ];
    const before = marks(practice.begun);
    expect(before).toMatchObject({ attendance: null, staff_note: '' });
    for (const post of posts)
      for (const refusal of refusals) {
        const what = `POST ${post.action} with ${refusal.why}`;
        const target = post.action === 'logout' ? '/desk/logout' : `${path}/${post.action}`;
        const answer = await client.post(target, { ...post.form, ...refusal.fields(csrf) }, refusal.headers);
        expect(answer.status, `${what}: ${said(answer)}`).toBe(403);
        expect(fromHtml(answer.text), what).toContain(FORBIDDEN);
        expect(answer.setCookies, `${what}: no cookie changed`).toEqual([]);
        expect(marks(practice.begun), `${what}: the booking is unchanged`).toEqual(before);
        expect(sessionsOf(person.email), `${what}: the session still exists`).toEqual([
          { id_hash: sha256(session), verified: 1 },
        ]);
      }
    // The same forms from the desk's own page, with the token, do what they say: the refusals were the guard's.
    const arrived = await client.post(`${path}/attendance`, { mark: 'arrived', csrf });
    expect([arrived.status, arrived.location], said(arrived)).toEqual([303, `${path}?done=arrived`]);
    const noted = await client.post(`${path}/note`, { note: 'Came by bus', csrf });
    expect([noted.status, noted.location], said(noted)).toEqual([303, `${path}?done=noted`]);
    expect(marks(practice.begun)).toMatchObject({ attendance: 'arrived', staff_note: 'Came by bus' });
    const out = await client.post('/desk/logout', { csrf });
    expect([out.status, out.location]).toEqual([303, '/desk/login']);
    expect(sessionsOf(person.email)).toEqual([]);
  });

  it('refuses a TOTP code used before (at enrolment or at a login) with the one failure answer, and opens no session', async () => {
    const person = await enrol();
    const client = browser();
    const enrolmentCode = person.totp.generate({ timestamp: person.lastStep * STEP_MS });
    const refusedLogin = async (code: string, what: string) => {
      const first = await passwordStep(client, person.email, person.password);
      expect(first.status, `${what}: the password is right`).toBe(303);
      const second = await client.post('/desk/login/code', { code });
      expect(second.status, `${what}: ${said(second)}`).toBe(401);
      expect(fromHtml(second.text), what).toContain(FAILED);
      expect(setCookieOf(second, SESSION), `${what}: no session cookie`).toBeUndefined();
      expect(client.cookie(SESSION), what).toBeUndefined();
      expect(sessionsOf(person.email), `${what}: no session, the pending login used up`).toEqual([]);
    };
    await refusedLogin(enrolmentCode, 'the code that confirmed the enrolment');
    const code = nextCode(person);
    await logIn(client, person, code);
    expect(sessionsOf(person.email)).toHaveLength(1);
    await client.post('/desk/logout', { csrf: await formToken(client) });
    expect(sessionsOf(person.email)).toEqual([]);
    await refusedLogin(code, 'the code of the last login, again in its step');
  });

  it('takes a recovery code once: a session the first time, the failure answer the second', async () => {
    const person = await enrol();
    const client = browser();
    const recovery = person.recoveryCodes[3]!;
    await logIn(client, person, recovery.toUpperCase()); // as typed from paper: any case
    expect(sessionsOf(person.email)).toHaveLength(1);
    await client.post('/desk/logout', { csrf: await formToken(client) });
    const first = await passwordStep(client, person.email, person.password);
    expect(first.status).toBe(303);
    const second = await client.post('/desk/login/code', { code: recovery });
    expect(second.status, said(second)).toBe(401);
    expect(fromHtml(second.text)).toContain(FAILED);
    expect(setCookieOf(second, SESSION)).toBeUndefined();
    expect(sessionsOf(person.email)).toEqual([]);
    const [used] = rows<{ n: number }>(
      'SELECT count(*) AS n FROM staff_recovery_codes r JOIN staff s ON s.id = r.staff_id WHERE s.email = ? AND r.used_at IS NOT NULL',
      person.email,
    );
    expect(used!.n).toBe(1);
  });

  it('takes an enrolment link once, and for 24 hours: after the recovery codes, and once expired, “Link no longer valid” (404)', async () => {
    const expectGone = (answer: Answer, what: string) => {
      expect(answer.status, `${what}: ${said(answer)}`).toBe(404);
      expect(fromHtml(answer.text), what).toContain(`<h1>${GONE}</h1>`);
    };
    // Used: every step of the link answers gone, and nothing of the person changes.
    const person = await enrol();
    const client = browser();
    const [before] = rows('SELECT password_hash, totp_secret, totp_last_step FROM staff WHERE email = ?', person.email);
    expectGone(await client.get(person.enrolPath), 'the used link');
    expectGone(
      await client.post(`${person.enrolPath}/password`, { password: 'another password, long enough' }),
      'a password through the used link',
    );
    expectGone(
      await client.post(`${person.enrolPath}/code`, { code: nextCode(person) }),
      'a code through the used link',
    );
    expect(rows('SELECT password_hash, totp_secret, totp_last_step FROM staff WHERE email = ?', person.email)).toEqual([
      before,
    ]);

    // Expired: made for 24 hours to the second; a second past them, gone.
    const email = `late${++people}@praxis.example`;
    const made = Math.floor(Date.now() / 1000);
    const added = await cliJson<{ enrol_url: string }>(
      practice.db,
      'staff',
      'add',
      email,
      '--name',
      'Late',
      '--role',
      'reception',
    );
    const path = new URL(added.enrol_url).pathname;
    const [link] = rows<{ expires_at: number }>(
      'SELECT e.expires_at FROM staff_enrolments e JOIN staff s ON s.id = e.staff_id WHERE s.email = ?',
      email,
    );
    expect(link!.expires_at - made).toBeGreaterThanOrEqual(24 * 3600);
    expect(link!.expires_at - made).toBeLessThanOrEqual(24 * 3600 + 60);
    expect((await client.get(path)).status, 'the new link works').toBe(200);
    write(
      'UPDATE staff_enrolments SET expires_at = ? WHERE staff_id = (SELECT id FROM staff WHERE email = ?)',
      Math.floor(Date.now() / 1000) - 1,
      email,
    );
    expectGone(await client.get(path), 'the expired link');
    expectGone(await client.post(`${path}/password`, { password: PASSWORD }), 'a password through the expired link');
    expect(rows('SELECT password_hash FROM staff WHERE email = ?', email)).toEqual([{ password_hash: null }]);
  });

  it('locks an account after five wrong passwords: the right one then gets the answer of a wrong one and of an unknown address', async () => {
    const person = await enrol();
    const client = browser();
    const lockedUntil = () =>
      rows<{ locked_until: number | null }>('SELECT locked_until FROM staff WHERE email = ?', person.email)[0]!
        .locked_until;
    const wrong: Answer[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(lockedUntil(), `not locked before wrong password ${attempt}`).toBeNull();
      wrong.push(await passwordStep(client, person.email, `wrong password number ${attempt}`));
    }
    const now = Math.floor(Date.now() / 1000);
    expect(lockedUntil(), 'locked for 15 minutes').toBeGreaterThanOrEqual(now + 15 * 60 - 5);
    expect(lockedUntil()).toBeLessThanOrEqual(now + 15 * 60 + 5);
    const locked = await passwordStep(client, person.email, person.password);
    const unknownEmail = `nobody${people}@praxis.example`;
    const unknown = await passwordStep(client, unknownEmail, person.password);
    for (const [what, answer] of [
      ['a wrong password', wrong[0]!],
      ['the right password while locked', locked],
      ['an unknown address', unknown],
    ] as const) {
      expect(answer.status, `${what}: ${said(answer)}`).toBe(401);
      expect(fromHtml(answer.text), what).toContain(FAILED);
      expect(answer.setCookies, `${what}: no cookie`).toEqual([]);
    }
    for (const answer of wrong) expect(answer.text).toBe(wrong[0]!.text);
    expect(locked.text, 'locked: the same page as a wrong password').toBe(wrong[0]!.text);
    // The form gives back the address typed: but for it, an unknown address's page is the same.
    expect(unknown.text.replaceAll(unknownEmail, person.email), 'unknown address: the same page').toBe(wrong[0]!.text);
    // And the same headers (but for the date, and the length of the address given back).
    const headersOf = (answer: Answer) =>
      [...answer.headers].filter(([name]) => name !== 'date' && name !== 'content-length');
    expect(headersOf(locked)).toEqual(headersOf(wrong[0]!));
    expect(headersOf(unknown)).toEqual(headersOf(wrong[0]!));
    expect(sessionsOf(person.email), 'no login pending').toEqual([]);
  });

  it('takes one Argon2 hash’s time for an unknown address, a wrong password and a locked account alike', async () => {
    const wrongPerson = await enrol();
    const lockedPerson = await enrol();
    const warm = browser();
    for (let attempt = 0; attempt < 5; attempt++) await passwordStep(warm, lockedPerson.email, 'not the password');
    expect(rows('SELECT locked_until FROM staff WHERE email = ?', lockedPerson.email)).not.toEqual([
      { locked_until: null },
    ]);
    await passwordStep(warm, 'warm-up@praxis.example', PASSWORD); // the stand-in hash is made at the first unknown
    const kinds = {
      'unknown address': { client: browser(), email: 'nobody-here@praxis.example', password: PASSWORD },
      'wrong password': { client: browser(), email: wrongPerson.email, password: 'not the password' },
      'locked account': { client: browser(), email: lockedPerson.email, password: PASSWORD },
    };
    type Kind = keyof typeof kinds;
    const names = Object.keys(kinds) as Kind[];
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Kind, number[]>;
    // Interleaved, each round in another order, so that a machine busy for a while slows every kind alike.
    for (let round = 0; round < ROUNDS; round++) {
      // A fixture: the wrong-password person's failures set back, so they stay unlocked (five would lock them).
      write('UPDATE staff SET failures = 0 WHERE email = ?', wrongPerson.email);
      for (let index = 0; index < names.length; index++) {
        const name = names[(index + round) % names.length]!;
        const { client, email, password } = kinds[name];
        const started = performance.now();
        const answer = await client.post('/desk/login', { email, password });
        times[name].push(performance.now() - started);
        expect(answer.status, `${name}: ${said(answer)}`).toBe(401);
      }
    }
    expect(rows('SELECT locked_until FROM staff WHERE email = ?', wrongPerson.email)).toEqual([{ locked_until: null }]);
    // A failure that skipped the hash would take a fraction of one (under a millisecond against tens): half of the
    // wrong password's median leaves room for a loaded machine.
    const ms = (name: Kind) => median(times[name]);
    const medians = `medians ${names.map((name) => `${name} ${ms(name).toFixed(1)} ms`).join(', ')}`;
    expect(ms('unknown address'), medians).toBeGreaterThanOrEqual(0.5 * ms('wrong password'));
    expect(ms('locked account'), medians).toBeGreaterThanOrEqual(0.5 * ms('wrong password'));
  });

  it('answers 429 to an address after 20 failed logins a minute, and never throttles the API from it', async () => {
    const client = browser();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const answer = await passwordStep(client, `guess${attempt}@praxis.example`, PASSWORD);
      expect(answer.status, `failure ${attempt}`).toBe(401);
    }
    const throttled = await client.post('/desk/login', { email: 'guess21@praxis.example', password: PASSWORD });
    expect(throttled.status, said(throttled)).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.text).toContain('Too many failed logins from your connection.');
    const code = await client.post('/desk/login/code', { code: '123456' });
    expect(code.status, 'the code step is throttled too').toBe(429);
    // Another address is not throttled.
    const other = await passwordStep(browser(), 'guess22@praxis.example', PASSWORD);
    expect(other.status).toBe(401);
    // The API from the throttled address: its own gates only.
    const slots = await api(practice.server.url, `/api/slots?schedule=1&reason=1&day=${berlinDay(2)}`, practice.token, {
      headers: { 'x-forwarded-for': client.address },
    });
    expect(slots.status, slots.text).toBe(200);
    expect(slots.body.data.length).toBeGreaterThan(0);
  });

  it('answers a practitioner’s URL to another schedule’s booking exactly as one that does not exist, and changes nothing', async () => {
    const person = await enrol('practitioner', '1');
    const client = browser();
    await logIn(client, person);
    const csrf = await formToken(client);
    const own = await client.get(`/desk/bookings/${practice.begun.reference}`);
    expect(own.status, 'their own schedule’s booking opens').toBe(200);
    const missing = await client.get(`/desk/bookings/${NO_SUCH_REFERENCE}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-planner-page')).toBe('not-found');
    const before = marks(practice.otherSchedule);
    const tries: [string, Promise<Answer>][] = [
      ['GET', client.get(`/desk/bookings/${practice.otherSchedule.reference}`)],
      [
        'POST attendance',
        client.post(`/desk/bookings/${practice.otherSchedule.reference}/attendance`, { mark: 'arrived', csrf }),
      ],
      ['POST note', client.post(`/desk/bookings/${practice.otherSchedule.reference}/note`, { note: 'seen', csrf })],
    ];
    for (const [what, pending] of tries) {
      const answer = await pending;
      expect(answer.status, `${what}: ${said(answer)}`).toBe(404);
      expect(answer.text, `${what}: the body of a booking that does not exist`).toBe(missing.text);
      expect(answer.headers.get('x-planner-page')).toBe('not-found');
    }
    expect(marks(practice.otherSchedule), 'the other schedule’s booking is unchanged').toEqual(before);
    // Nor does their day show the other schedule (its booking began an hour ago: today, or yesterday after midnight).
    for (const path of ['/desk/', `/desk/day/${berlinDay(-1)}`]) {
      const day = await client.get(path);
      expect(day.status, said(day)).toBe(200);
      expect(day.text, path).not.toContain('Dr. Roth');
      expect(day.text, path).not.toContain('Rosa Sommer');
    }
  });

  it.each([
    ['staff remove', (email: string) => ['staff', 'remove', email]],
    ['staff reset', (email: string) => ['staff', 'reset', email]],
    ['staff logout', (email: string) => ['staff', 'logout', email]],
  ])(
    'ends an open session at once on %s: the next page is the login, the next form refused',
    async (_name, command) => {
      const person = await enrol();
      const client = browser();
      await logIn(client, person);
      const csrf = await formToken(client);
      const session = client.cookie(SESSION)!;
      await cliOk(practice.db, ...command(person.email));
      const next = await client.get('/desk/');
      expect([next.status, next.location], said(next)).toEqual([303, '/desk/login']);
      expect(setCookieOf(next, SESSION), 'the stale cookie is cleared').toBe(
        `${SESSION}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`,
      );
      expect(sessionsOf(person.email)).toEqual([]);
      // A form of the ended session, sent with its cookie and token all the same: refused, nothing done.
      client.setCookie(SESSION, session);
      const before = marks(practice.begun);
      const post = await client.post(`/desk/bookings/${practice.begun.reference}/note`, {
        note: 'after the end',
        csrf,
      });
      expect(post.status, said(post)).toBe(403);
      expect(marks(practice.begun)).toEqual(before);
    },
  );

  it('sets the session cookie as __Host-planner-desk=<43 characters>; Path=/; Secure; HttpOnly; SameSite=Lax, and no more', async () => {
    const person = await enrol();
    const client = browser();
    const first = await passwordStep(client, person.email, person.password);
    expect(first.setCookies).toEqual([expect.stringMatching(new RegExp(`^${PENDING}=`))]);
    expect(first.setCookies[0]).toMatch(
      /^__Host-planner-desk-login=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=300$/,
    );
    const second = await client.post('/desk/login/code', { code: nextCode(person) });
    expect(second.status, said(second)).toBe(303);
    const cookie = setCookieOf(second, SESSION);
    expect(cookie).toMatch(/^__Host-planner-desk=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/domain|max-age|expires/i);
    const out = await client.post('/desk/logout', { csrf: await formToken(client) });
    expect(out.setCookies).toEqual([`${SESSION}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`]);
  });

  it('shows HTML and control characters in a customer’s name as text (escaped, as the CLI writes them), under a strict CSP', async () => {
    const person = await enrol();
    const client = browser();
    await logIn(client, person);
    const cli = await cliOk(practice.db, 'bookings', 'show', practice.hostile.reference);
    expect(cli, 'the CLI writes the control character visibly').toContain('<script>alert(1)</script> X\\x1b[2J');
    const name = '&#60;script&#62;alert(1)&#60;/script&#62; X\\x1b[2J';
    const day = await client.get(`/desk/day/${berlinDay(1)}`);
    const booking = await client.get(`/desk/bookings/${practice.hostile.reference}`);
    const shown: [string, Answer, RegExp][] = [
      ['the day’s link', day, new RegExp(`<a href="/desk/bookings/${practice.hostile.reference}">(.*?)</a>`)],
      ['the booking’s customer', booking, /<dt>Customer<\/dt><dd>(.*?)<\/dd>/],
      ['the booking’s title', booking, /<title>Appointment: (.*?)<\/title>/],
      ['the booking’s heading', booking, /<h1>Appointment: (.*?)<\/h1>/],
    ];
    for (const [what, page, pattern] of shown) {
      expect(page.status, `${what}: ${said(page)}`).toBe(200);
      expect(pattern.exec(page.text)?.[1], what).toBe(name);
    }
    for (const [what, page] of [
      ['the day', day],
      ['the booking', booking],
    ] as const) {
      expect(/.{0,40}<script.{0,40}/is.exec(page.text)?.[0], `${what}: a tag made of the name`).toBeUndefined();
      const control = /.{0,40}[\u0000-\u0008\u000b-\u001f\u007f-\u009f].{0,20}/s.exec(page.text)?.[0];
      expect(control, `${what}: a raw control character`).toBeUndefined();
    }
    // Every kind of the desk's answers carries the policy (the browser checks each answer it gets as well).
    const kinds: [string, Promise<Answer>][] = [
      ['a page', client.get('/desk/')],
      ['a redirect', browser().get('/desk/')],
      ['the login', browser().get('/desk/login')],
      ['a 404', client.get('/desk/no-such-page')],
      ['a form from another site', client.post('/desk/logout', {}, { origin: 'https://evil.example' })],
      ['a body that is no form', client.post('/desk/logout', {}, { 'content-type': 'text/plain' })],
      ['a failed login', browser().post('/desk/login', { email: 'no@praxis.example', password: 'x' })],
      ['a link gone', browser().get(`/desk/enrol/${'x'.repeat(43)}`)],
    ];
    const statuses: number[] = [];
    for (const [what, pending] of kinds) {
      const answer = await pending;
      statuses.push(answer.status);
      expectDeskHeaders(what, answer.headers);
    }
    expect(statuses).toEqual([200, 303, 200, 404, 403, 400, 401, 404]);
  });
});
