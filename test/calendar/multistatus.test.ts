/**
 * The multistatus reader (src/calendar/multistatus.ts) against the answers servers write and against hostile
 * ones: any prefix, CDATA and entities, a response's own status apart from its propstats'; a DTD (no entity
 * expansion), elements nested without end, text never closed, and 10 MiB read in linear time, in slices.
 */
import { describe, expect, it } from 'vitest';
import { type DavResponse, readMultistatus } from '../../src/calendar/multistatus.ts';
import { cpuStopwatch } from '../cpu.ts';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const read = (xml: string) => readMultistatus(xml, turn);
const plain = (responses: DavResponse[]) =>
  JSON.parse(
    JSON.stringify(responses, (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value)),
  );

describe('a multistatus answer (issue 36)', () => {
  it('reads what planner needs, whatever the prefixes', async () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/">
  <D:response><D:href>/cal/</D:href>
    <D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype><CS:getctag>"a&amp;b"</CS:getctag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
    <D:propstat><D:prop><D:sync-token/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
  </D:response>
  <response xmlns="DAV:"><href>/cal/a.ics</href><propstat><prop><calendar-data xmlns="urn:ietf:params:xml:ns:caldav"><![CDATA[BEGIN:VCALENDAR <x>]]>&#x41;&#66;</calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat><status>HTTP/1.1 507 Insufficient Storage</status></response>
</D:multistatus>`;
    expect(plain(await read(xml))).toEqual([
      {
        href: '/cal/',
        status: undefined,
        propstats: [
          {
            status: 200,
            props: {
              resourcetype: [{ text: '', children: ['collection', 'calendar'] }],
              getctag: [{ text: '"a&b"', children: [] }],
            },
          },
          { status: 404, props: { 'sync-token': [{ text: '', children: [] }] } },
        ],
      },
      {
        href: '/cal/a.ics',
        status: 507,
        propstats: [{ status: 200, props: { 'calendar-data': [{ text: 'BEGIN:VCALENDAR <x>AB', children: [] }] } }],
      },
    ]);
  });

  it.each([
    [
      'a DTD (an entity bomb)',
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><d:multistatus xmlns:d="DAV:">&b;</d:multistatus>',
      'it declares a DTD',
    ],
    [
      'an entity it does not know',
      '<d:multistatus xmlns:d="DAV:"><d:response><d:href>&nbsp;</d:href></d:response></d:multistatus>',
      'undefined entity.',
    ],
    [
      '900 KiB of one unclosed <cs:getctag>',
      `<d:multistatus xmlns:d="DAV:" xmlns:cs="x"><d:response><d:propstat><d:prop><cs:getctag>${'x'.repeat(900 * 1024)}`,
      'unclosed tag: cs:getctag',
    ],
    [
      '900 KiB of unclosed <cs:getctag>s',
      `<d:multistatus xmlns:d="DAV:" xmlns:cs="x">${'<cs:getctag>'.repeat(76_800)}`,
      'elements nested more than 32 deep',
    ],
    ['not XML at all', '<html><body>Sign in</body>', 'unclosed tag: html'],
  ])('%s: one line, at once', async (_name, xml, why) => {
    // In this thread's CPU time (test/cpu.ts): a quadratic reading took 5 s of it for the 900 KiB, on any machine.
    const cpu = cpuStopwatch();
    await expect(read(xml)).rejects.toThrow(`its answer is not XML planner can read (${why})`);
    expect(cpu()).toBeLessThan(2000);
  });

  it('reads 10 MiB in slices, giving the event loop back', async () => {
    const event = `BEGIN:VCALENDAR\n${'DESCRIPTION:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n'.repeat(140)}END:VCALENDAR`;
    const one = `<d:response><d:href>/cal/e.ics</d:href><d:propstat><d:prop><c:calendar-data>${event}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    const xml = `<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">${one.repeat(Math.floor((10 * 2 ** 20) / one.length))}</d:multistatus>`;
    let turns = 0;
    const responses = await readMultistatus(xml, () => (turns++, turn()));
    expect(responses).toHaveLength(Math.floor((10 * 2 ** 20) / one.length));
    expect(responses[0]!.propstats[0]!.props.get('calendar-data')![0]!.text).toBe(event);
    expect(turns).toBeGreaterThanOrEqual(150); // 64 KiB a slice
  });
});
