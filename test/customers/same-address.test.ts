/**
 * One rule for "the same e-mail address" (`emailKey` in src/domain/checks.ts) wherever
 * addresses are compared: a booking's customer, the booking page's per-e-mail limit, `customer find`, `export` and
 * `erase`. A lookalike of an address (KELVIN SIGN for K, fullwidth or Cyrillic letters, a decomposed é, a ligature)
 * is not an address planner takes, so it reaches nobody's data; ASCII case and surrounding white space do not count.
 * And one search rule for `customer find` and `bookings list --search` (names and phones folded, a phone also by its
 * digits, an address only by its ASCII case).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exportCustomer, findCustomers } from '../../src/app/customers/customers.ts';
import { futureBookingsOf } from '../../src/app/pages/booking-page.ts';
import { AppError } from '../../src/errors.ts';
import { bookableDb, cliJson, cliOk, refused, tempDb } from '../helpers.ts';
import { apiFixture } from '../http/fixture.ts';

/** The real addresses the table's lookalikes imitate. */
const REAL = { kdq: 'kdq7781@example.org', cafe: 'cafe@example.org', effect: 'effect@example.org' } as const;
type Real = keyof typeof REAL;

/** Each text as typed, and the real address it is the same as (null: not an e-mail address, so nobody's). */
const TABLE: [string, string, Real | null][] = [
  ['the address itself', 'kdq7781@example.org', 'kdq'],
  ['upper case ASCII', 'KDQ7781@EXAMPLE.ORG', 'kdq'],
  ['mixed case ASCII', 'Kdq7781@Example.Org', 'kdq'],
  ['spaces and a tab around it', '  kdq7781@example.org\t', 'kdq'],
  ['a no-break space and an ideographic space around it', '\u00a0kdq7781@example.org\u3000', 'kdq'],
  ['KELVIN SIGN for K (toLowerCase and NFC make it k)', '\u212adq7781@example.org', null],
  ['KELVIN SIGN in an upper-case address', '\u212aDQ7781@EXAMPLE.ORG', null],
  ['ANGSTROM SIGN (NFC makes it Å)', 'kdq7781@ex\u212bmple.org', null],
  ['a fullwidth k (NFKC makes it k)', '\uff4bdq7781@example.org', null],
  [
    'fullwidth throughout',
    '\uff4b\uff44\uff51\uff17\uff17\uff18\uff11\uff20\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff4f\uff52\uff47',
    null,
  ],
  ['a Cyrillic е in the domain', 'kdq7781@\u0435xample.org', null],
  ['a Greek capital kappa for K', '\u039adq7781@example.org', null],
  ['a Greek small kappa for k', '\u03badq7781@example.org', null],
  ['a zero-width space at the end (not white space)', 'kdq7781@example.org\u200b', null],
  ['a space inside', 'kdq7781 @example.org', null],
  ['a composed é (NFC)', 'caf\u00e9@example.org', null],
  ['a decomposed é (NFD)', 'cafe\u0301@example.org', null],
  ['the ligature ﬀ (NFKC makes it ff)', 'e\ufb00ect@example.org', null],
  ['the other real address in upper case', 'CAFE@example.org', 'cafe'],
];

describe('the same e-mail address: booking, the per-e-mail limit, find and export (in-process, fixed clock)', () => {
  let f: Awaited<ReturnType<typeof apiFixture>>;
  // A 30-minute reason, one place a time: every half hour of Tuesday and Thursday (Wednesday is closed).
  const slots = ['2026-06-02', '2026-06-04'].flatMap((day) =>
    ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((time) => `${day} ${time}:00`),
  );
  const book = (email: string) =>
    f.post({
      schedule: 1,
      reason: 1,
      slot: slots[bookings()],
      submission: { first_name: 'Kay', last_name: 'Dee', email },
    });
  const bookings = () => (f.store.sql('SELECT count(*) AS n FROM bookings').get() as { n: number }).n;
  const customers = {} as Record<Real, number>;
  beforeAll(async () => {
    f = await apiFixture();
    for (const real of Object.keys(REAL) as Real[]) {
      const made = await book(REAL[real]);
      expect(made.status).toBe(201);
      customers[real] = made.body.user_id;
    }
  });

  it.each(TABLE)('%s: %j', async (_, text, same) => {
    const held = same === null ? 0 : futureBookingsOf(f.ctx, REAL[same]);
    // The booking page's per-e-mail limit counts the real address's bookings, or none.
    expect(futureBookingsOf(f.ctx, text)).toBe(held);
    // find: the real customer, or nobody.
    expect(findCustomers(f.ctx, text).map((match) => match.customerId)).toEqual(same === null ? [] : [customers[same]]);
    // export (and so erase, which finds the customer the same way): the real customer, or refused in one line.
    if (same === null) {
      expect(() => exportCustomer(f.ctx, text)).toThrow(AppError);
      expect(() => exportCustomer(f.ctx, text)).toThrow(/is not an e-mail address planner takes/);
    } else {
      expect(exportCustomer(f.ctx, text).customer.id).toBe(customers[same]);
    }
    // A booking with it: the same customer, or refused as not an e-mail address, writing nothing.
    const before = bookings();
    const made = await book(text);
    if (same === null) {
      expect([made.status, made.body]).toEqual([400, { error: 'Invalid e-mail address', field: 'email' }]);
      expect(bookings()).toBe(before);
    } else {
      expect([made.status, made.body.user_id]).toEqual([201, customers[same]]);
      expect(futureBookingsOf(f.ctx, text)).toBe(held + 1);
    }
  });
});

