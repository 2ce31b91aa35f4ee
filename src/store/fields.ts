import type { FieldDefinition, FormType, InputType } from '../domain/form.ts';
import { type LocalChoices, type LocalTexts, parseLocalChoices, parseLocalTexts } from '../domain/languages.ts';
import type { Store } from './db.ts';

/** A field of the booking form (spec §2 FormField), in form order. */
export interface FormField extends FieldDefinition {
  position: number;
  /** Its label in other languages than the practice's own (`field set <key> --label fr=…`). */
  labels: LocalTexts;
  /** A select's choices as shown in other languages (`--options fr=…`), each as long as `options`. */
  choices: LocalChoices;
}

interface FieldRow {
  key: string;
  form_type: FormType;
  input_type: InputType;
  label: string;
  required: number;
  default_value: string;
  options: string;
  position: number;
  labels: string;
  choices: string;
}

function toField(row: FieldRow): FormField {
  return {
    key: row.key,
    formType: row.form_type,
    inputType: row.input_type,
    label: row.label,
    required: row.required === 1,
    defaultValue: row.default_value,
    options: JSON.parse(row.options) as string[],
    position: row.position,
    labels: parseLocalTexts(row.labels),
    choices: parseLocalChoices(row.choices),
  };
}

const COLUMNS = 'key, form_type, input_type, label, required, default_value, options, position, labels, choices';

/** Returns form_type, input_type, label, required, default_value, options as stored. */
function columnValues(
  field: Omit<FormField, 'key' | 'position' | 'labels' | 'choices'>,
): [string, string, string, number, string, string] {
  return [
    field.formType,
    field.inputType,
    field.label,
    field.required ? 1 : 0,
    field.defaultValue,
    JSON.stringify(field.options),
  ];
}

/** Returns the form fields in form order. */
export function listFields(store: Store): FormField[] {
  const rows = store.sql(`SELECT ${COLUMNS} FROM form_fields ORDER BY position, id`).all();
  return (rows as unknown as FieldRow[]).map(toField);
}

/** Returns the field named `key`. */
export function findField(store: Store, key: string): FormField | undefined {
  const row = store.sql(`SELECT ${COLUMNS} FROM form_fields WHERE key = ?`).get(key);
  return row ? toField(row as unknown as FieldRow) : undefined;
}

/** Inserts a field at the end of the form. */
export function insertField(store: Store, field: Omit<FormField, 'position' | 'labels' | 'choices'>): void {
  store
    .sql(
      `INSERT INTO form_fields (key, form_type, input_type, label, required, default_value, options, position)
       VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM form_fields))`,
    )
    .run(field.key, ...columnValues(field));
}

/** Writes the values of the field named `field.key` (its place is set by `writeFieldOrder`). */
export function updateField(store: Store, field: Omit<FormField, 'position' | 'labels' | 'choices'>): void {
  store
    .sql(
      `UPDATE form_fields SET form_type = ?, input_type = ?, label = ?, required = ?, default_value = ?, options = ?
       WHERE key = ?`,
    )
    .run(...columnValues(field), field.key);
}

/** Writes a field's labels and a select's choices in other languages (`{}` for none). */
export function setFieldTexts(store: Store, key: string, labels: LocalTexts, choices: LocalChoices): void {
  store
    .sql('UPDATE form_fields SET labels = ?, choices = ? WHERE key = ?')
    .run(JSON.stringify(labels), JSON.stringify(choices), key);
}

/** Numbers the fields 1, 2, 3 … in the order of `keys`. Call inside a transaction. */
export function writeFieldOrder(store: Store, keys: readonly string[]): void {
  const update = store.sql('UPDATE form_fields SET position = ? WHERE key = ?');
  keys.forEach((key, index) => update.run(index + 1, key));
}

/** Deletes the field named `key`; past bookings keep what was submitted. */
export function deleteField(store: Store, key: string): void {
  store.sql('DELETE FROM form_fields WHERE key = ?').run(key);
}
