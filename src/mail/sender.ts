import { domainToASCII } from 'node:url';
import type { Transporter } from 'nodemailer';
import { addressOf } from '../domain/checks.ts';
import type { OutgoingMessage } from '../store/outbox.ts';
import { calendarObjects, methodOf, withOrganizer } from './calendar.ts';

/** One SMTP connection setup, from a URL such as `smtp://user:pass@host:587` or `smtps://host:465`. */
export interface Mailer {
  /** Sends a message; resolves with the server's answer (`250 …`), rejects with the SMTP error. */
  send(
    from: string,
    message: Pick<OutgoingMessage, 'recipient' | 'subject' | 'text' | 'html' | 'replyTo'> & {
      ics?: string;
      images?: InlineImage[];
    },
    messageId?: string,
  ): Promise<string>;
  /** Resolves when the SMTP server accepts a connection (and the login); rejects with its error. */
  verify(): Promise<void>;
  close(): void;
}

/** An image the mail's HTML shows as `cid:<cid>` (the practice's logo): a part of the message, never fetched. */
export interface InlineImage {
  cid: string;
  type: string;
  bytes: Uint8Array;
}

/** The file name of an inline image's part, by its type (some mail apps show it when they list the parts). */
const IMAGE_FILES: Record<string, string> = {
  'image/png': 'logo.png',
  'image/jpeg': 'logo.jpg',
  'image/webp': 'logo.webp',
};

/**
 * The query parameter of a mail URL that lets the SMTP password travel without TLS (`planner mail set
 * --send-password-in-clear`). Named loudly on purpose: it shows in `planner mail show` and `planner doctor`.
 */
export const PASSWORD_IN_CLEAR = 'insecure_password_in_clear';

/** The parts of a mail URL, decoded: what nodemailer is given. */
export interface MailServer {
  secure: boolean;
  /** A host name in ASCII (IDNA), or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  /** Empty when the URL names no user. */
  user: string;
  password: string;
  /** The opt-in of `--send-password-in-clear`. */
  passwordInClear: boolean;
  /** Query parameters other than the opt-in: set by older planners for nodemailer, no longer applied. */
  ignored: string[];
}

/** `decodeURIComponent`, or the text as it is where it holds a `%` that starts no escape (as nodemailer did). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Returns the parts of an `smtp://` or `smtps://` URL with a host, decoded, or undefined for anything else. The one
 * place a mail URL is read: settings, the sender, doctor and the CLI's password prompt all take it from here.
 */
export function parseMailUrl(url: string): MailServer | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') return undefined;
  const secure = parsed.protocol === 'smtps:';
  // smtp is not a scheme the URL parser knows, so a name outside ASCII stays percent-encoded: decode it and turn
  // it into its ASCII (IDNA) form, as nodemailer did with a `url`. An IPv6 literal keeps its address, unbracketed.
  const host = parsed.hostname.startsWith('[')
    ? parsed.hostname.slice(1, -1)
    : domainToASCII(safeDecode(parsed.hostname));
  if (!host) return undefined;
  return {
    secure,
    host,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    user: safeDecode(parsed.username),
    password: safeDecode(parsed.password),
    passwordInClear: !secure && parsed.username !== '' && parsed.searchParams.get(PASSWORD_IN_CLEAR) === 'yes',
    ignored: [...parsed.searchParams.keys()].filter((key) => key !== PASSWORD_IN_CLEAR),
  };
}

/** True when `url` has a user but the password may go out unencrypted (smtp:// with the opt-in). */
export function passwordMayTravelInClear(url: string): boolean {
  return parseMailUrl(url)?.passwordInClear ?? false;
}

/**
 * nodemailer's connection options for `url`. Built here rather than handed over as `url`, so that no query
 * parameter can switch TLS off: `smtp://` with a user requires STARTTLS before AUTH (`requireTLS`), unless the
 * URL carries the opt-in; then it is used when offered, as for a URL without a user.
 */
