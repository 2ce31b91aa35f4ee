/**
 * Contract checks: every answer the HTTP tests receive from a documented operation is validated against
 * the OpenAPI document's schema for that path, method and status. An undescribed status fails the test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../src/schemas/openapi.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
type Json = Record<string, any>;

const document = openApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: 'openapi' });

/** Returns the JSON pointer escape of a path segment (RFC 6901). */
const pointerEscape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Returns the object at `#/a/b` of the document, and its pointer, following one `$ref`. */
function resolve(pointer: string): { pointer: string; value: Json } {
  let value: any = document;
  for (const segment of pointer.slice(2).split('/')) value = value?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (value && typeof value.$ref === 'string') return resolve(value.$ref);
  return { pointer, value };
}

/** Counts what was checked, so a test can show the checks ran. */
export const contractStats = { checked: 0 };

/**
 * Throws when `answer` to `method url` breaks the document: a status it does not list, a body that does not fit
 * the schema, or a required header that is missing. Answers to paths that are not operations are not checked.
 */
export function checkContract(
  method: string,
  url: string,
  answer: { status: number; headers: Headers; body: unknown },
): void {
  const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '');
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) return;
  const base = `#/paths/${pointerEscape(path)}/${method.toLowerCase()}/responses/${answer.status}`;
  if (!operation.responses[String(answer.status)]) {
    throw new Error(
      `OpenAPI contract: ${method} /api${path} answered ${answer.status}, which the document does not describe`,
    );
  }
  const described = resolve(base);
  for (const [name, header] of Object.entries(described.value.headers ?? {})) {
    const resolved = (header as Json).$ref ? resolve((header as Json).$ref).value : (header as Json);
    if (resolved.required && !answer.headers.has(name)) {
      throw new Error(`OpenAPI contract: ${method} /api${path} ${answer.status} lacks the required header ${name}`);
    }
    // A header that is sent must fit its schema (a number where the document says integer, the one value of a const).
    const value = answer.headers.get(name);
    if (value !== null && resolved.schema) {
      const typed = resolved.schema.type === 'integer' ? Number(value) : value;
      if (!ajv.validate(resolved.schema, typed)) {
        throw new Error(
          `OpenAPI contract: ${method} /api${path} ${answer.status} header ${name}: ${value} breaks the document: ${ajv.errorsText(ajv.errors)}`,
        );
      }
    }
  }
  // Only the headers the document declares for this answer may be the API's own (the ones every answer has aside).
  if (
    answer.headers.has('idempotent-replayed') &&
    !Object.keys(described.value.headers ?? {}).some((name) => name.toLowerCase() === 'idempotent-replayed')
  ) {
    throw new Error(
      `OpenAPI contract: ${method} /api${path} ${answer.status} sends Idempotent-Replayed, which the document does not declare there`,
    );
  }
  const validate = ajv.getSchema(`openapi${described.pointer}/content/application~1json/schema`);
  if (!validate) throw new Error(`OpenAPI contract: no schema for ${method} /api${path} ${answer.status}`);
  if (!validate(answer.body)) {
    throw new Error(
      `OpenAPI contract: ${method} /api${path} ${answer.status} body ${JSON.stringify(answer.body).slice(0, 300)} breaks the document: ${ajv.errorsText(validate.errors)}`,
    );
  }
  contractStats.checked++;
}
