/**
 * Through the real CLI and server, every booking written into the practitioner's Google or Microsoft calendar (issue
 * 48), against the fakes of the providers' APIs (fake-google.ts, fake-microsoft.ts: built from their published
 * documents, checked against their schemas). What the CalDAV writer's tests show of Radicale (write.test.ts), each
 * provider shows too: exactly one event per booking after an outage, a revoked sign-in and its reconnect, and a
 * `planner serve` killed with SIGKILL during 50 bookings.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  api,
  apiBook,
  BIN,
  bookableDb,
  type CliResult,
  cliWith,
  ROOT,
  serve,
  tempDir,
  watchOutput,
} from '../helpers.ts';
import { fakeGoogle } from './fake-google.ts';
import { fakeMicrosoft } from './fake-microsoft.ts';

/** The practitioner's calendar at a provider, as the tests drive it. */
interface Provider {
  name: 'google' | 'microsoft';
  /** The environment planner's processes run in: the provider's base address is the fake's. */
  env: Record<string, string>;
  /** `calendar connect 1 <provider> … --write-bookings`, signing in as the practitioner would. */
  connect(db: string): Promise<CliResult>;
  /** `calendar reconnect <id>`, with a new sign-in. */
  reconnect(db: string, id: number): Promise<CliResult>;
  /** The sign-in is gone (revoked by the practitioner or an admin): its tokens are refused. */
  revoke(): void;
  /** An outage of the provider's API. */
  down(on: boolean): void;
  /** The references of the bookings planner's events in the calendar stand for, one per event, sorted. */
  references(): string[];
  /** What `status` says to run. */
  reconnectCommand: RegExp;
  /** Moves planner's event of `reference` to [start, end) (ISO instants, UTC), as the calendar app would. */
  moveInApp(reference: string, start: string, end: string): void;
  /** The account's secrets so far (a key's private part, refresh tokens): never to be printed or logged. */
  secrets(): string[];
}

/** Runs the CLI, its output watched as it prints (a sign-in prints its code, then waits). */
function liveCli(db: string, env: Record<string, string>, ...args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args, '--db', db], {
    cwd: ROOT,
    env: { ...process.env, PLANNER_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, waitFor } = watchOutput(child, `planner ${args.join(' ')}`);
  const done = new Promise<CliResult>((resolve) =>
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout: output(), stderr: '' })),
  );
  return { waitFor, done };
}

const CALENDAR = 'anna@example.com';

async function google(): Promise<Provider> {
  const fake = await fakeGoogle();
  const dir = tempDir();
  let account = 'planner@planner-test.iam.gserviceaccount.com';
  const keys: string[] = [];
  const keyFile = () => {
    const file = join(dir, `${account.split('@')[0]}.json`);
    const key = fake.serviceAccountKey(account);
    keys.push((JSON.parse(key) as { private_key: string }).private_key.split('\n')[1]!);
    writeFileSync(file, key);
    fake.share(CALENDAR, account, 'writer');
    return file;
  };
  const env = { PLANNER_TEST_GOOGLE_BASE: fake.url };
  return {
    name: 'google',
    env,
    connect: (db) =>
      cliWith(
        db,
        { env },
        'calendar',
        'connect',
        '1',
        'google',
        '--calendar',
        CALENDAR,
        '--key-file',
        keyFile(),
        '--write-bookings',
        '--name',
        'Anna',
      ),
    reconnect: (db, id) => {
      // The account was disabled: the admin makes another service account, and the practitioner shares with it.
      account = `planner2@planner-test.iam.gserviceaccount.com`;
      return cliWith(db, { env }, 'calendar', 'reconnect', String(id), '--key-file', keyFile());
    },
    revoke: () => fake.revoke(account),
    down: (on) => {
      fake.state.down = on;
    },
    references: () =>
      fake
        .events(CALENDAR)
        .map((event) => String(event.id))
        .filter((id) => /^planner[0-9a-f]+$/.test(id))
        .map((id) => Buffer.from(id.slice('planner'.length), 'hex').toString('utf8').toUpperCase())
        .sort(),
    reconnectCommand: /reconnect: planner calendar reconnect 1 --key-file <new-key\.json>/,
    secrets: () => keys,
    moveInApp: (reference, start, end) =>
      fake.editEvent(CALENDAR, `planner${Buffer.from(reference.toLowerCase()).toString('hex')}`, {
        start: { dateTime: start },
        end: { dateTime: end },
      }),
  };
}

