import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type BenchRun, freeTargets, type Pool, postBookings, work } from '../harness.ts';

/**
 * 4. POST /bookings on distinct free slots, against the same inserts done directly on a copy of the file.
 */
export async function bookings(run: BenchRun): Promise<void> {
  const { db, auth, results } = run;
  const { api } = run.main;
  const targets = await freeTargets(auth, api, 1500);
  const copy = join(work, 'floor.db');
  const source = new DatabaseSync(db);
  source.prepare('VACUUM INTO ?').run(copy);
  source.close();
  const mainPool: Pool = { targets, next: 0 };
  // Half the targets without a key, half with one (issue 16: within 10 % of the plain rate).
  const plain = await postBookings(auth, api, mainPool, Math.floor(targets.length / 2), false);
  const keyed = await postBookings(auth, api, mainPool, targets.length - Math.floor(targets.length / 2), true);
  const posted = plain.result;
  const postRate = plain.rate;
  const floorDb = new DatabaseSync(copy, { timeout: 5000 });
  floorDb.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON');
  const insertCustomer = floorDb.prepare(
    "INSERT INTO customers (email_key, email, first_name, last_name, created_at) VALUES (?, ?, 'Bench', ?, 'now')",
  );
  const insertBooking = floorDb.prepare(
    "INSERT INTO bookings (reference, schedule_id, reason_id, customer_id, start_at, end_at, submission, source, created_at) VALUES (?, ?, ?, ?, ?, ?, '{}', 'api', 'now')",
  );
  const insertMail = floorDb.prepare(
    "INSERT INTO outbox (booking_id, kind, recipient, subject, body, next_attempt_at, retry_from, created_at) VALUES (?, 'notice', 'desk@bench.example', 'New booking', ?, 0, 0, 'now')",
  );
  const mailBody = 'x'.repeat(3000); // about the size of a real message with its .ics
  const floorStart = performance.now();
  for (let index = 0; index < targets.length; index++) {
    floorDb.exec('BEGIN IMMEDIATE');
    const customer = Number(
      insertCustomer.run(`floor${index}@bench.example`, `floor${index}@bench.example`, `Client ${index}`)
        .lastInsertRowid,
    );
    const startAt = Math.floor(Date.now() / 1000) + 86_400 * 400 + index * 900;
    const booking = Number(insertBooking.run(`F${index}`, 3, 9, customer, startAt, startAt + 900).lastInsertRowid);
    insertMail.run(booking, mailBody);
    insertMail.run(booking, mailBody);
    floorDb.exec('COMMIT');
  }
  const floorRate = targets.length / ((performance.now() - floorStart) / 1000);
  floorDb.close();
  results.bookings = {
    posted,
    bookingsPerSecond: postRate,
    floorPerSecond: floorRate,
    ratio: postRate / floorRate,
    target: '>= 0.3',
  };
  results.keyedBookings = {
    posted: keyed.result,
    bookingsPerSecond: keyed.rate,
    plainPerSecond: postRate,
    ratio: keyed.rate / postRate,
    target: '>= 0.9',
  };
}
