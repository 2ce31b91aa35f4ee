/**
 * The retention, with a fixed clock. Bookings made now (by the real CLI) are anonymised by the server's
 * retention pass once the clock passed to 13 months later stands more than 12 months after their end: the skeleton
 * stays, the personal data is gone from the bytes of the file and WAL; `retention set|show` and `status` say it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.ts';
import { applyRetention } from '../../src/app/customers/erase.ts';
import { openStore } from '../../src/store/db.ts';
import {
  bookableDb,
  cli,
  cliJson,
  cliOk,
  fieldArgs,
  tempDb,
  UNDO_MIGRATION_13,
  UNDO_MIGRATION_16,
  UNDO_MIGRATION_17,
  UNDO_MIGRATION_18,
  UNDO_MIGRATION_19,
  UNDO_MIGRATION_20,
  UNDO_MIGRATION_21,
  UNDO_MIGRATION_22,
} from '../helpers.ts';

const rawBytes = (db: string) =>
  [db, `${db}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');

describe('planner retention', () => {
  it('off by default; set to 12 months, a pass 13 months after the bookings anonymises them and the bytes are gone', async () => {
    const db = tempDb();
    await bookableDb(db);
    expect(await cliJson(db, 'retention', 'show')).toEqual({ months: null });
    expect(await cliOk(db, 'status')).toMatch(/^retention +off: personal data is kept until erased/m);
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const booked = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      `${day} 09:00`,
      ...fieldArgs({ first_name: 'Rita', last_name: 'Retainova', email: 'rita.retain@example.com' }),
    );
    expect(rawBytes(db)).toContain('Retainova');

    for (const bad of ['0', '601', 'soon', '1.5']) {
      const refused = await cli(db, 'retention', 'set', bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `planner: retention takes a whole number of months from 1 to 600, or off (got "${bad}")\n`,
      );
    }
    await cliOk(db, 'retention', 'set', '12');
    expect(await cliJson(db, 'retention', 'show')).toEqual({ months: 12 });
    expect(await cliOk(db, 'status')).toMatch(/^retention +bookings anonymised 12 months after they end$/m);

    // 11 months on: nothing is due. 13 months on: the booking goes (the pass the server runs once a day).
    const at = (months: number) => {
      const now = new Date();
      now.setUTCMonth(now.getUTCMonth() + months);
      return now;
    };
    const early = createContext(openStore(db), () => at(11));
    expect(applyRetention(early)).toBe(0);
    early.store.close();
    const late = createContext(openStore(db), () => at(13));
    expect(applyRetention(late)).toBe(1);
    expect(applyRetention(late)).toBe(0); // once
    late.store.close();
    const shown = await cliJson(db, 'bookings', 'show', booked.reference);
    expect(shown).toMatchObject({ reference: booked.reference, status: 'booked', submission: {}, customerEmail: null });
    const bytes = rawBytes(db);
    for (const value of ['Retainova', 'rita.retain@example.com', 'Rita'])
      expect(bytes.includes(value), value).toBe(false);
    const audit = await cliJson(db, 'audit', '--from', '2000-01-01');
    expect(audit.find((entry: any) => entry.action === 'retention')).toMatchObject({
      actor: 'server',
      detail: expect.stringContaining(booked.reference),
    });
    // Its cut-off as a person reads it (issue 41, item 12): local, with the zone.
    expect(audit.find((entry: any) => entry.action === 'retention').detail).toMatch(
      /^1 booking\(s\) anonymised, ended before \d{4}-\d{2}-\d{2} \d{2}:\d{2} Europe\/Berlin: /,
    );
    expect(audit.find((entry: any) => entry.action === 'retention set')).toMatchObject({
      actor: 'admin',
      detail: '12 months',
    });
    await cliOk(db, 'retention', 'set', 'off');
    expect(await cliJson(db, 'retention', 'show')).toEqual({ months: null });
  });
});

describe('a file from before secure_delete (schema 11)', () => {
  it('is rewritten once when this planner first writes it: a row deleted before leaves nothing in its free pages', async () => {
    const db = tempDb();
    await bookableDb(db);
    // The file as planner 11 left it: without migration 12, and a customer deleted without secure_delete.
    const { DatabaseSync } = await import('node:sqlite');
    const raw = new DatabaseSync(db);
    raw.exec(`PRAGMA secure_delete = OFF; ${UNDO_MIGRATION_22}${UNDO_MIGRATION_21}${UNDO_MIGRATION_20}${UNDO_MIGRATION_19}${UNDO_MIGRATION_18}${UNDO_MIGRATION_17}${UNDO_MIGRATION_16}${UNDO_MIGRATION_13}
      DROP TABLE audit_log; DROP INDEX bookings_to_anonymise;
      ALTER TABLE bookings DROP COLUMN erased_at; ALTER TABLE settings DROP COLUMN retention_months; PRAGMA user_version = 11;
      INSERT INTO customers (email_key, email, created_at) VALUES ('old.deleted.person@example.com', 'old.deleted.person@example.com', 'now');
      DELETE FROM customers WHERE email_key = 'old.deleted.person@example.com';
      PRAGMA wal_checkpoint(TRUNCATE);`);
    raw.close();
    expect(rawBytes(db)).toContain('old.deleted.person@example.com');
    await cliOk(db, 'practice', 'set', '--phone', '+49 30 1'); // a writing command: it migrates
    expect(rawBytes(db).includes('old.deleted.person@example.com')).toBe(false);
    expect(await cliJson(db, 'retention', 'show')).toEqual({ months: null });
  });
});
