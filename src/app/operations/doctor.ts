import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { localWithZone } from '../../domain/dates.ts';
import { looksLikeToken } from '../../domain/token.ts';
import { isTimeZone, timeZoneProblem } from '../../domain/zone.ts';
import { createMailer, describeFailure, maskUrl, parseMailUrl } from '../../mail/sender.ts';
import { countFeeds } from '../../store/feeds.ts';
import { migrations } from '../../store/migrations.ts';
import { outboxCounts } from '../../store/outbox.ts';
import { webhookHealth } from '../../store/webhooks.ts';
import { editsLine } from '../calendars/calendar-edits.ts';
import { calendars, conflictLabel, everyConflict } from '../calendars/calendar-views.ts';
import { STUCK_AFTER_SECONDS } from '../calendars/policy.ts';
import { isProvider } from '../calendars/providers.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { reminderDeadlineWarning } from '../messages/reminders.ts';
import { bookingLogoProblem } from '../pages/booking-page.ts';
import { pageRules } from '../pages/portal.ts';
import { isConfigured, requireConfigured } from '../practice/configured.ts';
import { missingTexts } from '../practice/local-texts.ts';
import { tokenMatches } from '../practice/token.ts';
import {
  bookingPageVerdict,
  calendarEditsVerdict,
  calendarVerdict,
  calendarWriteVerdict,
  mailTransportVerdict,
  mailVerdict,
  webhookVerdict,
} from './health.ts';
import { readReplication, replicationSummary } from './replication.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';

/**
 * The doors of `planner serve`, by the path a reverse proxy must route to it: the API, the self-service page, the
 * booking page, the calendar feed, the front desk. `doctor --url` calls each one that is on; the README's proxy
 * snippets route every one (test/docs/reverse-proxy.test.ts holds them to this list and runs them in nginx, Caddy
 * and Apache).
 */
export const DOORS = ['/api/', '/manage/', '/book/', '/feed/', '/desk/'] as const;

/** One finding of `planner doctor`: what was checked, how it stands, and what to do. */
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface DoctorOptions {
  /** Also connect to the SMTP server. */
  mail?: boolean;
  /** Call the live installation at this base address (…/api) with `token`, to prove the Authorization header arrives. */
  url?: string;
  token?: string;
}

function fileChecks(file: string): Check[] {
  const checks: Check[] = [];
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    checks.push({ name: 'database', status: 'ok', detail: `${file} is readable and writable` });
  } catch {
    checks.push({
      name: 'database',
      status: 'fail',
      detail: `${file} is not writable by this user: bookings would fail; fix its owner or mode`,
    });
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(path)) continue;
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      checks.push({
        name: 'permissions',
        status: 'warn',
        detail: `${path} has mode ${mode.toString(8)}: others can read customer data; run chmod 600 ${path}`,
      });
    }
  }
  if (!checks.some((check) => check.name === 'permissions')) {
    checks.push({ name: 'permissions', status: 'ok', detail: 'the database files are mode 600' });
  }
  return checks;
}

/** Returns the checks of the installation: the things that break real installs, each with its fix. */
export async function diagnose(ctx: AppContext, options: DoctorOptions): Promise<Check[]> {
  const checks = [...fileChecks(ctx.store.file), ...storeChecks(ctx)];
  const settings = ctx.settings();
  if (!isConfigured(settings)) {
    checks.push({ name: 'configured', status: 'fail', detail: 'not set up: run planner init' });
    return checks;
  }
  checks.push(
    ...settingChecks(ctx),
    ...(await mailChecks(ctx, options)),
    ...webhookChecks(ctx),
    ...pageChecks(ctx),
    ...calendarChecks(ctx),
  );
  const replication = replicationSummary(await readReplication(ctx.store.file), ctx.now().getTime());
  checks.push({ name: 'replication', status: replication.ok ? 'ok' : 'fail', detail: replication.text });
  if (options.url) checks.push(...(await liveChecks(ctx, options.url, options.token)));
  return checks;
}

/**
 * How many pages of a file SQLite's check found used by nothing, when that is all it found (space, not data: every
 * row and index is whole); undefined for any other finding. Litestream 0.3.13 can leave such pages in a file it
 * restored (the replication test saw it once, benbjohnson/litestream#582 reports worse).
 */
