import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { toNodeHandler } from 'h3/node';
import { AppError } from '../errors.ts';
import type { Runtime } from '../app/runtime.ts';
import { createHttpApp, type AccessEntry } from './app.ts';

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

/**
 * Answers a request that never reached the app (headers too slow, malformed or too large) with a JSON error,
 * as every other answer is, then closes the connection. Nothing is answered when a response was already begun.
 */
function answerClientError(failure: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, text] =
    failure.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout']
      : failure.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : [400, 'Bad Request'];
  const body = JSON.stringify({ error: text });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
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
  const app = createHttpApp({ runtime, afterBooking: options.afterBooking, accessLog: options.accessLog, bodyTimeoutMs: timeoutMs });
  const server: Server = createServer(
    {
      headersTimeout: timeoutMs, // slowloris: headers dripped in byte by byte
      // Backstop behind the app's own body deadline (which answers 400 in JSON): the whole request, plus slack.
      requestTimeout: timeoutMs + 5_000,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
    },
    toNodeHandler(app),
  );
  server.on('clientError', answerClientError);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new AppError('conflict', `port ${options.port} on ${options.host} is in use: stop the other server or pass --port <n>`);
    }
    throw new AppError('conflict', `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }
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
