/** Checks of single values that the CLI, the API and the mail share. Pure. */
import { isDay } from './dates.ts';
import type { InputType } from './form.ts';

/** What a check that can fail returns: the value, or the problem as a user-facing text (never thrown here). */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Longest name of a schedule, a form field's label or the practice. */
export const NAME_MAX_LENGTH = 200;

/**
 * Line breaks of every kind: CR, LF, and NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029),
 * which mail clients and terminals also break lines on.
 */
export const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;

/**
 * Text-direction controls (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069). They reorder what is
 * shown, so `Ada\u202Egnp.exe` reads as "Adaexe.png" in a mail. Refused wherever text is taken (names, notes,
 * form values), rather than removed where shown: the person typing sees the refusal, and what is stored is what was
 * given. (Marks such as U+200E/U+200F, which Arabic and Hebrew text needs, change no order and pass.)
 */
export const DIRECTION_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Control characters other than line breaks and tab: C0 (ESC, BEL, NUL, backspace, …), DEL, and C1 but NEL (U+009B is
 * a CSI some terminals obey). They drive terminals and have no place in a name, a note or a value.
 */
export const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/;

/** What can be wrong with a name. */
export type NameProblem = 'empty' | 'too long' | 'not one line' | 'direction control';

/** Returns what is wrong with a name once trimmed, or undefined when it is one line of 1 to 200 characters. */
export function nameProblem(text: string): NameProblem | undefined {
  const name = text.trim();
  if (name === '') return 'empty';
  if (name.length > NAME_MAX_LENGTH) return 'too long';
  if (LINE_BREAK.test(name) || CONTROL.test(name) || name.includes('\t')) return 'not one line';
  return DIRECTION_CONTROL.test(name) ? 'direction control' : undefined;
}

/** Returns the message for a name `problem` of the thing called `label` (`name`, `--label`, `the practice name`). */
export function nameMessage(label: string, problem: NameProblem): string {
  if (problem === 'not one line') return `${label} must be one line, without control characters`;
  if (problem === 'direction control')
    return `${label} must not contain text-direction controls (U+202A to U+202E, U+2066 to U+2069)`;
  return `${label} must be 1 to ${NAME_MAX_LENGTH} characters`;
}

/** Longest description of a reason. */
export const DESCRIPTION_MAX_LENGTH = 2000;

/** Longest reason, in minutes (a day); the API shows it in seconds. */
export const DURATION_MAX_MINUTES = 1440;
/** Longest buffer before or after an appointment, in minutes (the availability engine widens its window by it). */
export const BUFFER_MAX_MINUTES = 240;

/** Furthest look-ahead of a schedule, in days after today: GET /days lists at most this many days plus one. */
export const DAYS_AHEAD_MAX = 730;

/** Smallest step between a schedule's slots, in minutes: GET /slots lists at most 1440 / this many times. */
export const STEP_MIN_MINUTES = 1;
/** Largest step between a schedule's slots, in minutes (a day). */
export const STEP_MAX_MINUTES = 1440;
/** Longest minimum notice of a schedule, in minutes (365 days). */
export const NOTICE_MAX_MINUTES = 525_600;
/** Most bookings that may overlap in a schedule. */
export const CAPACITY_MAX = 1000;

/** `planner calendar add --every`: minutes between syncs of a practitioner's calendar (default, most). */
export const SYNC_EVERY_DEFAULT_MINUTES = 5;
export const SYNC_EVERY_MAX_MINUTES = 1440;

/** Longest free-text note: a closure's note, a cancellation's reason. */
export const NOTE_MAX_LENGTH = 500;

/**
 * Returns true for a note of at most NOTE_MAX_LENGTH characters without control characters (a cancel reason had
 * kept ESC, BEL and NUL) or direction controls; with `oneLine`, also without a line break.
 */
export function isNote(text: string, oneLine = false): boolean {
  return (
    text.length <= NOTE_MAX_LENGTH &&
    !CONTROL.test(text) &&
    !DIRECTION_CONTROL.test(text) &&
    !(oneLine && LINE_BREAK.test(text))
  );
}

/**
 * An id as text: an integer >= 1 written plainly (`1`, not `01`, `1.0` or `+1`), at most 16 digits (the largest
 * safe integer, 9007199254740991, has 16).
 */
const ID_TEXT = /^[1-9]\d{0,15}$/;

/** Returns true for an id written plainly that is a safe integer (`42`; not `042`, `4.2` or 17 digits). */
export function isIdText(text: string): boolean {
  return ID_TEXT.test(text) && Number.isSafeInteger(Number(text));
}

/** Returns `text` as an integer when it is one written plainly (`12`, not `012`, `1.5`, `1e3`), else undefined. */
export function parsePlainInt(text: string): number | undefined {
  if (!/^(0|-?[1-9]\d{0,14})$/.test(text)) return undefined;
  return Number(text);
}

// Pragmatic address check (what HTML's <input type=email> accepts), not the full RFC 5322 grammar.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Returns the address inside `Name <address>`, or `text` itself (trimmed). */
export function addressOf(text: string): string {
  return /<([^<>]+)>\s*$/.exec(text)?.[1] ?? text.trim();
}

/**
 * Returns true for a plausible e-mail address such as `anna@example.com`. ASCII only: an address that is not
 * (a lookalike letter such as KELVIN SIGN, fullwidth or Cyrillic letters, a decomposed é, a ligature) is refused
 * wherever an address is typed, so it can never be another person's address under some folding (see `emailKey`).
 */
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}

/**
 * Returns the key that says which e-mail addresses are the same (one customer record; the booking page's
 * per-e-mail limit; what `customer find`, `export` and `erase` look up): the address trimmed, with A-Z lower-cased
 * and nothing else changed; undefined for text that is not an e-mail address planner takes (`isEmail`). No Unicode
 * case folding or normalisation (toLowerCase, NFC, NFKC): each maps some lookalike onto an ASCII letter (U+212A
 * KELVIN SIGN to k), so a lookalike could reach the data of the address it imitates.
 */
export function emailKey(text: string): string | undefined {
  const address = text.trim();
  return isEmail(address) ? asciiLower(address) : undefined;
}

/** Returns `text` with A-Z lower-cased and every other character as it is: how addresses, and parts of one, compare. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Returns why `text` is not an e-mail address planner takes, in words for a one-line error (the first character that
 * is not ASCII, by its code point and position), or undefined when it is one (after trimming).
 */
export function emailProblem(text: string): string | undefined {
  const address = text.trim();
  if (isEmail(address)) return undefined;
  const chars = [...address];
  const at = chars.findIndex((char) => char.codePointAt(0)! > 0x7e);
  if (at < 0) return 'it is not an address such as anna@example.com';
  const code = chars[at]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `U+${code} at position ${at + 1} is not ASCII (a lookalike letter names nobody)`;
}

/** Returns true for a phone number as people write it: digits, spaces and `+()./-`, with 3 to 20 digits. */
export function isPhone(text: string): boolean {
  if (!/^\+?[0-9 ()./-]{3,32}$/.test(text)) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= 3 && digits <= 20;
}

/** Returns true for a plain decimal number (`42`, `-1.5`). */
export function isDecimal(text: string): boolean {
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(text);
}

/** Returns true when a non-empty `text` fits a form field's input type. */
export function fitsInputType(inputType: InputType, text: string): boolean {
  switch (inputType) {
    case 'text':
      return true;
    case 'email':
      return isEmail(text);
    case 'tel':
      return isPhone(text);
    case 'number':
      return isDecimal(text);
    case 'date':
      return isDay(text);
  }
}
