import type { Command } from 'commander';
import { invalid } from '../../errors.ts';
import { loadArgon2 } from '../../app/token.ts';
import { isConfigured } from '../../app/installation.ts';
import { openStore } from '../../store/db.ts';
import { readSettings } from '../../store/settings.ts';
import type { AccessEntry } from '../../http/app.ts';
import { watchStore } from '../../store/settings-watch.ts';
import { dbPath, print, whole } from '../shared.ts';

/** Returns a first retry delay in seconds from the environment variable `name` (default 30). */
function retryBase(name: 'PLANNER_MAIL_RETRY_SECONDS' | 'PLANNER_WEBHOOK_RETRY_SECONDS'): number {
  const value = Number(process.env[name] ?? 30);
  if (!Number.isFinite(value) || value <= 0) throw invalid(`${name} must be a positive number of seconds`);
  return value;
}

export interface ServeOptions {
  host: string;
  port: string;
  log?: string;
  timeout?: string;
}

/** How long a stop may wait for requests in flight and the delivery in progress before it closes anyway. */
const STOP_GRACE_MS = 10_000;

/** Serves the API on the database of `command` until SIGINT or SIGTERM. */
export async function serve(command: Command, options: ServeOptions): Promise<void> {
  const port = whole(options.port, '--port');
  if (port < 0 || port > 65535) throw invalid('--port must be from 0 to 65535');
  const requestTimeout = whole(options.timeout ?? '10', '--timeout');
  if (requestTimeout < 1 || requestTimeout > 3600) throw invalid('--timeout must be from 1 to 3600 seconds');
  const format = options.log ?? 'text';
  if (!['text', 'json', 'off'].includes(format)) throw invalid('--log must be text, json or off');
  const accessLog =
    format === 'off'
      ? undefined
      : format === 'json'
        ? (entry: AccessEntry) => process.stdout.write(`${JSON.stringify(entry)}\n`)
        : (entry: AccessEntry) => process.stdout.write(`${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms\n`);
  const store = openStore(dbPath(command));
  try {
    // Fail at start, not at the first request, when the argon2 addon cannot load (see loadArgon2).
    await loadArgon2();
    // Loaded here so that other commands start without the HTTP and mail stacks.
    const { startServer } = await import('../../http/server.ts');
    const { startOutboxWorker } = await import('../../mail/worker.ts');
    const { startWebhookWorker } = await import('../../webhooks/worker.ts');
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const mail = startOutboxWorker({ store, settings: watchStore(store).refresh, log, retry: { baseSeconds: retryBase('PLANNER_MAIL_RETRY_SECONDS') } });
    const hooks = startWebhookWorker({ store, log, retry: { baseSeconds: retryBase('PLANNER_WEBHOOK_RETRY_SECONDS') } });
    const worker = {
      kick: () => {
        mail.kick();
        hooks.kick();
      },
      stop: () => Promise.all([mail.stop(), hooks.stop()]),
    };
    let server;
    try {
      server = await startServer(store, { host: options.host, port, afterBooking: worker.kick, accessLog, requestTimeout });
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
        // Stop taking requests, let those in flight and the delivery in progress finish (at most
        // STOP_GRACE_MS), then close the file.
        const grace = setTimeout(resolve, STOP_GRACE_MS);
        void server
          .close()
          .then(() => worker.stop())
          .finally(() => {
            clearTimeout(grace);
            resolve();
          });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  } finally {
    store.close();
  }
  // A connection that outlived the grace period must not keep the process alive.
  setTimeout(() => process.exit(), 1000).unref();
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the booking API on http://<host>:<port>/api')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port)', '3000')
    .option('--log <format>', 'access log on stdout: text, json or off', 'text')
    .option('--timeout <seconds>', 'time a client has to send its headers, and then its body', '10')
    .action(async (options: ServeOptions, command: Command) => serve(command, options));
}
