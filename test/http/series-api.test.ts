/**
 * POST /api/series (issue 40), the call beside the six: in-process on a real file with a fixed clock, every answer
 * checked against the OpenAPI document (`f.call` runs test/contract.ts). A 201 gives every booking made, as stored;
 * a refusal (404 with each date not free, 400 with its field) writes nothing; skip_taken books the free dates and
 * lists the others; an Idempotency-Key replays the first answer and books nothing more.
 */
import { describe, expect, it } from 'vitest';
import { snapshot } from '../helpers.ts';
import { ADA, apiFixture } from './fixture.ts';

/** Monday 2026-06-01, 09:00 Berlin: schedule 1 is open Mon-Fri 09:00-12:00, 14 days ahead, closed on Wed 06-03. */
const MONDAY = '2026-06-01 09:00:00';

const series = (fields: Record<string, unknown> = {}) => ({
  schedule: 1,
  reason: 1,
  slot: MONDAY,
  repeat: '1w',
  count: 3,
  submission: ADA,
  ...fields,
});

async function fixture() {
  const f = await apiFixture();
  const postSeries = (body: unknown, key?: string) =>
    f.call('/api/series', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** Every booking as stored, with its series' reference. */
  const stored = () =>
    f.store.db
      .prepare(
        `SELECT b.id, b.reference, b.customer_id, b.start_at, b.status, s.reference AS series
         FROM bookings b LEFT JOIN series s ON s.id = b.series_id ORDER BY b.start_at`,
      )
      .all() as {
      id: number;
      reference: string;
      customer_id: number;
      start_at: number;
      status: string;
      series: string | null;
    }[];
  const count = (table: string) => (f.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const outbox = () =>
    f.store.db.prepare('SELECT kind, booking_id FROM outbox ORDER BY kind, booking_id').all() as {
      kind: string;
      booking_id: number;
    }[];
  return { ...f, postSeries, stored, count, outbox };
}

/** The UTC text of the API (spec §2) for a Berlin summer local time `YYYY-MM-DD HH:MM:SS`. */
const utc = (local: string) => new Date(`${local.replace(' ', 'T')}+02:00`).toISOString().replace('.000Z', 'Z');

describe('POST /api/series', () => {
  it('201: every booking made, by start, each as stored under the one series; the answer fits the document', async () => {
    const f = await fixture();
    const answer = await f.postSeries(series());
    expect(answer.status).toBe(201);
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    const body = answer.body;
    expect(body.series_id).toMatch(/^[2-9A-HJ-NP-Z]{16}$/);
    expect(body.skipped).toEqual([]);
    expect(body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      utc('2026-06-01 09:00:00'),
      utc('2026-06-08 09:00:00'),
      utc('2026-06-15 09:00:00'),
    ]);
    const rows = f.stored();
    expect(rows).toHaveLength(3);
    expect(body.bookings).toEqual(
      rows.map((row) => ({
        booking_id: row.id,
        booking_details_id: row.reference,
        user_id: row.customer_id,
        slot: new Date(row.start_at * 1000).toISOString().replace('.000Z', 'Z'),
      })),
    );
    expect(rows.every((row) => row.series === body.series_id && row.status === 'booked')).toBe(true);
    expect(new Set(rows.map((row) => row.customer_id)).size).toBe(1);
    expect(new Set(rows.map((row) => row.reference)).size).toBe(3);
    // One confirmation and one notice for the whole series; each date its own reminder (48 h before: the first,
    // an hour away, has none).
    expect(f.outbox()).toEqual([
      { kind: 'confirmation', booking_id: rows[0]!.id },
      { kind: 'notice', booking_id: rows[0]!.id },
      { kind: 'reminder', booking_id: rows[1]!.id },
      { kind: 'reminder', booking_id: rows[2]!.id },
    ]);
  });

  it('"7d", a bare number of days and "2W" are intervals too', async () => {
    const f = await fixture();
    const weekly = await f.postSeries(series({ repeat: '7d', count: 2, slot: '2026-06-02 09:00:00' }));
    expect(weekly.body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      utc('2026-06-02 09:00:00'),
      utc('2026-06-09 09:00:00'),
    ]);
    const daily = await f.postSeries(series({ repeat: '1', count: 2, slot: '2026-06-04 10:00:00' }));
    expect(daily.body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      utc('2026-06-04 10:00:00'),
      utc('2026-06-05 10:00:00'),
    ]);
    const fortnightly = await f.postSeries(series({ repeat: '2W', count: 2, slot: '2026-06-01 11:00:00' }));
    expect(fortnightly.body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      utc('2026-06-01 11:00:00'),
      utc('2026-06-15 11:00:00'),
    ]);
    expect(f.count('series')).toBe(3);
  });

  it('the same local time across the change to summer time: each date its own UTC instant', async () => {
    // Monday 2026-03-23, 08:00 Berlin (07:00Z); the clocks go forward on Sunday 03-29.
    const f = await apiFixture(new Date('2026-03-23T07:00:00Z'));
    const answer = await f.call('/api/series', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(series({ slot: '2026-03-23 09:00:00', count: 2 })),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      '2026-03-23T08:00:00Z',
      '2026-03-30T07:00:00Z',
    ]);
  });

  it('404 with each date not free (why, nearest free times that day) when one is taken or closed; nothing written', async () => {
    const f = await fixture();
    const single = await f.post({ schedule: 1, reason: 1, slot: '2026-06-08 09:00:00', submission: ADA });
    expect(single.status).toBe(201);
    const before = snapshot(f.file);
    const taken = await f.postSeries(series({ submission: { ...ADA, email: 'grace@example.com' } }));
    expect(taken).toMatchObject({
      status: 404,
      body: {
        error: 'Not Found',
        dates: [
          {
            slot: '2026-06-08 09:00:00',
            why: 'taken',
            nearest: ['2026-06-08 09:30:00', '2026-06-08 09:45:00', '2026-06-08 10:00:00'],
          },
        ],
      },
    });
    expect(Object.keys(taken.body)).toEqual(['error', 'dates']);
    // Every second day from Monday: Wednesday 06-03 is closed, and the look-ahead ends before the third.
    const closed = await f.postSeries(series({ repeat: '2d', count: 3, slot: '2026-06-01 10:00:00' }));
    expect(closed).toMatchObject({
      status: 404,
      body: { error: 'Not Found', dates: [{ slot: '2026-06-03 10:00:00', why: 'closure', nearest: [] }] },
    });
    const beyond = await f.postSeries(series({ count: 4 }));
    expect(beyond.status).toBe(404);
    expect(beyond.body.dates).toEqual([
      { slot: '2026-06-08 09:00:00', why: 'taken', nearest: expect.any(Array) },
      { slot: '2026-06-22 09:00:00', why: 'look-ahead', nearest: [] },
    ]);
    expect(snapshot(f.file)).toEqual(before);
  });

  it('skip_taken: true books the free dates and lists the skipped ones; none free is still a 404', async () => {
    const f = await fixture();
    const single = await f.post({ schedule: 1, reason: 1, slot: '2026-06-08 09:00:00', submission: ADA });
    const answer = await f.postSeries(series({ skip_taken: true, submission: { ...ADA, email: 'grace@example.com' } }));
    expect(answer.status).toBe(201);
    expect(answer.body.bookings.map((one: { slot: string }) => one.slot)).toEqual([
      utc('2026-06-01 09:00:00'),
      utc('2026-06-15 09:00:00'),
    ]);
    expect(answer.body.skipped).toEqual([
      {
        slot: '2026-06-08 09:00:00',
        why: 'taken',
        nearest: ['2026-06-08 09:30:00', '2026-06-08 09:45:00', '2026-06-08 10:00:00'],
      },
    ]);
    const rows = f.stored();
    expect(rows.map((row) => [row.reference, row.series])).toEqual([
      [answer.body.bookings[0].booking_details_id, answer.body.series_id],
      [single.body.booking_details_id, null],
      [answer.body.bookings[1].booking_details_id, answer.body.series_id],
    ]);
    // skip_taken: false is the default: all or nothing.
    const before = snapshot(f.file);
    const none = await f.postSeries(series({ skip_taken: true, slot: '2026-06-01 09:00:00', count: 2 }));
    expect(none).toMatchObject({
      status: 404,
      body: {
        error: 'Not Found',
        dates: [
          { slot: '2026-06-01 09:00:00', why: 'taken' },
          { slot: '2026-06-08 09:00:00', why: 'taken' },
        ],
      },
    });
    expect((await f.postSeries(series({ skip_taken: false, slot: '2026-06-01 09:00:00' }))).status).toBe(404);
    expect(snapshot(f.file)).toEqual(before);
  });

  it.each([
    ['repeat 1y', { repeat: '1y' }, 'repeat'],
    ['repeat 0d', { repeat: '0d' }, 'repeat'],
    ['repeat 53w', { repeat: '53w' }, 'repeat'],
    ['repeat 12h', { repeat: '12h' }, 'repeat'],
    ['repeat empty', { repeat: '' }, 'repeat'],
    ['repeat a number', { repeat: 7 }, 'repeat'],
    ['repeat missing', { repeat: undefined }, 'repeat'],
    ['count 1', { count: 1 }, 'count'],
    ['count 53', { count: 53 }, 'count'],
    ['count 2.5', { count: 2.5 }, 'count'],
    ['count a string', { count: '3' }, 'count'],
    ['count missing', { count: undefined }, 'count'],
    ['skip_taken a string', { skip_taken: 'yes' }, 'skip_taken'],
    ['slot of 16 characters', { slot: '2026-06-01 09:00' }, 'slot'],
    ['an unknown field', { every: 'monday' }, 'every'],
  ])('400 for %s: the field named, nothing written', async (_, change, field) => {
    const f = await fixture();
    const before = snapshot(f.file);
    const answer = await f.postSeries(series(change));
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
    expect(answer.body.error).toEqual(expect.any(String));
    if (field === 'every') expect(answer.body).toEqual({ error: 'Unknown field', field: 'every' });
    expect(snapshot(f.file)).toEqual(before);
  });

  it('400 for a form field missing, named as POST /bookings names it; nothing written', async () => {
    const f = await fixture();
    const before = snapshot(f.file);
    const answer = await f.postSeries(series({ submission: { first_name: 'Ada' } }));
    expect(answer).toMatchObject({ status: 400, body: { error: 'Field is required', field: 'last_name' } });
    expect(snapshot(f.file)).toEqual(before);
  });

  it.each([
    ['an unknown schedule', { schedule: 99 }],
    ['an unknown reason', { reason: 99 }],
    ['a reason of another schedule', { reason: 3 }],
  ])('404 {"error":"Not Found"} for %s; nothing written', async (_, change) => {
    const f = await fixture();
    const before = snapshot(f.file);
    const answer = await f.postSeries(series(change));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Not Found' });
    expect(snapshot(f.file)).toEqual(before);
  });

  it('an Idempotency-Key replays the first 201 (Idempotent-Replayed: true) and books nothing more; another body is a 400', async () => {
    const f = await fixture();
    const first = await f.postSeries(series(), 'course-4711');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const counts = () => ({
      bookings: f.count('bookings'),
      series: f.count('series'),
      outbox: f.count('outbox'),
    });
    const after = counts();
    expect(after).toEqual({ bookings: 3, series: 1, outbox: 4 });
    const again = await f.postSeries(series(), 'course-4711');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.text).toBe(first.text);
    expect(counts()).toEqual(after);
    const other = await f.postSeries(series({ count: 2 }), 'course-4711');
    expect(other).toMatchObject({
      status: 400,
      body: { error: 'Idempotency-Key reused with a different request' },
    });
    expect(counts()).toEqual(after);
    // The series' refusal is kept for its key too: a replay answers the same dates even once they are free.
    const refused = await f.postSeries(series({ submission: { ...ADA, email: 'grace@example.com' } }), 'course-4712');
    expect(refused.status).toBe(404);
    f.store.db.exec("UPDATE bookings SET status = 'cancelled'");
    const replayed = await f.postSeries(series({ submission: { ...ADA, email: 'grace@example.com' } }), 'course-4712');
    expect(replayed).toMatchObject({ status: 404, body: refused.body });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(f.count('bookings')).toBe(3);
  });
});