export function unusedPagesOnly(check: string): number | undefined {
  const lines = check.split('\n').filter((line) => line !== '*** in database main ***');
  return lines.length > 0 && lines.every((line) => /^Page \d+: never used$/.test(line)) ? lines.length : undefined;
}

/** The file's integrity and schema. */
function storeChecks(ctx: AppContext): Check[] {
  const integrity = (ctx.store.db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check;
  const unused = integrity === 'ok' ? undefined : unusedPagesOnly(integrity);
  return [
    integrity === 'ok'
      ? { name: 'integrity', status: 'ok', detail: 'SQLite quick_check: ok' }
      : unused !== undefined
        ? {
            name: 'integrity',
            status: 'warn',
            detail: `SQLite quick_check: ${unused} page(s) of the file used by nothing (space only: every row is whole; a file Litestream restored can have them); planner backup <file> writes a compact copy: stop planner and put the copy in the file's place`,
          }
        : { name: 'integrity', status: 'fail', detail: `SQLite quick_check: ${integrity}; restore the last backup` },
    { name: 'schema', status: 'ok', detail: `schema version ${ctx.store.schemaVersion()} of ${migrations.length}` },
  ];
}

/** The installation's settings: the practice, its zone and contact, the clock, the API and its token. */
function settingChecks(ctx: AppContext): Check[] {
  const settings = requireConfigured(ctx);
  const zoneProblem = timeZoneProblem(settings.timeZone);
  const missing = [settings.address === '' && 'address', settings.phone === '' && 'phone']
    .filter(Boolean)
    .join(' and no ');
  const now = ctx.now();
  const year = now.getUTCFullYear();
  return [
    { name: 'configured', status: 'ok', detail: `"${settings.practiceName}"` },
    zoneProblem === undefined
      ? { name: 'time zone', status: 'ok', detail: settings.timeZone }
      : {
          name: 'time zone',
          status: isTimeZone(settings.timeZone) ? 'warn' : 'fail',
          detail: `${zoneProblem} (planner practice set --timezone …)`,
        },
    missing
      ? {
          name: 'contact',
          status: 'warn',
          detail: `no ${missing}: mails and the page cannot tell customers where to go or whom to call when it is too late to change online (planner practice set)`,
        }
      : { name: 'contact', status: 'ok', detail: `${settings.address} · ${settings.phone}` },
    year >= 2024 && year < 2100
      ? { name: 'clock', status: 'ok', detail: localWithZone(now, settings.timeZone, true) }
      : {
          name: 'clock',
          status: 'warn',
          detail: `the system clock says ${localWithZone(now, settings.timeZone, true)}: slots and notice depend on it; fix NTP`,
        },
    settings.apiEnabled
      ? { name: 'api', status: 'ok', detail: `enabled, ${settings.rateLimit} requests/minute per token` }
      : { name: 'api', status: 'warn', detail: 'disabled: every call answers 503 "API disabled" (planner api enable)' },
    settings.tokenHash
      ? {
          name: 'token',
          status: 'ok',
          detail: `present, made ${localWithZone(settings.tokenCreatedAt ?? '', settings.timeZone)}`,
        }
      : { name: 'token', status: 'warn', detail: 'none: every call answers 401 (planner token new)' },
  ];
}

/** The mail: its verdict (app/operations/health.ts), its URL's options, whether the password may travel in clear; `--mail`: the server. */
async function mailChecks(ctx: AppContext, options: DoctorOptions): Promise<Check[]> {
  const settings = requireConfigured(ctx);
  const queue = outboxCounts(ctx.store, unixSeconds(ctx.now()));
  const verdict = mailVerdict(settings.mailUrl !== null, queue);
  const detail = {
    'not-configured': () => `not configured: ${queue.pending} message(s) wait (planner mail set)`,
    retrying: () =>
      `${queue.retrying} message(s) waiting after a failed attempt since ${localWithZone(new Date(queue.retryingSince! * 1000), settings.timeZone)}: ${queue.lastError ?? 'unknown error'} (planner doctor --mail tests the server; planner mail queue lists them)`,
    failed: () => `${queue.failed} message(s) failed: planner mail queue, then planner mail retry`,
    ok: () => `${maskUrl(settings.mailUrl!)}, ${queue.pending} waiting`,
  }[verdict.why]();
  const checks: Check[] = [{ name: 'mail', status: verdict.health, detail }];
  if (!settings.mailUrl) return checks;
  const ignored = parseMailUrl(settings.mailUrl)?.ignored ?? [];
  if (ignored.length > 0) {
    checks.push({
      name: 'mail-options',
      status: 'warn',
      detail: `the mail URL's options ${ignored.join(', ')} are not applied (planner sets TLS itself): planner mail set again without them`,
    });
  }
  if (mailTransportVerdict(settings.mailUrl)?.why === 'password-in-clear') {
    checks.push({
      name: 'mail-tls',
      status: 'fail',
      detail:
        'the SMTP password may travel unencrypted (--send-password-in-clear): use smtps:// or a server that offers STARTTLS, then planner mail set again without it',
    });
  }
  if (options.mail) {
    const mailer = createMailer(settings.mailUrl);
    try {
      await mailer.verify();
      checks.push({
        name: 'smtp',
        status: 'ok',
        detail: `${maskUrl(settings.mailUrl)} accepts the connection and login`,
      });
    } catch (error) {
      checks.push({ name: 'smtp', status: 'fail', detail: `${maskUrl(settings.mailUrl)}: ${describeFailure(error)}` });
    } finally {
      mailer.close();
    }
  }
  return checks;
}

/** Each webhook, by its verdict (app/operations/health.ts): failing while deliveries are retried or failed. */
function webhookChecks(ctx: AppContext): Check[] {
  return webhookHealth(ctx.store).map((hook) => {
    const verdict = webhookVerdict(hook);
    return {
      name: `webhook ${hook.webhookId}`,
      status: verdict.health,
      detail:
        verdict.why === 'failing'
          ? `${hook.url}: ${hook.retrying} retrying, ${hook.failed} failed · last error: ${hook.lastError ?? 'unknown'} (planner webhook deliveries lists them; planner webhook retry <delivery-id> sends one again)`
          : `${hook.url}: ${hook.waiting} waiting`,
    };
  });
}

/** The reminders against the page's deadline, the self-service page and the booking page. */
function pageChecks(ctx: AppContext): Check[] {
  const settings = requireConfigured(ctx);
  const portal = settings.portal;
  const lateReminders = reminderDeadlineWarning(ctx);
  const book = bookingPageVerdict(settings);
  const logo = bookingLogoProblem(ctx);
  return [
    ...(lateReminders ? [{ name: 'reminders', status: 'warn' as const, detail: lateReminders }] : []),
    portal
      ? { name: 'portal', status: 'ok', detail: `on at ${portal.url}/manage/…, ${pageRules(portal)}` }
      : { name: 'portal', status: 'ok', detail: 'off: mails carry no self-service link (planner portal enable)' },
    {
      name: 'book',
      status: book.health,
      detail: {
        off: 'booking page off (planner booking-page enable)',
        served: `booking page on at ${portal?.url}/book/`,
        'not-served':
          "the booking page is on but not served: it lives at the self-service page's address, which is off (planner portal enable --url https://…)",
      }[book.why],
    },
    ...(logo ? [{ name: 'logo', status: 'warn' as const, detail: logo }] : []),
    languageCheck(ctx),
  ];
}

/** How many of the missing texts `planner doctor` names; the rest it counts. */
const MISSING_SHOWN = 5;

/**
 * The languages customers are served in, and each customer-facing text of the practice without a version in one of
 * them (customers there see the practice's own text): a warning naming them, with the command that gives each.
 */
function languageCheck(ctx: AppContext): Check {
  const { languages } = requireConfigured(ctx);
  const missing = missingTexts(ctx);
  const offered = `customers in ${languages.join(', ')} (${languages[0]}: the practice's own)`;
  if (missing.length === 0)
    return {
      name: 'languages',
      status: 'ok',
      detail: languages.length > 1 ? `${offered}: every label, reason and description in each` : offered,
    };
  const named = missing
    .slice(0, MISSING_SHOWN)
    .map((one) => `${one.locale}: ${one.of}'s ${one.what} "${one.own}" (${one.fix})`);
  const more = missing.length > MISSING_SHOWN ? `; and ${missing.length - MISSING_SHOWN} more` : '';
  return {
    name: 'languages',
    status: 'warn',
    detail: `${offered}; ${missing.length} text(s) shown in the practice's own language instead: ${named.join('; ')}${more}`,
  };
}

/**
 * `--url`: the API with the token, then each other door that is on, at the public address its links carry (the
 * front desk at its own).
 */
async function liveChecks(ctx: AppContext, url: string, token: string | undefined): Promise<Check[]> {
  const settings = requireConfigured(ctx);
  const portal = settings.portal;
  const checks = [await liveCheck(url, token, settings.tokenHash)];
  if (portal) {
    checks.push(
      await doorCheck(
        'portal-live',
        portal.url,
        '/manage/',
        'not-found',
        'the links in the mails work',
        'the links in the mails lead nowhere',
      ),
    );
  }
  if (portal && settings.bookingPage) {
    checks.push(
      await doorCheck(
        'book-live',
        portal.url,
        '/book/',
        'page',
        'customers can book online',
        'customers cannot book online',
      ),
    );
  }
  if (countFeeds(ctx.store) > 0) {
    // A secret no feed has (planner's 404); the door counts it as one wrong guess from this address. The feed's
    // address is the page's, else --url's.
    const probe = `${randomBytes(32).toString('base64url')}.ics`;
    checks.push(
      await doorCheck(
        'feed-live',
        portal?.url ?? publicAddress(url),
        '/feed/',
        'not-found',
        'calendar apps can fetch the feeds',
        'calendar apps cannot fetch the feeds',
        probe,
      ),
    );
  }
  if (settings.desk) {
    // The login page: the one desk page planner answers without a session (`/desk/` itself sends a stranger there
    // with a 303, which is not a page). At the desk's own address, which may be another host than the page's.
    checks.push(
      await doorCheck(
        'desk-live',
        settings.desk.url,
        '/desk/',
        'page',
        'staff can log in at the front desk',
        'staff cannot log in at the front desk',
        'login',
      ),
    );
  }
  return checks;
}

/** Returns the public address of an API base `…/api`: the same without `/api` (the doors share one address). */
function publicAddress(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/api$/, '');
}

