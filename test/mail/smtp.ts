import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { onCleanup } from '../helpers.ts';

export interface TestSmtp {
  port: number;
  url: string;
  /** Every message accepted so far, parsed. */
  messages: ParsedMail[];
  /** Every message accepted so far, as its raw source (MIME), in the same order. */
  raw: string[];
  /** Resolves once `count` messages have arrived. */
  received(count: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/**
 * Starts a real SMTP server in the test process on 127.0.0.1 (no TLS; AUTH allowed on plain text for the test).
 * `reject(recipient)` may return an SMTP reply code to refuse a recipient with, e.g. 550.
 */
export async function startSmtp(
  options: { port?: number; reject?: (recipient: string) => number | undefined; password?: string } = {},
): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const raw: string[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'planner' && auth.password === (options.password ?? 's3cret'))
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const code = options.reject?.(address.address);
      // As Postfix answers: a refusal names the address it refuses (issue 28: such an error is personal data too).
      if (code)
        callback(
          Object.assign(
            new Error(
              `${code === 550 ? `<${address.address}>: Recipient address rejected: Mailbox unavailable` : 'Try again later'}`,
            ),
            { responseCode: code },
          ),
        );
      else callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (source) => {
          const mail = await simpleParser(source);
          raw.push(source.toString('utf8'));
          messages.push(mail);
          for (const wait of [...waiting]) {
            if (messages.length >= wait.count) {
              waiting.splice(waiting.indexOf(wait), 1);
              wait.resolve();
            }
          }
          callback();
        })
        .catch(callback);
    },
  });
  // A client killed mid-session (the crash tests kill -9 a server holding a pooled connection) resets its socket;
  // smtp-server reports that as an 'error' event, which would be an uncaught exception without a listener. The
  // tests judge delivery by the messages that arrived, so the reset itself is expected, not a failure.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  let closed = false;
  const smtp: TestSmtp = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    raw,
    async received(count) {
      if (messages.length < count) await new Promise<void>((resolve) => waiting.push({ count, resolve }));
      return messages;
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  onCleanup(() => smtp.close());
  return smtp;
}

/** Returns a port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** One part of a raw MIME message: its type, its disposition and file name when it has them, and its decoded body. */
export interface MimePart {
  type: string;
  disposition?: string;
  filename?: string;
  body: string;
}

/** The parts of a raw MIME message, depth first (decoded: base64, quoted-printable, 7bit); a multipart's body is ''. */
export function mimeParts(raw: string): MimePart[] {
  const found: MimePart[] = [];
  const walk = (text: string) => {
    const split = text.indexOf('\r\n\r\n');
    const head = text.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    const body = text.slice(split + 4);
    const type = /^content-type:\s*([^\r\n]*)/im.exec(head)?.[1] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (boundary) {
      for (const piece of body.split(`--${boundary}`).slice(1, -1)) walk(piece.replace(/^\r\n/, ''));
      found.push({ type, body: '' });
      return;
    }
    const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
    const decoded =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? Buffer.from(
              body
                .replace(/=\r\n/g, '')
                .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            ).toString('utf8')
          : body;
    const disposition = /^content-disposition:\s*([^;\r\n]*)(.*)$/im.exec(head);
    const filename = disposition && /filename="?([^";]+)"?/i.exec(disposition[2]!)?.[1];
    found.push({
      type,
      ...(disposition ? { disposition: disposition[1]!.trim().toLowerCase() } : {}),
      ...(filename ? { filename } : {}),
      body: decoded,
    });
  };
  walk(raw.replace(/\r?\n/g, '\r\n'));
  return found;
}
