/**
 * `calendar connect` and `calendar reconnect` given what they cannot use (issue 48): one line on stderr saying what was
 * wrong and how to fix it, exit 1, and nothing changed (no calendar, no flow under way). Through the real CLI, with
 * the providers' fakes where a sign-in would be reached.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookableDb, cliJson, cliWith, tempDb, tempDir } from '../helpers.ts';
import { fakeGoogle } from './fake-google.ts';

describe('calendar connect and reconnect refuse in one line, and change nothing (issue 48)', () => {
  it('each bad input: exit 1, one line naming the fix, no calendar added', async () => {
    const google = await fakeGoogle();
    const db = tempDb();
    await bookableDb(db);
    const dir = tempDir();
    const notKey = join(dir, 'not-a-key.json');
    writeFileSync(notKey, JSON.stringify({ type: 'authorized_user', client_id: 'x' }));
    const key = join(dir, 'key.json');
    writeFileSync(key, google.serviceAccountKey('planner@planner-test.iam.gserviceaccount.com'));
    const env = { PLANNER_TEST_GOOGLE_BASE: google.url };
    const cases: [string[], RegExp][] = [
      [['connect', '1', 'outlook'], /the provider is google or microsoft \(got "outlook"\)/],
      [['connect', '9', 'google', '--calendar', 'a@example.com', '--key-file', key], /schedule 9 does not exist/],
      [['connect', '1', 'google'], /give --key-file <key\.json> \(a service account\) or --oauth --client-id <id>/],
      [['connect', '1', 'google', '--key-file', key], /give --calendar <address>/],
      [
        ['connect', '1', 'google', '--calendar', 'a@example.com', '--key-file', join(dir, 'gone.json')],
        /could not be read \(ENOENT\)/,
      ],
      [
        ['connect', '1', 'google', '--calendar', 'a@example.com', '--key-file', notKey],
        /not-a-key\.json: .*service account/,
      ],
      [['connect', '1', 'google', '--calendar', 'a@example.com', '--key-file', key, '--oauth'], /not both/],
      [
        ['connect', '1', 'google', '--calendar', 'a@example.com', '--key-file', key, '--details', 'full'],
        /--details goes with --write-bookings/,
      ],
      // Not shared with the service account: read once, refused, nothing added.
      [
        ['connect', '1', 'google', '--calendar', 'a@example.com', '--key-file', key],
        /the calendar could not be read, nothing was added: .*not shared/,
      ],
      [['connect', '1', 'microsoft'], /give --client-id <application id>/],
      [['connect', '1', 'microsoft', '--client-id', 'x', '--key-file', key], /Microsoft signs in with a code/],
      [['connect', '1', 'google', '--oauth'], /--oauth needs --client-id/],
      [['reconnect', '7'], /calendar 7 does not exist/],
    ];
    for (const [args, line] of cases) {
      const result = await cliWith(db, { env, input: '' }, 'calendar', ...args);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({
        args,
        code: 1,
        stderr: expect.stringMatching(new RegExp(`^planner: [^\\n]*${line.source}[^\\n]*\\n$`)),
      });
    }
    // The OAuth flow's public address: https, or plain http for a loopback address only.
    const oauth = await cliWith(
      db,
      { env: { ...env, PLANNER_GOOGLE_CLIENT_SECRET: 'secret' } },
      'calendar',
      'connect',
      '1',
      'google',
      '--oauth',
      '--client-id',
      'id.apps.googleusercontent.com',
      '--redirect-base',
      'http://planner.example.com',
    );
    expect(oauth).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^planner: --redirect-base must start with https:\/\/[^\n]*\n$/),
    });
    expect(await cliJson(db, 'calendar', 'list')).toEqual([]);
  }, 60_000);
});
