/**
 * A real CalDAV server for the tests: Debian's Radicale (`/usr/bin/radicale`, installed by scripts/test-packages.sh),
 * started per test on a free 127.0.0.1 port with its own configuration, users file and storage in a temporary folder,
 * one calendar collection made with MKCALENDAR. Stopped after the test file, also when the test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type CliResult, cliWith, onCleanup, tempDir, watchOutput } from '../helpers.ts';

export interface Radicale {
  /** The calendar collection's URL, ending in `/`. */
  url: string;
  user: string;
  password: string;
  /** Writes (creates or replaces) the event resource `name` (e.g. `dentist.ics`) in the collection. */
  put(name: string, ics: string): Promise<void>;
  /** Deletes the resource `name`. */
  remove(name: string): Promise<void>;
  /** Every resource of the collection, read back with a calendar-query REPORT: its name, ETag and iCalendar text. */
  events(): Promise<{ name: string; etag: string; ics: string }[]>;
  /** Stops the server (the storage stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and storage. */
  start(): Promise<void>;
}

/** Returns a port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts Radicale and makes the collection `/<user>/calendar/`. */
export async function startRadicale(): Promise<Radicale> {
  const dir = tempDir();
  let port = await freePort();
  const user = 'anna';
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  writeFileSync(join(dir, 'users'), `${user}:${password}\n`);
  const config = join(dir, 'config');
  const configure = () =>
    writeFileSync(
      config,
      [
        '[server]',
        `hosts = 127.0.0.1:${port}`,
        '[auth]',
        'type = htpasswd',
        `htpasswd_filename = ${join(dir, 'users')}`,
        'htpasswd_encryption = plain',
        'delay = 0',
        '[rights]',
        'type = owner_only',
        '[storage]',
        `filesystem_folder = ${join(dir, 'collections')}`,
        '[web]',
        'type = none',
        '[logging]',
        'level = info',
        '',
      ].join('\n'),
    );
  configure();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('/usr/bin/radicale', ['-C', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    await watchOutput(child, 'radicale').waitFor(/Radicale server ready/);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  onCleanup(stop);
  // The port was free a moment ago; another test's server may have taken it since: then another one, at most twice.
  for (let attempt = 0; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt === 2 || !/in use/i.test(String(error))) throw error;
      port = await freePort();
      configure();
    }
  }
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/${user}/calendar/`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const call = async (method: string, target: string, body?: string) => {
    const response = await fetch(target, {
      method,
      headers: { authorization, 'content-type': 'text/calendar; charset=utf-8' },
      body,
    });
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`radicale answered ${method} ${target} with ${response.status}`);
  };
  await call('MKCALENDAR', url);
  return {
    url,
    user,
    password,
    put: (name, ics) => call('PUT', `${url}${name}`, ics),
    remove: (name) => call('DELETE', `${url}${name}`),
    async events() {
      const body = `<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>`;
      const response = await fetch(url, {
        method: 'REPORT',
        headers: { authorization, depth: '1', 'content-type': 'application/xml; charset=utf-8' },
        body,
      });
      const xml = await response.text();
      if (response.status !== 207) throw new Error(`radicale answered REPORT with ${response.status}`);
      const { readMultistatus } = await import('../../src/calendar/multistatus.ts');
      const responses = await readMultistatus(xml, async () => {});
      return responses
        .filter((one) => one.propstats.some((propstat) => propstat.props.has('calendar-data')))
        .map((one) => {
          const props = one.propstats.find((propstat) => propstat.props.has('calendar-data'))!.props;
          return {
            name: one.href.split('/').pop()!,
            etag: props.get('getetag')?.[0]?.text ?? '',
            ics: props.get('calendar-data')![0]!.text,
          };
        })
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    stop,
    start,
  };
}

/**
 * Runs `planner calendar add 1 <radicale's collection> --user … --password-stdin --allow-insecure` against `db`, the
 * password on standard input, with `more` options (`--write-bookings`, `--name …`).
 */
export function addRadicale(db: string, radicale: Radicale, ...more: string[]): Promise<CliResult> {
  return cliWith(
    db,
    { input: `${radicale.password}\n` },
    'calendar',
    'add',
    '1',
    radicale.url,
    '--user',
    radicale.user,
    '--password-stdin',
    '--allow-insecure',
    ...more,
  );
}
