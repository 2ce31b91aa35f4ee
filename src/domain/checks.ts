/** Checks of single values that the CLI, the API and the mail share. Pure. */
import { isDay } from './dates.ts';
import type { InputType } from './form.ts';

/** What a check that can fail returns: the value, or the problem as a user-facing text (never thrown here). */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Longest name of a schedule, a form field's label or the practice. */
export const NAME_MAX_LENGTH = 200;

/** Returns what is wrong with a name once trimmed (`empty` or `too long`), or undefined when it is 1 to 200 characters. */
export function nameProblem(text: string): 'empty' | 'too long' | undefined {
  const name = text.trim();
  if (name === '') return 'empty';
  return name.length > NAME_MAX_LENGTH ? 'too long' : undefined;
}

/** Longest free-text note: a closure's note, a cancellation's reason. */
export const NOTE_MAX_LENGTH = 500;

/** Returns true for a note of at most 500 characters; with `oneLine`, also without a line break. */
export function isNote(text: string, oneLine = false): boolean {
  return text.length <= NOTE_MAX_LENGTH && !(oneLine && /[\r\n]/.test(text));
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
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Returns the address inside `Name <address>`, or `text` itself (trimmed). */
export function addressOf(text: string): string {
  return /<([^<>]+)>\s*$/.exec(text)?.[1] ?? text.trim();
}

/** Returns true for a plausible e-mail address such as `anna@example.com`. */
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
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
