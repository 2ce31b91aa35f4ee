/**
 * The booking page's form: its fields as the installation defines them (with what was typed and each field's
 * error), the honeypot, and the hidden fields that carry the choice, the form's ticket and what was typed from step
 * to step. Pure: every value comes in as an argument, and every text goes through `escapeHtml`.
 */
import type { Offer } from '../app/pages/page-booking.ts';
import type { FieldDefinition } from '../domain/form.ts';
import { escapeHtml } from '../domain/html.ts';
import type { BookWords } from './book-words.ts';

/** The form's own fields, made by the page and checked when it comes back (src/http/booking-page.ts). */
export type FormTicket = Record<'key' | 'issued' | 'sig', string>;

/**
 * What the customer typed, by field key (a ticked checkbox: 'on'), and the problems found, by field key. A fresh
 * form (`values` null) shows each field's default; once posted, only what was sent: a default the customer cleared or
 * a checkbox they unticked stays so.
 */
export interface Entry {
  values: Record<string, string> | null;
  errors: Record<string, string>;
}

/** The name of a form field's input: prefixed, so that no field's key meets the page's own names. */
export const fieldName = (key: string) => `f.${key}`;

/** The honeypot: a field people do not see and leave empty. */
export const TRAP_NAME = 'homepage';

const AUTOCOMPLETE: Record<string, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  phone: 'tel',
  name: 'name',
};

/**
 * What every input of a field says: its id and name, its label, and (when given) its error, tied by aria-describedby.
 */
interface FieldParts {
  id: string;
  name: string;
  value: string;
  /** ` required` and the error's `aria-*`, as attributes. */
  attributes: string;
  label: string;
  error: string;
}

/** The parts of `field` as `entry` fills them. */
function partsOf(words: BookWords, field: FieldDefinition, entry: Entry): FieldParts {
  const id = `f-${field.key}`;
  const error = entry.errors[field.key];
  const described = error ? ` aria-describedby="e-${field.key}" aria-invalid="true"` : '';
  const mark = field.required ? ` <span class="req">(${escapeHtml(words.required)})</span>` : '';
  return {
    id,
    name: escapeHtml(fieldName(field.key)),
    value: entry.values ? (entry.values[field.key] ?? '') : field.defaultValue,
    attributes: `${field.required ? ' required' : ''}${described}`,
    label: `<label for="${id}">${escapeHtml(field.label)}${mark}</label>`,
    error: error ? `<p class="field-error" id="e-${field.key}">${escapeHtml(error)}</p>` : '',
  };
}

/** A checkbox: ticked by its default while fresh, then as it was sent. */
function checkboxHtml(field: FieldDefinition, entry: Entry, parts: FieldParts): string {
  const ticked = entry.values ? entry.values[field.key] === 'on' : field.defaultValue === 'true';
  const { id, name, attributes, label, error } = parts;
  return `<div class="field"><div class="check"><input type="checkbox" id="${id}" name="${name}" value="on"${ticked ? ' checked' : ''}${attributes}>${label}</div>${error}</div>`;
}

/** A choice of the field's options, with "choose" first. */
function selectHtml(words: BookWords, field: FieldDefinition, parts: FieldParts): string {
  const { id, name, value, attributes, label, error } = parts;
  const options = [
    `<option value="">${escapeHtml(words.choose)}</option>`,
    // The value said apart from the text shown: the page's typography may space the text (French `!`), never the answer.
    ...field.options.map(
      (option, at) =>
        `<option value="${escapeHtml(option)}"${option === value ? ' selected' : ''}>${escapeHtml(field.choiceTexts?.[at] ?? option)}</option>`,
    ),
  ];
  return `<div class="field">${label}<select id="${id}" name="${name}"${attributes}>${options.join('')}</select>${error}</div>`;
}

/** A line of text, with what the browser may fill in (`autocomplete`) and no spell check of addresses and numbers. */
function inputHtml(field: FieldDefinition, parts: FieldParts): string {
  const { id, name, value, attributes, label, error } = parts;
  const autocomplete =
    AUTOCOMPLETE[field.key] ?? (field.inputType === 'email' ? 'email' : field.inputType === 'tel' ? 'tel' : undefined);
  return (
    `<div class="field">${label}<input class="text" type="${field.inputType}" id="${id}" name="${name}" value="${escapeHtml(value)}"` +
    `${autocomplete ? ` autocomplete="${autocomplete}"` : ''}${field.inputType === 'email' || field.inputType === 'tel' ? ' spellcheck="false"' : ''}${attributes}>${error}</div>`
  );
}

/** One field of the form, with its label, its required mark, its value and its error. */
function fieldHtml(words: BookWords, field: FieldDefinition, entry: Entry): string {
  const parts = partsOf(words, field, entry);
  if (field.formType === 'checkbox') return checkboxHtml(field, entry, parts);
  if (field.formType === 'select') return selectHtml(words, field, parts);
  if (field.formType === 'textarea') {
    const { id, name, value, attributes, label, error } = parts;
    return `<div class="field">${label}<textarea id="${id}" name="${name}" rows="4"${attributes}>${escapeHtml(value)}</textarea>${error}</div>`;
  }
  return inputHtml(field, parts);
}

/** Every field of the form, in order, then the honeypot (hidden from people and from screen readers). */
export function fieldsHtml(words: BookWords, fields: readonly FieldDefinition[], entry: Entry): string {
  const trap = `<div class="trap" aria-hidden="true"><label for="trap">${escapeHtml(words.trap)}</label><input type="text" id="trap" name="${TRAP_NAME}" value="" tabindex="-1" autocomplete="off"></div>`;
  return `${fields.map((field) => fieldHtml(words, field, entry)).join('')}${trap}`;
}

/** The hidden fields that carry the choice and the form's ticket through the form, review and booking. */
export function carry(offer: Offer, slot: string, ticket: FormTicket): Record<string, string> {
  return { schedule: String(offer.scheduleId), reason: String(offer.reasonId), slot, ...ticket };
}

/**
 * The typed values as hidden fields (the review's form, and the times page after a time was taken): every field,
 * empty ones too, a checkbox as 'on' or '', so that what the customer cleared or unticked is not filled in again.
 */
export function typedFields(
  fields: readonly FieldDefinition[],
  values: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [fieldName(field.key), values[field.key] ?? '']));
}

/** The review's rows of what was typed: each field given, by its label (a checkbox as yes or no). */
export function typedRows(
  words: BookWords,
  fields: readonly FieldDefinition[],
  values: Record<string, string>,
): [string, string][] {
  return fields
    .filter((field) => (values[field.key] ?? '') !== '')
    .map((field) => [
      field.label,
      field.formType === 'checkbox'
        ? values[field.key] === 'on'
          ? words.yes
          : words.no
        : shownValue(field, values[field.key]!),
    ]);
}

/** A value as the customer chose it: a select's choice in their language (`choiceTexts`), else as typed. */
function shownValue(field: FieldDefinition, value: string): string {
  const at = field.formType === 'select' ? field.options.indexOf(value) : -1;
  return at >= 0 ? (field.choiceTexts?.[at] ?? value) : value;
}

/** What was typed, by field key, from a posted form (a checkbox: 'on' or absent). */
export function typedIn(fields: FieldDefinition[], form: URLSearchParams): Record<string, string> {
  return Object.fromEntries(
    fields.flatMap((field) => (form.has(fieldName(field.key)) ? [[field.key, form.get(fieldName(field.key))!]] : [])),
  );
}
