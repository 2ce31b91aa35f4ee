/** A person at the desk over plain HTTP, for tests that need a session and not a browser: enrolled and logged in. */
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import { cliJson } from '../helpers.ts';

/** Text taken out of the HTML the desk wrote (escapeHtml writes `&#NN;`). */
export const fromHtml = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Posts `form` urlencoded to `url` from the desk's own origin, with `cookie`; redirects not followed. */
export function postForm(url: string, form: Record<string, string>, cookie = ''): Promise<Response> {
  const origin = new URL(url).origin;
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
  });
}

/** The `name=value` of each `Set-Cookie` of `response`. */
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((one) => one.split(';')[0]!);

/**
 * Adds `email` with `role` (`more`: e.g. `--schedule 1`), enrols them through the pages (the TOTP code computed from
 * the page's otpauth URI, as an app does) and logs them in with the app's next code. Returns the session's cookie.
 */
export async function deskSession(db: string, base: string, email: string, role: string, more: string[] = []) {
  const { enrol_url } = await cliJson<{ enrol_url: string }>(
    db,
    'staff',
    'add',
    email,
    '--name',
    email.split('@')[0]!,
    '--role',
    role,
    ...more,
    '--json',
  );
  const password = 'correct horse battery staple';
  expect((await postForm(`${enrol_url}/password`, { password })).status).toBe(303);
  const uri = fromHtml(/otpauth:\/\/totp\/[^<]+/.exec(await (await fetch(enrol_url)).text())![0]);
  const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  expect((await postForm(`${enrol_url}/code`, { code: totp.generate() })).status).toBe(200);
  const pending = cookiesOf(await postForm(`${base}/desk/login`, { email, password })).join('; ');
  const done = await postForm(
    `${base}/desk/login/code`,
    { code: totp.generate({ timestamp: Date.now() + 30_000 }) },
    pending,
  );
  const cookie = cookiesOf(done).find((one) => /^__Host-planner-desk=.{43}$/.test(one));
  expect(cookie, 'a session after the code').toBeDefined();
  return cookie!;
}

/** The session's form token, read from a page of the desk (every form carries it). */
export async function formToken(base: string, cookie: string): Promise<string> {
  const html = await (await fetch(`${base}/desk/`, { headers: { cookie } })).text();
  return fromHtml(/name="csrf" value="([^"]+)"/.exec(html)![1]!);
}
