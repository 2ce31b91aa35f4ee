import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  emailKey,
  emailProblem,
  fitsInputType,
  isEmail,
  isIdText,
  isNote,
  isPhone,
  nameProblem,
  parsePlainInt,
} from '../../src/domain/checks.ts';
import { checkSubmission } from '../../src/domain/submission.ts';

describe('isEmail', () => {
  it.each([
    ['anna@example.com', true],
    ['a.b+c@sub.example.de', true],
    ['anna@localhost', false],
    ['anna example.com', false],
    ['@example.com', false],
    ['anna@', false],
  ])('%j is %s', (text, ok) => expect(isEmail(text)).toBe(ok));
});

describe('emailKey: the one rule of the same e-mail address (issue 36, item 6)', () => {
  const EMAIL_FIELD = { key: 'email', formType: 'textbox', inputType: 'email', required: true, options: [] } as const;
  it.each<[string, string | undefined, string | undefined]>([
    ['kdq7781@example.org', 'kdq7781@example.org', undefined],
    ['KDQ7781@Example.ORG', 'kdq7781@example.org', undefined], // ASCII case does not count
    [' \tkdq7781@example.org\u00a0\u3000', 'kdq7781@example.org', undefined], // nor white space around it
    ['\u212adq7781@example.org', undefined, 'U+212A at position 1 is not ASCII (a lookalike letter names nobody)'], // KELVIN SIGN: toLowerCase and NFC give k
    ['kdq7781@ex\u212bmple.org', undefined, 'U+212B at position 11 is not ASCII (a lookalike letter names nobody)'], // ANGSTROM SIGN: NFC gives Å
    ['\uff4bdq7781@example.org', undefined, 'U+FF4B at position 1 is not ASCII (a lookalike letter names nobody)'], // fullwidth k: NFKC gives k
    ['kdq7781@\u0435xample.org', undefined, 'U+0435 at position 9 is not ASCII (a lookalike letter names nobody)'], // Cyrillic е
    ['\u039adq7781@example.org', undefined, 'U+039A at position 1 is not ASCII (a lookalike letter names nobody)'], // Greek Kappa
    ['caf\u00e9@example.org', undefined, 'U+00E9 at position 4 is not ASCII (a lookalike letter names nobody)'], // composed é
    ['cafe\u0301@example.org', undefined, 'U+0301 at position 5 is not ASCII (a lookalike letter names nobody)'], // decomposed é
    ['e\ufb00ect@example.org', undefined, 'U+FB00 at position 2 is not ASCII (a lookalike letter names nobody)'], // ligature ﬀ: NFKC gives ff
    ['\ud835\udc24dq@example.org', undefined, 'U+1D424 at position 1 is not ASCII (a lookalike letter names nobody)'], // mathematical bold k, one position
    ['kdq7781@example.org\u200b', undefined, 'U+200B at position 20 is not ASCII (a lookalike letter names nobody)'], // zero-width space: not white space
    ['kdq7781 @example.org', undefined, 'it is not an address such as anna@example.com'],
    ['kdq7781', undefined, 'it is not an address such as anna@example.com'],
  ])('%j: key %j, problem %j; a booking takes it only with a key', (text, key, problem) => {
    expect(emailKey(text)).toBe(key);
    expect(emailProblem(text)).toBe(problem);
    const booked = checkSubmission([EMAIL_FIELD], { email: text });
    expect(booked).toEqual(
      key === undefined
        ? { ok: false, field: 'email', error: 'Invalid e-mail address' }
        : { ok: true, values: { email: text.trim() } },
    );
  });

  it('no address planner took is keyed otherwise than before (trimmed, toLowerCase): no stored key changes', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aAzZkK09.-_+@ \t'.split('')), minLength: 3, maxLength: 30 });
    void fc.assert(
      fc.property(ascii, (text) => {
        const key = emailKey(text);
        if (key !== undefined) expect(key).toBe(text.trim().toLowerCase());
      }),
    );
    expect(emailKey('Ab.C+d@Example.COM')).toBe('Ab.C+d@Example.COM'.toLowerCase());
  });
});

describe('parsePlainInt', () => {
  it.each([
    ['1', 1],
    ['0', 0],
    ['42', 42],
    ['-3', -3],
    ['01', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['abc', undefined],
    ['', undefined],
    [' 1', undefined],
    ['9999999999999999', undefined],
  ])('%j gives %s', (text, value) => expect(parsePlainInt(text)).toBe(value));
});

describe('input types', () => {
  it.each([
    ['tel', '+49 30 1234567', true],
    ['tel', '12', false],
    ['tel', 'call me', false],
    ['number', '-1.5', true],
    ['number', '1,5', false],
    ['date', '2026-02-28', true],
    ['date', '2026-02-30', false],
    ['email', 'x@y.de', true],
    ['text', 'anything', true],
  ] as const)('%s %j fits: %s', (type, text, ok) => expect(fitsInputType(type, text)).toBe(ok));

  it('isPhone counts digits, not characters', () => {
    expect(isPhone('(030) 12-34')).toBe(true);
    expect(isPhone('+'.padEnd(25, '1'))).toBe(false);
  });
});

describe('isIdText', () => {
  it.each([
    ['1', true],
    ['42', true],
    ['999999999999999', true], // 15 digits
    ['9007199254740991', true], // 16 digits: the largest safe integer
    ['9007199254740992', false],
    ['99999999999999999', false], // 17 digits
    ['0', false],
    ['01', false],
    ['1.0', false],
    ['+1', false],
    ['-1', false],
    ['1e3', false],
    ['', false],
    ['J6X99LA2FD5TAU9S', false],
  ])('%j is %s', (text, ok) => expect(isIdText(text)).toBe(ok));
});

describe('nameProblem', () => {
  it.each([
    ['Dr. Anna Weber', undefined],
    ['x', undefined],
    ['a'.repeat(200), undefined],
    [`  ${'a'.repeat(200)}  `, undefined], // the name is what is kept: trimmed
    ['a'.repeat(201), 'too long'],
    ['', 'empty'],
    ['   ', 'empty'],
  ])('%j: %s', (text, problem) => expect(nameProblem(text)).toBe(problem));
});

describe('isNote', () => {
  it.each([
    ['', false, true],
    ['a'.repeat(500), false, true],
    ['a'.repeat(501), false, false],
    ['two\nlines', false, true],
    ['two\nlines', true, false],
    ['carriage\rreturn', true, false],
    ['one line', true, true],
    ['a'.repeat(501), true, false],
  ])('%j (one line: %s) is %s', (text, oneLine, ok) => expect(isNote(text, oneLine)).toBe(ok));
});
