import { listen } from 'listhen';
import { toNodeHandler } from 'h3/node';
import { AppError } from '../errors.ts';
import type { Store } from '../store/db.ts';
import { createHttpApp, type AccessEntry } from './app.ts';

export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the API server on `host:port` (port 0: any free port). Fails clearly when the port is taken. */
export async function startServer(
  store: Store,
  options: { host: string; port: number; afterBooking?: () => void; accessLog?: (entry: AccessEntry) => void },
): Promise<RunningServer> {
  const app = createHttpApp({ store, afterBooking: options.afterBooking, accessLog: options.accessLog });
  const loopback = options.host === '127.0.0.1' || options.host === 'localhost' || options.host === '::1';
  try {
    const listener = await listen(toNodeHandler(app), {
      hostname: options.host,
      // Never wander to another port: an admin who asked for 3000 must get 3000 or an error.
      port: options.port === 0 ? { random: true } : { port: options.port, random: false, alternativePortRange: [options.port, options.port] },
      public: !loopback,
      isTest: true, // quiet: no banner, QR code or clipboard; we print our own line
      autoClose: false, // signals are handled by `planner serve`
    });
    const port = listener.address.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    return { url: `http://${host}:${port}`, port, close: () => listener.close() };
  } catch (error) {
    const message = (error as Error).message;
    if (/Unable to find an available port|EADDRINUSE/.test(message)) {
      throw new AppError('conflict', `port ${options.port} on ${options.host} is in use: stop the other server or pass --port <n>`);
    }
    throw new AppError('conflict', `cannot listen on ${options.host}:${options.port}: ${message}`);
  }
}
