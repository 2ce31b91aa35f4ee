/**
 * A customer's language (issue 47): Accept-Language read as RFC 9110 §12.5.4 says, bounded; a choice of theirs
 * first; the practice's own texts in another language; the page's links carrying a chosen language.
 */
import { describe, expect, it } from 'vitest';
import { givenLabel, labelIn } from '../../src/domain/form.ts';
import { customerLanguage, offeredLanguages, preferredLanguage, textIn } from '../../src/domain/languages.ts';
import { carryLanguage } from '../../src/portal/kit.ts';

describe('the language a customer gets', () => {
  const offered = ['de', 'fr', 'it'] as const;
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'], // a Swiss browser
    ['en-GB,en;q=0.9', undefined], // nothing offered asked for: the practice's own, by default
    ['en, de;q=0.1, it;q=0.2', 'it'], // by weight, not by order
    ['de;q=0.5, fr;q=0.5', 'de'], // the earlier among equals
    ['fr;q=0, de', 'de'], // q=0: not this one
    ['IT-ch', 'it'], // tags are case-insensitive
    ['*', undefined], // any: none in particular (Node's fetch sends it)
    ['fr;q=2, de;q=abc, it;q=0.3', 'it'], // weights out of range are not read
    ['', undefined],
    [null, undefined],
  ])('Accept-Language %j → %j', (header, expected) => {
    expect(preferredLanguage(header, offered)).toBe(expected);
  });

  it('reads at most 32 entries and 1 KiB of a header built to cost time', () => {
    const long = `${'xx;q=0.9, '.repeat(10_000)}fr`;
    expect(preferredLanguage(long, offered)).toBeUndefined();
    expect(preferredLanguage(`${'xx, '.repeat(32)}fr`, offered)).toBeUndefined(); // the 33rd entry
    expect(preferredLanguage(`${'xx, '.repeat(31)}fr`, offered)).toBe('fr'); // the 32nd
  });

  it("a choice of theirs first, when offered; else their browser's; else the practice's own", () => {
    expect(customerLanguage(offered, { chosen: 'it', acceptLanguage: 'fr' })).toBe('it');
    expect(customerLanguage(offered, { chosen: 'es', acceptLanguage: 'fr' })).toBe('fr'); // not offered
    expect(customerLanguage(offered, { chosen: ['it'], acceptLanguage: 'nl' })).toBe('de');
  });

  it('the offered languages: the own first, each once', () => {
    expect(offeredLanguages('de', ['fr', 'de', 'fr', 'it'])).toEqual(['de', 'fr', 'it']);
  });
});

describe("the practice's texts in a customer's language", () => {
  it('a text given for the language, else its own', () => {
    expect(textIn('Physiotherapie', { fr: 'Kinésithérapie' }, 'fr')).toBe('Kinésithérapie');
    expect(textIn('Physiotherapie', { fr: 'Kinésithérapie' }, 'it')).toBe('Physiotherapie');
  });

  it('a default field whose label the practice kept speaks every language; one it changed needs its own', () => {
    const kept = { key: 'first_name', label: 'Vorname', labels: {} };
    const changed = { key: 'first_name', label: 'Rufname', labels: {} };
    expect(givenLabel(kept, 'fr', 'de')).toBe('Prénom');
    expect(givenLabel(changed, 'fr', 'de')).toBeUndefined();
    expect(labelIn(changed, 'fr', 'de')).toBe('Rufname');
    expect(labelIn({ ...changed, labels: { fr: 'Prénom usuel' } }, 'fr', 'de')).toBe('Prénom usuel');
    expect(givenLabel({ key: 'insurance', label: 'Vorname', labels: {} }, 'fr', 'de')).toBeUndefined(); // not a default field
    expect(givenLabel(changed, 'de', 'de')).toBe('Rufname'); // the own language is always given
  });
});

describe('carrying a chosen language from step to step', () => {
  it("adds it to the page's own links and POSTs, and to its GET forms as a field; other links stay", () => {
    const html =
      '<a href="/book/">a</a><a href="/book/times?schedule=1&#38;day=2026-12-01">b</a><a href="/book/?lang=de">c</a>' +
      '<a href="https://example.com/book/">d</a><a href="/manage/x">e</a><img src="/book/logo?v=1" alt="">' +
      '<form method="post" action="/book/review"><button formaction="/book/details">f</button></form>' +
      '<form method="get" action="/book/details"><input type="hidden" name="day" value="2026-12-01"></form>';
    expect(carryLanguage(html, 'fr')).toBe(
      '<a href="/book/?lang=fr">a</a><a href="/book/times?schedule=1&#38;day=2026-12-01&#38;lang=fr">b</a><a href="/book/?lang=de">c</a>' +
        '<a href="https://example.com/book/">d</a><a href="/manage/x">e</a><img src="/book/logo?v=1" alt="">' +
        '<form method="post" action="/book/review?lang=fr"><button formaction="/book/details?lang=fr">f</button></form>' +
        '<form method="get" action="/book/details?lang=fr"><input type="hidden" name="lang" value="fr"><input type="hidden" name="day" value="2026-12-01"></form>',
    );
  });
});
