import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { findBooking } from '../../src/store/bookings.ts';
import { openStore } from '../../src/store/db.ts';
import { migrations } from '../../src/store/migrations.ts';
import { readSettings, setApiEnabled } from '../../src/store/settings.ts';
import { tempDb } from '../helpers.ts';

describe('openStore', () => {
  it('creates the file 0600 with WAL, foreign keys and the latest schema', () => {
    const file = tempDb();
    const store = openStore(file);
    try {
      setApiEnabled(store, false); // a write, so -wal and -shm exist while the connection is open
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path), path).toBe(true);
        expect(statSync(path).mode & 0o777, path).toBe(0o600);
      }
      expect(store.db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(store.db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
      expect(store.db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
      expect(store.schemaVersion()).toBe(migrations.length);
    } finally {
      store.close();
    }
  });

  it('refuses a missing file when it must exist, and creates nothing', () => {
    const file = tempDb();
    expect(() => openStore(file, { mustExist: true })).toThrow(/run `planner init`/);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a file written by a newer program', () => {
    const file = tempDb();
    openStore(file).close();
    const raw = new DatabaseSync(file);
    raw.exec(`PRAGMA user_version = ${migrations.length + 1}`);
    raw.close();
    expect(() => openStore(file)).toThrow(/newer than this planner understands/);
  });

  it('an upgrade that fails part-way leaves the file as it was: the migrations the file lacks run in one transaction', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    for (const migration of migrations.slice(0, 2)) raw.exec(migration);
    // A table that migration 6 creates, there already: migrations 3 to 5 succeed, then 6 fails.
    raw.exec('PRAGMA user_version = 2; CREATE TABLE booking_changes (id INTEGER PRIMARY KEY);');
    raw.close();
    expect(() => openStore(file)).toThrow(/booking_changes already exists/);
    const after = new DatabaseSync(file, { readOnly: true });
    try {
      expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
      // Migration 3's column and migration 5's table are gone with the rest.
      expect(
        (after.prepare('PRAGMA table_info(bookings)').all() as { name: string }[]).map((column) => column.name),
      ).not.toContain('sequence');
      expect(after.prepare("SELECT name FROM sqlite_schema WHERE name = 'feeds'").all()).toEqual([]);
    } finally {
      after.close();
    }
  });

  it('migration 3 keeps the bookings and messages of a version 2 file (booked, sequence 0)', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA foreign_keys = ON');
    for (const migration of migrations.slice(0, 2)) raw.exec(migration);
    raw.exec(`
      PRAGMA user_version = 2;
      INSERT INTO schedules (id, name, days_ahead, notice_minutes, step_minutes, capacity, created_at) VALUES (1, 'S', 30, 0, 15, 1, 'x');
      INSERT INTO reasons (id, schedule_id, name, duration_minutes, position) VALUES (1, 1, 'R', 30, 1);
      INSERT INTO customers (id, email, email_key, first_name, last_name, created_at) VALUES (1, 'a@b.example', 'a@b.example', 'A', 'B', 'x');
      INSERT INTO bookings (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at) VALUES (1, 'REF', 1, 1, 1, 100, 1900, 'api', 'x');
      INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at) VALUES (1, 'confirmation', 'a@b.example', 'S', '{}', 0, 0, 'x');
    `);
    raw.close();
    const store = openStore(file);
    try {
      expect(store.schemaVersion()).toBe(migrations.length);
      expect(store.db.prepare('SELECT id, status, sequence FROM bookings').all()).toEqual([
        { id: 1, status: 'booked', sequence: 0 },
      ]);
      expect(store.db.prepare('SELECT booking_id, kind, status FROM outbox').all()).toEqual([
        { booking_id: 1, kind: 'confirmation', status: 'pending' },
      ]);
      expect(store.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(store.db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    } finally {
      store.close();
    }
  });

  it('migration 4 keeps the messages of a version 3 file and leaves reminders off for an existing installation', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA foreign_keys = ON');
    for (const migration of migrations.slice(0, 3)) raw.exec(migration);
    raw.exec(`
      PRAGMA user_version = 3;
      UPDATE settings SET practice_name = 'P', time_zone = 'Europe/Berlin', notify_email = 'desk@p.example', configured_at = 'x';
      INSERT INTO schedules (id, name, days_ahead, notice_minutes, step_minutes, capacity, created_at) VALUES (1, 'S', 30, 0, 15, 1, 'x');
      INSERT INTO reasons (id, schedule_id, name, duration_minutes, position) VALUES (1, 1, 'R', 30, 1);
      INSERT INTO customers (id, email, email_key, first_name, last_name, created_at) VALUES (1, 'a@b.example', 'a@b.example', 'A', 'B', 'x');
      INSERT INTO bookings (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at) VALUES (1, 'REF', 1, 1, 1, 100, 1900, 'api', 'x');
      INSERT INTO outbox (booking_id, kind, recipient, subject, body, status, next_attempt_at, retry_from, created_at) VALUES (1, 'update', 'a@b.example', 'S', '{}', 'failed', 7, 7, 'x');
    `);
    raw.close();
    const store = openStore(file);
    try {
      expect(store.schemaVersion()).toBe(migrations.length);
      expect(store.db.prepare('SELECT booking_id, kind, status, next_attempt_at FROM outbox').all()).toEqual([
        { booking_id: 1, kind: 'update', status: 'failed', next_attempt_at: 7 },
      ]);
      expect(store.db.prepare('SELECT reminder_offsets, portal_url FROM settings').get()).toEqual({
        reminder_offsets: '',
        portal_url: null,
      });
      expect(store.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(store.db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    } finally {
      store.close();
    }
  });

  it('migration 7 empties the customer record’s copies of a first booking; the bookings keep their own submissions', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA foreign_keys = ON');
    for (const migration of migrations.slice(0, 6)) raw.exec(migration);
    raw.exec(`
      PRAGMA user_version = 6;
      INSERT INTO schedules (id, name, days_ahead, notice_minutes, step_minutes, capacity, created_at) VALUES (1, 'S', 30, 0, 15, 1, 'x');
      INSERT INTO reasons (id, schedule_id, name, duration_minutes, position) VALUES (1, 1, 'R', 30, 1);
      INSERT INTO customers (id, email, email_key, first_name, last_name, phone, fields, created_at) VALUES (1, 'f@b.example', 'f@b.example', 'Anna', 'F', '+49 1', '{"x":"y"}', 'x');
      INSERT INTO bookings (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at)
        VALUES (1, 'REF', 1, 1, 1, 100, 1900, '{"first_name":"Ben","last_name":"F","email":"F@b.example"}', 'api', 'x');
    `);
    raw.close();
    const store = openStore(file);
    try {
      expect(store.db.prepare('SELECT email, first_name, last_name, phone, fields FROM customers').all()).toEqual([
        { email: 'f@b.example', first_name: '', last_name: '', phone: '', fields: '{}' },
      ]);
      expect(findBooking(store, 1)).toMatchObject({
        customerName: 'Ben F',
        customerEmail: 'F@b.example',
        customerId: 1,
      });
    } finally {
      store.close();
    }
  });

  it('migration 14 keeps every setting of an installation and lets it speak French, Italian, Spanish or Dutch (issue 41, item 15)', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    for (const migration of migrations.slice(0, 13)) raw.exec(migration);
    raw.exec(`
      PRAGMA user_version = 13;
      UPDATE settings SET practice_name = 'Praxis', time_zone = 'Europe/Berlin', locale = 'de', notify_email = 'a@b.example',
        configured_at = 'c', api_enabled = 1, token_hash = 'h', token_created_at = 't', rate_limit = 60, mail_url = 'smtp://m',
        mail_from = 'f@b.example', reminder_offsets = '1440', portal_url = 'https://p.example', portal_cancel_until = 12,
        portal_reschedule = 0, portal_secret = 's', trusted_proxies = '10.0.0.1', address = 'A', phone = '+49 1',
        website = 'https://w.example', booking_page = '{}', retention_months = 24;
    `);
    const before = raw.prepare('SELECT * FROM settings').get();
    expect(() => raw.exec("UPDATE settings SET locale = 'fr'")).toThrow(/CHECK constraint failed/);
    raw.close();
    const store = openStore(file);
    try {
      // Every setting kept; the columns of later migrations at their defaults (19: the desk, off; 20: one language).
      expect(store.db.prepare('SELECT * FROM settings').get()).toEqual({
        ...before,
        desk_url: null,
        desk_idle_minutes: 60,
        desk_max_minutes: 720,
        languages: '',
      });
      for (const locale of ['fr', 'it', 'es', 'nl', 'en', 'de'])
        store.db.prepare('UPDATE settings SET locale = ?').run(locale);
      expect(() => store.db.exec("UPDATE settings SET locale = 'pt'")).toThrow(/CHECK constraint failed/);
      expect(() => store.db.exec('INSERT INTO settings (id) VALUES (2)')).toThrow(/CHECK constraint failed/);
    } finally {
      store.close();
    }
  });

  it('migration 15 lets a booking be the booking page’s: the page’s earlier bookings become so, the rest and every reference kept', () => {
    const file = tempDb();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA foreign_keys = ON');
    for (const migration of migrations.slice(0, 13)) raw.exec(migration);
    const shape = () =>
      raw
        .prepare("SELECT type, name FROM sqlite_schema WHERE tbl_name = 'bookings' AND type <> 'table' ORDER BY name")
        .all();
    const before = shape();
    raw.exec(`
      PRAGMA user_version = 13;
      INSERT INTO schedules (id, name, days_ahead, notice_minutes, step_minutes, capacity, created_at) VALUES (1, 'S', 30, 0, 15, 1, 'x');
      INSERT INTO reasons (id, schedule_id, name, duration_minutes, position) VALUES (1, 1, 'R', 30, 1);
      INSERT INTO customers (id, email, email_key, created_at) VALUES (1, 'a@b.example', 'a@b.example', 'x');
      INSERT INTO calendars (id, schedule_id, label, kind, url, every_minutes, created_at, write_bookings) VALUES (1, 1, 'C', 'caldav', 'https://c.example/', 15, 'x', 1);
      INSERT INTO bookings (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at, buffer_before, status)
        VALUES (1, 'API', 1, 1, 1, 1000, 1900, 'api', 'x', 60, 'booked'), (2, 'PAGE', 1, 1, 1, 2000, 2900, 'api', 'x', 0, 'cancelled'),
               (3, 'ADMIN', 1, 1, 1, 3000, 3900, 'admin', 'x', 0, 'booked');
      INSERT INTO booking_events (booking_id, at, kind, actor) VALUES (1, 'x', 'created', 'api'), (2, 'x', 'created', 'customer'),
        (2, 'y', 'cancelled', 'customer'), (3, 'x', 'created', 'admin');
      INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at) VALUES (2, 'notice', 'd@p.example', 'S', '{}', 0, 0, 'x');
      INSERT INTO manage_links (token_hash, booking_id, created_at) VALUES ('h', 2, 'x');
    `);
    const writes = raw.prepare('SELECT * FROM calendar_writes ORDER BY id').all();
    expect(writes).toHaveLength(3);
    raw.close();
    const store = openStore(file);
    try {
      expect(store.schemaVersion()).toBe(migrations.length);
      expect(store.db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
      expect(store.db.prepare('SELECT id, source, status, keeps_from FROM bookings ORDER BY id').all()).toEqual([
        { id: 1, source: 'api', status: 'booked', keeps_from: 940 },
        { id: 2, source: 'page', status: 'cancelled', keeps_from: 2000 },
        { id: 3, source: 'admin', status: 'booked', keeps_from: 3000 },
      ]);
      expect(store.db.prepare('SELECT * FROM calendar_writes ORDER BY id').all()).toEqual(writes);
      expect(store.db.prepare('SELECT count(*) AS n FROM outbox WHERE booking_id = 2').get()).toEqual({ n: 1 });
      expect(store.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(store.db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      // The same indexes and triggers (and migration 17's index of series, 19's of bookings not in the search's
      // index, 22's of erased bookings), each working: a new booking of the page is logged and queued for the calendar.
      expect(
        store.db
          .prepare("SELECT type, name FROM sqlite_schema WHERE tbl_name = 'bookings' AND type <> 'table' ORDER BY name")
          .all(),
      ).toEqual(
        [
          ...before,
          { type: 'index', name: 'bookings_by_erasure' },
          { type: 'index', name: 'bookings_by_series' },
          { type: 'index', name: 'bookings_unsearched' },
        ].sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1)),
      );
      const changes = (store.db.prepare('SELECT count(*) AS n FROM booking_changes').get() as { n: number }).n;
      store.db.exec(
        "INSERT INTO bookings (id, reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at) VALUES (4, 'NEW', 1, 1, 1, 5000, 5900, 'page', 'x')",
      );
      expect(store.db.prepare('SELECT count(*) AS n FROM booking_changes').get()).toEqual({ n: changes + 1 });
      expect(store.db.prepare('SELECT count(*) AS n FROM calendar_writes WHERE booking_id = 4').get()).toEqual({
        n: 1,
      });
      expect(() =>
        store.db.exec(
          "INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at) VALUES ('X', 1, 1, 1, 5000, 5900, 'other', 'x')",
        ),
      ).toThrow(/CHECK constraint failed/);
      expect(() =>
        store.db.exec(
          "INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, source, created_at) VALUES ('Y', 9, 1, 1, 5000, 5900, 'api', 'x')",
        ),
      ).toThrow(/FOREIGN KEY constraint failed/);
    } finally {
      store.close();
    }
  });

  it('reopening applies nothing twice', () => {
    const file = tempDb();
    openStore(file).close();
    const again = openStore(file);
    expect(again.schemaVersion()).toBe(migrations.length);
    again.close();
  });

  it('tx rolls back everything when the function throws', () => {
    const store = openStore(tempDb());
    try {
      expect(() =>
        store.tx(() => {
          setApiEnabled(store, true);
          throw new Error('stop');
        }),
      ).toThrow('stop');
      expect(readSettings(store).apiEnabled).toBe(false);
      expect(store.db.isTransaction).toBe(false);
    } finally {
      store.close();
    }
  });

  it('data_version changes when another connection commits, not on our own writes', () => {
    const file = tempDb();
    const server = openStore(file);
    const cli = openStore(file);
    try {
      const before = server.dataVersion();
      setApiEnabled(server, true);
      expect(server.dataVersion()).toBe(before);
      setApiEnabled(cli, false);
      expect(server.dataVersion()).not.toBe(before);
      expect(readSettings(server).apiEnabled).toBe(false);
    } finally {
      server.close();
      cli.close();
    }
  });

  it('prepares each statement once', () => {
    const store = openStore(tempDb());
    try {
      expect(store.sql('SELECT 1')).toBe(store.sql('SELECT 1'));
    } finally {
      store.close();
    }
  });
});
