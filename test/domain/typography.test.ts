/** French no-break spaces and times kept with their zone (src/domain/typography.ts): one rule for mails and pages. */
import { describe, expect, it } from 'vitest';
import { frenchSpaces, keepZones, typeset, typesetHtml } from '../../src/domain/typography.ts';

const NARROW = '\u202f';
const WORD = '\u00a0';

describe('frenchSpaces', () => {
  it.each([
    ['a word-wide no-break space before a colon', 'Référence: AB-12', `Référence${WORD}: AB-12`],
    ['a narrow one before ; ! ?', 'Oui; non! Quand?', `Oui${NARROW}; non${NARROW}! Quand${NARROW}?`],
    [
      'a plain space before the mark becomes the no-break one',
      'Bonjour ! Où : ici',
      `Bonjour${NARROW}! Où${WORD}: ici`,
    ],
    [
      'already spaced text stays as it is',
      `Déjà${WORD}: oui${NARROW}? non\u00a0!`,
      `Déjà${WORD}: oui${NARROW}? non\u00a0!`,
    ],
    ['a time keeps its colon', 'Mardi à 10:00, ou 15:30:', `Mardi à 10:00, ou 15:30${WORD}:`],
    ['a time with an offset keeps its colons', '15:00 UTC+5:30', '15:00 UTC+5:30'],
    ['a link keeps every character', 'Voir https://x.example/a?b=1&c=d: ici', 'Voir https://x.example/a?b=1&c=d: ici'],
    [
      'mailto: and tel: are links',
      'Écrire: mailto:a@b.fr?subject=x ou tel:+33123',
      `Écrire${WORD}: mailto:a@b.fr?subject=x ou tel:+33123`,
    ],
    ['a mark after a link is spaced', 'Ouvrez https://x.example/ !', `Ouvrez https://x.example/${NARROW}!`],
    ['two marks: the space before the first only', 'Quoi?!', `Quoi${NARROW}?!`],
    ['a mark inside a word or a line start is no French mark', '?lang=fr a(?)b', '?lang=fr a(?)b'],
    [
      'a subject with the time and zone',
      'Votre rendez-vous chez Cabinet Soleil: mardi 24 novembre 2026, 09:30 UTC+1',
      `Votre rendez-vous chez Cabinet Soleil${WORD}: mardi 24 novembre 2026, 09:30 UTC+1`,
    ],
  ])('%s', (_, text, spaced) => {
    expect(frenchSpaces(text)).toBe(spaced);
    expect(frenchSpaces(spaced)).toBe(spaced); // applied twice, the same
  });

  it('only French: other languages keep their text', () => {
    expect(typeset('fr', 'Oui!')).toBe(`Oui${NARROW}!`);
    for (const lang of ['en', 'de', 'it', 'es', 'nl']) expect(typeset(lang, 'Yes! When: now?')).toBe('Yes! When: now?');
  });
});

describe('keepZones', () => {
  it.each([
    ['10:00 CET', `10:00${WORD}CET`],
    ['Dienstag, 2. Juni 2026, 10:00 MESZ', `Dienstag, 2. Juni 2026, 10:00${WORD}MESZ`],
    ['mardi 2 juin 2026, 10:00 UTC+2', `mardi 2 juin 2026, 10:00${WORD}UTC+2`],
    [
      '04:30 UTC\u22125 or 04:30 GMT-5 or 15:00 GMT+5:30',
      `04:30${WORD}UTC\u22125 or 04:30${WORD}GMT-5 or 15:00${WORD}GMT+5:30`,
    ],
    ['10:00 Uhr, 10:00 Check-up, 10:00 PHYSIO', '10:00 Uhr, 10:00 Check-up, 10:00 PHYSIO'],
  ])('%s', (text, kept) => {
    expect(keepZones(text)).toBe(kept);
  });
});

describe('typesetHtml', () => {
  it('spaces text runs only: no tag, attribute, entity, style sheet or typed text changes', () => {
    const html =
      '<title>Annuler: Cabinet</title><style>a:hover{color:red; top:0}</style>' +
      '<p style="margin:0; padding:0">Dupont &#38; fils ! <a href="https://x.example/?a=b&#38;c=d">Lien: ici</a></p>' +
      '<input value="Salut!"><textarea name="note">Salut! Oui: non</textarea><dd>mardi, 10:30 UTC+1</dd>';
    expect(typesetHtml('fr', html)).toBe(
      `<title>Annuler${WORD}: Cabinet</title><style>a:hover{color:red; top:0}</style>` +
        `<p style="margin:0; padding:0">Dupont &#38; fils${NARROW}! <a href="https://x.example/?a=b&#38;c=d">Lien${WORD}: ici</a></p>` +
        `<input value="Salut!"><textarea name="note">Salut! Oui: non</textarea><dd>mardi, 10:30${WORD}UTC+1</dd>`,
    );
  });

  it('a select’s option: its text is spaced, its value (what the form sends) is not', () => {
    expect(typesetHtml('fr', '<option value="Privée !">Privée !</option>')).toBe(
      `<option value="Privée !">Privée${NARROW}!</option>`,
    );
  });

  it('keeps the zone with its time in every language, and spaces only French', () => {
    expect(typesetHtml('de', '<p>Wann: 10:00 MEZ!</p>')).toBe(`<p>Wann: 10:00${WORD}MEZ!</p>`);
    expect(typesetHtml('en', '<p>When: 10:00 CET!</p>')).toBe(`<p>When: 10:00${WORD}CET!</p>`);
  });
});
