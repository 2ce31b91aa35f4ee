/**
 * `planner serve` names every door that is on when it starts (issue 41, item 9): the API, the self-service page, the
 * booking page and the feed, at this server and at the public address; a feed's secret never. The front desk too
 * (issue 46), at its own public address.
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
    expect(bare.output()).not.toMatch(/self-service page on|booking page on|calendar feed on|front desk on/);

    await cliOk(db, 'portal', 'enable', '--url', 'https://booking.praxis.example');
    await cliOk(db, 'booking-page', 'enable');
    const feedUrl = (await cliOk(db, 'feed', 'url', '1')).split('\n')[0]!;
    const secret = /\/feed\/([^/]+)\.ics$/.exec(feedUrl)![1]!;
    // The desk at an address of its own, so that the line is seen to name the desk's, not the page's.
    await cliOk(db, 'desk', 'enable', '--url', 'https://desk.praxis.example');
    const server = await serve(db);
    // The start lines are printed in one run of code before any request is taken: once the access log shows a
    // request, every start line is in the output, and a missing one fails at once rather than by a time-out.
    await (await fetch(`${server.url}/api/openapi.json`)).arrayBuffer();
    await server.waitFor(/ GET \/api\/openapi\.json 200 /);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('planner: '));
    expect(lines).toEqual([
      `planner: serving ${server.url}/api (database ${db})`,
      `planner: self-service page on at ${server.url}/manage/… (links in the mails: https://booking.praxis.example/manage/…)`,
      `planner: booking page on at ${server.url}/book/ (public address: https://booking.praxis.example/book/)`,
      `planner: calendar feed on for 1 schedule at ${server.url}/feed/<secret>.ics (its whole address, at the public address it was made for, is shown only when made: planner feed url <schedule-id> --rotate makes a new one)`,
      `planner: front desk on at ${server.url}/desk/ (public address: https://desk.praxis.example/desk/)`,
    ]);
    expect(server.output()).not.toContain(secret);
    await server.stop();
  });
});
