/** Phone numbers reduced to their national number in the practice's country (domain/phone.ts). */
import { describe, expect, it } from 'vitest';
import { callingCodeOf, nationalDigits } from '../../src/domain/phone.ts';

describe('nationalDigits', () => {
  it('reads a German number the four ways people write it as one', () => {
    for (const text of ['0170 2223334', '+49 170 2223334', '0049 170 2223334', '01702223334', '(0170) 222-3334'])
      expect(nationalDigits(text, '49'), text).toBe('1702223334');
  });
  it('keeps the leading 0 in Italy (+39 06 …), and another country’s code as typed', () => {
    expect(nationalDigits('06 1234 5678', '39')).toBe('0612345678');
    expect(nationalDigits('+39 06 1234 5678', '39')).toBe('0612345678');
    expect(nationalDigits('+44 20 7946 0958', '49')).toBe('442079460958');
  });
  it('is empty for text that is no phone number, and compares digits as typed without a country', () => {
    expect(nationalDigits('Müller', '49')).toBe('');
    expect(nationalDigits('12', '49')).toBe('');
    expect(nationalDigits('0170 2223334', '')).toBe('01702223334');
  });
});

describe('callingCodeOf', () => {
  it('takes the practice’s own phone first, then its time zone’s country', () => {
    expect(callingCodeOf('Europe/Berlin', '')).toBe('49');
    expect(callingCodeOf('Europe/Berlin', '+41 44 123 45 67')).toBe('41');
    expect(callingCodeOf('Europe/Rome', '030 1234567')).toBe('39');
    expect(callingCodeOf('America/Denver', '')).toBe('');
  });
});
