/**
 * The README's commands, run as written: a README edit that breaks one fails `npm test`.
 * - Quick start: its first line (install, then `npm run demo`) in a fresh copy of the repository, with a newcomer's
 *   PATH (no Node 24 but what the install brings); then the six calls the demo prints, as printed (real values). (Its second line, the test command, is what `.ci/run` runs, taken from the README too.)
 * - Admin guide, "Set up an installation": every line against a temporary database, the last one (`serve`) until it
 *   answers with the token the block made.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { pngOf } from '../booking-page/flow.ts';
import { checkContract } from '../contract.ts';
import { bookableDb, cliJson, cliOk, initDb, onCleanup, ROOT, serve, tempDb, tempDir } from '../helpers.ts';
import { freePort, startSmtp } from '../mail/smtp.ts';
import { commandsOf, newcomerEnv, readmeBlock, readmeBlocks, shell } from './readme.ts';

const run = promisify(execFile);

/** A copy of the repository as a clone has it: the files git tracks (as they are now) and untracked, unignored ones. */
async function freshCopy(): Promise<string> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
  });
  const copy = tempDir();
  for (const file of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree, not yet in the index
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  return copy;
}

/** Runs a printed curl call, adding only `-w` for the status and headers; returns status, headers and parsed body. */
async function curl(call: string, env: NodeJS.ProcessEnv): Promise<{ status: number; headers: Headers; body: any }> {
  const { stdout } = await run(
    'sh',
    ['-c', call.replace(/^curl /, `curl -w '\\n--status %{http_code} --headers %{header_json}' `)],
    { env },
  );
  const [, body, status, headerJson] = /^([\s\S]*)\n--status (\d+) --headers ([\s\S]*)$/.exec(stdout)!;
  const headers = new Headers();
  for (const [name, values] of Object.entries(JSON.parse(headerJson!) as Record<string, string[]>))
    headers.set(name, values.join(', '));
  return { status: Number(status), headers, body: JSON.parse(body!) };
}

describe('README quick start', () => {
  it('the demo line installs, serves on a fresh copy, and the six calls it prints answer 200 five times, then 201', async () => {
    const [demoLine] = commandsOf(readmeBlock('Quick start', 'sh'));
    expect(demoLine).toMatch(/npm run demo/);
    const copy = await freshCopy();
    const port = await freePort();
    const env = newcomerEnv({ PLANNER_PORT: String(port) });
    const demo = shell(demoLine!, copy, env);
    onCleanup(() => demo.stop());
    await demo.waitFor(new RegExp(`serving http://127\\.0\\.0\\.1:${port}/api`));

    const token = (await demo.waitFor(/API token \(shown once\): (pln_[A-Za-z0-9]{64})/))[1]!;
    const calls = commandsOf(demo.output())
      .filter((line) => line.startsWith('curl '))
      .map((line) => line.replaceAll('\\', ''));
    expect(calls).toHaveLength(6);
    for (const call of calls) expect(call).toContain(`Bearer ${token}`);

    const statuses: number[] = [];
    const answers: Record<string, any> = {};
    for (const call of calls) {
      expect(call).not.toMatch(/<[^>]*>/); // real values, nothing to fill in
      const answer = await curl(call, env);
      statuses.push(answer.status);
      const path = /\/api\/\w+/.exec(call)![0];
      checkContract(call.includes('-X POST') ? 'POST' : 'GET', path, answer);
      answers[path] = answer.body;
    }
    // The printed day and time are the first free ones the API itself answers.
    const slot = answers['/api/slots'].data[0] as string;
    expect(slot.slice(0, 10)).toBe(answers['/api/days'].data[0]);
    expect(calls.at(-1)).toContain(`"slot":"${slot}"`);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
    expect([0, 'SIGTERM']).toContain(await demo.stop()); // stopped by the signal, not by SIGKILL or an error
    expect(demo.output()).not.toMatch(/\n\s+at |Error/);
    expect(existsSync(join(copy, 'data/planner.db'))).toBe(true);
  }, 300_000);
});

