import { createServer, type Server, STATUS_CODES } from 'node:http';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Runtime } from '../app/operations/runtime.ts';
import { AppError } from '../errors.ts';
import { type AccessEntry, createHttpServing } from './app.ts';
import { answerForClientError, type ErrorAnswer, HTTP_ERRORS } from './errors.ts';

export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Seconds a client has, by default, to send a whole request: its headers, then its body. */
export const DEFAULT_REQUEST_TIMEOUT = 10;

export interface ServerOptions {
  host: string;
  port: number;
  afterBooking?: () => void;
  accessLog?: (entry: AccessEntry) => void;
  /** Seconds a client has to send its headers, and its body after them (default 10). */
  requestTimeout?: number;
}

/** Writes `answer` as a whole JSON response on a raw socket and closes it. */
function answerOnSocket(socket: Socket, answer: ErrorAnswer): void {
  const body = JSON.stringify(answer.body);
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers a request that never reached the app (headers too slow, malformed or too large) with a JSON error,
 * as every other answer is, then closes the connection. Nothing is answered when a response was already begun.
 */
function answerClientError(failure: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  answerOnSocket(socket, answerForClientError(failure.code));
}

/**
 * Starts the API server of `runtime` on `host:port` (port 0: any free port). Fails clearly when the port is taken; never
 * moves to another port.
 *
 * A plain `node:http` server rather than listhen: the header and request time-outs only bite when Node checks
 * its connections, and the interval of that check can only be set when the server is created (listhen creates
 * it without options, so Node's 30 s default applied and a slow client could hold a connection for 40 s).
 */
export async function startServer(runtime: Runtime, options: ServerOptions): Promise<RunningServer> {
  const timeoutMs = (options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT) * 1000;
  let warming = true;
  const accessLog = options.accessLog;
  const { listener } = createHttpServing({
    runtime,
    afterBooking: options.afterBooking,
    accessLog: accessLog && ((entry) => warming || accessLog(entry)),
    bodyTimeoutMs: timeoutMs,
  });
  const server: Server = createServer(
    {
      headersTimeout: timeoutMs, // slowloris: headers dripped in byte by byte
      // Backstop behind the app's own body deadline (which answers 400 in JSON): the whole request, plus slack.
      requestTimeout: timeoutMs + 5_000,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
    },
    listener,
  );
  server.on('clientError', answerClientError);
  // node:http hands CONNECT (a proxy tunnel) to this event instead of the app, and without a listener it closes
  // the connection unanswered. Nothing here is a proxy: the JSON 404 every unknown request gets.
  server.on('connect', (_request: unknown, socket: Socket) => answerOnSocket(socket, HTTP_ERRORS.notFound));
  await warmPath(server);
  warming = false;
  await listen(server, options.host, options.port);
  const port = (server.address() as { port: number }).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections(); // keep-alive connections would otherwise hold the stop for 5 s
      }),
  };
}

/**
 * Sends one request through the whole HTTP path before the server takes any (issue 49): a socket, node's parser,
 * h3 and an answer written back, which a first request otherwise pays for once (about 15 ms of a process's CPU;
 * fifty practices started together paid it at once). On a port of its own on 127.0.0.1 that lives for this request
 * only, to a path that is no route: a JSON 404, before any gate, so no address counts a failure and nothing is read.
 * Not in the access log (`warming`). A warm-up that fails is no reason not to serve: it is skipped.
 */
async function warmPath(server: Server): Promise<void> {
  try {
    await listen(server, '127.0.0.1', 0);
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(2_000, () => socket.destroy(new Error('no answer')));
      socket.on('error', reject).on('close', () => resolve());
      socket.resume(); // the answer is read and dropped; the server ends the connection after it
      socket.end('GET /.warm-up HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    });
  } catch {
    // as if it had not been tried
  } finally {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
}

/** Listens on `host:port`, or throws the one-line error that names `--port` (a port in use) or the cause. */
async function listen(server: Server | NetServer, host: string, port: number): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new AppError('conflict', `port ${port} on ${host} is in use: stop the other server or pass --port <n>`);
    }
    throw new AppError('conflict', `cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
}

/**
 * Throws what `startServer` would throw when `host:port` cannot be listened on, and holds nothing: `planner demo
 * --serve` checks this before it creates an installation and prints a token it could not serve.
 */
export async function assertCanListen(host: string, port: number): Promise<void> {
  const probe = createNetServer();
  await listen(probe, host, port);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
