import { fitsInputType, nameMessage, nameProblem } from '../../domain/checks.ts';
import { FIELD_KEY, FORM_TYPES, type FormType, INPUT_TYPES, type InputType } from '../../domain/form.ts';
import type { LocalChoices, LocalTexts } from '../../domain/languages.ts';
import { moveTo } from '../../domain/lists.ts';
import type { Locale } from '../../domain/locales.ts';
import { VALUE_MAX_LENGTH } from '../../domain/submission.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import {
  deleteField,
  type FormField,
  findField,
  insertField,
  listFields,
  setFieldTexts,
  updateField,
  writeFieldOrder,
} from '../../store/fields.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from './configured.ts';
import { mergedTexts } from './local-texts.ts';
import { checkWhole } from './schedules.ts';

/** The field that identifies customers and receives their confirmation. */
export const EMAIL_FIELD = 'email';

export interface FieldChanges {
  label?: string;
  /** Its label in other languages (`--label fr=Prénom`); '' removes that language's. */
  labels?: LocalTexts;
  /** A select's choices in other languages (`--options fr=Matin,Soir`); an empty list removes that language's. */
  choices?: LocalChoices;
  inputType?: string;
  formType?: string;
  options?: string[];
  required?: boolean;
  defaultValue?: string;
  position?: number;
}

function checkKey(key: string): string {
  if (!FIELD_KEY.test(key)) {
    throw invalid(
      `field key "${key}" must start with a letter and use only a-z, 0-9 and _ (at most 64 characters)`,
      'key',
    );
  }
  // spec §2: the field `password` is never part of a form.
  if (key === 'password')
    throw invalid('a field named "password" is not allowed: a booking form never asks for one', 'key');
  return key;
}

type UncheckedField = Omit<FormField, 'formType' | 'inputType' | 'position' | 'labels' | 'choices'> & {
  formType: string;
  inputType: string;
};

/** Returns what a default of this field may be, for the message that refuses one. */
function defaultHint(field: UncheckedField, options: string[]): string {
  if (field.formType === 'select') return `give one of the options (${options.join(', ')})`;
  if (field.formType === 'checkbox') return 'give true or false';
  return `give a value of input type ${field.inputType}`;
}

/** Returns a label trimmed (one line, not empty, at most 200 characters), or throws naming `option`. */
function checkLabel(text: string, option: string): string {
  const problem = nameProblem(text);
  if (problem) throw invalid(nameMessage(option, problem), 'label');
  return text.trim();
}

/** Returns the field with its values checked together (types, options, default), or throws `invalid`. */
function checkField(field: UncheckedField): Omit<FormField, 'position' | 'labels' | 'choices'> {
  if (!(FORM_TYPES as readonly string[]).includes(field.formType)) {
    throw invalid(`--form must be one of ${FORM_TYPES.join(', ')} (got "${field.formType}")`, 'form');
  }
  if (!(INPUT_TYPES as readonly string[]).includes(field.inputType)) {
    throw invalid(`--input must be one of ${INPUT_TYPES.join(', ')} (got "${field.inputType}")`, 'input');
  }
  const label = checkLabel(field.label, '--label');
  const options = field.options.map((option) => option.trim());
  if (field.formType === 'select') {
    if (options.length === 0 || options.some((option) => option === '')) {
      throw invalid(
        'a select field needs --options with at least one non-empty choice (example: --options morning,afternoon)',
        'options',
      );
    }
    if (new Set(options).size !== options.length) throw invalid('--options must not repeat a choice', 'options');
    // A choice longer than a booking may send could never be chosen.
    if (options.some((option) => option.length > VALUE_MAX_LENGTH.other)) {
      throw invalid(`each of --options must be at most ${VALUE_MAX_LENGTH.other} characters`, 'options');
    }
  } else if (options.length > 0) {
    throw invalid('--options is only for fields with --form select', 'options');
  }
  const defaultValue = field.defaultValue;
  // The pre-filled value is sent back in a booking: it must fit the limit a booking's value has.
  const limit = field.formType === 'textarea' ? VALUE_MAX_LENGTH.textarea : VALUE_MAX_LENGTH.other;
  if (defaultValue.length > limit)
    throw invalid(`--default must be at most ${limit} characters (got ${defaultValue.length})`, 'default');
  if (defaultValue !== '') {
    const fits =
      field.formType === 'select'
        ? options.includes(defaultValue)
        : field.formType === 'checkbox'
          ? defaultValue === 'true' || defaultValue === 'false'
          : fitsInputType(field.inputType as InputType, defaultValue);
    if (!fits)
      throw invalid(`--default "${defaultValue}" does not fit the field: ${defaultHint(field, options)}`, 'default');
  }
  return {
    ...field,
    formType: field.formType as FormType,
    inputType: field.inputType as InputType,
    label,
    options,
  };
}