describe('README: your first practice, end to end (issue 24, item 17)', () => {
  it('runs line by line on a new database: mail reaches the SMTP server, the booking takes a time `slots` printed, and serving sends its confirmation', async () => {
    const lines = commandsOf(readmeBlock('Your first practice, end to end', 'sh'));
    const smtp = await startSmtp();
    const db = tempDb();
    const env = newcomerEnv({ PLANNER_DB: db });
    const outputs = new Map<string, string>();
    let slot = '';
    for (const written of lines) {
      // The two substitutions the README names: a test SMTP server, and a time that is free now.
      const line = written
        .replace(/^npx planner mail set "smtps:\/\/[^"]+"/, `npx planner mail set "${smtp.url}"`)
        .replace(/^(npx planner bookings add 1 1 )"[^"]+"/, (_, head: string) => `${head}"${slot}"`);
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      outputs.set(written.split(' ').slice(0, 3).join(' '), result.stdout);
      if (line.startsWith('npx planner slots ')) {
        // The first time of a day at least two days ahead ("Tue 2026-12-01  08:00 08:15 …"): more than the page's 24 h
        // before the start, so the confirmation carries the link (closer, it gives the phone instead).
        const later = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
          Date.now() + 2 * 86_400_000,
        );
        const days = [...result.stdout.matchAll(/^\w+ (\d{4}-\d\d-\d\d) +(\d\d:\d\d)/gm)];
        const pick = days.find((match) => match[1]! >= later);
        slot = pick ? `${pick[1]} ${pick[2]}` : '';
      }
    }
    expect(slot).not.toBe('');
    const [test] = await smtp.received(1);
    expect(test!.to).toMatchObject({ text: 'desk@physio-nord.example' });
    expect(outputs.get('npx planner status')).toMatch(/^practice +Physio Nord · Europe\/Berlin · locale de/m);
    expect(await cliJson(db, 'practice', 'show')).toMatchObject({
      address: 'Hafenstraße 3, 20459 Hamburg',
      phone: '+49 40 1234567',
    });
    const [booking] = await cliJson(db, 'bookings', 'list');
    expect(booking).toMatchObject({ status: 'booked' });

    const server = await serve(db);
    const mails = await smtp.received(3); // the test message, then the confirmation and the practice's notice
    const confirmation = mails.find((mail) => (mail.to as { text: string }).text === 'ada@example.com')!;
    expect(confirmation.text).toContain('Jana Peters');
    expect(confirmation.text).toContain('Hafenstraße 3, 20459 Hamburg');
    expect(confirmation.text).toContain('+49 40 1234567');
    expect(confirmation.text).toContain('https://termine.physio-nord.example/manage/');
    await server.stop();
  }, 180_000);
});

