/**
 * Every request planner makes to an address an admin gave: webhook deliveries, the practitioner's calendar
 * read (fetch.ts) and written. One policy: the address guard at connect time (`guardedLookup`, address.ts), at most
 * `maxRedirects` redirects, each new address checked as the first was, the login sent to the first address's origin
 * only, one deadline for the whole exchange, and at most `maxBytes` of an answer's body, decoded. Plain node:http: the
 * guard must sit in the connection's own DNS lookup, which fetch cannot take.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { guardedLookup } from './address.ts';

/** Where a request goes, and how to log in (HTTP Basic), and whether local or private addresses are allowed. */
export interface OutboundTarget {
  url: string;
  user?: string;
  password?: string;
  allowInsecure: boolean;
}

export interface OutboundLimits {
  /** The whole exchange: every request and redirect. */
  timeoutMs: number;
  /** The body of one answer, decoded; 0: the body is read and dropped (a webhook's receiver: its status counts). */
  maxBytes: number;
  maxRedirects: number;
}

/** Why a request failed before an answer: the caller words it (each door says it its own way). */
export type OutboundFailure =
  | { kind: 'timeout' }
  | { kind: 'internal'; message: string }
  | { kind: 'network'; code: string | undefined; message: string }
  | { kind: 'too-large' }
  | { kind: 'redirects' }
  | { kind: 'redirect-refused'; message: string };

/** `bytes` as a person reads it: 10 MiB, 64 KiB, 1000 bytes. */
export function sizeOf(bytes: number): string {
  for (const [unit, size] of [
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return `${bytes} bytes`;
}

/**
 * The one line of a request to `host` that failed before an answer, as every outbound door says it (webhooks,
 * calendars read and written): never the URL's secret parts, only its host. `what` is what an answer would have been
 * (`a calendar`), for the size limit.
 */
export function failureLine(failure: OutboundFailure, host: string, limits: OutboundLimits, what: string): string {
  switch (failure.kind) {
    case 'timeout':
      return `${host} did not answer within ${limits.timeoutMs / 1000} s`;
    case 'internal':
      return `${host} resolves to a local or private address: allowed only with --allow-insecure`;
    case 'too-large':
      return `${host} answered more than ${sizeOf(limits.maxBytes)}: planner reads at most that much of ${what}`;
    case 'redirects':
      return `${host} redirected more than ${limits.maxRedirects} times`;
    case 'redirect-refused':
      return `${host} redirected to an address planner does not follow: ${failure.message}`;
    case 'network':
      return `could not reach ${host}: ${failure.code ?? failure.message}`;
  }
}

/** A request that failed before an answer, with why. */
export class OutboundError extends Error {
  readonly failure: OutboundFailure;
  constructor(failure: OutboundFailure) {
    super(failure.kind === 'network' ? failure.message : failure.kind);
    this.failure = failure;
  }
}

/** One answer, its body decoded and read whole (within the limit). */
export interface OutboundAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One exchange's requests: the same deadline and limits for all of them, and the target's login. */
export interface OutboundSession {
  target: OutboundTarget;
  limits: OutboundLimits;
  signal: AbortSignal;
  userAgent: string;
  /** Checks a redirect's new address as the first was checked; throws with the reason. */
  checkRedirect: (url: string) => string;
}

/** Opens an exchange with `target`: its deadline starts now. */
export function openSession(
  target: OutboundTarget,
  limits: OutboundLimits,
  userAgent: string,
  checkRedirect: (url: string) => string,
): OutboundSession {
  return { target, limits, signal: AbortSignal.timeout(limits.timeoutMs), userAgent, checkRedirect };
}

/** Reads `response`'s body, decoded, up to the limit; rejects above it. */
function readBody(response: IncomingMessage, session: OutboundSession): Promise<string> {
  if (session.limits.maxBytes === 0) {
    return new Promise((resolve, reject) => {
      response.resume(); // read and dropped: it frees the socket, and the deadline bounds it
      response.on('end', () => resolve(''));
      response.on('error', (error: Error) => reject(failure(error, session)));
    });
  }
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  // pipeline, not pipe: an answer cut off midway (the connection closed) ends the decoder with an error; with pipe it
  // emitted nothing (a response without an 'error' listener is destroyed quietly) and the request never settled.
  const stream = decoder ? pipeline(response, decoder, () => {}) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > session.limits.maxBytes) {
        response.destroy();
        decoder?.destroy();
        reject(new OutboundError({ kind: 'too-large' }));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', (error: Error) => reject(failure(error, session)));
  });
}

/** The failure of a request that got no answer. */
function failure(error: NodeJS.ErrnoException, session: OutboundSession): OutboundError {
  if (error instanceof OutboundError) return error;
  if (session.signal.aborted || error.name === 'AbortError' || error.name === 'TimeoutError')
    return new OutboundError({ kind: 'timeout' });
  if (error.code === 'EINTERNAL') return new OutboundError({ kind: 'internal', message: error.message });
  return new OutboundError({ kind: 'network', code: error.code, message: error.message });
}

function once(
  session: OutboundSession,
  method: string,
  url: URL,
  origin: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<OutboundAnswer> {
  const { target } = session;
  const all: Record<string, string> = {
    'user-agent': session.userAgent,
    'accept-encoding': 'gzip, deflate, br',
    ...headers,
  };
  if (target.user && url.origin === origin)
    all.authorization = `Basic ${Buffer.from(`${target.user}:${target.password ?? ''}`).toString('base64')}`;
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: all, lookup: guardedLookup(target.allowInsecure), agent: false, signal: session.signal },
      (response) => {
        readBody(response, session).then(
          (text) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          reject,
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => reject(failure(error, session)));
    // The body as bytes: Node writes the head and a first string chunk as one string in the chunk's encoding (UTF-8),
    // which re-encodes a header's bytes above 0x7F (an ETag's obs-text, RFC 9110 §8.8.3, sent back in If-Match).
    // Given bytes, it writes the head on its own as Latin-1, each character one byte: the header exactly as received.
    req.end(body === undefined ? undefined : Buffer.from(body, 'utf8'));
  });
}

/**
 * Sends one request to `address` and follows redirects (at most `maxRedirects`, each new address checked by the
 * session's `checkRedirect`); the login goes only to the first address's origin. Resolves with the final answer
 * (any status: the caller decides); rejects with an OutboundError.
 */
export async function send(
  session: OutboundSession,
  method: string,
  address: string,
  headers: Record<string, string>,
  body?: string,
): Promise<OutboundAnswer> {
  let url = new URL(address);
  const origin = url.origin;
  for (let redirects = 0; ; redirects++) {
    const answer = await once(session, method, url, origin, headers, body);
    const location = answer.headers.location;
    if (
      session.limits.maxRedirects === 0 ||
      answer.status < 300 ||
      answer.status >= 400 ||
      answer.status === 304 ||
      !location
    )
      return answer;
    if (redirects >= session.limits.maxRedirects) throw new OutboundError({ kind: 'redirects' });
    let next: string;
    try {
      next = session.checkRedirect(new URL(location, url).toString());
    } catch (error) {
      throw new OutboundError({ kind: 'redirect-refused', message: (error as Error).message });
    }
    url = new URL(next);
    if (answer.status === 303) {
      method = 'GET';
      body = undefined;
    }
  }
}
