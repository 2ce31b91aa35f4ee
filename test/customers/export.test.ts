/**
 * `planner customer find` and `customer export` against a real server, SMTP server and
 * webhook receiver: the export holds every value submitted, every mail, the webhook deliveries, the self-service
 * links and the changes.
 */

import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pageSetup } from '../booking-page/flow.ts';
import { commandsOf, newcomerEnv, readmeBlocks } from '../docs/readme.ts';
import { api, bookableDb, cli, cliJson, cliOk, fieldArgs, ROOT, refused, tempDb, tempDir } from '../helpers.ts';

describe('planner customer find and export', () => {
  it('an export holds every value submitted and every mail; find finds by name, phone, e-mail and reference', async () => {
    const s = await pageSetup({
      more: async (db) => void (await cliOk(db, 'field', 'add', 'insurer', '--label', 'Insurer')),
    });
    await cliOk(s.db, 'api', 'enable');
    const token = (await cliJson(s.db, 'token', 'new')).token;
    const days = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${days[1]}`, token)).body.data as string[];
    const submission = {
      first_name: 'Erika',
      last_name: 'Mustermann',
      email: 'Erika@Example.com',
      phone: '+49 30 555 0101',
      insurer: 'Techniker Krankenkasse',
    };
    const booked = await api(s.base, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: 1, reason: 1, slot: slots[0], submission }),
    });
    expect(booked.status).toBe(201);
    const other = await api(s.base, '/api/bookings', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: slots[2],
        submission: { first_name: 'Max', last_name: 'Other', email: 'max@example.com' },
      }),
    });
    expect(other.status).toBe(201);
    await s.smtp.received(4);
    await s.receiver.next(2);
    const reference = booked.body.booking_details_id as string;
    await cliOk(s.db, 'bookings', 'move', reference, slots[3]!.slice(0, 16));
    await s.smtp.received(5);

    for (const text of ['erika', 'Mustermann', '555 0101', 'erika@example.com', reference.toLowerCase()]) {
      const found = await cliJson(s.db, 'customer', 'find', text);
      expect(found, text).toHaveLength(1);
      expect(found[0]).toMatchObject({
        email: 'Erika@Example.com',
        names: ['Erika Mustermann'],
        phones: ['+49 30 555 0101'],
        bookings: 1,
        references: [reference],
      });
    }
    expect(await cliJson(s.db, 'customer', 'find', 'nobody-here')).toEqual([]);
    const short = await cli(s.db, 'customer', 'find', 'e');
    expect(short.code).toBe(1);
    expect(short.stderr).toBe(
      'planner: give at least 2 characters to look for (a name, an e-mail address, a phone number or a booking reference)\n',
    );

    for (const key of ['erika@example.com', reference]) {
      const exported = JSON.parse(await cliOk(s.db, 'customer', 'export', key));
      expect(exported.customer.email).toBe('Erika@Example.com');
      expect(exported.bookings).toHaveLength(1);
      expect(exported.bookings[0].submission).toEqual(submission);
      // Every mail of the booking: the confirmation, the practice's notice and the update of the move; with bodies.
      const kinds = exported.mails.map((mail: any) => mail.kind).sort();
      expect(kinds).toEqual(['confirmation', 'notice', 'update']);
      for (const mail of exported.mails) expect(mail.text).toContain('Mustermann');
      expect(exported.mails.find((mail: any) => mail.kind === 'confirmation').to).toBe('Erika@Example.com');
      expect(exported.webhookDeliveries.map((delivery: any) => delivery.type).sort()).toEqual([
        'booking.changed',
        'booking.created',
      ]);
      expect(exported.selfService.length).toBeGreaterThanOrEqual(1); // the confirmation's link
      expect(exported.changes.map((change: any) => [change.kind, change.by])).toEqual([
        ['created', 'api'],
        ['moved', 'admin'],
      ]);
      // Nothing of the other customer.
      expect(JSON.stringify(exported)).not.toContain('max@example.com');
    }
    // The README's access-request lines, run as written (the file they write put in a temporary folder).
    const out = join(tempDir(), 'erika.json');
    const lines = commandsOf(readmeBlocks('Personal data (GDPR)', 'sh')[1]!).filter((line) => !line.startsWith('#'));
    expect(lines).toHaveLength(2);
    const printed: string[] = [];
    for (const line of lines) {
      const { stdout } = await promisify(execFile)('sh', ['-c', line.replace('--out erika.json', `--out ${out}`)], {
        cwd: ROOT,
        env: newcomerEnv({ PLANNER_DB: s.db }),
      });
      printed.push(stdout);
    }
    expect(printed[0]).toContain(
      `customer 1  Erika@Example.com  Erika Mustermann  +49 30 555 0101  1 booking(s): ${reference}`,
    );
    expect(printed[1]).toMatch(/^Wrote .*erika\.json: customer 1 \(Erika@Example\.com\): 1 booking\(s\), 3 mail\(s\)/);
    expect(JSON.parse(readFileSync(out, 'utf8')).bookings[0].submission).toEqual(submission);
    const missing = await cli(s.db, 'customer', 'export', 'nobody@example.com');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'planner: no customer with the e-mail address or booking reference "nobody@example.com" (planner customer find <text> looks for one)\n',
    );
    await s.server.stop();
  });

  it('the mails in an export say in words what their manage line is, with no raw placeholder; --out refuses an existing file unless --force (issue 36, item 14)', async () => {
    const db = tempDb();
    await bookableDb(db); // mail not set up: every mail waits in the outbox as it was written
    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.praxis.example');
    const slots = (await cliJson(db, 'slots', '1', '1')).days[1].slots as string[];
    const made = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slots[0]!,
      ...fieldArgs({ first_name: 'Erika', last_name: 'Mustermann', email: 'erika@example.com' }),
    );
    await cliJson(db, 'bookings', 'move', made.reference, slots[2]!);
    const raw = await cliOk(db, 'customer', 'export', 'erika@example.com');
    expect(raw).not.toMatch(/\\u0000|manage-link/);
    const exported = JSON.parse(raw);
    expect(exported.mails.map((mail: any) => mail.kind).sort()).toEqual(['confirmation', 'notice', 'update']);
    const note =
      "[Here the e-mail says how to cancel or change the appointment, as it stands when the e-mail is sent: a personal link to the self-service page with its deadline (planner keeps no copy of the link), or the practice's phone number.]";
    for (const mail of exported.mails) {
      expect(`${mail.text}${mail.html}`).not.toContain('\u0000');
      if (mail.kind === 'notice') continue; // the practice's notice has no manage line
      expect(mail.text).toContain(`\n${note}\n`);
      expect(mail.html).toContain(note.replace("'", '&#39;'));
    }
    // --out: an existing file is kept, and nothing is written (not even the audit entry of an export), unless --force.
    const out = join(tempDir(), 'erika.json');
    writeFileSync(out, 'keep me\n');
    await refused(
      db,
      ['customer', 'export', 'erika@example.com', '--out', out],
      `planner: ${out} exists; choose another name or pass --force to replace it`,
    );
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
    expect(await cliOk(db, 'customer', 'export', 'erika@example.com', '--out', out, '--force')).toMatch(
      /^Wrote .*erika\.json: customer 1 \(erika@example\.com\): 1 booking\(s\), 3 mail\(s\)/,
    );
    expect(JSON.parse(readFileSync(out, 'utf8')).bookings[0].reference).toBe(made.reference);
    expect(statSync(out).mode & 0o777).toBe(0o600); // replaced by a file of its own, private as the export is
  });
});
