import { describe, expect, it } from 'vitest';
import { nameSearchText } from '../../src/store/db.ts';

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
