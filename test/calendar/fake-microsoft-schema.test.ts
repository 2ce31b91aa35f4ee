/**
 * The fake Graph (fake-microsoft.ts) against Microsoft's published schema: @microsoft/microsoft-graph-types'
 * microsoft-graph.d.ts, generated from Graph's v1.0 metadata. Every property the fake sends or accepts on an event is
 * one of `Event`'s or its bases' (`OutlookItem`, `Entity`), every nested one one of the type the schema gives that
 * property, and every `showAs` value it knows one of `FreeBusyStatus`. OData's annotations (`@odata.etag`,
 * `@odata.nextLink`, `@odata.deltaLink`, `@removed`) are not the schema's: listed apart, checked only to be OData's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { fakeMicrosoft, MICROSOFT_FAKE_SURFACE } from './fake-microsoft.ts';

const SCHEMA = readFileSync(join(ROOT, 'node_modules/@microsoft/microsoft-graph-types/microsoft-graph.d.ts'), 'utf8');

/** The properties `name` declares itself, and the interface it extends (if any). */
function declared(name: string): { properties: string[]; base: string | undefined } {
  const head = new RegExp(`^export interface ${name}(?: extends (\\w+))? \\{$`, 'm').exec(SCHEMA);
  if (!head) throw new Error(`the schema has no interface ${name}`);
  const end = SCHEMA.indexOf('\n}', head.index);
  const body = SCHEMA.slice(head.index + head[0].length, end);
  const properties = [...body.matchAll(/^ {4}"?([A-Za-z@][\w@.]*)"?\??:/gm)].map((match) => match[1]!);
  return { properties, base: head[1] };
}

/** Every property of `name`, its bases' included. */
function propertiesOf(name: string): Set<string> {
  const all = new Set<string>();
  for (let type: string | undefined = name; type; ) {
    const { properties, base } = declared(type);
    for (const property of properties) all.add(property);
    type = base;
  }
  return all;
}

/** The names in `names` that `type` (with its bases) does not have. */
function notIn(type: string, names: readonly string[]): string[] {
  const known = propertiesOf(type);
  return names.filter((name) => !known.has(name));
}

/** The type the schema gives `property` of `Event` (its element's, for a list). */
function typeOfEventProperty(property: string): string | undefined {
  for (let type: string | undefined = 'Event'; type; ) {
    const head: RegExpExecArray = new RegExp(`^export interface ${type}(?: extends (\\w+))? \\{$`, 'm').exec(SCHEMA)!;
    const body = SCHEMA.slice(head.index, SCHEMA.indexOf('\n}', head.index));
    const match = new RegExp(`^ {4}${property}\\??: (?:NullableOption<)?(\\w+)`, 'm').exec(body);
    if (match) return match[1];
    type = head[1];
  }
  return undefined;
}

describe("the fake's events are Graph's", () => {
  it('the schema is read: Event extends OutlookItem extends Entity', () => {
    expect(declared('Event').base).toBe('OutlookItem');
    expect(declared('OutlookItem').base).toBe('Entity');
    expect(propertiesOf('Event')).toContain('transactionId');
    expect(propertiesOf('Event')).toContain('changeKey');
    expect(propertiesOf('Event')).toContain('id');
  });

  it('every event property the fake sends or accepts is one of Event, OutlookItem or Entity', () => {
    const all = [...MICROSOFT_FAKE_SURFACE.eventProperties, ...MICROSOFT_FAKE_SURFACE.writableProperties];
    expect(notIn('Event', all)).toEqual([]);
    const sent: readonly string[] = MICROSOFT_FAKE_SURFACE.eventProperties;
    expect(MICROSOFT_FAKE_SURFACE.writableProperties.filter((name) => !sent.includes(name))).toEqual([]);
  });

  it('every nested property is one of the type the schema gives that event property', () => {
    for (const [property, nested] of Object.entries(MICROSOFT_FAKE_SURFACE.nested)) {
      expect(typeOfEventProperty(property), property).toBe(nested.type);
      expect(notIn(nested.type, nested.properties), nested.type).toEqual([]);
    }
  });

  it('every showAs value the fake knows is in FreeBusyStatus, and showAs is one', () => {
    expect(typeOfEventProperty('showAs')).toBe('FreeBusyStatus');
    const union = /^export type FreeBusyStatus = (.+);$/m.exec(SCHEMA)![1]!;
    const values = [...union.matchAll(/"(\w+)"/g)].map((match) => match[1]);
    expect(MICROSOFT_FAKE_SURFACE.showAs.filter((value) => !values.includes(value))).toEqual([]);
  });

  it("a field Graph does not have is caught (the check's own control)", () => {
    expect(notIn('Event', ['subject', 'attendeeNotes', 'etag'])).toEqual(['attendeeNotes', 'etag']);
    expect(notIn('DateTimeTimeZone', ['dateTime', 'offset'])).toEqual(['offset']);
  });

  it("the annotations are OData's, not the schema's", () => {
    for (const annotation of MICROSOFT_FAKE_SURFACE.annotations) {
      expect(annotation).toMatch(/^@(odata\.\w+|removed)$/);
      expect(propertiesOf('Event').has(annotation)).toBe(false);
    }
  });

  it('what the fake answers over HTTP holds only the listed properties and annotations', async () => {
    const fake = await fakeMicrosoft();
    fake.registerApp('schema-app', { publicClient: true });
    const refreshToken = fake.signIn('schema-app', 'schema@contoso.example');
    fake.addEvent('schema@contoso.example', {
      subject: 'Dentist',
      transactionId: 'planner-SCHEMAAA23456789',
      singleValueExtendedProperties: [{ id: 'String {00000000-0000-0000-0000-000000000000} Name X', value: 'v' }],
      start: { dateTime: '2030-03-04T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2030-03-04T10:00:00', timeZone: 'UTC' },
    });
    const token = (await (
      await fetch(`${fake.url}/common/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'schema-app',
          refresh_token: refreshToken,
        }),
      })
    ).json()) as { access_token: string };
    const page = (await (
      await fetch(
        `${fake.url}/v1.0/me/calendarView/delta?startDateTime=2030-03-01T00:00:00Z&endDateTime=2030-04-01T00:00:00Z`,
        { headers: { authorization: `Bearer ${token.access_token}` } },
      )
    ).json()) as Record<string, unknown> & { value: Record<string, unknown>[] };
    const listed: readonly string[] = [
      ...MICROSOFT_FAKE_SURFACE.eventProperties,
      ...MICROSOFT_FAKE_SURFACE.annotations,
    ];
    expect(page.value).toHaveLength(1);
    expect(Object.keys(page).filter((key) => key !== 'value' && !listed.includes(key))).toEqual([]);
    const [event] = page.value;
    expect(Object.keys(event!).filter((key) => !listed.includes(key))).toEqual([]);
    for (const [property, nested] of Object.entries(MICROSOFT_FAKE_SURFACE.nested)) {
      const value = event![property];
      for (const item of Array.isArray(value) ? value : value ? [value] : []) {
        const known: readonly string[] = nested.properties;
        expect(
          Object.keys(item as object).filter((key) => !known.includes(key)),
          property,
        ).toEqual([]);
      }
    }
  });
});