async function microsoft(): Promise<Provider> {
  const fake = await fakeMicrosoft();
  const clientId = '11111111-2222-3333-4444-555555555555';
  fake.registerApp(clientId, { publicClient: true });
  fake.pollIntervalSeconds = 1;
  const env = { PLANNER_TEST_MICROSOFT_BASE: fake.url };
  /** Runs a sign-in command: reads the code it prints, and signs in with it as the practitioner would. */
  const signingIn = async (db: string, ...args: string[]) => {
    const command = liveCli(db, env, ...args);
    const [, code] = await command.waitFor(/enter the code (\S+),/);
    fake.approve(code!, CALENDAR);
    return command.done;
  };
  return {
    name: 'microsoft',
    env,
    connect: (db) =>
      signingIn(
        db,
        'calendar',
        'connect',
        '1',
        'microsoft',
        '--client-id',
        clientId,
        '--write-bookings',
        '--name',
        'Anna',
      ),
    reconnect: (db, id) => signingIn(db, 'calendar', 'reconnect', String(id)),
    revoke: () => fake.revoke(CALENDAR),
    down: (on) => {
      fake.state.down = on;
    },
    references: () =>
      fake
        .events(CALENDAR)
        .map((event) => String(event.transactionId ?? ''))
        .filter((id) => /^planner-[0-9a-z]{16}$/i.test(id))
        .map((id) => id.slice('planner-'.length).toUpperCase())
        .sort(),
    reconnectCommand: /reconnect: planner calendar reconnect 1(?! --key-file)/,
    secrets: () => fake.refreshTokensUsed,
    moveInApp: (reference, start, end) => {
      const event = fake
        .events(CALENDAR)
        .find((one) => one.transactionId?.toUpperCase() === `PLANNER-${reference.toUpperCase()}`);
      fake.editEvent(CALENDAR, event!.id, {
        start: { dateTime: `${start.slice(0, 19)}.0000000`, timeZone: 'UTC' },
        end: { dateTime: `${end.slice(0, 19)}.0000000`, timeZone: 'UTC' },
      });
    },
  };
}

/** Berlin's offset from UTC in hours at the local time `local` (`YYYY-MM-DD HH:MM:SS`): 1 in winter, 2 in summer. */
function berlinOffsetHours(local: string): number {
  const guess = new Date(`${local.replace(' ', 'T')}Z`);
  const shown = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(guess);
  return (Number(shown) - guess.getUTCHours() + 24) % 24;
}