/**
 * The practitioner's calendars, by their verdicts (app/operations/health.ts): a failing one fails (new events in it do not block),
 * with the fix; one not synced for a while warns that no planner serve syncs it; one that receives the bookings and
 * cannot be written fails, loudly once it is stuck; bookings that busy times overlap warn.
 */
function calendarChecks(ctx: AppContext): Check[] {
  const now = ctx.now().getTime();
  const checks: Check[] = [];
  const list = calendars(ctx);
  const zone = requireConfigured(ctx).timeZone;
  const local = (iso: string | null) => (iso === null ? 'never' : localWithZone(iso, zone));
  for (const calendar of list) {
    const name = `calendar ${calendar.id}`;
    // A Google or Microsoft calendar has no user and password to fix: its sign-in is `reconnect`'s.
    const provider = isProvider(calendar.kind);
    const read = calendarVerdict(calendar, now);
    const detail = {
      reconnect: `${calendar.label}: ${calendar.reconnect?.why}; reconnect: ${calendar.reconnect?.command}. Until then bookings are kept and wait to be written, and its last busy times still block`,
      failing: `${calendar.label}: failing since ${local(calendar.failingSince)}: ${calendar.lastError}; its last busy times still block, new events are not seen. ${provider ? 'Planner tries again at every sync' : `Fix the address or password (planner calendar set ${calendar.id} --user <name> --password-stdin), or the server`}, then planner calendar sync ${calendar.id}`,
      stale: `${calendar.label}: last synced ${local(calendar.lastSuccess)}: is planner serve running? (planner calendar sync ${calendar.id} syncs now)`,
      ok: `${calendar.label} (${calendar.kind}, ${calendar.url}): synced ${local(calendar.lastSuccess)}, ${calendar.busy} busy time(s) in the window`,
    }[read.why];
    checks.push({ name, status: read.health, detail });
    const write = calendarWriteVerdict(calendar);
    const writing = calendar.writing;
    if (write && writing) {
      const failing = `${writing.waiting} booking change(s) not written since ${local(writing.failingSince)}: ${writing.lastError}; planner retries them, and the practitioner's calendar lacks them until then (${calendar.reconnect ? `reconnect: ${calendar.reconnect.command}` : provider ? 'planner calendar list shows why' : `check the server, or the password: planner calendar set ${calendar.id} --user <name> --password-stdin`})`;
      checks.push({
        name: `${name} writes`,
        status: write.health,
        detail: {
          stuck: `${calendar.label}: STUCK for over ${STUCK_AFTER_SECONDS / 3600} hours: ${failing}`,
          failing: `${calendar.label}: ${failing}`,
          'catching-up': `${calendar.label}: receives every booking; catching up: ${writing.waiting} left`,
          ok: `${calendar.label}: receives every booking, ${writing.waiting} waiting`,
        }[write.why],
      });
    }
    if (calendarEditsVerdict(calendar)) {
      checks.push({
        name: `${name} edits`,
        status: 'warn',
        detail: `${calendar.label}: ${editsLine(calendar.edits)}; the bookings hold. Change bookings in planner; planner calendar repair ${calendar.id} writes planner's times back`,
      });
    }
  }
  const conflicts = everyConflict(list).map(conflictLabel);
  if (conflicts.length > 0) {
    checks.push({
      name: 'calendar conflicts',
      status: 'warn',
      detail: `${conflicts.length} upcoming booking(s) overlap a busy time: ${conflicts.join(', ')}; move or cancel them (planner calendar list)`,
    });
  }
  return checks;
}

