import { beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../helpers.ts';
import { ADA, apiFixture } from './fixture.ts';

let f: Awaited<ReturnType<typeof apiFixture>>;
beforeAll(async () => {
  f = await apiFixture();
});

const NOT_FOUND = { status: 404, body: { error: 'Not Found' } };

describe('GET /schedules and /reasons', () => {
  it('lists schedules as {id, name}', async () => {
    const answer = await f.call('/api/schedules');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        { id: 1, name: 'Dr. Weber' },
        { id: 2, name: 'Physio' },
        { id: 3, name: 'Empty' },
      ],
    });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('lists reasons with duration in seconds and an empty description when unset', async () => {
    const answer = await f.call('/api/reasons?schedule=1');
    expect(answer).toMatchObject({
      status: 200,
      body: {
        data: [
          { id: 1, name: 'Consultation', description: '', duration: 1800 },
          { id: 2, name: 'Long visit', description: 'Take your time.', duration: 3600 },
        ],
      },
    });
    expect(await f.call('/api/reasons?schedule=3')).toMatchObject({ status: 200, body: { data: [] } });
  });

  it.each([
    '',
    '?schedule=',
    '?schedule=abc',
    '?schedule=0',
    '?schedule=-1',
    '?schedule=1.5',
    '?schedule=01',
    '?schedule=+1',
    '?schedule=1e0',
    '?schedule=99',
    '?schedule=1&schedule=1',
    '?schedule=99999999999999999999',
    '?schedule=%201',
  ])('/reasons%s is 404', async (query) => {
    expect(await f.call(`/api/reasons${query}`)).toMatchObject(NOT_FOUND);
  });
});

describe('GET /days and /slots', () => {
  it('lists days with a free slot, within the look-ahead, without closures or weekends', async () => {
    const answer = await f.call('/api/days?schedule=1&reason=1');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      '2026-06-01',
      '2026-06-02',
      '2026-06-04',
      '2026-06-05',
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-15',
    ]);
  });

  it('lists the slots of a day in local time, 19 characters each', async () => {
    const answer = await f.call('/api/slots?schedule=1&reason=2&day=2026-06-02');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual(
      ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00'].map(
        (time) => `2026-06-02 ${time}:00`,
      ),
    );
  });

  it('a real day without free slots gives an empty list', async () => {
    expect(await f.call('/api/slots?schedule=1&reason=1&day=2026-06-03')).toMatchObject({
      status: 200,
      body: { data: [] },
    });
    expect(await f.call('/api/slots?schedule=1&reason=1&day=2026-06-06')).toMatchObject({
      status: 200,
      body: { data: [] },
    });
    expect(await f.call('/api/slots?schedule=1&reason=1&day=2030-01-07')).toMatchObject({
      status: 200,
      body: { data: [] },
    });
  });

  it.each([
    '/api/days?schedule=1',
    '/api/days?reason=1',
    '/api/days?schedule=1&reason=3', // a reason of another schedule
    '/api/days?schedule=1&reason=99',
    '/api/days?schedule=abc&reason=1',
    '/api/days?schedule=1&reason=0',
    '/api/slots?schedule=1&reason=1',
    '/api/slots?schedule=1&reason=1&day=2026-02-30',
    '/api/slots?schedule=1&reason=1&day=2026-6-02',
    '/api/slots?schedule=1&reason=1&day=2026-06-02T00:00',
    '/api/slots?schedule=1&reason=1&day=tomorrow',
    '/api/slots?schedule=2&reason=1&day=2026-06-02',
  ])('%s is 404', async (path) => {
    expect(await f.call(path)).toMatchObject(NOT_FOUND);
  });
});