/** Waits (bounded: 20 s) until `check` holds for the calendar's references, and returns them. */
async function eventually(provider: Provider, check: (references: string[]) => boolean): Promise<string[]> {
  let references: string[] = [];
  for (const started = Date.now(); Date.now() - started < 20_000; ) {
    references = provider.references();
    if (check(references)) return references;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return references;
}

/** The references of the file's booked bookings that have not ended, sorted. */
async function upcoming(db: string): Promise<string[]> {
  const { DatabaseSync } = await import('node:sqlite');
  const file = new DatabaseSync(db, { readOnly: true });
  try {
    return (
      file
        .prepare("SELECT reference FROM bookings WHERE status = 'booked' AND end_at > unixepoch() ORDER BY reference")
        .all() as { reference: string }[]
    ).map((row) => row.reference);
  } finally {
    file.close();
  }
}

/** The practice's notices (mails without a booking) waiting in the outbox, by subject. */
async function notices(db: string): Promise<string[]> {
  const { DatabaseSync } = await import('node:sqlite');
  const file = new DatabaseSync(db, { readOnly: true });
  try {
    return (
      file.prepare('SELECT subject FROM outbox WHERE booking_id IS NULL ORDER BY id').all() as { subject: string }[]
    ).map((row) => row.subject);
  } finally {
    file.close();
  }
}

/** A bookable file whose calendar 1 (the provider's) receives schedule 1's bookings, a server on it, and free slots. */
async function setup(provider: Provider) {
  const db = tempDir() + '/planner.db';
  const token = await bookableDb(db);
  const connected = await provider.connect(db);
  expect(connected).toMatchObject({ code: 0 });
  const server = await serve(db, { ...provider.env, PLANNER_CALENDAR_RETRY_SECONDS: '0.2' });
  const slots = async (count: number) => {
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const found: string[] = [];
    for (const day of days.slice(1)) {
      if (found.length >= count) break;
      found.push(
        ...((await api(server.url, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data as string[]).slice(
          0,
          10,
        ),
      );
    }
    return found.slice(0, count);
  };
  const book = async (slot: string, index: number) => {
    const answer = await apiBook(server.url, token, slot, {
      first_name: `P${index}`,
      last_name: 'Test',
      email: `p${index}@example.com`,
    });
    expect(answer.status).toBe(201);
    return answer.body.booking_details_id as string;
  };
  return { db, token, server, slots, book };
}

describe.each([
  ['Google', google],
  ['Microsoft', microsoft],
])('every booking in the practitioner’s %s calendar (issue 48)', (_name, make) => {
  it('one event per booking: an outage waits and is written once; a cancel made meanwhile leaves no event', async () => {
    const provider = await make();
    const s = await setup(provider);
    const slots = await s.slots(4);
    const first = await s.book(slots[0]!, 0);
    expect(await eventually(provider, (list) => list.length === 1)).toEqual([first]);

    provider.down(true);
    const during = [await s.book(slots[1]!, 1), await s.book(slots[2]!, 2), await s.book(slots[3]!, 3)];
    expect(await cliWith(s.db, { env: provider.env }, 'bookings', 'cancel', during[1]!, '--no-notify')).toMatchObject({
      code: 0,
    });
    provider.down(false);
    const wanted = [first, during[0]!, during[2]!].sort();
    expect(await eventually(provider, (list) => list.join() === wanted.join())).toEqual(wanted);
    expect(await upcoming(s.db)).toEqual(wanted);
    await s.server.stop();
  }, 120_000);

  it('an event moved in the calendar app is noticed and shown; repair writes planner’s time back over it', async () => {
    const provider = await make();
    const s = await setup(provider);
    const [slot] = await s.slots(1);
    const reference = await s.book(slot!, 0);
    expect(await eventually(provider, (list) => list.length === 1)).toEqual([reference]);
    // Two hours later the same day (the slot is Berlin's local time; a slot at 08:00 or later stays within the day).
    const startAt = Date.parse(`${slot!.replace(' ', 'T')}Z`) - 3_600_000 * berlinOffsetHours(slot!) + 7_200_000;
    provider.moveInApp(reference, new Date(startAt).toISOString(), new Date(startAt + 1_800_000).toISOString());
    expect(await cliWith(s.db, { env: provider.env }, 'calendar', 'sync', '1')).toMatchObject({ code: 0 });
    const list = (await cliWith(s.db, { env: provider.env }, 'calendar', 'list')).stdout;
    const shown = `${slot!.slice(0, 11)}${String(Number(slot!.slice(11, 13)) + 2).padStart(2, '0')}${slot!.slice(13, 16)}`;
    expect(list).toMatch(new RegExp(`${reference}\\s+booked .+ moved to ${shown}`));
    const repaired = await cliWith(s.db, { env: provider.env }, 'calendar', 'repair', '1');
    expect(repaired).toMatchObject({ code: 0, stdout: expect.stringContaining('1 event(s) written') });
    expect((await cliWith(s.db, { env: provider.env }, 'calendar', 'list')).stdout).not.toContain('moved to');
    expect(provider.references()).toEqual([reference]);
    await s.server.stop();
  }, 120_000);

  it('a revoked sign-in: bookings still succeed, status says reconnect, one mail; after the reconnect exactly the upcoming bookings', async () => {
    const provider = await make();
    const s = await setup(provider);
    const slots = await s.slots(5);
    const before = [await s.book(slots[0]!, 0), await s.book(slots[1]!, 1)];
    expect(await eventually(provider, (list) => list.length === 2)).toEqual([...before].sort());

    provider.revoke();
    const after = [await s.book(slots[2]!, 2), await s.book(slots[3]!, 3), await s.book(slots[4]!, 4)];
    expect(await cliWith(s.db, { env: provider.env }, 'bookings', 'cancel', before[0]!, '--no-notify')).toMatchObject({
      code: 0,
    });
    const status = async () => (await cliWith(s.db, { env: provider.env }, 'status')).stdout;
    for (const started = Date.now(); !/RECONNECT/.test(await status()) && Date.now() - started < 20_000; )
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await status()).toMatch(provider.reconnectCommand);
    const doctor = await cliWith(s.db, { env: provider.env }, 'doctor');
    expect(doctor.stdout).toMatch(provider.reconnectCommand);
    expect((await notices(s.db)).filter((subject) => /needs reconnecting/.test(subject))).toEqual([
      'Calendar "Anna" needs reconnecting: planner may no longer use it',
    ]);
    // The events written before stay; nothing new reached the calendar.
    expect(provider.references()).toEqual([...before].sort());

    const reconnected = await provider.reconnect(s.db, 1);
    expect(reconnected).toMatchObject({ code: 0 });
    const shown = [
      await status(),
      doctor.stdout,
      reconnected.stdout + reconnected.stderr,
      (await cliWith(s.db, { env: provider.env }, 'calendar', 'list')).stdout,
      (await cliWith(s.db, { env: provider.env }, 'calendar', 'list', '--json')).stdout,
    ];
    const wanted = await upcoming(s.db);
    expect(wanted).toEqual([before[1]!, ...after].sort());
    expect(await eventually(provider, (list) => list.join() === wanted.join())).toEqual(wanted);
    expect(await status()).not.toMatch(/RECONNECT/);
    // Still one mail about it.
    expect((await notices(s.db)).filter((subject) => /needs reconnecting/.test(subject))).toHaveLength(1);
    await s.server.stop();
    // The account's secrets were in use all along, and shown nowhere: not in the outputs, not in the server's log.
    expect(provider.secrets().length).toBeGreaterThan(0);
    for (const secret of provider.secrets())
      for (const text of [...shown, s.server.output()]) expect(text).not.toContain(secret);
  }, 120_000);

  it('planner serve killed with SIGKILL during 50 bookings: after the restart, exactly one event for each booking', async () => {
    const provider = await make();
    const s = await setup(provider);
    const slots = await s.slots(50);
    expect(slots.length).toBe(50);
    let answered = 0;
    await Promise.all(
      slots.map(async (slot, index) => {
        const answer = await fetch(`${s.server.url}/api/bookings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            schedule: 1,
            reason: 1,
            slot,
            submission: { first_name: `P${index}`, last_name: 'Test', email: `p${index}@example.com` },
          }),
        }).catch(() => undefined);
        if (answer?.status === 201) answered++;
        if (answered === 20) s.server.child.kill('SIGKILL'); // in the middle: bookings made, writes queued and being written
      }),
    );
    await s.server.stop();
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(s.db);
    // A write the killed server was making stays leased to it for 120 s, then any server takes it: as time would.
    file
      .prepare("UPDATE calendar_writes SET lease_until = 0 WHERE status = 'pending' AND lease_until > unixepoch()")
      .run();
    file.close();
    const wanted = await upcoming(s.db);
    expect(wanted.length).toBeGreaterThanOrEqual(20);
    const again = await serve(s.db, { ...provider.env, PLANNER_CALENDAR_RETRY_SECONDS: '0.2' });
    expect(await eventually(provider, (list) => list.length >= wanted.length)).toEqual(wanted);
    await again.stop();
  }, 180_000);
});
