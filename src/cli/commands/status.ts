import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { editsLine } from '../../app/calendars/calendar-edits.ts';
import { conflictLabel, everyConflict } from '../../app/calendars/calendar-views.ts';
import { STUCK_AFTER_SECONDS } from '../../app/calendars/policy.ts';
import { isProvider } from '../../app/calendars/providers.ts';
import {
  bookingPageVerdict,
  calendarEditsVerdict,
  calendarVerdict,
  calendarWriteVerdict,
  mailVerdict,
  webhookVerdict,
} from '../../app/operations/health.ts';
import { readReplication, replicationSummary } from '../../app/operations/replication.ts';
import { installationExists } from '../../app/operations/runtime.ts';
import { getStatus, type Status } from '../../app/operations/status.ts';
import { pageRules } from '../../app/pages/portal.ts';
import { localWithZone } from '../../domain/dates.ts';
import { formatOffsets } from '../../domain/reminders.ts';
import { AppError } from '../../errors.ts';
import { dbPath, print, printJson, readContext } from '../shared.ts';

/** One line per hook; a hook with retries or failures says so, with its last error and where to look. */
function webhookLines(hooks: Status['webhooks']): string[] {
  if (hooks.length === 0) return ['webhooks     none'];
  return hooks.map((hook, index) => {
    const state =
      webhookVerdict(hook).health === 'fail'
        ? `FAILING: ${hook.retrying} retrying, ${hook.failed} failed · last error: ${hook.lastError ?? 'unknown'} (planner webhook deliveries)`
        : `ok · ${hook.waiting} waiting`;
    return `${index === 0 ? 'webhooks    ' : '            '} ${hook.id} ${hook.url} · ${state}`;
  });
}

/**
 * One line per calendar of the practitioner's, a failing one with its error and the fix, one that receives the
 * bookings with how its writes stand; then the bookings busy times overlap.
 */
function calendarLines(list: Status['calendars'], zone: string | null, nowMs: number): string[] {
  if (list.length === 0)
    return ['calendars    none (planner calendar add, or calendar connect for Google and Microsoft)'];
  const local = (iso: string | null) => (iso ? localWithZone(iso, zone ?? 'UTC') : 'never');
  const lines = list.map((calendar, index) => {
    const state = {
      reconnect: () =>
        `RECONNECT: ${calendar.reconnect!.why} · reconnect: ${calendar.reconnect!.command} · bookings are kept and written into it after that; its last busy times still block`,
      ok: () => `ok · synced ${local(calendar.lastSuccess)} · ${calendar.busy} busy time(s) in the window`,
      stale: () =>
        `STALE: last synced ${local(calendar.lastSuccess)}: is planner serve running? (planner calendar sync ${calendar.id} syncs now) · ${calendar.busy} busy time(s) in the window`,
      failing: () =>
        `FAILING since ${local(calendar.failingSince)}: ${calendar.lastError} · its last busy times still block; ${isProvider(calendar.kind) ? 'planner tries again at every sync' : 'fix the address or password'}, then planner calendar sync ${calendar.id}`,
    }[calendarVerdict(calendar, nowMs).why]();
    const write = calendarWriteVerdict(calendar);
    const writing = !write
      ? ''
      : write.why === 'catching-up'
        ? ` · receives every booking; catching up: ${calendar.writing!.waiting} left`
        : write.health === 'ok'
          ? ` · receives every booking, ${calendar.writing!.waiting} waiting`
          : ` · ${write.why === 'stuck' ? `WRITES STUCK for over ${STUCK_AFTER_SECONDS / 3600} hours` : 'WRITES FAILING'} since ${local(calendar.writing!.failingSince)}: ${calendar.writing!.waiting} booking change(s) not in the calendar: ${calendar.writing!.lastError} (${calendar.reconnect ? `written after ${calendar.reconnect.command}` : 'planner retries them'})`;
    const edited = calendarEditsVerdict(calendar)
      ? ` · ${editsLine(calendar.edits)} (planner calendar repair ${calendar.id} writes planner's times back)`
      : '';
    return `${index === 0 ? 'calendars   ' : '            '} ${calendar.id} ${calendar.label} (schedule ${calendar.scheduleId}, ${calendar.kind}) · ${state}${writing}${edited}`;
  });
  const conflicts = everyConflict(list).map(conflictLabel);
  if (conflicts.length > 0) {
    lines.push(
      `             ${conflicts.length} upcoming booking(s) overlap a busy time: ${conflicts.join(', ')} (planner calendar list; move or cancel them)`,
    );
  }
  return lines;
}

function mailLine(mail: Status['mail'], zone: string | null): string {
  const waiting = `${mail.pending} message(s) waiting, ${mail.scheduled} reminder(s) scheduled, ${mail.failed} failed${mail.failed ? ' (planner mail queue)' : ''}`;
  // The transport's verdict (app/operations/health.ts, `mailTransportVerdict`), read into the status.
  const inClear = mail.passwordInClear
    ? ' · THE PASSWORD MAY TRAVEL UNENCRYPTED (--send-password-in-clear): use smtps:// or a server that offers STARTTLS'
    : '';
  if (mailVerdict(mail.configured, mail).why === 'retrying') {
    const since = localWithZone(new Date(mail.retryingSince! * 1000), zone ?? 'UTC');
    return `FAILING: ${mail.retrying} of ${mail.pending} waiting message(s) could not be sent, since ${since} · last error: ${mail.lastError ?? 'unknown'} (planner doctor --mail)${inClear} · ${waiting}`;
  }
  return mail.configured
    ? `configured, from ${mail.from}${inClear} · ${waiting}`
    : `not configured: booking e-mails wait in the outbox until \`planner mail set\` · ${waiting}`;
}

