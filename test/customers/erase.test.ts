/**
 * `planner customer erase` while the server runs: the customer's future bookings are cancelled with the
 * usual mails and webhooks, then their e-mail address, name and phone number are gone from the bytes of the file and
 * its WAL; the other customer's stay. The self-service link is revoked, `bookings show` and the export show no
 * personal data, `customer.erased` is signed, and the audit log names the erase without personal data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { get, pageSetup } from '../booking-page/flow.ts';
import { api, berlinDay, bookableDb, cli, cliJson, cliOk, fieldArgs, tempDb } from '../helpers.ts';
import { startReceiver, verifySignature } from '../webhooks/receiver.ts';

/** Every byte of the database file and its WAL, as Latin-1 text (to search for UTF-8 strings as bytes). */
function rawBytes(db: string): string {
  return [db, `${db}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

const ERIKA = {
  first_name: 'Erika',
  last_name: 'Mustermannova',
  email: 'Erika.Personal@Example.com',
  phone: '+49 30 555 0101',
};
const SECRETS = ['Erika.Personal@Example.com', 'erika.personal@example.com', 'Mustermannova', '+49 30 555 0101'];

describe('planner customer erase', () => {
  it('cancels the future bookings with their mails, and the e-mail address, name and phone are gone from the file and WAL', async () => {
    const s = await pageSetup();
    const full = await startReceiver();
    const hook = await cliJson(
      s.db,
      'webhook',
      'add',
      full.url,
      '--allow-insecure',
      '--include-customer',
      '--events',
      'booking.created,booking.cancelled,customer.erased',
    );
    await cliOk(s.db, 'api', 'enable');
    const token = (await cliJson(s.db, 'token', 'new')).token;
    const days = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
    const book = async (slot: string, submission: Record<string, string>) => {
      const answer = await api(s.base, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `key-${slot.replace(/\D/g, '')}` },
        body: JSON.stringify({ schedule: 1, reason: 1, slot, submission }),
      });
      expect(answer.status).toBe(201);
      return answer.body.booking_details_id as string;
    };
    const first = await book(slots[0]!, ERIKA);
    const second = await book(slots[2]!, ERIKA);
    const max = await book(slots[4]!, { first_name: 'Max', last_name: 'Keepme', email: 'max.keep@example.com' });
    const mails = await s.smtp.received(6);
    const toErika = (mail: (typeof mails)[number]) =>
      ((mail.to as any).text as string).toLowerCase().includes(ERIKA.email.toLowerCase());
    const link = /http:\/\/\S+\/manage\/[A-Za-z0-9_-]{43}/.exec(mails.find(toErika)!.text!)![0];
    await full.next(3);
    for (const value of SECRETS) expect(rawBytes(s.db), value).toContain(value);
    // The practitioner's calendar feed shows the booking with what was submitted.
    const feedUrl = (await cliOk(s.db, 'feed', 'url', '1', '--url', s.base)).split('\n')[0]!;
    expect((await get(feedUrl)).html).toContain('Mustermannova');

    const erased = await cliOk(s.db, 'customer', 'erase', 'erika.personal@example.com', '--yes');
    expect(erased).toContain(`Cancelled first: ${first}, ${second} (the customer is told;`);
    // The usual mails of a cancellation by the practice go out (to the customer), and the webhooks.
    const after = await s.smtp.received(8);
    expect(after.slice(6).filter(toErika)).toHaveLength(2);
    const events = await full.next(6);
    const erasedEvent = events.find((event) => event.json.type === 'customer.erased')!;
    expect(erasedEvent.json.data).toEqual({
      user_id: expect.any(Number),
      bookings: [
        { booking_id: expect.any(Number), booking_details_id: first },
        { booking_id: expect.any(Number), booking_details_id: second },
      ],
    });
    expect(
      verifySignature(
        hook.secret,
        erasedEvent.headers['planner-signature'] as string,
        erasedEvent.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    expect(JSON.stringify(erasedEvent.json)).not.toContain('Erika');
    // Once the server has recorded those sends (its worker scrubs them then), nothing of Erika is in the file.
    const handle = new DatabaseSync(s.db, { readOnly: true });
    const waiting = () =>
      (
        handle
          .prepare(
            `SELECT count(*) AS n FROM outbox WHERE status = 'pending' UNION ALL SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'`,
          )
          .all() as { n: number }[]
      ).some((row) => row.n > 0);
    for (let tries = 0; tries < 100 && waiting(); tries++) await new Promise((done) => setTimeout(done, 50)); // bounded: 5 s
    handle.close();
    // The worker empties the WAL as it records those sends; a read at that moment (this test's own, above) makes it
    // try again at its next pass, a second later: wait for that, bounded (10 s), reading the files only.
    for (let tries = 0; tries < 100 && SECRETS.some((value) => rawBytes(s.db).includes(value)); tries++)
      await new Promise((done) => setTimeout(done, 100));
    await cli(s.db, 'status'); // a reader that leaves the WAL as it is
    const bytes = rawBytes(s.db);
    for (const value of SECRETS) expect(bytes.includes(value), value).toBe(false);
    expect(bytes).toContain('max.keep@example.com');
    expect(bytes).toContain('Keepme');
    // The skeleton stays: time, schedule, reason, status; the history too.
    const shown = await cliJson(s.db, 'bookings', 'show', first);
    expect(shown).toMatchObject({ reference: first, status: 'cancelled', submission: {}, customerEmail: null });
    expect(shown.history.map((entry: any) => entry.kind)).toEqual(['created', 'cancelled']);
    expect(JSON.stringify(shown)).not.toContain('Erika');
    // The feed still shows the time, without the name.
    const feed = await get(feedUrl);
    expect(feed.html).toContain(`${first}`);
    expect(feed.html).not.toMatch(/Erika|Mustermannova|555 0101/);
    // The self-service link is revoked; the export by reference shows nothing personal; by address finds nobody.
    expect((await get(link)).status).toBe(404);
    const exported = JSON.parse(await cliOk(s.db, 'customer', 'export', first));
    expect(JSON.stringify(exported)).not.toMatch(/Erika|Mustermannova|555 0101/);
    expect(exported.bookings).toHaveLength(2);
    expect((await cli(s.db, 'customer', 'export', ERIKA.email)).code).toBe(1);
    expect(await cliJson(s.db, 'customer', 'find', 'Mustermannova')).toEqual([]);
    expect((await cliJson(s.db, 'customer', 'find', 'Keepme'))[0].references).toEqual([max]);
    // The audit log: the erase, by whom, naming bookings by reference only.
    const audit = await cliJson(s.db, 'audit');
    const entry = audit.find((one: any) => one.action === 'customer erase' && one.detail !== '');
    expect(entry).toMatchObject({ actor: 'admin', osUser: expect.any(String) });
    expect(entry.detail).toContain(first);
    expect(JSON.stringify(audit)).not.toMatch(/Erika|Mustermannova|555 0101/);
    expect(audit.filter((one: any) => one.action === 'booking created' && one.actor === 'api')).toHaveLength(3);
    expect(
      audit
        .filter((one: any) => one.action === 'booking cancelled' && one.actor === 'admin')
        .map((one: any) => one.reference),
    ).toEqual([first, second]);
    expect(audit.find((one: any) => one.action === 'webhook add')).toMatchObject({
      actor: 'admin',
      osUser: expect.stringMatching(/.+/),
    });
    await s.server.stop();
  });

  it('with --no-notify: a refusal of the SMTP server that named the address, and the webhook payloads, lose it too', async () => {
    const s = await pageSetup({ smtp: { reject: (to) => (to.startsWith('refused.') ? 550 : undefined) } });
    const full = await startReceiver();
    await cliOk(s.db, 'webhook', 'add', full.url, '--allow-insecure', '--include-customer');
    await cliOk(s.db, 'api', 'enable');
    const token = (await cliJson(s.db, 'token', 'new')).token;
    const days = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
    const submission = { first_name: 'Rena', last_name: 'Refusedova', email: 'refused.rena@example.com' };
    const answer = await api(s.base, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: slots[0], submission }),
    });
    expect(answer.status).toBe(201);
    await s.smtp.received(1); // the practice's notice; the customer's confirmation is refused for good
    await full.next(1);
    const handle = new DatabaseSync(s.db, { readOnly: true });
    const failed = () =>
      (
        handle
          .prepare("SELECT count(*) AS n FROM outbox WHERE status = 'failed' AND last_error LIKE '%refused.rena%'")
          .get() as { n: number }
      ).n;
    for (let tries = 0; tries < 100 && failed() === 0; tries++) await new Promise((done) => setTimeout(done, 50)); // bounded: 5 s
    expect(failed()).toBe(1);
    handle.close();
    const before = rawBytes(s.db);
    for (const value of ['refused.rena@example.com', 'Refusedova']) expect(before).toContain(value);
    const erased = await cliOk(s.db, 'customer', 'erase', answer.body.booking_details_id, '--yes', '--no-notify');
    expect(erased).toContain('(without mails to the customer)');
    // The cancellation's webhook is told, without the customer.
    const events = await full.next(2);
    expect(events[1]!.json).toMatchObject({
      type: 'booking.cancelled',
      data: { booking_details_id: answer.body.booking_details_id },
    });
    expect(events[1]!.json.data.customer).toBeUndefined();
    await cli(s.db, 'status');
    const after = rawBytes(s.db);
    for (const value of ['refused.rena@example.com', 'Refusedova', 'Rena'])
      expect(after.includes(value), value).toBe(false);
    // `mail retry` does not bring the erased message back.
    expect(await cliOk(s.db, 'mail', 'retry', 'all')).toBe(
      '0 message(s) queued again; a running `planner serve` sends them.\n',
    );
    await s.server.stop();
  });

  it('without mail set up: the future bookings are cancelled without a mail, the command says so, and nothing of the customer stays in the outbox (issue 36, item 7)', async () => {
    const db = tempDb();
    await bookableDb(db); // no `mail set`: every mail waits in the outbox, for good
    const slots = (await cliJson(db, 'slots', '1', '1')).days[1].slots as string[];
    const person = fieldArgs({
      first_name: 'Nomail',
      last_name: 'Nowhereova',
      email: 'no.mail@example.com',
      phone: '+49 30 555 0199',
    });
    const first = await cliJson(db, 'bookings', 'add', '1', '1', slots[0]!, ...person);
    const second = await cliJson(db, 'bookings', 'add', '1', '1', slots[2]!, ...person);
    await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slots[4]!,
      ...fieldArgs({ first_name: 'Kept', last_name: 'Keepova', email: 'kept@example.com' }),
    );
    const secrets = ['no.mail@example.com', 'Nowhereova', '+49 30 555 0199'];
    for (const value of secrets) expect(rawBytes(db), value).toContain(value);
    const erased = await cliOk(db, 'customer', 'erase', 'no.mail@example.com', '--yes');
    expect(erased).toBe(
      `Erased customer ${first.customerId}: 2 booking(s) keep their time, schedule, reason and status; their personal data is gone from the database.\n` +
        `Cancelled first: ${first.reference}, ${second.reference} (mail is not set up, so the customer is not told: no mail with their data waits in the outbox; call them if they should know).\n` +
        'Backups and a replica keep older copies until they rotate (README: "Personal data (GDPR)").\n',
    );
    // Nothing waits for the customer; what the outbox keeps of their bookings holds nothing of them.
    const handle = new DatabaseSync(db, { readOnly: true });
    const rows = handle
      .prepare('SELECT kind, status, recipient, subject, body FROM outbox WHERE booking_id IN (?, ?)')
      .all(first.id, second.id) as { status: string; recipient: string }[];
    handle.close();
    expect(rows.filter((row) => row.status === 'pending')).toEqual([]);
    for (const row of rows) expect(row.recipient).toBe('[erased]');
    const bytes = rawBytes(db);
    for (const value of secrets) expect(bytes.includes(value), value).toBe(false);
    expect(bytes).toContain('kept@example.com');
    expect(await cliOk(db, 'mail', 'queue')).not.toMatch(/no\.mail|Nowhereova/);
  });

  it('leaves no copy of the data outside the rows either: the file is rewritten after the erase', async () => {
    const db = tempDb();
    await bookableDb(db);
    const slots = (await cliJson(db, 'slots', '1', '1')).days[1].slots as string[];
    const person = fieldArgs({ first_name: 'Slack', last_name: 'Spaceova', email: 'slack.space@example.com' });
    await cliJson(db, 'bookings', 'add', '1', '1', slots[0]!, ...person);
    // A copy of the surname outside every row, as a page that SQLite rebuilt keeps earlier bytes of its cells, or a
    // connection without secure_delete (Litestream's, an old version's) frees a page without zeroing it.
    const raw = new DatabaseSync(db);
    raw.exec('PRAGMA secure_delete = OFF');
    raw.exec(
      "CREATE TABLE scratch (text TEXT); INSERT INTO scratch VALUES ('copied: Spaceova slack.space@example.com')",
    );
    raw.exec('DROP TABLE scratch');
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    expect(readFileSync(db).toString('latin1')).toContain('copied: Spaceova');
    expect(await cliOk(db, 'customer', 'erase', 'slack.space@example.com', '--yes')).toContain('Erased customer');
    const bytes = rawBytes(db);
    for (const value of ['Spaceova', 'slack.space@example.com']) expect(bytes.includes(value), value).toBe(false);
  });

  it("a cancellation mail of the erase that the SMTP server refuses for good loses the customer's data as it fails", async () => {
    const s = await pageSetup({ smtp: { reject: (to) => (to.startsWith('gone.') ? 550 : undefined) } });
    await cliOk(s.db, 'api', 'enable');
    const token = (await cliJson(s.db, 'token', 'new')).token;
    const days = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${days[2]}`, token)).body.data as string[];
    const submission = { first_name: 'Gone', last_name: 'Refusedowa', email: 'gone.for.good@example.com' };
    const answer = await api(s.base, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: slots[0], submission }),
    });
    expect(answer.status).toBe(201);
    await s.smtp.received(1); // the practice's notice; the confirmation is refused for good
    const erased = await cliOk(s.db, 'customer', 'erase', 'gone.for.good@example.com', '--yes');
    expect(erased).toContain(
      '(the customer is told; those mails wait for planner serve and lose their data once sent or failed for good)',
    );
    // The cancellation is refused (550): it fails for good, and the trigger of migration 12 scrubs it as it does.
    const handle = new DatabaseSync(s.db, { readOnly: true });
    const cancellation = () =>
      handle
        .prepare("SELECT status, recipient, body, last_error AS lastError FROM outbox WHERE kind = 'cancellation'")
        .get() as { status: string } | undefined;
    for (let tries = 0; tries < 100 && cancellation()?.status !== 'failed'; tries++)
      await new Promise((done) => setTimeout(done, 50)); // bounded: 5 s
    expect(cancellation()).toEqual({ status: 'failed', recipient: '[erased]', body: '{}', lastError: null });
    handle.close();
    for (let tries = 0; tries < 100 && rawBytes(s.db).includes('gone.for.good@example.com'); tries++)
      await new Promise((done) => setTimeout(done, 100));
    await cli(s.db, 'status');
    const bytes = rawBytes(s.db);
    for (const value of ['gone.for.good@example.com', 'Refusedowa']) expect(bytes.includes(value), value).toBe(false);
    await s.server.stop();
  });

  it('without a terminal it needs --yes, and refuses an unknown customer; nothing changes', async () => {
    const s = await pageSetup();
    const without = await cli(s.db, 'customer', 'erase', 'someone@example.com');
    expect(without.code).toBe(1);
    expect(without.stderr).toBe(
      'planner: customer erase cannot be undone: confirm with --yes (no terminal to ask on)\n',
    );
    const unknown = await cli(s.db, 'customer', 'erase', 'someone@example.com', '--yes');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'planner: no customer with the e-mail address or booking reference "someone@example.com" (planner customer find <text> looks for one)\n',
    );
    await s.server.stop();
  });
});

describe('erasing a customer with a series (issue 47)', () => {
  it('each cancellation mail of its dates says nothing of dates staying booked: all of them go', async () => {
    const db = tempDb();
    await bookableDb(db);
    await cliOk(db, 'mail', 'set', 'smtp://127.0.0.1:9', '--from', 'desk@practice.example'); // the mails wait
    const first = `${berlinDay(2)} 08:00`;
    await cliOk(db, 'bookings', 'add', '1', '1', first, '--repeat', '1w', '--count', '3', ...fieldArgs());
    await cliOk(db, 'customer', 'erase', 'ada@example.com', '--yes');
    const handle = new DatabaseSync(db, { readOnly: true });
    const bodies = handle.prepare("SELECT body FROM outbox WHERE kind = 'cancellation'").all() as { body: string }[];
    handle.close();
    expect(bodies).toHaveLength(3);
    for (const { body } of bodies) expect(body).not.toMatch(/stays? booked|Still booked/);
  });
});
