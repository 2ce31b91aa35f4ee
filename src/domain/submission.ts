/** Checks a booking's `submission` against the form fields. Pure. */
import { CONTROL, DIRECTION_CONTROL, fitsInputType, LINE_BREAK } from './checks.ts';
import type { FormType, InputType } from './form.ts';

export interface FieldRule {
  key: string;
  formType: FormType;
  inputType: InputType;
  required: boolean;
  options: readonly string[];
}

export type SubmissionValue = string | boolean;

export type SubmissionCheck =
  | { ok: true; values: Record<string, SubmissionValue> }
  | { ok: false; field: string; error: string };

/** Longest value of a field once trimmed: a textarea's, and any other's (also a select's choices and defaults). */
export const VALUE_MAX_LENGTH = { textarea: 5000, other: 500 } as const;

const TYPE_ERRORS = {
  text: 'Invalid value',
  email: 'Invalid e-mail address',
  tel: 'Invalid phone number',
  number: 'Invalid number',
  date: 'Invalid date, expected YYYY-MM-DD',
} as const;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Returns the value as stored, or the error text of a value that does not fit the field. */
function checkValue(field: FieldRule, value: unknown): SubmissionValue | { error: string } {
  if (field.formType === 'checkbox') {
    return typeof value === 'boolean' ? value : { error: 'Must be true or false' };
  }
  const text =
    typeof value === 'number' && field.inputType === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return { error: 'Must be a string' };
  const trimmed = text.trim();
  const limit = field.formType === 'textarea' ? VALUE_MAX_LENGTH.textarea : VALUE_MAX_LENGTH.other;
  if (trimmed.length > limit) return { error: `Too long (at most ${limit} characters)` };
  if (trimmed === '') return '';
  // One line for everything but a textarea, which may hold line breaks (CRLF too, as HTML forms send them) and tabs;
  // no other control characters. Line breaks include NEL, U+2028 and U+2029, which mail clients also break lines on.
  if (field.formType === 'textarea') {
    if (CONTROL.test(trimmed)) return { error: 'Must not contain control characters' };
  } else if (CONTROL.test(trimmed) || LINE_BREAK.test(trimmed) || trimmed.includes('\t')) {
    return { error: 'Must be a single line' };
  }
  if (DIRECTION_CONTROL.test(trimmed)) return { error: 'Must not contain text-direction controls' };
  if (field.formType === 'select')
    return field.options.includes(trimmed) ? trimmed : { error: 'Must be one of the options' };
  return fitsInputType(field.inputType, trimmed) ? trimmed : { error: TYPE_ERRORS[field.inputType] };
}

/**
 * Returns the submission's values (trimmed), or the first problem: a required field that is missing, null,
 * blank or an unticked checkbox (spec §4: `Field is required`, first in form order); then a value that does not fit
 * its field, in form order; then a key that is not a field of the form.
 */
export function checkSubmission(fields: readonly FieldRule[], submission: Record<string, unknown>): SubmissionCheck {
  const given = (key: string) => (Object.hasOwn(submission, key) ? submission[key] : undefined);
  for (const field of fields) {
    const value = given(field.key);
    if (field.required && (isBlank(value) || (field.formType === 'checkbox' && value === false))) {
      return { ok: false, field: field.key, error: 'Field is required' };
    }
  }
  const values: Record<string, SubmissionValue> = {};
  for (const field of fields) {
    const value = given(field.key);
    if (value === undefined || value === null) continue;
    const checked = checkValue(field, value);
    if (typeof checked === 'object') return { ok: false, field: field.key, error: checked.error };
    values[field.key] = checked;
  }
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(submission)) {
    if (!known.has(key)) return { ok: false, field: key, error: 'Unknown field' };
  }
  return { ok: true, values };
}

/**
 * Returns what was submitted, labelled by the form's fields, in form order: only the fields the submission holds,
 * and only text or yes/no values (a field removed or retyped since is left out). Mails and the feed show this.
 */
export function submittedFields(
  fields: readonly { key: string; label: string }[],
  submission: Record<string, unknown>,
): { label: string; value: SubmissionValue }[] {
  return fields.flatMap((field) => {
    const value = submission[field.key];
    return typeof value === 'string' || typeof value === 'boolean' ? [{ label: field.label, value }] : [];
  });
}

/** Returns the submitted value of `key` when it is text (a field made a checkbox holds true or false), else ''. */
export function submittedText(submission: Record<string, unknown>, key: string): string {
  const value = submission[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The customer as submitted with one booking: every appointment shows what was given for it, never the
 * details of whoever first booked with the same e-mail address (families share one). The customer record only
 * groups bookings by address (src/store/customers.ts). Read by the admin's view (store/bookings.ts) and the feed
 * (store/feed-rows.ts).
 */
export function submittedCustomer(submission: Record<string, unknown>) {
  const firstName = submittedText(submission, 'first_name');
  const lastName = submittedText(submission, 'last_name');
  const email = submittedText(submission, 'email').trim();
  return {
    customerName: `${firstName} ${lastName}`.trim(),
    customerFirstName: firstName,
    customerLastName: lastName,
    customerEmail: email === '' ? null : email,
    customerPhone: submittedText(submission, 'phone').trim(),
  };
}
