/** The booking form: the kinds of field, a field's definition, and the fields a new installation starts with. Pure. */
import type { LocalChoices, LocalTexts } from './languages.ts';
import type { Locale } from './locales.ts';

export const FORM_TYPES = ['textbox', 'textarea', 'checkbox', 'select'] as const;
export const INPUT_TYPES = ['text', 'email', 'tel', 'number', 'date'] as const;
export type FormType = (typeof FORM_TYPES)[number];
export type InputType = (typeof INPUT_TYPES)[number];

/** A field's key (its name in GET /forms and in a booking's `submission`): a-z first, then a-z, 0-9 and _, at most 64. */
export const FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** A field of the booking form (spec §2 FormField), as the operator defines it. */
export interface FieldDefinition {
  key: string;
  formType: FormType;
  inputType: InputType;
  label: string;
  required: boolean;
  /** Shown to the integrator as `value` in GET /forms. */
  defaultValue: string;
  /** Choices of a `select` field. */
  options: string[];
  /** How each of `options` is shown to the customer, in their language (absent: as the option itself). */
  choiceTexts?: string[];
}

/** The form fields `planner init` creates (text boxes, no default value). */
export const DEFAULT_FIELDS = [
  { key: 'first_name', label: 'First name', inputType: 'text', required: true },
  { key: 'last_name', label: 'Last name', inputType: 'text', required: true },
  { key: 'email', label: 'E-mail', inputType: 'email', required: true },
  { key: 'phone', label: 'Phone', inputType: 'tel', required: false },
] as const;

/** The default fields' labels in each language of the installation (`init --locale`). */
export const DEFAULT_LABELS: Record<Locale, Record<(typeof DEFAULT_FIELDS)[number]['key'], string>> = {
  en: { first_name: 'First name', last_name: 'Last name', email: 'E-mail', phone: 'Phone' },
  de: { first_name: 'Vorname', last_name: 'Nachname', email: 'E-Mail', phone: 'Telefon' },
  fr: { first_name: 'Prénom', last_name: 'Nom', email: 'E-mail', phone: 'Téléphone' },
  it: { first_name: 'Nome', last_name: 'Cognome', email: 'E-mail', phone: 'Telefono' },
  es: { first_name: 'Nombre', last_name: 'Apellidos', email: 'Correo electrónico', phone: 'Teléfono' },
  nl: { first_name: 'Voornaam', last_name: 'Achternaam', email: 'E-mail', phone: 'Telefoon' },
};

/**
 * Returns a field's label as given for `locale` (`field set --label fr=…`), else, for a default field whose label the
 * practice kept as `init` wrote it (in any language: `own` may have changed since), the default label in `locale`;
 * undefined when neither (the practice's own label is then shown: `planner doctor` names it). In `own`, its label.
 */
export function givenLabel(
  field: Pick<FieldDefinition, 'key' | 'label'> & { labels: LocalTexts },
  locale: Locale,
  own: Locale,
): string | undefined {
  if (locale === own) return field.label;
  const given = field.labels[locale];
  if (given !== undefined) return given;
  const defaults = Object.values(DEFAULT_LABELS) as Record<string, string>[];
  const kept = defaults.some((labels) => labels[field.key] === field.label);
  return kept ? (DEFAULT_LABELS[locale] as Record<string, string>)[field.key] : undefined;
}

/** Returns a field's label in `locale` (`givenLabel`), else the practice's own. */
export function labelIn(
  field: Pick<FieldDefinition, 'key' | 'label'> & { labels: LocalTexts },
  locale: Locale,
  own: Locale,
): string {
  return givenLabel(field, locale, own) ?? field.label;
}

/**
 * Returns how a select field's choices are shown in `locale`: the texts given for it (`--options fr=…`) while there is
 * one for each option, else undefined (the options themselves, the practice's words, are shown).
 */
export function choicesIn(
  field: Pick<FieldDefinition, 'options'> & { choices: LocalChoices },
  locale: Locale,
): string[] | undefined {
  const given = field.choices[locale];
  return given && given.length === field.options.length ? given : undefined;
}