function transportOptions(url: string) {
  const server = parseMailUrl(url);
  if (!server) throw new Error('the mail URL is not smtp:// or smtps:// with a host: run planner mail set again');
  const { secure, host, port, user, password, passwordInClear } = server;
  return {
    host,
    port,
    secure,
    ...(user ? { auth: { user, pass: password } } : {}),
    requireTLS: !secure && user !== '' && !passwordInClear,
  };
}

/** Returns a mailer for `url`, with time-outs so a dead server cannot hold a delivery for long. */
export function createMailer(url: string): Mailer {
  // nodemailer loads on the first message: the CLI's other commands start without it.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      // One pooled connection, reused for up to 100 messages: a queue after an outage drains at hundreds a
      // second instead of paying a new connection and greeting per message.
      createTransport({
        ...transportOptions(url),
        pool: true,
        maxConnections: 1,
        maxMessages: 100,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    ));
  return {
    async send(from, message, messageId) {
      const files = calendarObjects(message.ics ?? '').map((object) => {
        const text = withOrganizer(object, addressOf(from));
        return { text, method: methodOf(text) };
      });
      // iMIP (RFC 6047): a mail about one booking carries its invitation inline, as a text/calendar alternative
      // whose MIME method is the METHOD inside (Outlook reads only that), and the same file attached for every other
      // reader; its ORGANIZER is the address the mail comes from (a mismatch makes some clients refuse an update:
      // CalConnect's advice). A mail about several bookings (a series' confirmation or cancellation) attaches each
      // one's own file, numbered in the order of the mail's dates, and none inline: an alternative is the whole
      // mail in another form, and Outlook would take the mail for the first date's invitation alone. A file an
      // older version kept as one PUBLISH of several events is attached only, as it was then.
      const inline = files.length === 1 && files[0]!.method !== 'PUBLISH' ? files[0] : undefined;
      const info = await (await connect()).sendMail({
        from,
        to: message.recipient,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(messageId ? { messageId } : {}),
        ...(inline
          ? {
              alternatives: [
                { contentType: `text/calendar; charset=utf-8; method=${inline.method}`, content: inline.text },
              ],
            }
          : {}),
        attachments: [
          ...files.map((file, n) => ({
            filename: files.length === 1 ? 'appointment.ics' : `appointment-${n + 1}.ics`,
            content: file.text,
            contentType: `text/calendar; charset=utf-8; method=${file.method}`,
          })),
          // An inline part with a Content-ID (nodemailer's `cid`): the HTML shows it by `cid:`, no remote image.
          ...(message.images ?? []).map((image) => ({
            filename: IMAGE_FILES[image.type] ?? 'logo',
            content: Buffer.from(image.bytes),
            contentType: image.type,
            contentDisposition: 'inline' as const,
            cid: image.cid,
          })),
        ],
      });
      return String(info.response);
    },
    async verify() {
      await (await connect()).verify();
    },
    close() {
      // A transport that never came up (its options were refused) has nothing to close.
      void transport?.then(
        (open) => open.close(),
        () => {},
      );
    },
  };
}

/** Returns the SMTP reply code of a send failure (e.g. 550), or undefined for time-outs and refused connections. */
export function smtpCodeOf(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' ? code : undefined;
}

/** Returns the one-line description of a send failure: the SMTP answer where there is one. */
export function describeFailure(error: unknown): string {
  const failure = error as { response?: unknown; code?: unknown; message?: unknown; command?: unknown };
  if (failure.code === 'ETLS' && failure.command === 'STARTTLS') {
    // requireTLS refused to go on: the password was not sent. Name the fix.
    return (
      `the server does not offer STARTTLS, so the password was not sent (it would travel in clear): use smtps:// ` +
      `(usually port 465) or a server that offers STARTTLS; only on a network you trust: planner mail set … --send-password-in-clear`
    );
  }
  const text =
    typeof failure.response === 'string'
      ? failure.response // the server's own words, e.g. "550 Mailbox unavailable"
      : typeof failure.code === 'string' && !String(failure.message).includes(failure.code)
        ? `${failure.code}: ${String(failure.message)}`
        : String(failure.message ?? error);
  return text.replace(/\s+/g, ' ').trim();
}

/** Returns `url` with its password replaced by `****`. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}