/**
 * Writes the texts in other languages that `given` holds for `field` (as stored now): its labels, and a select's
 * choices (each list as long as its options, each choice one line; an empty list removes a language's).
 */
function writeTexts(ctx: AppContext, field: FormField, given: Pick<FieldChanges, 'labels' | 'choices'>): void {
  if (!given.labels && !given.choices) return;
  const own = ctx.settings().locale;
  const labels = given.labels
    ? mergedTexts(field.labels, given.labels, (text, locale) => checkLabel(text, `--label ${locale}=…`), own)
    : field.labels;
  const choices: LocalChoices = { ...field.choices };
  for (const [locale, list] of Object.entries(given.choices ?? {}) as [Locale, string[]][]) {
    const option = `--options ${locale}=…`;
    if (locale === own)
      throw invalid(`${locale} is the practice's own language: give its choices without "${locale}="`, 'options');
    if (field.formType !== 'select') throw invalid(`${option} is only for fields with --form select`, 'options');
    if (list.length === 0 || (list.length === 1 && list[0]!.trim() === '')) {
      delete choices[locale];
      continue;
    }
    if (list.length !== field.options.length)
      throw invalid(
        `${option} gives ${list.length} choice(s) for the field's ${field.options.length} (${field.options.join(', ')}): one for each, in that order`,
        'options',
      );
    choices[locale] = list.map((text) => checkLabel(text, option));
  }
  setFieldTexts(ctx.store, field.key, labels, choices);
}

/** Moves the field `key` to `position` (1 = first) when one is given. */
function placeField(ctx: AppContext, key: string, position: number | undefined): void {
  if (position === undefined) return;
  const keys = listFields(ctx.store).map((field) => field.key);
  writeFieldOrder(ctx.store, moveTo(keys, key, checkWhole(position, '--position', 1, 1_000_000)));
}

/** Returns the field or throws `not_found`. */
export function getField(ctx: AppContext, key: string): FormField {
  const field = findField(ctx.store, key);
  if (!field) throw notFound(`field "${key}" does not exist (see \`planner field list\`)`);
  return field;
}

/** Adds a form field at the end of the form (or at `position`, 1 = first). */
export function addField(ctx: AppContext, key: string, values: FieldChanges): FormField {
  requireConfigured(ctx);
  checkKey(key);
  return ctx.store.tx(() => {
    // An existing key first: that is the mistake to hear about, not the --label that `field set` would not need.
    if (findField(ctx.store, key))
      throw new AppError('conflict', `field "${key}" already exists (change it with \`planner field set ${key}\`)`);
    if (values.label === undefined)
      throw invalid(
        `field add needs --label <text>, the label customers see (example: planner field add ${key} --label "Insurance number")`,
        'label',
      );
    const checked = checkField({
      key,
      label: values.label,
      formType: values.formType ?? 'textbox',
      inputType: values.inputType ?? 'text',
      options: values.options ?? [],
      required: values.required ?? false,
      defaultValue: values.defaultValue ?? '',
    });
    insertField(ctx.store, checked);
    writeTexts(ctx, getField(ctx, key), values);
    placeField(ctx, key, values.position);
    return getField(ctx, key);
  });
}

/** Returns the form fields in form order. */
export function fields(ctx: AppContext): FormField[] {
  requireConfigured(ctx);
  return listFields(ctx.store);
}

/** Changes the given values of a field and returns it as stored. */
export function changeField(ctx: AppContext, key: string, changes: FieldChanges): FormField {
  requireConfigured(ctx);
  return ctx.store.tx(() => {
    const current = getField(ctx, key);
    const { labels, choices, ...own } = changes;
    const next = { ...current, ...own };
    if (key === EMAIL_FIELD && next.inputType !== 'email') {
      throw invalid(`the "${EMAIL_FIELD}" field identifies customers, so its input type stays email`, 'input');
    }
    // A select's choices are replaced, not merged; switching away from select drops them.
    if (changes.formType !== undefined && changes.formType !== 'select' && changes.options === undefined)
      next.options = [];
    updateField(ctx.store, checkField(next));
    writeTexts(ctx, getField(ctx, key), { labels, choices });
    placeField(ctx, key, changes.position);
    return getField(ctx, key);
  });
}

/** Removes a field from the form; past bookings keep what was submitted. The e-mail field stays. */
export function removeField(ctx: AppContext, key: string): void {
  requireConfigured(ctx);
  if (key === EMAIL_FIELD) {
    throw invalid(
      `the "${EMAIL_FIELD}" field identifies customers and receives their confirmations: it can be changed, not removed`,
    );
  }
  ctx.store.tx(() => {
    getField(ctx, key);
    deleteField(ctx.store, key);
  });
}
