import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/schemas/openapi.ts';
import { checkContract } from '../contract.ts';
import { cli, cliOk, initDb, ROOT, serve, tempDb, tempDir } from '../helpers.ts';
import { ADA, apiFixture } from './fixture.ts';

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
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    expect(JSON.stringify(document)).not.toContain('$defs');
  });

  it('declares WWW-Authenticate: Bearer on the 401, required (the contract check then holds every 401 to it)', () => {
    expect(document.components.responses.Unauthorized.headers).toEqual({
      'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
    });
    expect(document.components.headers['WWW-Authenticate']).toMatchObject({
      required: true,
      schema: { type: 'string', const: 'Bearer' },
    });
    expect(() =>
      checkContract('GET', '/api/schedules', { status: 401, headers: new Headers(), body: { error: 'Unauthorized' } }),
    ).toThrow(/WWW-Authenticate/);
  });

  it('declares the rate-limit fields on every 2xx and 4xx answer that carries them, and not on the 401', () => {
    const rate = {
      RateLimit: { $ref: '#/components/headers/RateLimit' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
    };
    for (const name of ['BadRequest', 'NotFound', 'PayloadTooLarge', 'UnsupportedMediaType']) {
      expect(document.components.responses[name].headers, name).toMatchObject(rate);
    }
    expect(document.components.responses.TooManyRequests.headers).toMatchObject(rate);
    expect(document.components.responses.Unauthorized.headers).not.toHaveProperty('RateLimit');
  });

  it('gives the GET parameters schedule and reason the same bounds and format as the booking body', () => {
    const body = document.components.schemas.BookingRequest.properties;
    const bounds = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    expect(body.schedule).toMatchObject(bounds);
    expect(body.reason).toMatchObject(bounds);
    for (const path of ['/reasons', '/days', '/slots', '/forms']) {
      for (const parameter of document.paths[path].get.parameters.filter(
        (p: any) => p.name === 'schedule' || p.name === 'reason',
      )) {
        expect(parameter.schema, `${path} ${parameter.name}`).toEqual(bounds);
      }
    }
  });

  it('describes every operation, and FormField.options by what it is', () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(operation.description, `${method} ${path}`).toMatch(/\S/);
      }
    }
    const options = document.components.schemas.FormField.properties.options;
    expect(options.description).not.toMatch(/spec/i);
    expect(options.description).toMatch(/select/);
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
    expect(() => checkContract('GET', '/api/schedules', { status: 418, headers, body: {} })).toThrow(
      /does not describe/,
    );
    expect(() =>
      checkContract('GET', '/api/schedules', { status: 200, headers, body: { data: [{ id: '1', name: 'x' }] } }),
    ).toThrow(/breaks the document/);
    expect(() =>
      checkContract('GET', '/api/schedules', {
        status: 200,
        headers,
        body: { data: [{ id: 1, name: 'x', extra: 1 }] },
      }),
    ).toThrow(/breaks the document/);
    expect(() =>
      checkContract('GET', '/api/days', { status: 429, headers, body: { error: 'Too Many Requests' } }),
    ).toThrow(/Retry-After/);
    expect(() =>
      checkContract('GET', '/api/days', { status: 200, headers, body: { data: ['2026-11-24'] } }),
    ).not.toThrow();
  });
});

describe('the server sends what the document declares (issue 18, finding 7)', () => {
  it('answers 400, 404, 413 and 415 with the rate-limit fields, 401 with WWW-Authenticate and without them', async () => {
    const f = await apiFixture();
    const valid = { schedule: 1, reason: 1, slot: '2026-06-09 09:00:00', submission: ADA };
    const answers = {
      '400 invalid JSON': await f.post('{'),
      '400 field required': await f.post({ ...valid, submission: {} }),
      '404 POST': await f.post({ ...valid, schedule: 99 }),
      '404 GET': await f.call('/api/reasons?schedule=99'),
      '413': await f.post({ ...valid, submission: { ...ADA, first_name: 'x'.repeat(70_000) } }),
      '415': await f.post(valid, { 'content-type': 'text/plain' }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.status, name).toBe(Number(name.slice(0, 3)));
      expect(answer.headers.get('ratelimit'), name).toMatch(
        new RegExp(document.components.headers.RateLimit.schema.pattern),
      );
      expect(answer.headers.get('ratelimit-policy'), name).toMatch(
        new RegExp(document.components.headers['RateLimit-Policy'].schema.pattern),
      );
    }
    const unauthorized = await f.call('/api/schedules', { token: null });
    expect(unauthorized).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
    expect(unauthorized.headers.get('ratelimit')).toBeNull();
  });

  it('answers 404 (spec §7) to a schedule or reason above the declared maximum, as to any id that does not exist', async () => {
    const f = await apiFixture();
    const max = Number.MAX_SAFE_INTEGER;
    for (const path of [
      `/api/reasons?schedule=${max}`,
      `/api/reasons?schedule=${max + 1}`,
      `/api/days?schedule=1&reason=${max}`,
      `/api/days?schedule=1&reason=${max + 1}`,
      `/api/slots?schedule=${max + 1}&reason=1&day=2026-06-02`,
      `/api/forms?schedule=1&reason=${max + 1}&slot=2026-06-02%2009:00:00`,
    ]) {
      expect(await f.call(path), path).toMatchObject({ status: 404, body: { error: 'Not Found' } });
    }
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
