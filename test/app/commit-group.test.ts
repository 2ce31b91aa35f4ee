import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.ts';
import { tempDb } from '../helpers.ts';
import { ADA, apiFixture } from '../http/fixture.ts';

/** Issue 17: concurrent bookings share one transaction (src/app/bookings/commit-group.ts); each keeps its own outcome. */
describe('group commit', () => {
  it('Store.group: a member that throws is rolled back alone; a transaction that fails keeps nothing', () => {
    const store = openStore(tempDb());
    store.db.exec('CREATE TABLE t (n INTEGER NOT NULL CHECK (n < 100))');
    const insert = (n: number) => () => store.sql('INSERT INTO t (n) VALUES (?)').run(n).changes;
    const outcomes = store.group([insert(1), () => (insert(2)(), insert(200)()), insert(3)]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
    expect(
      store.db
        .prepare('SELECT n FROM t ORDER BY n')
        .all()
        .map((row) => row.n),
    ).toEqual([1, 3]); // 2 went with 200
    // The commit refused (a deferred foreign key stands for any failure at COMMIT): every member fails, nothing is kept.
    store.db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const failed = store.group([insert(4), () => store.sql('INSERT INTO child (p) VALUES (7)').run().changes]);
    expect(failed.every((outcome) => !outcome.ok)).toBe(true);
    expect(store.db.prepare('SELECT count(*) AS n FROM t').get()!.n).toBe(2);
    expect(store.db.isTransaction).toBe(false);
    store.close();
  });

  it('20 POSTs at once for one place: one 201, 19 × 404, one booking, and a failing member does not take the others with it', async () => {
    const { post, store } = await apiFixture();
    const slot = '2026-06-02 09:00:00';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        post({ schedule: 1, reason: 1, slot, submission: { ...ADA, email: `p${n}@example.com` } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 404).map((answer) => answer.body)).toEqual(
      Array(19).fill({ error: 'Not Found' }),
    );
    expect(store.db.prepare('SELECT count(*) AS n FROM bookings').get()!.n).toBe(1);

    // A storage fault in one booking of a group (a trigger refuses one customer's row): 500 for it, 201 for the others.
    store.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON customers WHEN new.email = 'bad@example.com' BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    const group = await Promise.all(
      ['09:30:00', '10:00:00', '10:30:00'].map((time, n) =>
        post({
          schedule: 1,
          reason: 1,
          slot: `2026-06-02 ${time}`,
          submission: { ...ADA, email: n === 1 ? 'bad@example.com' : `g${n}@example.com` },
        }),
      ),
    );
    expect(group.map((answer) => answer.status)).toEqual([201, 500, 201]);
    expect(store.db.prepare('SELECT count(*) AS n FROM bookings').get()!.n).toBe(3);
    expect(store.db.prepare("SELECT count(*) AS n FROM customers WHERE email = 'bad@example.com'").get()!.n).toBe(0);
    expect(
      store.db.prepare('SELECT count(*) AS n FROM outbox WHERE booking_id NOT IN (SELECT id FROM bookings)').get()!.n,
    ).toBe(0);
  });
});