describe('README admin guide', () => {
  it('"Set up an installation" runs line by line on a new database, and its server answers the token it made', async () => {
    const lines = commandsOf(readmeBlock('Set up an installation', 'sh'));
    expect(lines.at(-1)).toMatch(/^npx planner serve\b/);
    const db = tempDb();
    const port = await freePort();
    const env = newcomerEnv({ PLANNER_DB: db, PLANNER_PORT: String(port) });
    let token = '';
    // A closure wholly in the past is refused: the example's Christmas closure is moved to the coming one.
    const year = new Date().getUTCFullYear() + 1;
    for (const written of lines.slice(0, -1)) {
      const line = written.replace(
        /closure add 1 \d{4}-12-24 \d{4}-01-01/,
        `closure add 1 ${year}-12-24 ${year + 1}-01-01`,
      );
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      token = /\b(pln_[A-Za-z0-9]{64})\b/.exec(result.stdout)?.[1] ?? token;
    }
    expect(token).not.toBe('');

    const server = shell(lines.at(-1)!, ROOT, env);
    onCleanup(() => server.stop());
    await server.waitFor(
      new RegExp(`serving http://127\\.0\\.0\\.1:${port}/api \\(database ${db.replaceAll('.', '\\.')}\\)`),
    );
    const answer = await fetch(`http://127.0.0.1:${port}/api/reasons?schedule=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      data: [{ id: 1, name: 'Consultation', description: 'A short visit about one concern.', duration: 900 }],
    });
    expect([0, 'SIGTERM']).toContain(await server.stop());
    expect(server.output()).not.toMatch(/\n\s+at |Error/);
    expect(readFileSync(db).length).toBeGreaterThan(0);
  }, 120_000);
});

describe('README admin guide: reminders, the self-service page, the booking page, buffers and the calendar feed', () => {
  it('their blocks run as written on an installation and leave what they say', async () => {
    const db = tempDb();
    await bookableDb(db);
    const env = newcomerEnv({ PLANNER_DB: db });
    const outputs: string[] = [];
    for (const section of [
      'Reminders',
      'The self-service page',
      'The booking page',
      'Personal data (GDPR)',
      'Buffers between appointments',
      'Reverse proxy: pass the Authorization header',
      'Calendar feed for the practitioner',
    ]) {
      for (const line of commandsOf(readmeBlock(section, 'sh'))) {
        const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
          throw new Error(`README line failed: ${line}\n${error.stderr}`);
        });
        outputs.push(result.stdout);
      }
    }
    expect(outputs[1]).toMatch(/^offsets +2d,2h$/m); // the comment beside `reminders show`
    expect(await cliJson(db, 'reminders', 'show', '--json')).toMatchObject({ minutes: [2880, 120] });
    expect(await cliJson(db, 'portal', 'status', '--json')).toEqual({
      enabled: true,
      url: 'https://booking.praxis.example',
      cancelUntilHours: 24,
      reschedule: true,
    });
    expect(await cliJson(db, 'booking-page', 'status', '--json')).toMatchObject({
      enabled: true,
      url: 'https://booking.praxis.example/book/',
      embedFrom: ['https://www.praxis.example'],
      privacyUrl: 'https://www.praxis.example/privacy',
      perHour: 5,
      perEmail: 3,
    });
    // The practice's look, as written, with a logo file where the block expects it (issue 41).
    const look = readmeBlocks('The booking page', 'sh').find((block) => block.includes('--colour'))!;
    const folder = tempDir();
    writeFileSync(join(folder, 'logo.png'), pngOf(40, 20, [10, 110, 79]));
    for (const line of commandsOf(look)) {
      const cliLine = line.replace(/^npx planner /, `${process.execPath} ${join(ROOT, 'bin/planner.js')} `);
      await run('sh', ['-c', cliLine], { cwd: folder, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
    }
    expect(await cliJson(db, 'booking-page', 'status', '--json')).toMatchObject({ colour: '#0a6e4f' });
    expect((await cliJson(db, 'booking-page', 'status', '--json')).logo).toMatch(/^[0-9a-f]{16}$/);
    // A course of weekly appointments on the booking page (issue 40), as written.
    const series = readmeBlocks('The booking page', 'sh').find((block) => block.includes('--series'))!;
    for (const line of commandsOf(series)) await run('sh', ['-c', line], { cwd: ROOT, env });
    expect((await cliJson(db, 'reason', 'list', '1', '--json'))[0]).toMatchObject({ seriesMax: 10 });
    expect(await cliJson(db, 'retention', 'show', '--json')).toEqual({ months: 24 });
    expect((await cliJson(db, 'reason', 'list', '1', '--json'))[0]).toMatchObject({
      bufferBeforeMinutes: 5,
      bufferAfterMinutes: 10,
    });
    expect(await cliJson(db, 'proxy', 'show', '--json')).toEqual({ trustedProxies: ['127.0.0.1', '::1'] });
    const [made, rotated] = outputs.slice(-2).map((output) => output.split('\n')[0]!);
    expect(made).toMatch(/^https:\/\/booking\.praxis\.example\/feed\/[A-Za-z0-9_-]{43}\.ics$/); // as the comment says
    expect(rotated).toMatch(/^https:\/\/booking\.praxis\.example\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(rotated).not.toBe(made);
  }, 180_000);
});

describe('README admin guide: the front desk (issue 46)', () => {
  it('its block runs as written: the desk on, a receptionist and a practitioner each given a link, the sessions set', async () => {
    const db = tempDb();
    await bookableDb(db, { schedules: [{}, { name: 'Dr. Roth' }] });
    const env = newcomerEnv({ PLANNER_DB: db });
    const outputs: string[] = [];
    for (const line of commandsOf(readmeBlock('The front desk', 'sh'))) {
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      outputs.push(result.stdout);
    }
    for (const added of [outputs[1], outputs[2]])
      expect(added).toMatch(/^https:\/\/booking\.praxis\.example\/desk\/enrol\/[A-Za-z0-9_-]{43}$/m);
    expect(await cliJson(db, 'desk', 'status', '--json')).toMatchObject({
      enabled: true,
      url: 'https://booking.praxis.example/desk/',
      idleMinutes: 30,
      maxMinutes: 480,
      staff: 2,
      enrolled: 0,
      sessions: 0,
    });
    const staff = (await cliJson(db, 'staff', 'list', '--json')) as {
      email: string;
      role: string;
      schedules: number[];
    }[];
    expect(staff.map(({ email, role, schedules }) => ({ email, role, schedules }))).toEqual([
      { email: 'anna@praxis.example', role: 'reception', schedules: [] },
      { email: 'roth@praxis.example', role: 'practitioner', schedules: [2] },
    ]);
  });
});

describe('README: a practice of three with a shared reason (issue 40)', () => {
  const SECTION = 'A practice of several: shared reasons and any practitioner';
  /** The first Tuesday at least three days from now in Berlin: within the default look-ahead, past the notice. */
  const tuesday = () => {
    const day = (offset: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(Date.now() + offset * 86_400_000);
    let offset = 3;
    while (new Date(`${day(offset)}T12:00:00Z`).getUTCDay() !== 2) offset++;
    return day(offset);
  };
  /** Runs the README's lines on `db`, the example's day replaced by `on`; returns each line's output. */
  const runLines = async (lines: string[], db: string, on: string) => {
    const outputs: string[] = [];
    for (const written of lines) {
      const line = written.replaceAll('2026-12-01', on);
      const result = await run('sh', ['-c', line], { cwd: ROOT, env: newcomerEnv({ PLANNER_DB: db }) }).catch(
        (error: { stderr: string }) => {
          throw new Error(`README line failed: ${line}\n${error.stderr}`);
        },
      );
      outputs.push(result.stdout);
    }
    return outputs;
  };

  it('the admin block runs as written: one reason for three, slots any, bookings add any by the stated rule', async () => {
    const db = tempDb();
    await initDb(db);
    const on = tuesday();
    const outputs = await runLines(commandsOf(readmeBlock(SECTION, 'sh')), db, on);
    expect(outputs[6]).toBe('Added reason 1 "Check-up" (30 min) to schedules 1, 2 and 3.\n'); // as its comment says
    expect(outputs[7]).toMatch(
      new RegExp(`^Tue ${on}  08:00 \\(1,2\\) 08:30 \\(1,2\\) .* 11:30 \\(1,2\\) 12:00 \\(2,3\\) `, 'm'),
    );
    // Both free at 09:00 with no minutes booked: the lowest id; then the other, whose day is as empty.
    expect(outputs[8]).toMatch(
      new RegExp(`^Booked 1 \\(\\w{16}\\) with Dr\\. Weber \\(schedule 1\\) for ${on} 09:00 `),
    );
    expect(outputs[9]).toMatch(new RegExp(`^Booked 2 \\(\\w{16}\\) with Dr\\. Roth \\(schedule 2\\) for ${on} 09:00 `));
    expect(outputs[10]).toMatch(/offered by schedules 1 and 2/);
    expect(await cliJson(db, 'reason', 'list', '3')).toEqual([]);
  }, 120_000);

  it("the integrator guide's curl calls answer as shown", async () => {
    const db = tempDb();
    await initDb(db);
    const on = tuesday();
    await runLines(commandsOf(readmeBlock(SECTION, 'sh')).slice(0, 7), db, on); // the practice, without bookings
    await cliOk(db, 'api', 'enable');
    const token = (await cliJson(db, 'token', 'new')).token as string;
    const server = await serve(db);
    const calls = commandsOf(readmeBlock('Any practitioner: GET /slots/any and POST /bookings/any', 'sh'))
      .filter((line) => line.startsWith('curl '))
      .map((line) => line.replaceAll('http://127.0.0.1:3000', server.url).replaceAll('2026-12-01', on));
    expect(calls).toHaveLength(2);
    const env = { ...process.env, T: token };
    const slots = await curl(calls[0]!, env);
    checkContract('GET', '/api/slots/any', slots);
    expect(slots.body.data.slice(0, 2)).toEqual([
      { slot: `${on} 08:00:00`, schedules: [1, 2] },
      { slot: `${on} 08:30:00`, schedules: [1, 2] },
    ]);
    const booked = await curl(calls[1]!, env);
    checkContract('POST', '/api/bookings/any', booked);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ booking_id: 1, user_id: 1, slot: `${on}T08:00:00Z`, schedule: 1 });
  }, 120_000);
});

describe('README integrator guide: the retry example', () => {
  it('bookWithRetry, taken from the README, books once through a proxy that drops the first answer', async () => {
    const block = readmeBlock('Retrying a booking safely: Idempotency-Key', 'js');
    const file = join(tempDir(), 'book-with-retry.mjs');
    writeFileSync(file, block);
    const { bookWithRetry } = (await import(pathToFileURL(file).href)) as {
      bookWithRetry: (...args: unknown[]) => Promise<{ status: number; body: any }>;
    };
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    const upstream = new URL(server.url);
    // A proxy that passes the first request on and then drops the connection as the answer comes back.
    let connections = 0;
    const proxy = createNetServer((client) => {
      const first = ++connections === 1;
      const back = connect(Number(upstream.port), upstream.hostname);
      client.pipe(back);
      back.on('data', (chunk) => (first ? client.destroy() : client.write(chunk)));
      back.on('end', () => client.end());
      client.on('error', () => back.destroy());
      back.on('error', () => client.destroy());
    }).listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    onCleanup(() => new Promise((resolve) => proxy.close(resolve)));
    const days = (await fetch(`${server.url}/api/days?schedule=1&reason=1`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json())) as { data: string[] };
    const slots = (await fetch(`${server.url}/api/slots?schedule=1&reason=1&day=${days.data[1]}`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json())) as { data: string[] };
    const result = await bookWithRetry(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api`, token, {
      schedule: 1,
      reason: 1,
      slot: slots.data[0],
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });
    expect(connections).toBeGreaterThanOrEqual(2); // the first answer was lost, the retry got one
    expect(result.status).toBe(201);
    const handle = new DatabaseSync(db, { readOnly: true });
    const ids = handle.prepare('SELECT id FROM bookings').all() as { id: number }[];
    handle.close();
    expect(ids).toEqual([{ id: result.body.booking_id }]);
  }, 180_000);
});

