/**
 * The desk and the API book the same time at once (issue 46): exactly one of them gets it, every time. When the API
 * wins, the desk's answer is its form again (409) with what the receptionist typed and the next free times; when the
 * desk wins, the API answers 404 as the spec says of a time not free (§7). Real server, real CLI, real concurrency:
 * the two requests are sent together, ten times over, each for a time of its own.
 */
import { describe, expect, it } from 'vitest';
import { apiBook, berlinDay, bookableDb, cliOk, serve, tempDb } from '../helpers.ts';
import { deskSession, formToken, fromHtml, postForm } from './desk-client.ts';

describe('the desk and the API book one time at once', { timeout: 120_000 }, () => {
  it('exactly one wins each of ten times; the desk that loses keeps what was typed and shows the next free times', async () => {
    const db = tempDb();
    const token = await bookableDb(db);
    const server = await serve(db);
    await cliOk(db, 'desk', 'enable', '--url', server.url);
    const cookie = await deskSession(db, server.url, 'rita@praxis.example', 'reception');
    const csrf = await formToken(server.url, cookie);
    const day = berlinDay(2);
    const outcomes = { desk: 0, api: 0 }; // which one wins is up to the race (here the desk mostly)
    for (let hour = 8; hour < 18; hour++) {
      const slot = `${day} ${String(hour).padStart(2, '0')}:00:00`;
      const typed = {
        'f.first_name': 'Paul',
        'f.last_name': `Kraus ${hour}`,
        'f.email': '',
        'f.phone': `0151 11122${hour}`,
      };
      const [desk, api] = await Promise.all([
        postForm(
          `${server.url}/desk/book`,
          { csrf, step: 'confirm', schedule: '1', reason: '1', slot, confirm: 'on', weeks: '1', ...typed },
          cookie,
        ),
        apiBook(server.url, token, slot, { first_name: 'Ada', last_name: `API ${hour}`, email: 'ada@example.com' }),
      ]);
      const page = fromHtml(await desk.text());
      const booked = await cliOk(db, 'bookings', 'list', '--from', day, '--to', day, '--search', `${hour}`);
      if (desk.status === 303) {
        outcomes.desk++;
        expect(api.status, slot).toBe(404);
        expect(booked).toContain(`Kraus ${hour}`);
        expect(booked).not.toContain(`API ${hour}`);
      } else {
        outcomes.api++;
        expect(desk.status, slot).toBe(409);
        expect(api.status, slot).toBe(201);
        expect(booked).not.toContain(`Kraus ${hour}`);
        // What was typed is kept, and the next free times are offered.
        expect(page).toContain(`value="Kraus ${hour}"`);
        expect(page).toContain(`value="0151 11122${hour}"`);
        expect(page).toContain('Next free times:');
        expect(page).toMatch(new RegExp(`href="/desk/book\\?[^"]*slot=${day}\\+\\d\\d%3A\\d\\d%3A00`));
      }
    }
    expect(outcomes.desk + outcomes.api).toBe(10);
    // The desk's loss once more, for certain: the API booked the time a moment before the desk's form came.
    const slot = `${day} 17:30:00`;
    expect(
      (await apiBook(server.url, token, slot, { first_name: 'Eve', last_name: 'First', email: 'eve@example.com' }))
        .status,
    ).toBe(201);
    const late = await postForm(
      `${server.url}/desk/book`,
      {
        csrf,
        step: 'confirm',
        schedule: '1',
        reason: '1',
        slot,
        confirm: 'on',
        weeks: '1',
        'f.first_name': 'Zoe',
        'f.last_name': 'Later',
        'f.phone': '0151 999',
      },
      cookie,
    );
    expect(late.status).toBe(409);
    const again = fromHtml(await late.text());
    expect(again).toContain('value="Later"');
    expect(again).toContain('This time is taken.');
    expect(again).toContain('Next free times:');
    // Never two bookings of one time: ten times, ten bookings.
    const all = await cliOk(db, 'bookings', 'list', '--from', day, '--to', day, '--json');
    expect(JSON.parse(all)).toHaveLength(11);
  });
});
