/**
 * Phone numbers as people type them, found in the practice's country: `0170 2223334`, `+49 170 2223334`,
 * `0049 170 2223334` and `01702223334` are one number in Germany. Both the stored number and the text searched for
 * are reduced to their national significant number: the digits without the country's calling code (after `+` or
 * `00`) and without the trunk prefix 0 of a number written nationally. Italy (and San Marino, the Vatican) keep the
 * 0 in international form, so there it stays. Pure.
 */

/** The calling code of the country of each time zone a practice is likely to use (others: none, digits compared as typed). */
const CALLING_CODES: Readonly<Record<string, string>> = {
  'Europe/Berlin': '49',
  'Europe/Busingen': '49',
  'Europe/Vienna': '43',
  'Europe/Zurich': '41',
  'Europe/Vaduz': '423',
  'Europe/Paris': '33',
  'Europe/Monaco': '377',
  'Europe/Brussels': '32',
  'Europe/Luxembourg': '352',
  'Europe/Amsterdam': '31',
  'Europe/Rome': '39',
  'Europe/San_Marino': '378',
  'Europe/Vatican': '39',
  'Europe/Madrid': '34',
  'Atlantic/Canary': '34',
  'Europe/Andorra': '376',
  'Europe/Lisbon': '351',
  'Europe/London': '44',
  'Europe/Dublin': '353',
  'Europe/Copenhagen': '45',
  'Europe/Stockholm': '46',
  'Europe/Oslo': '47',
  'Europe/Helsinki': '358',
  'Europe/Warsaw': '48',
  'Europe/Prague': '420',
  'Europe/Bratislava': '421',
  'Europe/Budapest': '36',
  'Europe/Ljubljana': '386',
  'Europe/Zagreb': '385',
  'Europe/Athens': '30',
  'Europe/Malta': '356',
};

/** Calling codes whose numbers keep their leading 0 after the code (+39 06 …). */
const KEEPS_ZERO = new Set(['39', '378']);

/**
 * The practice's calling code: the one its own phone number is written with (`practice set --phone +41 …`), else
 * its time zone's country's; '' when neither tells.
 */
export function callingCodeOf(zone: string, practicePhone: string): string {
  const international = practicePhone.trim().replace(/^00/, '+');
  if (international.startsWith('+')) {
    const digits = international.replace(/\D/g, '');
    const known = new Set(Object.values(CALLING_CODES));
    for (const length of [3, 2, 1]) if (known.has(digits.slice(0, length))) return digits.slice(0, length);
  }
  return CALLING_CODES[zone] ?? '';
}

/**
 * The national significant number of `text` when it is written like a phone number (digits, spaces, + - / . and
 * parentheses, at least three digits) in the country of `callingCode`; '' for text that is no phone number. A number of
 * another country keeps its code (`+44 20 …` stays `4420…`), so it is found by the same international spelling.
 */
export function nationalDigits(text: string, callingCode: string): string {
  const trimmed = text.trim();
  if (!/^[\d\s+\-/.()]+$/.test(trimmed)) return '';
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 3) return '';
  const international = trimmed.startsWith('+') ? digits : trimmed.startsWith('00') ? digits.slice(2) : undefined;
  if (international !== undefined) {
    if (callingCode === '' || !international.startsWith(callingCode)) return international;
    const national = international.slice(callingCode.length);
    return KEEPS_ZERO.has(callingCode) ? national : national.replace(/^0/, '');
  }
  return callingCode !== '' && !KEEPS_ZERO.has(callingCode) ? digits.replace(/^0/, '') : digits;
}
