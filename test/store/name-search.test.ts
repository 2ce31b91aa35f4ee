import { describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { listBookings } from '../../src/store/bookings.ts';
import { nameSearchText } from '../../src/store/db.ts';
import { practice } from '../practice.ts';

describe('nameSearchText: a name as people search for it', () => {
  it('folds Müller, Mueller, MÜLLER and muller alike', () => {
    for (const name of ['Müller', 'Mueller', 'MÜLLER', 'muller', 'MUELLER', 'Mu\u0308ller'])
      expect(nameSearchText(name), name).toBe('muller');
  });

  it('drops accents, writes ß as ss, and folds ae and oe too', () => {
    expect(nameSearchText('Renée Strauß')).toBe('renee strauss');
    expect(nameSearchText('Gößmann')).toBe(nameSearchText('Goessmann'));
    expect(nameSearchText('Bäcker')).toBe(nameSearchText('Baecker'));
    expect(nameSearchText('Çelik')).toBe('celik');
    expect(nameSearchText('Ｍüller')).toBe('muller'); // a full-width letter (NFKC first)
  });
});

describe('the search keys kept with a booking', () => {
  it('find through the index exactly what the rule finds folded when searched (a row another program wrote)', () => {
    const { ctx, store } = practice();
    const people = [
      { first_name: 'Jürgen', last_name: 'Müller', email: 'J.Mueller@Example.org', phone: '0170 2223334' },
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+49 30 555-0101' },
      { first_name: 'Ann', last_name: 'Roe', email: 'ann@example.co.uk', phone: '+44 20 7946 0958' },
      { first_name: 'Renée', last_name: 'Strauß', email: 'renee@example.fr', phone: '' },
    ];
    const slots = ['2026-06-02 09:00:00', '2026-06-02 10:00:00', '2026-06-02 11:00:00', '2026-06-02 12:00:00'];
    people.forEach((submission, index) =>
      createBooking(ctx, { scheduleId: 1, reasonId: 1, slot: slots[index]!, submission }, 'admin'),
    );
    const found = (text: string) =>
      listBookings(store, { fromAt: 0, search: text, callingCode: '49' }).map((booking) => booking.customerFirstName);
    const texts = [
      'mueller',
      'MULLER',
      'j.mueller',
      'J.MUELLER@',
      '0170 2223334',
      '+49 170 2223334',
      '01702223334',
      '4930 5550101',
      '030 555',
      '+44 20 7946',
      'strauss',
      'renee',
      'Renée',
      'example',
      '20 7946',
      'nobody',
      '555-01',
    ];
    const withKeys = texts.map(found);
    expect(withKeys[0]).toEqual(['Jürgen']);
    expect(withKeys[4]).toEqual(['Jürgen']);
    expect(withKeys[5]).toEqual(['Jürgen']);
    store.db.exec('DELETE FROM booking_search; UPDATE bookings SET searched = NULL'); // as if another program wrote them
    expect(texts.map(found)).toEqual(withKeys);
    store.close();
  });
});
