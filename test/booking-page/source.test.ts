/**
 * Issue 41, item 11: a booking made on the booking page is recorded and shown as the page's (source `page`), not the
 * API's: in `bookings list`, `bookings show` (text and JSON) and the practice's notice, in each language. The API's
 * own bookings stay `api`; neither the API's answers nor the webhooks' events say where a booking came from.
 */
import { describe, expect, it } from 'vitest';
import { api, apiBook, cliJson, cliOk } from '../helpers.ts';
import { MARIA, pageSetup, post, toReview } from './flow.ts';

describe('a booking made on the booking page', () => {
  it.each([
    ['en', /^Booked via: +the booking page$/m],
    ['de', /^Gebucht über: +die Buchungsseite$/m],
  ] as const)('is the page’s in the lists, show and the practice’s notice (%s)', async (locale, line) => {
    const s = await pageSetup({ locale });
    const { review } = await toReview(s, MARIA);
    const done = await post(`${s.base}/book/confirm`, review);
    expect(done.status, done.html).toBe(200);
    const reference = /<dd>([A-Z0-9]{16})<\/dd>/.exec(done.html)![1]!;

    expect(await cliJson(s.db, 'bookings', 'show', reference)).toMatchObject({ reference, source: 'page' });
    expect(await cliOk(s.db, 'bookings', 'show', reference)).toMatch(/^ {2}source {4}page, created /m);
    const list = await cliJson<any[]>(s.db, 'bookings', 'list');
    expect(list.map((b) => [b.reference, b.source])).toEqual([[reference, 'page']]);
    expect((await cliOk(s.db, 'bookings', 'list')).split('\n')[1]).toMatch(/ page$/);

    const mails = await s.smtp.received(2);
    const notice = mails.find((mail) => (mail.to as any).text === 'desk@practice.example')!;
    expect(notice.text).toMatch(line);
    expect(notice.html).not.toMatch(/booking API|Buchungs-API/);
    // The webhook's event, as documented, tells the actor (the customer) and no source.
    const [delivery] = await s.receiver.next(1);
    expect(delivery!.json.data.actor).toBe('customer');
    expect(JSON.stringify(delivery!.json)).not.toContain('source');
    await s.server.stop();
  });

  it('the API’s bookings stay the API’s, and its answer says nothing of a source', async () => {
    const s = await pageSetup();
    await cliOk(s.db, 'api', 'enable');
    const token = (await cliJson(s.db, 'token', 'new')).token;
    const day = (await api(s.base, '/api/days?schedule=1&reason=1', token)).body.data[0];
    const slot = (await api(s.base, `/api/slots?schedule=1&reason=1&day=${day}`, token)).body.data[0];
    const answer = await apiBook(s.base, token, slot);
    expect(answer.status).toBe(201);
    expect(answer.text).not.toContain('source');
    expect(await cliJson(s.db, 'bookings', 'show', String(answer.body.booking_details_id))).toMatchObject({
      source: 'api',
    });
    await s.server.stop();
  });
});