/**
 * Calls GET <base><door><probe> and expects planner's own answer, told by its header `x-planner-page` (`page`, or
 * `not-found` for a link planner does not know). Anything else means the proxy does not route `door` to planner:
 * the proxy's own 404, or the site behind it.
 */
async function doorCheck(
  name: string,
  base: string,
  door: string,
  wanted: 'page' | 'not-found',
  reached: string,
  lost: string,
  probe = '',
): Promise<Check> {
  const address = `${base}${door}`;
  let response: Response;
  try {
    response = await fetch(`${address}${probe}`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch (error) {
    return { name, status: 'fail', detail: `${address} cannot be reached: ${(error as Error).message}` };
  }
  if (response.headers.get('x-planner-page') === wanted)
    return { name, status: 'ok', detail: `${address} reaches planner: ${reached}` };
  return {
    name,
    status: 'fail',
    detail: `${address} answers ${response.status} without planner's page: route ${door} to planner in the proxy (README: "Reverse proxy"); until then ${lost}`,
  };
}

/** Returns the hint for a --url that does not end in /api (planner's API lives under it), else ''. */
function withoutApi(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
  return path.endsWith('/api') ? '' : `; planner's API is under /api: try --url ${url}/api`;
}

/**
 * Calls GET <url>/schedules with the token. A token that matches this installation's hash but gets 401 from the
 * live address means the Authorization header did not arrive: a proxy strips it (the spec warns of this).
 */
async function liveCheck(url: string, token: string | undefined, tokenHash: string | null): Promise<Check> {
  const base = url.replace(/\/+$/, '');
  if (!token)
    return {
      name: 'live',
      status: 'fail',
      detail: 'give the token with --token or PLANNER_TOKEN to call the live API',
    };
  if (!looksLikeToken(token) || !tokenHash || !(await tokenMatches(tokenHash, token))) {
    return {
      name: 'live',
      status: 'fail',
      detail: "that token is not this installation's token (planner token new makes one)",
    };
  }
  let response: Response;
  try {
    response = await fetch(`${base}/schedules`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    return { name: 'live', status: 'fail', detail: `${base} cannot be reached: ${(error as Error).message}` };
  }
  if (response.status === 200)
    return { name: 'live', status: 'ok', detail: `${base}/schedules answers 200: the Authorization header arrives` };
  if (response.status === 401) {
    return {
      name: 'live',
      status: 'fail',
      detail: `${base}/schedules answers 401 to the right token: the Authorization header does not arrive; configure the proxy to pass it (see the README)${withoutApi(base)}`,
    };
  }
  return {
    name: 'live',
    status: 'fail',
    detail: `${base}/schedules answers ${response.status}: ${(await response.text()).slice(0, 200)}${withoutApi(base)}`,
  };
}
