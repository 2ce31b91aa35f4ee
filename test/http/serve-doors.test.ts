/**
 * `planner serve` names every door that is on when it starts (issue 41, item 9): the API, the self-service page, the
 * booking page and the feed, at this server and at the public address; a feed's secret never.
 */
import { describe, expect, it } from 'vitest';
import { bookableDb, cliOk, serve, tempDb } from '../helpers.ts';

describe('planner serve at its start', () => {
  it('prints the address of each door that is on, and no feed secret', async () => {
    const db = tempDb();
    await bookableDb(db);
    const bare = await serve(db);
    await bare.stop();
    // Only the API: no line for a door that is off.
    expect(bare.output()).toContain(`planner: serving ${bare.url}/api (database ${db})`);
    expect(bare.output()).not.toMatch(/self-service page on|booking page on|calendar feed on/);

    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.praxis.example');
    await cliOk(db, 'booking-page', 'enable');
    const feedUrl = (await cliOk(db, 'feed', 'url', '1')).split('\n')[0]!;
    const secret = /\/feed\/([^/]+)\.ics$/.exec(feedUrl)![1]!;
    const server = await serve(db);
    await server.waitFor(/calendar feed on .*\n/);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('planner: '));
    expect(lines).toEqual([
      `planner: serving ${server.url}/api (database ${db})`,
      `planner: self-service page on at ${server.url}/manage/… (links in the mails: https://booking.praxis.example/manage/…)`,
      `planner: booking page on at ${server.url}/book/ (public address: https://booking.praxis.example/book/)`,
      `planner: calendar feed on for 1 schedule at ${server.url}/feed/<secret>.ics (its whole address, at the public address it was made for, is shown only when made: planner feed url <schedule-id> --rotate makes a new one)`,
    ]);
    expect(server.output()).not.toContain(secret);
    await server.stop();
  });
});
