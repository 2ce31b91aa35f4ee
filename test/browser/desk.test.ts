/**
 * The front desk (issue 46) in a real Chromium with JavaScript off, against the real server: a receptionist enrols
 * from the link `planner staff add` printed (the TOTP code computed here from the URI the page shows, as an app
 * does), keeps her ten recovery codes, logs in with the next code, sees a day of three practitioners, marks one
 * customer arrived and another a no-show (each in the booking's history under her name), and logs out. Every page
 * and state passes the readability checks at 320 and 360 px and axe-core with no violation. With
 * PLANNER_SCREENSHOTS=1 it writes docs/desk/ (360 and 1280 px).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { berlinDay, bookableDb, cliJson, cliOk, fieldArgs, ROOT, serve, tempDb } from '../helpers.ts';
import { expectReadable, launchChromium, phonePage, tabTo } from './chromium.ts';

declare const document: any;

const SHOTS = process.env.PLANNER_SCREENSHOTS === '1' ? join(ROOT, 'docs/desk') : undefined;
/** The pages whose screenshots docs/desk/ keeps (the README shows them); every page is checked all the same. */
const KEPT = new Set([
  'login-1',
  'enrol-2-factor',
  'enrol-3-codes',
  'day',
  'booking-arrived',
  'today-marked',
  'customers-found',
  'book-review',
  'move-outside-warning',
  'week',
  'absences',
  'audit',
  'de-login',
  'de-day',
  'de-booking',
  'de-book',
  'de-customers',
]);

/** Checks the page as it is now (one h1, no script, readable, axe); saves its screenshots when asked. */
async function look(page: Page, name: string): Promise<void> {
  expect(await page.locator('h1').count(), `${name}: one h1`).toBe(1);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  await expectReadable(page, name, async () => {
    if (!SHOTS || !KEPT.has(name)) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-360.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: true });
  });
}

/** Runs `action` (a click that loads a new page) and resolves once that page has loaded. */
async function loads(page: Page, action: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForEvent('framenavigated'), action()]);
  await page.waitForLoadState('load');
}

/**
 * Moves booking `id` to have begun an hour ago (the server books only what is ahead; the desk marks what came), and
 * returns its local day in Berlin: today, or yesterday in the first hour after midnight (no test here may depend on
 * the time of day: the pages are opened at that day, not at "today").
 */
function begunAnHourAgo(db: string, id: number): string {
  const handle = new DatabaseSync(db);
  try {
    const now = Math.floor(Date.now() / 1000);
    handle.prepare('UPDATE bookings SET start_at = ?, end_at = ? WHERE id = ?').run(now - 3600, now - 1800, id);
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format((now - 3600) * 1000);
  } finally {
    handle.close();
  }
}

/** The outbox's messages of booking `id` (kind and recipient), in order: what its mails will be. */
function mailsOf(db: string, id: number): string[] {
  const handle = new DatabaseSync(db, { readOnly: true });
  try {
    return handle
      .prepare('SELECT kind FROM outbox WHERE booking_id = ? ORDER BY id')
      .all(id)
      .map((row) => String((row as { kind: string }).kind));
  } finally {
    handle.close();
  }
}

/**
 * Adds `email` at the desk with `role`, enrols them through the page (password, the code computed from the page's
 * URI) and logs them in with the app's next code. Returns the app (for later codes).
 */
