import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/schemas/openapi.ts';
import { checkContract } from '../contract.ts';
import { cli, cliOk, initDb, ROOT, serve, tempDb, tempDir } from '../helpers.ts';

const document = openApiDocument() as Record<string, any>;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the spec’s relative server and the bearer scheme', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.servers).toEqual([{ url: '/api', description: expect.any(String) }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it.each([
    ['/schedules', 'get', ['200', '401', '429', '503']],
    ['/reasons', 'get', ['200', '401', '404', '429', '503']],
    ['/days', 'get', ['200', '401', '404', '429', '503']],
    ['/slots', 'get', ['200', '401', '404', '429', '503']],
    ['/forms', 'get', ['200', '401', '404', '429', '503']],
    ['/bookings', 'post', ['201', '400', '401', '404', '413', '415', '429', '500', '503']],
  ])('%s %s lists the spec’s statuses %j', (path, method, statuses) => {
    expect(Object.keys(document.paths[path][method].responses).sort()).toEqual([...statuses].sort());
  });

  it('describes parameters with their formats, and Retry-After on 429', () => {
    const slots = document.paths['/forms'].get.parameters;
    expect(slots.map((p: any) => [p.name, p.in, p.required, p.schema.type])).toEqual([
      ['schedule', 'query', true, 'integer'],
      ['reason', 'query', true, 'integer'],
      ['slot', 'query', true, 'string'],
    ]);
    expect(slots[2].schema).toMatchObject({ minLength: 19, maxLength: 19, pattern: expect.any(String) });
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(JSON.stringify(document)).not.toContain('$defs');
  });

  it('passes `redocly lint` without errors', async () => {
    const file = join(tempDir(), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        join(ROOT, 'node_modules/.bin/redocly'),
        ['lint', file, '--format', 'stylish'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(result.output).not.toMatch(/\berror\b/i);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/valid/);
  });

  it('the contract check refuses an undescribed status, a wrong body and a missing Retry-After', () => {
    const headers = new Headers();
    expect(() => checkContract('GET', '/api/schedules', { status: 418, headers, body: {} })).toThrow(/does not describe/);
    expect(() => checkContract('GET', '/api/schedules', { status: 200, headers, body: { data: [{ id: '1', name: 'x' }] } })).toThrow(/breaks the document/);
    expect(() => checkContract('GET', '/api/schedules', { status: 200, headers, body: { data: [{ id: 1, name: 'x', extra: 1 }] } })).toThrow(/breaks the document/);
    expect(() => checkContract('GET', '/api/days', { status: 429, headers, body: { error: 'Too Many Requests' } })).toThrow(/Retry-After/);
    expect(() => checkContract('GET', '/api/days', { status: 200, headers, body: { data: ['2026-11-24'] } })).not.toThrow();
  });
});

describe('GET /api/openapi.json and `planner openapi`', () => {
  it('serves the document without a token, before init and while the API is disabled; the CLI prints the same', async () => {
    const db = tempDb();
    const server = await serve(db);
    const before = await fetch(`${server.url}/api/openapi.json`);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await before.json()).toEqual(document);
    await initDb(db); // configured, API still disabled
    const disabled = await fetch(`${server.url}/api/openapi.json`);
    expect(disabled.status).toBe(200);
    // The other calls still answer 503.
    expect((await fetch(`${server.url}/api/schedules`)).status).toBe(503);

    expect(JSON.parse(await cliOk(db, 'openapi'))).toEqual(document);
    const file = join(tempDir(), 'out.json');
    expect(await cliOk(db, 'openapi', '--out', file)).toBe(`Wrote ${file}.\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(document);
    const bad = await cli(db, 'openapi', '--out', join(tempDir(), 'missing-dir', 'x.json'));
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('the OpenAPI document stays as committed', () => {
  // test/http/openapi.snapshot.json is `planner openapi` as it was before a refactoring; a change to the API's
  // document is deliberate: rewrite the file with `npx planner openapi --out test/http/openapi.snapshot.json`.
  const committed = readFileSync(join(ROOT, 'test/http/openapi.snapshot.json'), 'utf8');

  it('is printed and served byte for byte as the committed copy', async () => {
    const db = tempDb();
    expect(await cliOk(db, 'openapi')).toBe(committed);
    const server = await serve(db);
    const served = await fetch(`${server.url}/api/openapi.json`);
    expect(await served.text()).toBe(JSON.stringify(JSON.parse(committed)));
    expect(`${JSON.stringify(document, null, 2)}\n`).toBe(committed);
  });
});
