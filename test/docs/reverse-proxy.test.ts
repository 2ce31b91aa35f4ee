/**
 * The README's reverse-proxy snippets (nginx, Caddy, Apache), taken from the README and run in Debian's servers
 * (nginx-light, caddy, apache2: installed by scripts/test-packages.sh) in front of a real `planner serve`:
 * `planner doctor --url` through each finds the Authorization header arriving and every door planner has reaching it
 * (issue 36, item 12: the snippets lacked /book/, so the booking page was unreachable in production while doctor said
 * ok). The front desk's door too (issue 46): its login page, `/desk/login`, through each.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOORS } from '../../src/app/operations/doctor.ts';
import { bookableDb, cli, cliOk, onCleanup, serve, tempDb, tempDir, watchOutput } from '../helpers.ts';
import { freePort } from '../mail/smtp.ts';
import { readmeBlock } from './readme.ts';

const SECTION = 'Reverse proxy: pass the Authorization header';

/** The path prefixes a snippet sends to planner, read the way each server reads them. */
const routed: Record<string, (block: string) => string[]> = {
  nginx: (block) => [...block.matchAll(/^location (\S+) \{$/gm)].map((match) => match[1]!),
  caddy: (block) => [...block.matchAll(/^\s*reverse_proxy (\S+)\* /gm)].map((match) => match[1]!),
  apache: (block) => [...block.matchAll(/^<Location (\S+)>$/gm)].map((match) => match[1]!),
};

/**
 * The configuration that runs `snippet` as the README means it (the server's own lines around it, the proxy's
 * port for the practice's address, planner's for 3000), and the command that starts that server in the foreground.
 */
function proxyRun(kind: string, snippet: string, port: number, planner: number, dir: string): ProxyRun {
  const body = snippet.replaceAll('127.0.0.1:3000', `127.0.0.1:${planner}`);
  if (kind === 'nginx') {
    const file = join(dir, 'nginx.conf');
    writeFileSync(
      file,
      `daemon off; master_process off; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log;\nevents {}\n` +
        `http {\n  access_log off;\n  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;\n` +
        `  server {\n    listen 127.0.0.1:${port};\n${body}\n  }\n}\n`,
    );
    return { command: '/usr/sbin/nginx', args: ['-p', dir, '-c', file] };
  }
  if (kind === 'caddy') return caddyRun(body.replace('booking.praxis.example', `http://127.0.0.1:${port}`), dir);
  const modules = '/usr/lib/apache2/modules';
  const file = join(dir, 'apache2.conf');
  writeFileSync(
    file,
    [
      `ServerRoot ${dir}`,
      'ServerName 127.0.0.1',
      `Listen 127.0.0.1:${port}`,
      `PidFile ${dir}/apache2.pid`,
      `ErrorLog ${dir}/apache2-error.log`,
      ...['mpm_event', 'authz_core', 'proxy', 'proxy_http', 'headers'].map(
        (name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`,
      ),
      body,
    ].join('\n'),
  );
  return { command: '/usr/sbin/apache2', args: ['-f', file, '-DFOREGROUND'] };
}

interface ProxyRun {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Caddy running `sites` (a Caddyfile's site blocks) in the foreground, without its admin API or certificates. */
function caddyRun(sites: string, dir: string): ProxyRun {
  const file = join(dir, 'Caddyfile');
  writeFileSync(file, `{\n  admin off\n  auto_https off\n  storage file_system ${dir}/caddy\n}\n${sites}`);
  return {
    command: '/usr/bin/caddy',
    args: ['run', '--config', file, '--adapter', 'caddyfile'],
    env: { HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  };
}

/** Starts the proxy of `run`, stopped after the test; resolves once `probe` answers 200 through it. */
async function startProxy(kind: string, run: ProxyRun, probe: () => Promise<number | undefined>) {
  const proxy = spawn(run.command, run.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...run.env },
  });
  const { output } = watchOutput(proxy, kind);
  onCleanup(async () => {
    if (proxy.exitCode !== null || proxy.signalCode !== null) return;
    const exited = once(proxy, 'exit');
    proxy.kill('SIGTERM');
    await exited;
  });
  // Listening: none of the three says so, so the first answer through it is waited for (at most 100 tries, 50 ms
  // apart, each bounded).
  for (let attempt = 0; ; attempt++) {
    if ((await probe().catch(() => undefined)) === 200) return;
    if (attempt === 100 || proxy.exitCode !== null) throw new Error(`${kind} did not serve the API:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET `path` from the proxy on `port` as if for the host name `host` (the name never resolves: it is a test). */
function getAs(port: number, host: string, path: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        timeout: 2_000,
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode!);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${host}${path}: no answer in 2 s`)));
    request.on('error', reject);
  });
}

describe("README's reverse-proxy snippets", () => {
  it('each routes every door planner has', () => {
    for (const kind of Object.keys(routed))
      expect({ kind, doors: routed[kind]!(readmeBlock(SECTION, kind)) }).toEqual({ kind, doors: [...DOORS] });
  });

  it.each(['nginx', 'caddy', 'apache'])(
    'in %s, in front of planner serve: doctor --url finds the header arriving and every door reaching planner',
    async (kind) => {
      const db = tempDb();
      const token = await bookableDb(db);
      const server = await serve(db);
      const port = await freePort();
      const run = proxyRun(kind, readmeBlock(SECTION, kind), port, Number(new URL(server.url).port), tempDir());
      const address = `http://127.0.0.1:${port}`;
      await startProxy(
        kind,
        run,
        async () => (await fetch(`${address}/api/openapi.json`, { signal: AbortSignal.timeout(2_000) })).status,
      );

      await cliOk(db, 'portal', 'enable', '--url', address);
      await cliOk(db, 'booking-page', 'enable');
      await cliOk(db, 'feed', 'url', '1');
      await cliOk(db, 'desk', 'enable', '--url', address);
      const doctor = await cli(db, 'doctor', '--url', `${address}/api`, '--token', token);
      expect(doctor.stdout).toMatch(/^ok +live +.*answers 200: the Authorization header arrives/m);
      for (const [name, door] of [
        ['portal-live', 'manage'],
        ['book-live', 'book'],
        ['feed-live', 'feed'],
        ['desk-live', 'desk'], // GET /desk/login, answered by planner's own page
      ]) {
        expect(doctor.stdout).toMatch(new RegExp(`^ok +${name} +${address}/${door}/ reaches planner`, 'm'));
      }
      expect({ code: doctor.code, stderr: doctor.stderr }).toEqual({ code: 0, stderr: '' });
    },
  );
});

describe("README's Caddy routing for many practices (issue 39)", () => {
  it("sends each practice host name to its own planner serve: its token, its doors, not the other practice's", async () => {
    const practices = await Promise.all(
      ['sonne', 'mond'].map(async (name) => {
        const db = tempDb();
        const token = await bookableDb(db);
        return { name, db, token, server: await serve(db) };
      }),
    );
    const port = await freePort();
    await cliOk(practices[0]!.db, 'portal', 'enable', '--url', 'https://sonne.booking.example');
    await cliOk(practices[0]!.db, 'booking-page', 'enable');
    const block = readmeBlock('Hosting many practices', 'caddy');
    expect(block).toContain('127.0.0.1:3101');
    expect(block).toContain('127.0.0.1:3102');
    const sites = block
      .replaceAll('127.0.0.1:3101', new URL(practices[0]!.server.url).host)
      .replaceAll('127.0.0.1:3102', new URL(practices[1]!.server.url).host)
      .replace(/^(\S+\.booking\.example) \{$/gm, `http://$1:${port} {`);
    const [sonne, mond] = practices.map((practice) => `${practice.name}.booking.example:${port}`);
    await startProxy('caddy', caddyRun(sites, tempDir()), () => getAs(port, sonne!, '/api/openapi.json'));

    const [first, second] = practices;
    expect({
      sonneOwnToken: await getAs(port, sonne!, '/api/schedules', first!.token),
      sonneOtherToken: await getAs(port, sonne!, '/api/schedules', second!.token),
      mondOwnToken: await getAs(port, mond!, '/api/schedules', second!.token),
      mondOtherToken: await getAs(port, mond!, '/api/schedules', first!.token),
      sonneBookingPage: await getAs(port, sonne!, '/book/'),
      mondBookingPage: await getAs(port, mond!, '/book/'), // off at mond: planner's own 404, through the proxy
    }).toEqual({
      sonneOwnToken: 200,
      sonneOtherToken: 401,
      mondOwnToken: 200,
      mondOtherToken: 401,
      sonneBookingPage: 200,
      mondBookingPage: 404,
    });
  });
});
