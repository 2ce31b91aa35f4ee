/** The desk's customer search by name, through the CLI's one rule: `mueller`, `muller` and `Müller` find Müller. */
import { describe, expect, it } from 'vitest';
import { bookableDb, cliJson, cliOk, fieldArgs, tempDb } from '../helpers.ts';

describe('search by name in any umlaut spelling (bookings list --search, customer find)', () => {
  it('finds Müller and Mueller for mueller, muller and Müller; Möller only for its own spellings', async () => {
    const db = tempDb();
    await bookableDb(db);
    const slots = (await cliJson(db, 'slots', '1', '1')).days[1].slots as string[];
    const people = [
      { first_name: 'Anna', last_name: 'Müller', email: 'anna.m@example.com' },
      { first_name: 'Ben', last_name: 'Mueller', email: 'ben.m@example.com' },
      { first_name: 'Cem', last_name: 'Möller', email: 'cem.m@example.com' },
    ];
    for (const [index, person] of people.entries())
      await cliJson(db, 'bookings', 'add', '1', '1', slots[index * 2]!, ...fieldArgs(person));
    const listed = async (text: string) =>
      ((await cliJson(db, 'bookings', 'list', '--search', text)) as { customer: { last_name: string } }[])
        .map((booking) => JSON.stringify(booking))
        .map((json) => (json.includes('Müller') ? 'Müller' : json.includes('Mueller') ? 'Mueller' : 'Möller'))
        .sort();
    for (const text of ['mueller', 'muller', 'Müller', 'MÜLLER'])
      expect(await listed(text), text).toEqual(['Mueller', 'Müller']);
    expect(await listed('moeller')).toEqual(['Möller']);
    expect(await listed('anna mull')).toEqual(['Müller']);
    const found = await cliOk(db, 'customer', 'find', 'mueller');
    expect(found).toContain('anna.m@example.com');
    expect(found).toContain('ben.m@example.com');
    expect(found).not.toContain('cem.m@example.com');
  });
});

describe('search by phone as people type it, in the practice’s country (bookings list --search, customer find)', () => {
  it('finds 0170 2223334 by +49 170 2223334, 0049 170 2223334, 01702223334 and 0170-222 3334; not another number', async () => {
    const db = tempDb();
    await bookableDb(db); // Europe/Berlin: Germany, +49
    const slots = (await cliJson(db, 'slots', '1', '1')).days[1].slots as string[];
    const people = [
      { first_name: 'Jana', last_name: 'Müller', email: 'jana@example.com', phone: '0170 2223334' },
      { first_name: 'Ole', last_name: 'Berg', email: 'ole@example.com', phone: '+49 171 5556667' },
      { first_name: 'Ann', last_name: 'Roe', email: 'ann@example.com', phone: '+44 20 7946 0958' },
    ];
    for (const [index, person] of people.entries())
      await cliJson(db, 'bookings', 'add', '1', '1', slots[index * 2]!, ...fieldArgs(person));
    const listed = async (text: string) =>
      ((await cliJson(db, 'bookings', 'list', '--search', text)) as { customerFirstName: string }[])
        .map((booking) => booking.customerFirstName)
        .sort();
    for (const text of ['0170 2223334', '+49 170 2223334', '0049 170 2223334', '01702223334', '0170-222 3334'])
      expect(await listed(text), text).toEqual(['Jana']);
    for (const text of ['0171 5556667', '+49 171 5556667', '1715556667'])
      expect(await listed(text), text).toEqual(['Ole']);
    expect(await listed('+44 20 7946 0958')).toEqual(['Ann']); // another country's number: by its international form
    expect(await listed('0170 9999999')).toEqual([]);
    const found = await cliOk(db, 'customer', 'find', '+49 170 2223334');
    expect(found).toContain('jana@example.com');
    expect(found).not.toContain('ole@example.com');
  });
});