describe('GET /forms', () => {
  it('returns the fields indexed by name, for a free slot', async () => {
    const answer = await f.call('/api/forms?schedule=1&reason=1&slot=2026-06-02%2009:00:00');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        first_name: { form_type: 'textbox', input_type: 'text', label: 'First name', required: true, value: '' },
        last_name: { form_type: 'textbox', input_type: 'text', label: 'Last name', required: true, value: '' },
        email: { form_type: 'textbox', input_type: 'email', label: 'E-mail', required: true, value: '' },
        phone: { form_type: 'textbox', input_type: 'tel', label: 'Phone', required: false, value: '' },
        insurance: {
          form_type: 'select',
          input_type: 'text',
          label: 'Insurance',
          required: false,
          value: '',
          options: ['public', 'private'],
        },
      },
    });
    expect(Object.keys(answer.body.data)).not.toContain('password');
  });

  it.each([
    'slot=2026-06-02%2009:05:00', // off the grid
    'slot=2026-06-02%2012:00:00', // after hours
    'slot=2026-06-01%2007:45:00', // before opening, and in the past
    'slot=2026-06-03%2009:00:00', // closed
    'slot=2026-06-02T09:00:00', // wrong separator
    'slot=2026-06-02%2009:00', // 16 characters
    'slot=2026-06-02%2009:00:00Z', // 20 characters
    'slot=2026-02-30%2009:00:00',
    'slot=2026-06-02%2024:00:00',
    'slot=2026-06-02+09:00:00', // + decodes to a space in a query: a valid slot …
  ])('%s', async (query) => {
    const answer = await f.call(`/api/forms?schedule=1&reason=1&${query}`);
    if (query.includes('+'))
      expect(answer.status).toBe(200); // … so this one is found
    else expect(answer).toMatchObject(NOT_FOUND);
  });
});

