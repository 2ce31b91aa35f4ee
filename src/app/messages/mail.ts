import { addressOf, isEmail } from '../../domain/checks.ts';
import { formatLocal } from '../../domain/dates.ts';
import { DROPPED_BY_CHANGE } from '../../domain/reminders.ts';
import { typeset } from '../../domain/typography.ts';
import { invalid } from '../../errors.ts';
import { createMailer, describeFailure, maskUrl, PASSWORD_IN_CLEAR, parseMailUrl } from '../../mail/sender.ts';
import { WORDS } from '../../mail/translations.ts';
import { type QueueEntry, queueMessages, requeueFailed } from '../../store/outbox.ts';
import { setMailSettings } from '../../store/settings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from '../practice/configured.ts';

/**
 * Checks and stores the SMTP URL (`smtp://` or `smtps://`) and the sender address. `password` goes into the URL's
 * password (it may come from stdin, the environment or a prompt rather than the command line); `passwordInClear`
 * marks a `smtp://` URL with a user as allowed to send the password without TLS.
 */
export function setMail(
  ctx: AppContext,
  url: string,
  from: string,
  options: { password?: string; passwordInClear?: boolean } = {},
): void {
  requireConfigured(ctx);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`"${maskUrl(url)}" is not a URL (example: smtp://user@mail.example.com:587)`);
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw invalid(
      'the mail URL must start with smtp:// (STARTTLS, usually port 587) or smtps:// (TLS, usually port 465)',
    );
  }
  if (!parsed.hostname) throw invalid('the mail URL names no host (example: smtp://mail.example.com:587)');
  if (
    (parsed.pathname !== '' && parsed.pathname !== '/') ||
    [...parsed.searchParams.keys()].some((key) => key !== PASSWORD_IN_CLEAR)
  ) {
    throw invalid('the mail URL takes no path or options: smtp://user@host:port or smtps://user@host:port');
  }
  if (options.password !== undefined) {
    if (!parsed.username)
      throw invalid('a password needs a user in the URL (example: smtp://user@mail.example.com:587)');
    if (parsed.password) throw invalid('the password is in the URL and given again: give it once');
    if (options.password === '') throw invalid('the password given is empty');
    // Encoded whole: the URL's setter leaves `%` as it is, and `50%off` would then be read back as something else.
    parsed.password = encodeURIComponent(options.password);
  }
  const server = parseMailUrl(parsed.toString());
  if (!server) throw invalid(`the mail URL names no usable host (example: smtp://user@mail.example.com:587)`);
  if (server.user && !server.password) {
    throw invalid(
      `the URL names the user "${server.user}" but no password: give it with --password-stdin, PLANNER_SMTP_PASSWORD or at the prompt`,
    );
  }
  if (options.passwordInClear) {
    if (parsed.protocol !== 'smtp:' || !parsed.username)
      throw invalid('--send-password-in-clear applies only to smtp:// with a user');
    parsed.searchParams.set(PASSWORD_IN_CLEAR, 'yes');
  }
  if (!isEmail(addressOf(from)) || /[\r\n]/.test(from)) {
    throw invalid(`--from "${from}" is not an e-mail address (example: "Praxis Dr. Weber <desk@praxis.example>")`);
  }
  setMailSettings(ctx.store, parsed.toString(), from.trim());
}

/** Returns the user a mail URL names when it gives no password (the CLI then asks for one), else undefined. */
export function userWithoutPassword(url: string): string | undefined {
  const server = parseMailUrl(url);
  return server?.user && !server.password ? server.user : undefined;
}

/** Returns the mail settings with the password masked. */
export function mailSettings(ctx: AppContext): { configured: boolean; url: string | null; from: string | null } {
  const settings = requireConfigured(ctx);
  return {
    configured: settings.mailUrl !== null,
    url: settings.mailUrl && maskUrl(settings.mailUrl),
    from: settings.mailFrom,
  };
}

/** Sends a test message now and resolves with the SMTP server's answer; rejects with a clear error. */
export async function sendTestMail(ctx: AppContext, to: string): Promise<string> {
  const settings = requireConfigured(ctx);
  if (!isEmail(to)) throw invalid(`"${to}" is not an e-mail address`);
  if (!settings.mailUrl || !settings.mailFrom)
    throw invalid('mail is not configured: run `planner mail set <smtp-url> --from <address>` first');
  const mailer = createMailer(settings.mailUrl);
  try {
    return await mailer.send(settings.mailFrom, {
      recipient: to,
      // In the installation's language, as every mail.
      // Typeset as the outbox's mails are (typesetMail): this one has no HTML to take its language from.
      subject: typeset(settings.locale, WORDS[settings.locale].testSubject(settings.practiceName)),
      text: `${typeset(settings.locale, WORDS[settings.locale].testText(settings.practiceName, maskUrl(settings.mailUrl)))}\n`,
      html: '',
    });
  } catch (error) {
    throw invalid(`the test message was not sent through ${maskUrl(settings.mailUrl)}: ${describeFailure(error)}`);
  } finally {
    mailer.close();
  }
}

/** How far back `planner mail queue` shows reminders dropped because they came due too late. */
const DROPPED_SHOWN_SECONDS = 7 * 24 * 3600;

/** A message as `planner mail queue` shows it: its section, its booking's reference, and when it is due, local. */
export interface MailQueueEntry extends QueueEntry {
  /** `next_attempt_at` in the installation's zone (`YYYY-MM-DD HH:MM`): a scheduled reminder's time. */
  dueLocal: string;
}

/**
 * Returns the outbox as `planner mail queue` shows it, in sections: waiting (due now or retrying), scheduled
 * reminders (not yet due, by time), failed, and reminders the sender dropped in the last 7 days because they came
 * due too late (the appointment had begun). Reminders dropped by a cancel or move are not shown.
 */
export function mailQueue(ctx: AppContext): MailQueueEntry[] {
  const settings = requireConfigured(ctx);
  const now = unixSeconds(ctx.now());
  return queueMessages(ctx.store, now, now - DROPPED_SHOWN_SECONDS, DROPPED_BY_CHANGE).map((entry) => ({
    ...entry,
    dueLocal: formatLocal(new Date(entry.nextAttemptAt * 1000), settings.timeZone),
  }));
}

/** Puts one failed message, or all (`all`), back in the queue; returns how many. */
export function retryMail(ctx: AppContext, which: number | 'all'): number {
  requireConfigured(ctx);
  const count = requeueFailed(ctx.store, which === 'all' ? undefined : which, unixSeconds(ctx.now()));
  if (which !== 'all' && count === 0)
    throw invalid(`message ${which} is not a failed message (see \`planner mail queue\`)`);
  return count;
}
