import { describe, expect, it } from 'vitest';
import { fitsInputType, isEmail, isIdText, isNote, isPhone, nameProblem, parsePlainInt } from '../../src/domain/checks.ts';

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