async function enrolAndLogIn(
  page: Page,
  db: string,
  base: string,
  email: string,
  role: string,
  more: string[] = [],
): Promise<OTPAuth.TOTP> {
  const { enrol_url } = await cliJson<{ enrol_url: string }>(
    db,
    'staff',
    'add',
    email,
    '--name',
    role === 'reception' ? 'Rita Reception' : role === 'admin' ? 'Ada Admin' : 'Dr. Roth',
    '--role',
    role,
    ...more,
    '--json',
  );
  await page.goto(enrol_url);
  await page.locator('#f-password').fill('correct horse battery staple');
  await loads(page, () => page.locator('form button[type=submit]').click());
  const totp = OTPAuth.URI.parse(await page.locator('dd.mono').nth(1).innerText()) as OTPAuth.TOTP;
  await page.locator('#f-code').fill(totp.generate());
  await loads(page, () => page.locator('form button[type=submit]').click());
  await page.goto(`${base}/desk/login`);
  await page.locator('#f-email').fill(email);
  await page.locator('#f-password').fill('correct horse battery staple');
  await loads(page, () => page.locator('main form button[type=submit]').click());
  await page.locator('#f-code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await loads(page, () => page.locator('main form button[type=submit]').click());
  expect(new URL(page.url()).pathname).toBe('/desk/');
  return totp;
}

describe('the front desk (Chromium, JavaScript off)', { timeout: 300_000 }, () => {
  it('enrols, logs in with a second factor, shows a day of three practitioners, marks arrived and no-show, logs out', async () => {
    const db = tempDb();
    await bookableDb(db, {
      schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }, { name: 'Dr. Kaya' }],
      reasons: [{ schedules: [1, 2, 3] }],
    });
    const day = berlinDay(1);
    const customers = [
      ['Jana', 'Müller', '0170 2223334'],
      ['Ole', 'Berg', '+49 171 5556667'],
      ['Eva', '<b>Kaya</b>', '030 1234567'],
    ];
    for (const [index, [first, last, phone]] of customers.entries())
      await cliOk(
        db,
        'bookings',
        'add',
        String(index + 1),
        '1',
        `${day} 09:00`,
        ...fieldArgs({ first_name: first!, last_name: last!, email: `c${index}@example.com`, phone: phone! }),
      );
    await cliOk(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 10:00`,
      ...fieldArgs({ first_name: 'Tom', last_name: 'Late', email: 't@example.com', phone: '0170 1' }),
    );
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const added = await cliJson<{ id: number; enrol_url: string }>(
      db,
      'staff',
      'add',
      'rita@praxis.example',
      '--name',
      'Rita Reception',
      '--role',
      'reception',
      '--json',
    );
    expect(added.enrol_url).toMatch(new RegExp(`^${server.url}/desk/enrol/[A-Za-z0-9_-]{43}$`));

    const browser = await launchChromium();
    const page = await phonePage(browser);

    // Enrolment: the password, the second factor, the recovery codes.
    await page.goto(added.enrol_url);
    expect(await page.locator('h1').innerText()).toBe('Front desk: Set up your login');
    expect(await page.locator('#f-email').getAttribute('autocomplete')).toBe('username');
    expect(await page.locator('#f-password').getAttribute('autocomplete')).toBe('new-password');
    await look(page, 'enrol-1-password');
    await page.locator('#f-password').fill('short');
    await page.evaluate(() => document.querySelector('form').setAttribute('novalidate', ''));
    await loads(page, () => page.getByRole('button', { name: 'Continue' }).click());
    expect(await page.locator('.field-error').innerText()).toBe(
      'The password is too short: use at least 12 characters.',
    );
    await look(page, 'enrol-1-password-error');
    await page.locator('#f-password').fill('correct horse battery staple');
    await loads(page, () => page.getByRole('button', { name: 'Continue' }).click());
    expect(await page.locator('h1').innerText()).toBe('Front desk: Set up your second factor');
    expect(await page.locator('svg.qr').getAttribute('aria-label')).toBe('QR code of your second factor');
    const uri = await page.locator('dd.mono').nth(1).innerText();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(await page.locator('#f-code').getAttribute('autocomplete')).toBe('one-time-code');
    await look(page, 'enrol-2-factor');
    await page.locator('#f-code').fill('000000' === totp.generate() ? '111111' : '000000');
    await loads(page, () => page.getByRole('button', { name: 'Confirm' }).click());
    expect(await page.locator('.field-error').innerText()).toBe(
      'That code is not right. Type the code your app shows now.',
    );
    await page.locator('#f-code').fill(totp.generate());
    await loads(page, () => page.getByRole('button', { name: 'Confirm' }).click());
    expect(await page.locator('h1').innerText()).toBe('Front desk: Your recovery codes');
    const codes = await page.locator('ol.codes li').allInnerTexts();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
    await look(page, 'enrol-3-codes');
    // The link is used up.
    await page.goto(added.enrol_url);
    expect(await page.locator('h1').innerText()).toBe('Link no longer valid');

    // Login: the address and password, then the app's next code (the one confirmed is never taken again).
    await page.goto(`${server.url}/desk/`);
    expect(new URL(page.url()).pathname).toBe('/desk/login');
    expect(await page.locator('#f-password').getAttribute('autocomplete')).toBe('current-password');
    await look(page, 'login-1');
    await page.locator('#f-email').fill('rita@praxis.example');
    await page.locator('#f-password').fill('correct horse battery staple');
    await loads(page, () => page.getByRole('button', { name: 'Continue' }).click());
    expect(await page.locator('h1').innerText()).toBe('Front desk: Your code');
    await look(page, 'login-2-code');
    await page.locator('#f-code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await loads(page, () => page.getByRole('button', { name: 'Log in' }).click());
    expect(new URL(page.url()).pathname).toBe('/desk/');
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === '__Host-planner-desk');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    // The day of three practitioners: each a column, the customer's phone a tel: link, HTML in a name shown as text.
    const begun = begunAnHourAgo(db, 2); // Ole Berg with Dr. Roth, an hour ago
    begunAnHourAgo(db, 4); // Tom Late with Dr. Weber, an hour ago
    await page.goto(`${server.url}/desk/day/${day}`);
    expect(await page.locator('main h2').allInnerTexts()).toEqual(['Dr. Weber', 'Dr. Roth', 'Dr. Kaya']);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Jana Müller');
    expect(main).toContain('Eva <b>Kaya</b>');
    expect(await page.locator('a[href="tel:01702223334"]').count()).toBe(1);
    expect(main).toMatch(/Free 09:30–18:00/);
    await look(page, 'day');
    await page.setViewportSize({ width: 1280, height: 800 });
    const tops = await page
      .locator('main section.card')
      .evaluateAll((sections: any[]) => sections.map((section) => Math.round(section.getBoundingClientRect().top)));
    expect(new Set(tops).size, 'three columns side by side at 1280 px').toBe(1);
    await page.setViewportSize({ width: 320, height: 640 });

    // Their day (today but in the first hour after midnight): Ole arrived, Tom did not come.
    await page.goto(`${server.url}/desk/day/${begun}`);
    await loads(page, () => page.getByRole('link', { name: 'Ole Berg' }).click());
    await look(page, 'booking');
    await loads(page, () => page.getByRole('button', { name: 'Arrived' }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('Marked as arrived.');
    expect(await page.locator('main').innerText()).toMatch(/marked arrived · Rita Reception \(reception\)/);
    await look(page, 'booking-arrived');
    await page.goto(`${server.url}/desk/day/${begun}`);
    await loads(page, () => page.getByRole('link', { name: 'Tom Late' }).click());
    await loads(page, () => page.getByRole('button', { name: 'No-show' }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('Marked as a no-show.');
    await page.goto(`${server.url}/desk/day/${begun}`);
    expect(await page.locator('li.no_show .state').innerText()).toBe('no-show');
    expect(await page.locator('li.arrived .state').innerText()).toBe('arrived');
    await look(page, 'today-marked');
    const history = await cliOk(db, 'bookings', 'show', '2');
    expect(history).toMatch(/arrived by Rita Reception \(reception, front desk\)/);

    // Logout: the session ends; the desk asks for the login again.
    await loads(page, () => page.getByRole('button', { name: 'Log out' }).click());
    expect(new URL(page.url()).pathname).toBe('/desk/login');
    await page.goto(`${server.url}/desk/`);
    expect(new URL(page.url()).pathname).toBe('/desk/login');
    expect(await cliJson(db, 'desk', 'status')).toMatchObject({ sessions: 0 });
  });
  it('books a caller without an e-mail, a series, moves outside the hours with the warning, cancels without a mail, finds customers', async () => {
    const db = tempDb();
    await bookableDb(db, {
      schedules: [{ name: 'Dr. Weber', hours: { 'mon-sun': '08:00-12:00' } }, { name: 'Dr. Roth' }],
      reasons: [{ schedules: [1, 2] }],
    });
    const day = berlinDay(2);
    await cliOk(
      db,
      'bookings',
      'add',
      '2',
      '1',
      `${day} 09:00`,
      ...fieldArgs({ first_name: 'Jana', last_name: 'Müller', email: 'jana@example.com', phone: '0170 2223334' }),
    );
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const browser = await launchChromium();
    const page = await phonePage(browser);
    await enrolAndLogIn(page, db, server.url, 'rita@praxis.example', 'reception');

    // A customer found by the phone as typed and by a name in another spelling.
    await page.goto(`${server.url}/desk/customers`);
    await page.locator('#f-q').fill('0170 2223334');
    await loads(page, () => page.getByRole('button', { name: 'Search' }).click());
    expect(await page.locator('ul.results li').count()).toBe(1);
    expect(await page.locator('ul.results').innerText()).toContain('Jana Müller');
    await look(page, 'customers-found');
    await page.locator('#f-q').fill('mueller');
    await loads(page, () => page.getByRole('button', { name: 'Search' }).click());
    expect(await page.locator('ul.results').innerText()).toContain('Jana Müller');
    await loads(page, () => page.getByRole('link', { name: 'Jana Müller', exact: true }).click());
    expect(await page.locator('h1').innerText()).toBe('Customer: Jana Müller');
    await look(page, 'customer');

    // A new caller booked without an e-mail address: the phone is required instead, and no mail goes out.
    await page.goto(`${server.url}/desk/times?reason=1&schedule=1&from=${day}`);
    await look(page, 'times');
    await loads(page, () => page.getByRole('link', { name: '10:00' }).first().click());
    expect(await page.locator('h1').innerText()).toBe('Book a caller');
    await page.locator('#f-first_name').fill('Paul');
    await page.locator('#f-last_name').fill('Kraus');
    await page.evaluate(() =>
      document.querySelector('main form[method=post][action="/desk/book"]').setAttribute('novalidate', ''),
    );
    await loads(page, () => page.getByRole('button', { name: 'Review' }).click());
    expect(await page.locator('#e-phone').innerText()).toBe('Without an e-mail address, a phone number is required.');
    await look(page, 'book-phone-required');
    await page.locator('#f-phone').fill('0151 1112223');
    await loads(page, () => page.getByRole('button', { name: 'Review' }).click());
    expect(await page.locator('h1').innerText()).toBe('Check and book');
    await look(page, 'book-review');
    await loads(page, () => page.getByRole('button', { name: 'Book', exact: true }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('Booked.');
    const paul = new URL(page.url()).pathname.split('/')[3]!;
    expect(await cliOk(db, 'bookings', 'show', paul)).toMatch(/created by Rita Reception \(reception, front desk\)/);
    const paulId = (await cliJson<{ id: number }>(db, 'bookings', 'show', paul, '--json')).id;
    expect(mailsOf(db, paulId)).toEqual(['notice']); // the practice's notice; nothing to the customer

    // A weekly series of three for Jana (her details filled from her booking).
    await page.goto(`${server.url}/desk/customers?q=mueller`);
    await loads(page, () => page.getByRole('link', { name: 'Book for Jana Müller' }).click());
    await page.selectOption('#f-schedule', '1');
    await loads(page, () => page.getByRole('button', { name: 'Show free times' }).click());
    await loads(page, () => page.getByRole('link', { name: '11:00' }).nth(1).click());
    expect(await page.locator('#f-last_name').inputValue()).toBe('Müller');
    await page.selectOption('#f-weeks', '3');
    await loads(page, () => page.getByRole('button', { name: 'Review' }).click());
    await loads(page, () => page.getByRole('button', { name: 'Book', exact: true }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('The series is booked.');
    const series = await cliJson<{ customerLastName: string; seriesId: number | null }[]>(
      db,
      'bookings',
      'list',
      '--search',
      'mueller',
      '--schedule',
      '1',
    );
    expect(series).toHaveLength(3);
    expect(new Set(series.map((one) => one.seriesId)).size).toBe(1);

    // Paul moved outside Dr. Weber's hours (08:00–12:00): the warning, then the tick it needs.
    await page.goto(`${server.url}/desk/bookings/${paul}`);
    await loads(page, () => page.getByRole('link', { name: 'Move the appointment' }).click());
    await page.locator('#f-day').fill(day);
    await page.locator('#f-time').fill('17:30');
    await loads(page, () => page.getByRole('button', { name: 'Use this time' }).click());
    expect(await page.locator('[role=alert]').innerText()).toContain('This time is outside the practitioner’s hours.');
    await look(page, 'move-outside-warning');
    await page.evaluate(() => document.querySelector('form[action$="/move"]').setAttribute('novalidate', ''));
    await loads(page, () => page.getByRole('button', { name: 'Move', exact: true }).click());
    // Not moved without the tick: the warning again.
    expect(await page.locator('[role=alert]').innerText()).toContain('This time is outside the practitioner’s hours.');
    expect(await cliJson<{ localStart: string }>(db, 'bookings', 'show', paul, '--json')).toMatchObject({
      localStart: `${day} 10:00`,
    });
    await page.locator('#f-outside').check();
    await loads(page, () => page.getByRole('button', { name: 'Move', exact: true }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('Moved.');
    expect(await cliJson<{ localStart: string }>(db, 'bookings', 'show', paul, '--json')).toMatchObject({
      localStart: `${day} 17:30`,
    });

    // Jana's first date cancelled without telling her: no cancellation mail.
    const first = series[0] as unknown as { reference: string; id: number };
    const before = mailsOf(db, first.id).length;
    await page.goto(`${server.url}/desk/bookings/${first.reference}/cancel`);
    await look(page, 'cancel');
    await page.locator('#f-notify').uncheck();
    await loads(page, () => page.getByRole('button', { name: 'Cancel the appointment' }).click());
    expect(await page.locator('p.note.done').innerText()).toBe('Cancelled.');
    expect(mailsOf(db, first.id).slice(before)).toEqual([]);
    expect(mailsOf(db, first.id)).not.toContain('cancellation');
  });
  it('by keyboard alone: logs in and marks a customer arrived; a practitioner sees their own schedule; an admin the week, absences and the audit log', async () => {
    const db = tempDb();
    await bookableDb(db, {
      schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }],
      reasons: [{ schedules: [1, 2] }],
    });
    const day = berlinDay(3);
    for (const [schedule, first] of [
      ['1', 'Lena'],
      ['2', 'Mats'],
    ] as const)
      await cliOk(
        db,
        'bookings',
        'add',
        schedule,
        '1',
        `${day} 09:00`,
        ...fieldArgs({ first_name: first, last_name: 'Sommer', email: `${first}@example.com`, phone: '0170 1112223' }),
      );
    const begun = begunAnHourAgo(db, 1); // Lena with Dr. Weber, an hour ago
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const browser = await launchChromium();

    // Keyboard alone: the login's two steps, the booking, "Arrived".
    const keys = await phonePage(browser);
    const { enrol_url } = await cliJson<{ enrol_url: string }>(
      db,
      'staff',
      'add',
      'kim@praxis.example',
      '--name',
      'Kim Key',
      '--role',
      'reception',
      '--json',
    );
    await keys.goto(enrol_url);
    await tabTo(keys, 'New password');
    await keys.keyboard.type('correct horse battery staple');
    await loads(keys, () => keys.keyboard.press('Enter'));
    const totp = OTPAuth.URI.parse(await keys.locator('dd.mono').nth(1).innerText()) as OTPAuth.TOTP;
    await tabTo(keys, 'Code from your authenticator app');
    await keys.keyboard.type(totp.generate());
    await loads(keys, () => keys.keyboard.press('Enter'));
    await keys.goto(`${server.url}/desk/login`);
    await tabTo(keys, 'E-mail address');
    await keys.keyboard.type('kim@praxis.example');
    await keys.keyboard.press('Tab');
    await keys.keyboard.type('correct horse battery staple');
    await loads(keys, () => keys.keyboard.press('Enter'));
    await tabTo(keys, 'Code from your authenticator app');
    await keys.keyboard.type(totp.generate({ timestamp: Date.now() + 30_000 }));
    await loads(keys, () => keys.keyboard.press('Enter'));
    expect(new URL(keys.url()).pathname).toBe('/desk/');
    await keys.goto(`${server.url}/desk/day/${begun}`); // her day, typed as an address
    await tabTo(keys, 'Lena Sommer');
    await loads(keys, () => keys.keyboard.press('Enter'));
    await tabTo(keys, 'Arrived');
    await loads(keys, () => keys.keyboard.press('Enter'));
    expect(await keys.locator('p.note.done').innerText()).toBe('Marked as arrived.');

    // A practitioner sees their own schedule only; another's booking is not found.
    const roth = await phonePage(browser);
    await enrolAndLogIn(roth, db, server.url, 'roth@praxis.example', 'practitioner', ['--schedule', '2']);
    await roth.goto(`${server.url}/desk/day/${day}`);
    expect(await roth.locator('main h2').allInnerTexts()).toEqual(['Dr. Roth']);
    expect(await roth.locator('nav.desk').innerText()).not.toContain('Audit log');
    const lena = (await cliJson<{ reference: string }>(db, 'bookings', 'show', '1', '--json')).reference;
    const other = await roth.goto(`${server.url}/desk/bookings/${lena}`);
    expect(other?.status()).toBe(404);
    await look(roth, 'practitioner-not-found');

    // An admin: the week, an absence on the booked day (the booking shown as stranded), the audit log.
    const admin = await phonePage(browser);
    await enrolAndLogIn(admin, db, server.url, 'ada@praxis.example', 'admin');
    await admin.goto(`${server.url}/desk/week/2/${day}`);
    expect(await admin.locator('h1').innerText()).toMatch(/^Dr\. Roth: week of /);
    expect(await admin.locator('main').innerText()).toContain('Mats Sommer');
    await look(admin, 'week');
    await admin.goto(`${server.url}/desk/absences`);
    await admin.selectOption('#f-schedule', '2');
    await admin.locator('#f-from').fill(day);
    await admin.locator('#f-to').fill(day);
    await admin.locator('#f-note').fill('Conference');
    await loads(admin, () => admin.getByRole('button', { name: 'Add', exact: true }).click());
    expect(await admin.locator('p.note.done').innerText()).toBe('The absence is added.');
    expect(await admin.locator('#h-stranded').count()).toBe(1);
    expect(await admin.locator('main').innerText()).toContain('Mats Sommer');
    await look(admin, 'absences');
    await admin.goto(`${server.url}/desk/audit`);
    const log = await admin.locator('table.audit').innerText();
    expect(log).toMatch(/Kim Key \(reception\)\s+booking arrived/);
    expect(log).toMatch(/Ada Admin \(admin\)\s+closure add/);
    await look(admin, 'audit');
    expect(await cliOk(db, 'audit')).toMatch(/Kim Key \(reception, front desk\)\s+booking arrived/);
  });
  it('in German: the login, the day, a booking, the booking form and the customers, each readable and with axe 0', async () => {
    const db = tempDb();
    await bookableDb(db, {
      locale: 'de',
      schedules: [{ name: 'Dr. Weber' }, { name: 'Dr. Roth' }, { name: 'Dr. Kaya' }],
      reasons: [{ name: 'Kontrolle', schedules: [1, 2, 3] }],
    });
    const day = berlinDay(1);
    const people = [
      ['1', '09:00', 'Jana', 'Müller', '0170 2223334'],
      ['2', '09:30', 'Ole', 'Berg', '0171 5556667'],
      ['3', '10:00', 'Eva', 'Kaya', '030 1234567'],
      ['1', '11:00', 'Tom', 'Schäfer', '0151 1112223'],
    ];
    for (const [schedule, time, first, last, phone] of people)
      await cliOk(
        db,
        'bookings',
        'add',
        schedule!,
        '1',
        `${day} ${time}`,
        ...fieldArgs({
          first_name: first!,
          last_name: last!,
          email: `${first!.toLowerCase()}@example.com`,
          phone: phone!,
        }),
      );
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const browser = await launchChromium();
    const page = await phonePage(browser, { locale: 'de-DE' });
    await page.goto(`${server.url}/desk/login`);
    expect(await page.locator('h1').innerText()).toBe('Rezeption: Anmelden');
    await look(page, 'de-login');
    await enrolAndLogIn(page, db, server.url, 'rita@praxis.example', 'reception');
    await page.goto(`${server.url}/desk/day/${day}`);
    expect(await page.locator('main h2').allInnerTexts()).toEqual(['Dr. Weber', 'Dr. Roth', 'Dr. Kaya']);
    expect(await page.locator('main').innerText()).toContain('Frei 09:30–11:00');
    await look(page, 'de-day');
    await loads(page, () => page.getByRole('link', { name: 'Jana Müller' }).click());
    expect(await page.locator('h1').innerText()).toBe('Termin: Jana Müller');
    await look(page, 'de-booking');
    await page.goto(`${server.url}/desk/times?reason=1&schedule=1&from=${day}`);
    await look(page, 'de-times');
    await loads(page, () => page.getByRole('link', { name: '12:00' }).first().click());
    expect(await page.locator('h1').innerText()).toBe('Anrufer buchen');
    await look(page, 'de-book');
    await page.goto(`${server.url}/desk/customers?q=mueller`);
    expect(await page.locator('ul.results').innerText()).toContain('Jana Müller');
    await look(page, 'de-customers');
  });
});
