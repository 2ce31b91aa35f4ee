import type { Command } from 'commander';
import { addField, changeField, type FieldChanges, fields, removeField } from '../../app/practice/fields.ts';
import { invalid } from '../../errors.ts';
import type { FormField } from '../../store/fields.ts';
import {
  collect,
  languagesText,
  print,
  printJson,
  printTable,
  readContext,
  textsByLanguage,
  whole,
  withContext,
} from '../shared.ts';

interface FieldOptions {
  label?: string[];
  input?: string;
  form?: string;
  options?: string[];
  required?: boolean;
  optional?: boolean;
  default?: string;
  position?: string;
  json?: boolean;
}

/** Returns the changes given as options. */
function fieldChanges(options: FieldOptions): FieldChanges {
  if (options.required && options.optional) throw invalid('give either --required or --optional, not both');
  const changes: FieldChanges = {};
  const { own, texts } = textsByLanguage(options.label, '--label');
  if (own !== undefined) changes.label = own;
  if (texts !== undefined) changes.labels = texts;
  if (options.input !== undefined) changes.inputType = options.input;
  if (options.form !== undefined) changes.formType = options.form;
  const choices = textsByLanguage(options.options, '--options');
  if (choices.own !== undefined) changes.options = choices.own.split(',');
  if (choices.texts !== undefined)
    changes.choices = Object.fromEntries(
      Object.entries(choices.texts).map(([locale, list]) => [locale, list === '' ? [] : list.split(',')]),
    );
  if (options.required) changes.required = true;
  if (options.optional) changes.required = false;
  if (options.default !== undefined) changes.defaultValue = options.default;
  if (options.position !== undefined) changes.position = whole(options.position, '--position');
  return changes;
}

function describeField(field: FormField): string {
  return `field ${field.key} "${field.label}"${languagesText(field.labels)}: ${field.formType}/${field.inputType}, ${field.required ? 'required' : 'optional'}, position ${field.position}`;
}

function withFieldOptions(command: Command): Command {
  return command
    .option('--input <type>', 'text, email, tel, number or date')
    .option('--form <type>', 'textbox, textarea, checkbox or select')
    .option(
      '--options <a,b>',
      'choices of a select field, comma-separated; again as --options fr=<a,b> for how they read in a language',
      collect,
    )
    .option('--required', 'must be filled in a booking')
    .option('--default <value>', 'value shown pre-filled (GET /forms `value`)')
    .option('--position <n>', 'place in the form (1 = first)')
    .option('--json', 'print the field as JSON');
}

export function registerField(program: Command): void {
  const field = program.command('field').description('fields of the booking form');
  withFieldOptions(
    field
      .command('add')
      .description('add a form field')
      .argument('<key>', 'name used in submissions, e.g. insurance_number'),
  )
    .option(
      '--label <text>',
      'label shown to customers (required); again as --label fr=<text> for a language customers may choose',
      collect,
    )
    .action(async (key: string, options: FieldOptions, command: Command) => {
      const changes = fieldChanges(options);
      const added = await withContext(command, (ctx) => addField(ctx, key, changes));
      if (options.json) printJson(added);
      else print(`Added ${describeField(added)}.`);
    });
  field
    .command('list')
    .description('list the form fields in form order')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const list = await readContext(command, (ctx) => fields(ctx));
      if (options.json) printJson(list);
      else
        printTable(
          ['POS', 'KEY', 'LABEL', 'FORM', 'INPUT', 'REQUIRED', 'DEFAULT', 'OPTIONS'],
          list.map((f) => [
            f.position,
            f.key,
            f.label,
            f.formType,
            f.inputType,
            f.required ? 'yes' : 'no',
            f.defaultValue,
            f.options.join(','),
          ]),
        );
    });
  withFieldOptions(field.command('set').description('change a form field').argument('<key>'))
    .option('--label <text>', 'new label; --label fr=<text> sets it in one language (fr= alone removes it)', collect)
    .option('--optional', 'need not be filled')
    .action(async (key: string, options: FieldOptions, command: Command) => {
      const changes = fieldChanges(options);
      const changed = await withContext(command, (ctx) => changeField(ctx, key, changes));
      if (options.json) printJson(changed);
      else print(describeField(changed));
    });
  field
    .command('remove')
    .description('remove a form field (past bookings keep what was submitted)')
    .argument('<key>')
    .action(async (key: string, _options: unknown, command: Command) => {
      await withContext(command, (ctx) => removeField(ctx, key));
      print(`Removed field ${key}.`);
    });
}