describe('README install section', () => {
  it('names the tarball that `npm run release` writes for this version, and checks it as .ci/run does', () => {
    const block = readmeBlock('Install on a server', 'sh');
    const name = `planner-${packageJson.version}-linux-x64`;
    expect(block).toContain(`sha256sum -c ${name}.tar.gz.sha256`);
    expect(block).toContain(`tar -xzf ${name}.tar.gz && cd ${name} && sha256sum -c SHA256SUMS`);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toContain('sha256sum -c "$name.tar.gz.sha256"');
    expect(ci).toContain('sha256sum -c SHA256SUMS');
  });
});

describe('README links', () => {
  it('the specification it links is in the repository, and is the contract in shared/ where that is beside the clone', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('[the specification](docs/booking-api.md)');
    const copy = readFileSync(join(ROOT, 'docs/booking-api.md'), 'utf8');
    expect(copy).toMatch(/^# /);
    const shared = join(ROOT, '../shared/spec/booking-api.md');
    // CI and the developers' machines have shared/ beside the clone: the copy must not drift from it.
    expect(existsSync(shared) ? readFileSync(shared, 'utf8') : copy).toBe(copy);
  });
});

describe('README table of contents (issue 24, item 17)', () => {
  /** GitHub's anchor of a heading: lower case, backticks and punctuation but `-` and `_` dropped, spaces as `-`. */
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replaceAll('`', '')
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replaceAll(' ', '-');

  it('lists every ## and ### heading in order, and every #link in the README reaches a heading or an anchor', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
    const headings = [...outsideCode.matchAll(/^(##|###) (.+)$/gm)]
      .map((match) => match[2]!)
      .filter((heading) => heading !== 'Contents');
    const contents = /^## Contents\n\n([\s\S]*?)\n\n/m.exec(text)![1]!;
    const listed = [...contents.matchAll(/^ *- \[(.+)\]\(#(.+)\)$/gm)];
    expect(listed.map((match) => match[2])).toEqual(headings.map(slug));
    const anchors = new Set([
      ...headings.map(slug),
      ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!),
    ]);
    const links = [...outsideCode.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.filter((link) => !anchors.has(link))).toEqual([]);
  });
});