describe('POST /bookings', () => {
  it('creates the booking and answers 201 with the UTC slot and an unguessable reference', async () => {
    const answer = await f.post({
      schedule: 1,
      reason: 1,
      slot: '2026-06-04 10:00:00',
      submission: { ...ADA, phone: '+49 30 123456' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      booking_id: expect.any(Number),
      booking_details_id: expect.stringMatching(/^[2-9A-HJ-NP-Z]{16}$/),
      user_id: expect.any(Number),
      slot: '2026-06-04T08:00:00Z',
    });
    expect(answer.body.booking_details_id).not.toBe(String(answer.body.booking_id));
    // The slot and its overlaps are gone at once; 09:30 (ends at 10:00) stays.
    const slots = (await f.call('/api/slots?schedule=1&reason=1&day=2026-06-04')).body.data as string[];
    expect(slots).toContain('2026-06-04 09:30:00');
    expect(slots.filter((slot) => ['09:45', '10:00', '10:15'].some((time) => slot.includes(time)))).toEqual([]);
    expect((await f.post({ schedule: 1, reason: 1, slot: '2026-06-04 10:00:00', submission: ADA })).status).toBe(404);
  });

  it('converts winter times with +01:00', async () => {
    const winter = await apiFixture(new Date('2026-12-07T06:00:00Z'));
    const answer = await winter.post({ schedule: 1, reason: 1, slot: '2026-12-08 09:00:00', submission: ADA });
    expect(answer).toMatchObject({ status: 201, body: { slot: '2026-12-08T08:00:00Z' } });
  });

  it('reuses the customer record by e-mail (trimmed, any case); each booking keeps its own fields, the record none', async () => {
    const first = await f.post({
      schedule: 1,
      reason: 1,
      slot: '2026-06-05 09:00:00',
      submission: { ...ADA, email: 'grace@example.com', insurance: 'private' },
    });
    const second = await f.post({
      schedule: 1,
      reason: 1,
      slot: '2026-06-05 10:00:00',
      submission: { ...ADA, email: '  Grace@Example.COM ' },
    });
    const other = await f.post({
      schedule: 1,
      reason: 1,
      slot: '2026-06-05 11:00:00',
      submission: { ...ADA, email: 'someone@example.com' },
    });
    expect([first.status, second.status, other.status]).toEqual([201, 201, 201]);
    expect(second.body.user_id).toBe(first.body.user_id);
    expect(other.body.user_id).not.toBe(first.body.user_id);
    const row = f.store.db
      .prepare('SELECT email, first_name, phone, fields FROM customers WHERE id = ?')
      .get(first.body.user_id);
    expect(row).toEqual({ email: 'grace@example.com', first_name: '', phone: '', fields: '{}' });
    const submissions = f.store.db
      .prepare('SELECT submission FROM bookings WHERE id IN (?, ?) ORDER BY id')
      .all(first.body.booking_id, second.body.booking_id);
    expect(submissions.map((one) => JSON.parse(one.submission as string))).toMatchObject([
      { insurance: 'private', email: 'grace@example.com' },
      { email: 'Grace@Example.COM' },
    ]);
  });

  it('capacity 3 takes three bookings of one slot, then 404', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await f.post({ schedule: 2, reason: 3, slot: '2026-06-08 09:00:00', submission: ADA })).status);
    expect(statuses).toEqual([201, 201, 201, 404]);
  });

  const valid = { schedule: 1, reason: 1, slot: '2026-06-09 09:00:00', submission: ADA };
  it.each<[string, unknown, Record<string, string> | undefined, number, Record<string, unknown>]>([
    ['no Content-Type', valid, {}, 415, { error: 'Content-Type must be application/json' }],
    ['text/plain', valid, { 'content-type': 'text/plain' }, 415, { error: 'Content-Type must be application/json' }],
    [
      'application/jsonx',
      valid,
      { 'content-type': 'application/jsonx' },
      415,
      { error: 'Content-Type must be application/json' },
    ],
    ['invalid JSON', '{"schedule":1,', undefined, 400, { error: 'Invalid JSON' }],
    ['empty body', '', undefined, 400, { error: 'Invalid JSON' }],
    ['an array', [], undefined, 400, { error: 'Body must be a JSON object' }],
    ['a string', '"x"', undefined, 400, { error: 'Body must be a JSON object' }],
    ['null', 'null', undefined, 400, { error: 'Body must be a JSON object' }],
    [
      'schedule missing',
      { ...valid, schedule: undefined },
      undefined,
      400,
      { error: 'schedule must be an integer >= 1', field: 'schedule' },
    ],
    [
      'schedule 0',
      { ...valid, schedule: 0 },
      undefined,
      400,
      { error: 'schedule must be an integer >= 1', field: 'schedule' },
    ],
    [
      'schedule "1"',
      { ...valid, schedule: '1' },
      undefined,
      400,
      { error: 'schedule must be an integer >= 1', field: 'schedule' },
    ],
    [
      'schedule 1.5',
      { ...valid, schedule: 1.5 },
      undefined,
      400,
      { error: 'schedule must be an integer >= 1', field: 'schedule' },
    ],
    [
      'reason -1',
      { ...valid, reason: -1 },
      undefined,
      400,
      { error: 'reason must be an integer >= 1', field: 'reason' },
    ],
    [
      'reason huge',
      { ...valid, reason: 1e300 },
      undefined,
      400,
      { error: 'reason must be an integer >= 1', field: 'reason' },
    ],
    [
      'slot 16 characters',
      { ...valid, slot: '2026-06-09 09:00' },
      undefined,
      400,
      { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
    ],
    [
      'slot with T',
      { ...valid, slot: '2026-06-09T09:00:00' },
      undefined,
      400,
      { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
    ],
    [
      'slot impossible',
      { ...valid, slot: '2026-02-30 09:00:00' },
      undefined,
      400,
      { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
    ],
    [
      'slot a number',
      { ...valid, slot: 20260609 },
      undefined,
      400,
      { error: 'slot must be a string YYYY-MM-DD HH:MM:SS (19 characters)', field: 'slot' },
    ],
    [
      'submission missing',
      { ...valid, submission: undefined },
      undefined,
      400,
      { error: 'submission must be an object of form values', field: 'submission' },
    ],
    [
      'submission an array',
      { ...valid, submission: [] },
      undefined,
      400,
      { error: 'submission must be an object of form values', field: 'submission' },
    ],
    [
      'submission a string',
      { ...valid, submission: 'x' },
      undefined,
      400,
      { error: 'submission must be an object of form values', field: 'submission' },
    ],
    ['unknown top-level field', { ...valid, note: 'x' }, undefined, 400, { error: 'Unknown field', field: 'note' }],
    [
      'first name missing',
      { ...valid, submission: { last_name: 'L', email: 'a@b.example' } },
      undefined,
      400,
      { error: 'Field is required', field: 'first_name' },
    ],
    [
      'first missing in form order',
      { ...valid, submission: { first_name: 'A' } },
      undefined,
      400,
      { error: 'Field is required', field: 'last_name' },
    ],
    [
      'null is missing',
      { ...valid, submission: { ...ADA, email: null } },
      undefined,
      400,
      { error: 'Field is required', field: 'email' },
    ],
    [
      'blank is missing',
      { ...valid, submission: { ...ADA, last_name: '   ' } },
      undefined,
      400,
      { error: 'Field is required', field: 'last_name' },
    ],
    [
      'bad e-mail',
      { ...valid, submission: { ...ADA, email: 'ada-at-example' } },
      undefined,
      400,
      { error: 'Invalid e-mail address', field: 'email' },
    ],
    [
      'bad phone',
      { ...valid, submission: { ...ADA, phone: 'call me' } },
      undefined,
      400,
      { error: 'Invalid phone number', field: 'phone' },
    ],
    [
      'not a string',
      { ...valid, submission: { ...ADA, first_name: 42 } },
      undefined,
      400,
      { error: 'Must be a string', field: 'first_name' },
    ],
    [
      'select outside its options',
      { ...valid, submission: { ...ADA, insurance: 'none' } },
      undefined,
      400,
      { error: 'Must be one of the options', field: 'insurance' },
    ],
    [
      'too long',
      { ...valid, submission: { ...ADA, first_name: 'A'.repeat(501) } },
      undefined,
      400,
      { error: 'Too long (at most 500 characters)', field: 'first_name' },
    ],
    [
      'a line break in a one-line field',
      { ...valid, submission: { ...ADA, first_name: 'Ada\r\nBcc: x@y.example' } },
      undefined,
      400,
      { error: 'Must be a single line', field: 'first_name' },
    ],
    [
      'unknown submission key',
      { ...valid, submission: { ...ADA, shoe_size: '42' } },
      undefined,
      400,
      { error: 'Unknown field', field: 'shoe_size' },
    ],
    [
      'password is never a field',
      { ...valid, submission: { ...ADA, password: 'x' } },
      undefined,
      400,
      { error: 'Unknown field', field: 'password' },
    ],
    [
      '__proto__ key',
      '{"schedule":1,"reason":1,"slot":"2026-06-09 09:00:00","submission":{"first_name":"A","last_name":"L","email":"a@b.example","__proto__":{"x":1}}}',
      undefined,
      400,
      { error: 'Unknown field', field: '__proto__' },
    ],
    ['unknown schedule', { ...valid, schedule: 99 }, undefined, 404, { error: 'Not Found' }],
    ['unknown reason', { ...valid, reason: 99 }, undefined, 404, { error: 'Not Found' }],
    ['reason of another schedule', { ...valid, reason: 3 }, undefined, 404, { error: 'Not Found' }],
    ['slot off the grid', { ...valid, slot: '2026-06-09 09:05:00' }, undefined, 404, { error: 'Not Found' }],
    ['slot on a closed day', { ...valid, slot: '2026-06-03 09:00:00' }, undefined, 404, { error: 'Not Found' }],
    ['slot beyond the look-ahead', { ...valid, slot: '2026-07-01 09:00:00' }, undefined, 404, { error: 'Not Found' }],
    ['slot in the past', { ...valid, slot: '2026-05-29 09:00:00' }, undefined, 404, { error: 'Not Found' }],
  ])('%s', async (_name, body, headers, status, expected) => {
    const before = snapshot(f.file);
    const answer = await f.post(body, headers ?? { 'content-type': 'application/json' });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(expected);
    expect(snapshot(f.file)).toEqual(before);
  });

  it('accepts a charset parameter and numbers for number fields', async () => {
    const answer = await f.post(
      { ...valid, slot: '2026-06-10 09:00:00' },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(answer.status).toBe(201);
  });

  it('refuses a body over 64 KiB with 413 JSON, and writes nothing', async () => {
    const before = snapshot(f.file);
    const answer = await f.post({ ...valid, submission: { ...ADA, first_name: 'x'.repeat(70_000) } });
    expect(answer).toMatchObject({ status: 413, body: { error: 'Body larger than 65536 bytes' } });
    expect(snapshot(f.file)).toEqual(before);
  });

  it('answers 500 JSON when the database refuses the write, leaves nothing half-written, and keeps serving', async () => {
    // A real SQLite failure at the store boundary, raised inside the booking's transaction.
    f.store.db.exec(
      "CREATE TRIGGER fail_insert BEFORE INSERT ON bookings BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END",
    );
    const before = snapshot(f.file);
    const answer = await f.post({
      ...valid,
      slot: '2026-06-11 09:00:00',
      submission: { ...ADA, email: 'new-customer@example.com' },
    });
    expect(answer).toMatchObject({ status: 500, body: { error: 'The booking could not be saved' } });
    expect(snapshot(f.file)).toEqual(before); // not even the new customer
    f.store.db.exec('DROP TRIGGER fail_insert');
    expect((await f.post({ ...valid, slot: '2026-06-11 09:00:00' })).status).toBe(201);
    expect((await f.call('/api/schedules')).status).toBe(200);
  });
});
