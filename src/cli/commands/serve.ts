import type { Command } from 'commander';
import { openDoors } from '../../app/operations/doors.ts';
import { openRuntime } from '../../app/operations/runtime.ts';
import { warmForRequests } from '../../app/operations/warm.ts';
import { isConfigured } from '../../app/practice/configured.ts';
import { checkArgon2Folder } from '../../app/practice/token.ts';
import { invalid } from '../../errors.ts';
import type { AccessEntry } from '../../http/app.ts';
import { openAccessLog } from '../access-log.ts';
import { keepCompileCache } from '../compile-cache.ts';
import { dbPath, print, whole } from '../shared.ts';
import { visible } from '../terminal.ts';

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
  if (port < 0 || port > 65535) throw invalid(`--port must be from 0 to 65535 (got ${port})`);
  const requestTimeout = whole(options.timeout ?? '10', '--timeout');
  if (requestTimeout < 1 || requestTimeout > 3600)
    throw invalid(`--timeout must be from 1 to 3600 seconds (got ${requestTimeout})`);
  const format = options.log ?? 'text';
  if (!['text', 'json', 'off'].includes(format)) throw invalid(`--log must be text, json or off (got "${format}")`);
  // Buffered, not a write per request (a write each cost 40 % of the throughput): cli/access-log.ts.
  const lines = format === 'off' ? undefined : openAccessLog(format as 'text' | 'json');
  const accessLog = lines && ((entry: AccessEntry) => lines.write(entry));
  // Fail at start, not at the first sign-in, when the argon2 addon could not load there (checkArgon2Folder).
  checkArgon2Folder();
  // Loaded here so that other commands start without the HTTP stack.
  const { startServer } = await import('../../http/server.ts');
  (await import('../../http/heap.ts')).tuneHeapForServer(); // before any load: src/http/heap.ts says why
  // Log lines can quote other servers' answers (an SMTP error, a webhook receiver's): shown visibly (terminal.ts).
  const log = (line: string) => process.stderr.write(`${visible(line)}\n`);
  const runtime = await openRuntime(dbPath(command), { log, workers: true });
  try {
    // What a first request would do once, done before "serving" on made-up input (app/operations/warm.ts); one
    // that fails is no reason not to serve (the first request then pays it, as before).
    try {
      warmForRequests(runtime.ctx);
    } catch {
      // skipped
    }
    let server;
    try {
      server = await startServer(runtime, {
        host: options.host,
        port,
        afterBooking: runtime.kick,
        accessLog,
        requestTimeout,
      });
    } catch (error) {
      await runtime.stop();
      throw error;
    }
    keepCompileCache(); // what the warm-ups compiled, for the next start (compile-cache.ts)
    const settings = runtime.ctx.settings();
    const notice = !isConfigured(settings)
      ? ['planner: not configured yet: every call answers 503 until `planner init` runs']
      : !settings.apiEnabled
        ? ['planner: the API is disabled: every call answers 503 until `planner api enable`']
        : [];
    print(...notice, `planner: serving ${server.url}/api (database ${runtime.ctx.store.file})`);
    // Every door that is on, at this server and at its public address; a feed's address holds a
    // secret that is shown once, when made, and never kept: only its shape is printed, and where to get one.
    const doors = openDoors(runtime.ctx);
    if (doors.portalUrl)
      print(
        `planner: self-service page on at ${server.url}/manage/… (links in the mails: ${doors.portalUrl}/manage/…)`,
      );
    if (doors.bookingPage)
      print(`planner: booking page on at ${server.url}/book/ (public address: ${doors.portalUrl}/book/)`);
    if (doors.feeds > 0)
      print(
        `planner: calendar feed on for ${doors.feeds} ${doors.feeds === 1 ? 'schedule' : 'schedules'} at ${server.url}/feed/<secret>.ics ` +
          // Not a public address: a feed may have been made at another one (`feed url --url`), and planner keeps none.
          '(its whole address, at the public address it was made for, is shown only when made: planner feed url <schedule-id> --rotate makes a new one)',
      );
    if (doors.deskUrl) print(`planner: front desk on at ${server.url}/desk/ (public address: ${doors.deskUrl}/desk/)`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        // Stop taking requests, let those in flight and the delivery in progress finish (at most
        // STOP_GRACE_MS), then close the file. A connection that outlives this is ended at the root (cli/main.ts).
        const grace = setTimeout(resolve, STOP_GRACE_MS);
        void server
          .close()
          .then(() => runtime.stop())
          .finally(() => {
            clearTimeout(grace);
            resolve();
          });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  } finally {
    runtime.close();
    await lines?.close(); // the last lines, written before the process ends
  }
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the booking API on http://<host>:<port>/api')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0: any free port; PLANNER_PORT sets the default)', process.env.PLANNER_PORT || '3000')
    .option('--log <format>', 'access log on stdout: text, json or off', 'text')
    .option('--timeout <seconds>', 'time a client has to send its headers, and then its body', '10')
    .action(async (options: ServeOptions, command: Command) => serve(command, options));
}
