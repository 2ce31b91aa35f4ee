import { describe, expect, it } from 'vitest';
import { checkSubmission, type FieldRule } from '../../src/domain/submission.ts';

const field = (key: string, formType: FieldRule['formType']): FieldRule => ({
  key,
  formType,
  inputType: 'text',
  required: false,
  options: [],
});
const FIELDS = [field('name', 'textbox'), field('notes', 'textarea')];

describe('checkSubmission: lines and control characters', () => {
  it.each([
    ['name', 'Ada Lovelace', undefined],
    ['name', 'Ada\nLovelace', 'Must be a single line'],
    ['name', 'Ada\r\nLovelace', 'Must be a single line'],
    ['name', 'Ada\tLovelace', 'Must be a single line'],
    ['name', 'Ada\u0085Lovelace', 'Must be a single line'],
    ['name', 'Ada\u2028Lovelace', 'Must be a single line'],
    ['name', 'Ada\u2029Lovelace', 'Must be a single line'],
    ['name', 'Ada\u0007', 'Must be a single line'],
    ['name', 'Ada\u202egnp.exe', 'Must not contain text-direction controls'],
    ['notes', 'line one\nline two', undefined],
    ['notes', 'line one\r\nline two', undefined], // as an HTML form sends a textarea
    ['notes', 'a\tb\u2028c', undefined],
    ['notes', 'bell\u0007', 'Must not contain control characters'],
    ['notes', 'x\u2066y', 'Must not contain text-direction controls'],
  ])('%s = %j: %s', (key, value, error) => {
    const result = checkSubmission(FIELDS, { [key]: value });
    if (error === undefined) expect(result).toMatchObject({ ok: true });
    else expect(result).toEqual({ ok: false, field: key, error });
  });
});
