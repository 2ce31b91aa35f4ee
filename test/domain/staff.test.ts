import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from '../../src/domain/staff.ts';

const anna = { email: 'anna.berg@praxis.example', practiceName: 'Praxis Sonnenhof' };

describe('passwordProblem', () => {
  it('takes 12 characters or more, counted as characters, any script and spaces included', () => {
    expect(PASSWORD_MIN).toBe(12);
    expect(passwordProblem('correct hors', anna)).toBeUndefined();
    expect(passwordProblem('correct hor', anna)).toBe('short');
    expect(passwordProblem('ü'.repeat(11), anna)).toBe('short'); // 22 bytes, 11 characters
    expect(passwordProblem('😀'.repeat(12), anna)).toBeUndefined(); // 24 UTF-16 units, 12 characters
    expect(passwordProblem('日本語のパスワードです', anna)).toBe('short');
    expect(passwordProblem('日本語のパスワードですよね', anna)).toBeUndefined();
  });

  it('refuses more than 256 characters', () => {
    expect(passwordProblem('x'.repeat(PASSWORD_MAX), anna)).toBeUndefined();
    expect(passwordProblem('x'.repeat(PASSWORD_MAX + 1), anna)).toBe('long');
  });

  it('refuses the person’s e-mail address or its name part, and the practice’s name, however written', () => {
    expect(passwordProblem('anna.berg@praxis.example', anna)).toBe('email');
    expect(passwordProblem('my ANNA.BERG password!', anna)).toBe('email');
    expect(passwordProblem('praxis sonnenhof 2026', anna)).toBe('practice');
    expect(passwordProblem('PraxisSonnenhof!!', anna)).toBe('practice');
    expect(passwordProblem('Ｐｒａｘｉｓ Ｓｏｎｎｅｎｈｏｆ', anna)).toBe('practice'); // full-width letters (NFKC)
  });

  it('does not look for a part shorter than four characters', () => {
    expect(
      passwordProblem('bob likes long passwords', { email: 'bob@x.example', practiceName: 'Dr K' }),
    ).toBeUndefined();
  });
});