describe('the same e-mail address through the CLI (real subprocess)', () => {
  it('export and erase with the KELVIN SIGN address find nobody and change nothing; the right address still works', async () => {
    const db = tempDb();
    await bookableDb(db);
    const [day] = (await cliJson(db, 'slots', '1', '1')).days.slice(1);
    const slots = day.slots as string[];
    const kdq = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slots[0]!,
      '--field',
      'first_name=Kay',
      '--field',
      'last_name=Dee',
      '--field',
      `email=${REAL.kdq}`,
    );
    const other = await cliJson(
      db,
      'bookings',
      'add',
      '1',
      '1',
      slots[1]!,
      '--field',
      'first_name=Other',
      '--field',
      'last_name=Person',
      '--field',
      'email=other@example.org',
    );
    const kelvin = '\u212adq7781@example.org';
    for (const args of [
      ['customer', 'export', kelvin],
      ['customer', 'export', kelvin, '--out', `${db}.json`],
      ['customer', 'erase', kelvin, '--yes'],
    ])
      await refused(
        db,
        args,
        `planner: "${kelvin}" is not an e-mail address planner takes: U+212A at position 1 is not ASCII (a lookalike letter names nobody); type the address again, or give a booking reference (planner customer find <text> looks for one)`,
      );
    expect(await cliOk(db, 'customer', 'find', kelvin)).toBe(`No customer holds "${kelvin}".\n`);
    expect(await cliJson(db, 'bookings', 'list', '--from', day.day, '--search', kelvin)).toEqual([]);
    // A booking with it is refused as not an e-mail address, and writes nothing.
    await refused(
      db,
      [
        'bookings',
        'add',
        '1',
        '1',
        slots[2]!,
        '--field',
        'first_name=Kay',
        '--field',
        'last_name=Dee',
        '--field',
        `email=${kelvin}`,
      ],
      `planner: --field email=${kelvin}: invalid e-mail address`,
    );
    // The right address, in any ASCII case: the export, then the erase.
    const exported = JSON.parse(await cliOk(db, 'customer', 'export', 'KDQ7781@example.org'));
    expect(exported.bookings.map((one: any) => one.reference)).toEqual([kdq.reference]);
    expect(await cliOk(db, 'customer', 'erase', ' kdq7781@EXAMPLE.org ', '--yes')).toMatch(
      /^Erased customer \d+: 1 booking\(s\)/,
    );
    expect((await cliJson(db, 'bookings', 'show', kdq.reference)).submission).toEqual({});
    expect((await cliJson(db, 'bookings', 'show', other.reference)).submission.email).toBe('other@example.org');
  });
});

describe('one search rule: customer find and bookings list --search (real subprocess)', () => {
  it('find the same bookings for the same text: a phone by its digits, a name in any case, an address by its ASCII case only', async () => {
    const db = tempDb();
    await bookableDb(db);
    const [day] = (await cliJson(db, 'slots', '1', '1')).days.slice(1);
    const slots = day.slots as string[];
    const people = [
      ['Jürgen', 'Müller', 'j.mueller@example.org', '040 123 456'],
      ['Ada', 'Lovelace', 'ADA@Example.com', '+49 30 555-0101'],
      ['Grace', 'Hopper', 'kdq7781@example.org', ''],
    ];
    const references: string[] = [];
    for (const [index, [first, last, email, phone]] of people.entries()) {
      const fields = [
        '--field',
        `first_name=${first}`,
        '--field',
        `last_name=${last}`,
        '--field',
        `email=${email}`,
        ...(phone ? ['--field', `phone=${phone}`] : []),
      ];
      references.push((await cliJson(db, 'bookings', 'add', '1', '1', slots[index]!, ...fields)).reference);
    }
    const [muller, ada, grace] = references as [string, string, string];
    for (const [text, expected] of [
      ['040123456', [muller]], // the issue: the digits of "040 123 456"
      ['0401', [muller]],
      ['040 123', [muller]],
      ['4930 5550101', [ada]],
      ['MÜLLER', [muller]],
      ['jürgen müller', [muller]],
      ['ada@example', [ada]],
      ['KDQ7781', [grace]],
      ['\u212adq7781', []], // KELVIN SIGN: not the address's k
      ['\uff4bdq7781', []], // a fullwidth k
      [grace.toLowerCase(), [grace]],
      ['example', [muller, ada, grace]],
      ['nobody', []],
    ] as [string, string[]][]) {
      const listed = (await cliJson(db, 'bookings', 'list', '--from', day.day, '--search', text)).map(
        (one: any) => one.reference,
      );
      const found = (await cliJson(db, 'customer', 'find', text)).flatMap((match: any) => match.references);
      expect([text, listed]).toEqual([text, expected]);
      expect([text, found.sort()]).toEqual([text, [...expected].sort()]);
    }
  });
});
