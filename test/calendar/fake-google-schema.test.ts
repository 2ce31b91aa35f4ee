/**
 * The fake Google (fake-google.ts) against Google's published schema: @googleapis/calendar's build/v3.d.ts and
 * build/v3.js are generated from the Calendar API v3 discovery document. Every Event and Events field the fake sends
 * or accepts, every events.list parameter it takes and every method and path it serves must be Google's: a fake that
 * grew a field Google does not have would let the client rely on it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GOOGLE_FAKE_SURFACE } from './fake-google.ts';

const build = join(dirname(createRequire(import.meta.url).resolve('@googleapis/calendar/package.json')), 'build');
const declarations = readFileSync(join(build, 'v3.d.ts'), 'utf8');
const code = readFileSync(join(build, 'v3.js'), 'utf8');

/** The property names of `export interface <name> …{ … }` in v3.d.ts (its own, not those it extends). */
function propertiesOf(name: string): Set<string> {
  const start = declarations.indexOf(`export interface ${name} `);
  if (start < 0) throw new Error(`v3.d.ts has no interface ${name}`);
  const open = declarations.indexOf('{\n', start);
  const close = declarations.indexOf('\n    }\n', open);
  const body = declarations.slice(open, close);
  return new Set([...body.matchAll(/^ {8}'?([A-Za-z0-9_$.@-]+)'?\??:/gm)].map((match) => match[1]!));
}

/** The `[method, path]` pairs of v3.js's requests (`url: (rootUrl + '<path>')…`, then `method: '<METHOD>'`). */
function methodsOf(): Set<string> {
  const pairs = [...code.matchAll(/url: \(rootUrl \+ '([^']+)'\)[^\n]*\n\s*method: '([A-Z]+)'/g)];
  return new Set(pairs.map((match) => `${match[2]} ${match[1]}`));
}

/** The names of `names` that `allowed` does not have. */
const outside = (names: readonly string[], allowed: Set<string>) => names.filter((name) => !allowed.has(name));

describe('the fake Google is Google’s shape (@googleapis/calendar, from the discovery document)', () => {
  test('the schema files are read: Event has its known fields, v3.js its events methods', () => {
    expect(propertiesOf('Schema$Event')).toContain('recurringEventId');
    expect(propertiesOf('Schema$EventDateTime')).toEqual(new Set(['date', 'dateTime', 'timeZone']));
    expect(methodsOf()).toContain('GET /calendar/v3/calendars/{calendarId}/events');
  });

  test('every Event field it sends or accepts is a property of Schema$Event', () => {
    const event = propertiesOf('Schema$Event');
    expect(outside(GOOGLE_FAKE_SURFACE.eventFieldsSent, event)).toEqual([]);
    expect(outside(GOOGLE_FAKE_SURFACE.eventFieldsAccepted, event)).toEqual([]);
  });

  test('every field of its times is a property of Schema$EventDateTime', () => {
    expect(outside(GOOGLE_FAKE_SURFACE.dateTimeFields, propertiesOf('Schema$EventDateTime'))).toEqual([]);
  });

  test('every field of its pages is a property of Schema$Events', () => {
    expect(outside(GOOGLE_FAKE_SURFACE.eventsFields, propertiesOf('Schema$Events'))).toEqual([]);
  });

  test('every events.list parameter it takes is in Params$Resource$Events$List', () => {
    expect(outside(GOOGLE_FAKE_SURFACE.listParams, propertiesOf('Params$Resource$Events$List'))).toEqual([]);
  });

  test.each(['Insert', 'Update', 'Patch', 'Delete'])('the write parameters it takes are events.%s’s', (method) => {
    expect(outside(GOOGLE_FAKE_SURFACE.writeParams, propertiesOf(`Params$Resource$Events$${method}`))).toEqual([]);
  });

  test('every method and path it serves under /calendar/v3 is one of v3.js', () => {
    const served = GOOGLE_FAKE_SURFACE.methods.map(([method, path]) => `${method} ${path}`);
    expect(outside(served, methodsOf())).toEqual([]);
  });

  test('a field Google does not have is caught', () => {
    expect(outside([...GOOGLE_FAKE_SURFACE.eventFieldsSent, 'bookingReference'], propertiesOf('Schema$Event'))).toEqual(
      ['bookingReference'],
    );
    expect(outside(['singleEvents', 'window'], propertiesOf('Params$Resource$Events$List'))).toEqual(['window']);
    expect(outside(['POST /calendar/v3/calendars/{calendarId}/events/{eventId}'], methodsOf())).toHaveLength(1);
  });
});
