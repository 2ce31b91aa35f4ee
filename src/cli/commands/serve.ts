import type { Command } from 'commander';
import { invalid } from '../../errors.ts';
import { isConfigured } from '../../app/installation.ts';
import { openStore } from '../../store/db.ts';
import { readSettings } from '../../store/settings.ts';
import { watchStore } from '../../store/settings-watch.ts';
import { dbPath, print, whole } from '../shared.ts';

/** Returns the first retry delay of the outbox in seconds: env PLANNER_MAIL_RETRY_SECONDS, default 30. */
function retryBase(): number {
  const value = Number(process.env.PLANNER_MAIL_RETRY_SECONDS ?? 30);
  if (!Number.isFinite(value) || value <= 0) throw invalid('PLANNER_MAIL_RETRY_SECONDS must be a positive number of seconds');
  return value;
}

export interface ServeOptions {
  host: string;
  port: string;
}

/** Serves the API on the database of `command` until SIGINT or SIGTERM. */
export async function serve(command: Command, options: ServeOptions): Promise<void> {
  const port = whole(options.port, '--port');
  if (port < 0 || port > 65535) throw invalid('--port must be from 0 to 65535');
  const store = openStore(dbPath(command));
  try {
    // Loaded here so that other commands start without the HTTP and mail stacks.
    const { startServer } = await import('../../http/server.ts');
    const { startOutboxWorker } = await import('../../mail/worker.ts');
    const worker = startOutboxWorker({ store, settings: watchStore(store).refresh, log: (line) => process.stderr.write(`${line}\n`), retryBaseSeconds: retryBase() });
    let server;
    try {
      server = await startServer(store, { host: options.host, port, afterBooking: worker.kick });
    } catch (error) {
      await worker.stop();
      throw error;
    }
    const settings = readSettings(store);
    const notice = !isConfigured(settings)
      ? ['planner: not configured yet: every call answers 503 until `planner init` runs']
      : !settings.apiEnabled
        ? ['planner: the API is disabled: every call answers 503 until `planner api enable`']
        : [];
    print(...notice, `planner: serving ${server.url}/api (database ${store.file})`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        // Stop taking requests, let the delivery in progress finish, then close the file.
        void server.close().then(() => worker.stop()).finally(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  } finally {
    store.close();
  }
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the booking API on http://<host>:<port>/api')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', '3000')
    .action(async (options: ServeOptions, command: Command) => serve(command, options));
}