/** The booking page: off, on at its address with its limits, or on but not served (its verdict: app/operations/health.ts). */
function bookingPageLine(status: Status): string {
  const verdict = bookingPageVerdict(status);
  if (verdict.why === 'off') return 'off (planner booking-page enable)';
  if (verdict.why === 'not-served') return 'on, but not served: the self-service page is off (planner portal enable)';
  return `on at ${status.portal!.url}/book/ · at most ${status.bookingPage!.perHour}/h per address, ${status.bookingPage!.perEmail} per e-mail`;
}

/** The front desk: off, or on at its address; its staff (enrolled of all) and open sessions (`deskStatus`). */
function deskLine(desk: NonNullable<Status['desk']>): string {
  const staff = `${desk.enrolled} of ${desk.staff} staff enrolled`;
  // A desk turned off keeps its staff (their sessions end with it): told, so that none is forgotten there.
  if (!desk.enabled) return `off (planner desk enable)${desk.staff > 0 ? ` · ${staff}` : ''}`;
  return `on at ${desk.url} · ${staff} · ${desk.sessions} session(s) open`;
}

/** Where customers find and reach the practice, or what is missing. */
function contactLine(status: Status): string {
  const given = [status.address, status.phone, status.website].filter(Boolean);
  const missing = ['address', 'phone', 'website'].filter(
    (name) => status[name as 'address' | 'phone' | 'website'] === '',
  );
  if (given.length === 0)
    return 'no address, phone or website: customers are not told where to go or whom to call (planner practice set)';
  return `${given.join(' · ')}${missing.length ? ` · no ${missing.join(', ')} (planner practice set --${missing[0]} …)` : ''}`;
}

/** The lines of `planner status`, a part a line (its verdicts: app/operations/health.ts). */
function statusLines(status: Status, replication: string, nowMs: number): string[] {
  const { api, counts } = status;
  const zone = status.timeZone ?? 'UTC';
  const token = api.tokenPresent
    ? `present (created ${api.tokenCreatedAt ? localWithZone(api.tokenCreatedAt, zone) : 'at a time not recorded'})`
    : 'none (planner token new)';
  const reminders = status.reminderOffsets.length
    ? `${formatOffsets(status.reminderOffsets)} before each appointment`
    : 'off (planner reminders set)';
  const page = status.portal
    ? `on at ${status.portal.url}/manage/… · ${pageRules(status.portal)}`
    : 'off (planner portal enable)';
  const retention =
    status.retentionMonths === null
      ? 'off: personal data is kept until erased (planner retention set <months>)'
      : `bookings anonymised ${status.retentionMonths} months after they end`;
  const proxies = status.trustedProxies.length
    ? `${status.trustedProxies.join(', ')} trusted for X-Forwarded-For`
    : 'none trusted: X-Forwarded-For is ignored (planner proxy set)';
  return [
    `database     ${status.database} (schema ${status.schemaVersion})`,
    status.configured
      ? `practice     ${status.practiceName} · ${status.timeZone} · locale ${status.locale}${status.languages.length > 1 ? ` (customers also in ${status.languages.slice(1).join(', ')})` : ''} · notices to ${status.notifyEmail}`
      : 'practice     not configured: run `planner init`',
    ...(status.configured ? [`contact      ${contactLine(status)}`] : []),
    `api          ${api.enabled ? 'enabled' : 'disabled'} · token ${token} · limit ${api.rateLimitPerMinute}/min`,
    `mail         ${mailLine(status.mail, status.timeZone)}`,
    `reminders    ${reminders}`,
    `page         ${page}`,
    `booking page ${bookingPageLine(status)}`,
    ...(status.desk ? [`desk         ${deskLine(status.desk)}`] : []),
    `retention    ${retention}`,
    `proxies      ${proxies}`,
    ...webhookLines(status.webhooks),
    ...calendarLines(status.calendars, status.timeZone, nowMs),
    `replication  ${replication}`,
    `data         ${counts.schedules} schedule(s), ${counts.reasons} reason(s), ${counts.fields} form field(s), ${counts.customers} customer(s), ${counts.bookings} booking(s) (${counts.upcoming} upcoming)`,
  ];
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the state of the installation at a glance')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const file = dbPath(command);
      // Looking must not create nor write: a mistyped --db would otherwise leave a new file behind, and an empty
      // file would get the schema written into it.
      // Not set up (no file, an empty one, or one before `init`) is a failure a script must see: exit 1.
      // A file this user may not read is "permission denied" (naming the file and the user), never "no installation".
      const exists = installationExists(file);
      if (!exists || statSync(file).size === 0) {
        const missing = `no installation at ${file}${exists ? ' (the file is empty)' : ''}: start with planner init (or pass --db <file>)`;
        if (!options.json) throw new AppError('not_configured', missing);
        printJson({ database: file, exists, configured: false });
        process.exitCode = 1;
        return;
      }
      const replication = await readReplication(file);
      await readContext(command, (ctx) => {
        const status = getStatus(ctx);
        const replicated = replicationSummary(replication, ctx.now().getTime());
        if (!status.configured) process.exitCode = 1;
        if (options.json) {
          printJson({ ...status, exists: true, replication });
          return;
        }
        print(...statusLines(status, replicated.text, ctx.now().getTime()));
        if (!status.configured)
          process.stderr.write(`planner: ${status.database} is not set up yet: run planner init\n`);
      });
    });
}
