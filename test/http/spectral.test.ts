import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/schemas/openapi.ts';
import { ROOT, tempDir } from '../helpers.ts';

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
}

/** Runs the Spectral CLI on `document` with the committed ruleset (.spectral.yaml) and returns what it found. */
function spectral(document: unknown): Promise<Finding[]> {
  const file = join(tempDir(), 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  return new Promise((resolve, reject) => {
    execFile(
      join(ROOT, 'node_modules/.bin/spectral'),
      [
        'lint',
        file,
        '--ruleset',
        join(ROOT, '.spectral.yaml'),
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'hint',
      ],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as Finding[]);
        } catch {
          reject(new Error(`spectral did not answer JSON (${error?.message ?? 'no error'}): ${stdout}${stderr}`));
        }
      },
    );
  });
}

const lines = (findings: Finding[]) =>
  findings.map((finding) => `${finding.code} at ${finding.path.join('/')}: ${finding.message}`);

// issue 18, finding 7: spectral:oas and the OWASP API Security ruleset, with the rules that do not fit this API
// switched off in .spectral.yaml (each with its reason).
describe('Spectral (spectral:oas + OWASP API Security Top 10)', () => {
  it('finds nothing in the document: no error, no warning, no hint', async () => {
    expect(lines(await spectral(openApiDocument()))).toEqual([]);
  });

  it('still finds what the ruleset is there for: a limit, a rate-limit field or a description taken away', async () => {
    const document = JSON.parse(JSON.stringify(openApiDocument())) as Record<string, any>; // as served: no shared objects
    delete document.components.schemas.DaysResponse.properties.data.maxItems;
    delete document.components.responses.NotFound.headers;
    delete document.paths['/slots'].get.description;
    delete document.paths['/days'].get.parameters[0].schema.maximum;
    const codes = (await spectral(document)).map((finding) => `${finding.code} ${finding.path.join('/')}`);
    expect(codes.sort()).toEqual(
      [
        'operation-description paths//slots/get',
        'owasp:api4:2023-array-limit components/schemas/DaysResponse/properties/data',
        'owasp:api4:2023-integer-limit paths//days/get/parameters/0/schema',
        'owasp:api4:2023-rate-limit components/responses/NotFound',
      ].sort(),
    );
  });
});
