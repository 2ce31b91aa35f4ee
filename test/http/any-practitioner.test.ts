/**
 * The API's "any practitioner" calls (issue 40), in-process on a fixed clock: GET /slots/any and POST /bookings/any
 * beside the six, every answer held to the OpenAPI document (the fixture's contract check). POST /bookings/any
 * refuses exactly as POST /bookings does, and takes an Idempotency-Key as it does.
 */
import { describe, expect, it } from 'vitest';
import { setReasonSchedules } from '../../src/app/practice/reasons.ts';
import { snapshot } from '../helpers.ts';
import { ADA, apiFixture } from './fixture.ts';

const MONDAY = '2026-06-01';
const json = { 'content-type': 'application/json' };

/** The fixture with reason 1 (Consultation, 30 min) offered by Dr. Weber (1) and Physio (2, Mon 09:00-10:00). */
async function practice() {
  const f = await apiFixture();
  setReasonSchedules(f.ctx, 1, [1, 2]);
  const postAny = (body: unknown, headers: Record<string, string> = json) =>
    f.call('/api/bookings/any', {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { ...f, postAny };
}

describe('GET /api/slots/any', () => {
  it('lists the free times of the day over every schedule offering the reason, each with who is free', async () => {
    const f = await practice();
    const answer = await f.call(`/api/slots/any?reason=1&day=${MONDAY}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.slice(0, 4)).toEqual([
      { slot: `${MONDAY} 09:00:00`, schedules: [1, 2] },
      { slot: `${MONDAY} 09:15:00`, schedules: [1] },
      { slot: `${MONDAY} 09:30:00`, schedules: [1, 2] },
      { slot: `${MONDAY} 09:45:00`, schedules: [1] },
    ]);
    expect(answer.body.data.at(-1)).toEqual({ slot: `${MONDAY} 11:30:00`, schedules: [1] });
    // Reason 1 in GET /reasons of both, with the same id.
    for (const schedule of [1, 2]) {
      const reasons = (await f.call(`/api/reasons?schedule=${schedule}`)).body.data;
      expect(reasons.map((reason: { id: number }) => reason.id)).toContain(1);
    }
    expect((await f.call('/api/slots/any?reason=1&day=2027-01-01')).body).toEqual({ data: [] });
    // Behind the same gates as the six: the token, and the rate-limit fields on every answer that passed it.
    const anonymous = await f.call(`/api/slots/any?reason=1&day=${MONDAY}`, { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { error: 'Unauthorized' }]);
    const posted = await f.call('/api/bookings/any', { method: 'POST', headers: json, body: '{}', token: null });
    expect(posted.status).toBe(401);
    expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    for (const query of ['reason=99&day=2026-06-01', 'reason=1', 'day=2026-06-01', 'reason=0&day=2026-06-01']) {
      const refused = await f.call(`/api/slots/any?${query}`);
      expect([refused.status, refused.body], query).toEqual([404, { error: 'Not Found' }]);
    }
  });
});

describe('POST /api/bookings/any', () => {
  it('books with the fewest booked minutes that day, then the lowest id, and names the schedule', async () => {
    const f = await practice();
    const body = { reason: 1, slot: `${MONDAY} 09:00:00`, submission: ADA };
    const first = await f.postAny(body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      booking_id: 1,
      booking_details_id: expect.stringMatching(/^[2-9A-HJ-NP-Z]{16}$/),
      user_id: 1,
      slot: '2026-06-01T07:00:00Z',
      schedule: 1,
    });
    expect((await f.postAny(body)).body.schedule).toBe(2); // 1 has 30 minutes that day now, 2 none
    expect((await f.postAny(body)).body.schedule).toBe(2); // Physio's capacity is 3; Dr. Weber's 1 is taken
    // The customer's confirmation names the practitioner chosen.
    const mails = f.store
      .sql("SELECT booking_id AS id, body FROM outbox WHERE kind = 'confirmation' ORDER BY id")
      .all() as { id: number; body: string }[];
    const text = (id: number) => JSON.parse(mails.find((mail) => mail.id === id)!.body).text as string;
    expect(text(1)).toMatch(/Dr\. Weber/);
    expect(text(2)).toMatch(/Physio/);
    expect(text(2)).not.toMatch(/Dr\. Weber/);
  });

  it('refuses exactly as POST /bookings does, writing nothing', async () => {
    const f = await practice();
    const valid = { reason: 1, slot: `${MONDAY} 09:00:00`, submission: ADA };
    const cases: [string, unknown, unknown, Record<string, string>?][] = [
      ['invalid JSON', '{', '{'],
      ['not an object', '[]', '[]'],
      ['field required', { ...valid, submission: {} }, { ...valid, schedule: 1, submission: {} }],
      ['bad slot', { ...valid, slot: '2026-06-01 9:00' }, { ...valid, schedule: 1, slot: '2026-06-01 9:00' }],
      ['bad reason', { ...valid, reason: 0 }, { ...valid, schedule: 1, reason: 0 }],
      ['unknown key', { ...valid, extra: 1 }, { ...valid, schedule: 1, extra: 1 }],
      ['unknown reason', { ...valid, reason: 99 }, { ...valid, schedule: 1, reason: 99 }],
      [
        'not free (closed for one, no hours for the other)',
        { ...valid, slot: '2026-06-03 09:00:00' },
        { ...valid, schedule: 1, slot: '2026-06-03 09:00:00' },
      ],
      ['not JSON', valid, { ...valid, schedule: 1 }, { 'content-type': 'text/plain' }],
      [
        'too large',
        { ...valid, submission: { ...ADA, first_name: 'x'.repeat(70_000) } },
        { ...valid, schedule: 1, submission: { ...ADA, first_name: 'x'.repeat(70_000) } },
      ],
    ];
    const before = snapshot(f.file);
    for (const [name, anyBody, singleBody, headers] of cases) {
      const any = await f.postAny(anyBody, headers);
      const single = await f.post(singleBody, headers);
      expect([any.status, any.body], name).toEqual([single.status, single.body]);
      expect(any.status, name).toBeGreaterThanOrEqual(400);
    }
    // `schedule` is the server's to choose: sent, it is an unknown field.
    const withSchedule = await f.postAny({ ...valid, schedule: 1 });
    expect([withSchedule.status, withSchedule.body]).toEqual([400, { error: 'Unknown field', field: 'schedule' }]);
    expect(snapshot(f.file).bookings).toEqual(before.bookings);
  });

  it('takes an Idempotency-Key as POST /bookings does: the same answer again, nothing booked twice', async () => {
    const f = await practice();
    const body = JSON.stringify({ reason: 1, slot: `${MONDAY} 09:00:00`, submission: ADA });
    const headers = { ...json, 'idempotency-key': 'any-1' };
    const first = await f.postAny(body, headers);
    const again = await f.postAny(body, headers);
    expect(first.status).toBe(201);
    expect([again.status, again.body]).toEqual([201, first.body]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const other = await f.postAny(body.replace('09:00', '09:30'), headers);
    expect([other.status, other.body]).toEqual([400, { error: 'Idempotency-Key reused with a different request' }]);
    const closed = JSON.stringify({ reason: 1, slot: '2026-06-03 09:00:00', submission: ADA });
    const refusedKey = { ...json, 'idempotency-key': 'any-2' };
    expect((await f.postAny(closed, refusedKey)).status).toBe(404);
    const replayed = await f.postAny(closed, refusedKey);
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([404, 'true']);
    expect((await f.postAny(body, { ...json, 'idempotency-key': 'bad key' })).status).toBe(400);
    const count = f.store.sql('SELECT COUNT(*) AS n FROM bookings').get() as { n: number };
    expect(count.n).toBe(1);
  });
});
