/**
 * The README's "Google Calendar" and "Microsoft 365 and Outlook.com" blocks, run as written by a newcomer's shell
 * (test/docs/readme.ts), against the fakes of the providers (the base addresses are the tests' own): the key file
 * read once and deletable, the consent page's answer coming back to `planner serve`, the code of Microsoft's sign-in
 * typed as the practitioner would. What the README shows the command printing is what it prints.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { commandsOf, newcomerEnv, readmeBlocks } from '../docs/readme.ts';
import { bookableDb, cliJson, ROOT, serve, tempDb, tempDir, watchOutput } from '../helpers.ts';
import { fakeGoogle } from './fake-google.ts';
import { fakeMicrosoft } from './fake-microsoft.ts';

const run = promisify(execFile);

/** Runs one README line in `sh`, its output watched as it prints. */
function shell(line: string, env: NodeJS.ProcessEnv) {
  const child = spawn('sh', ['-c', line], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const watched = watchOutput(child, line);
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { ...watched, exited };
}

/** The lines a block shows the command printing (its `# ` comments after the command), without the `# `. */
function shownOutput(block: string): string[] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line) => line.slice(2));
}

describe('README: Google Calendar', () => {
  it('the service account: the key file is read once and may be deleted; the calendar is listed, its key nowhere', async () => {
    const google = await fakeGoogle();
    const db = tempDb();
    await bookableDb(db);
    const key = join(tempDir(), 'planner-key.json');
    const account = 'planner@planner-test.iam.gserviceaccount.com';
    const keyText = google.serviceAccountKey(account);
    writeFileSync(key, keyText);
    google.share('anna@example.com', account, 'writer');
    const env = newcomerEnv({ PLANNER_DB: db, PLANNER_TEST_GOOGLE_BASE: google.url });
    const [block] = readmeBlocks('Google Calendar', 'sh');
    const lines = commandsOf(block!).map((line) => line.replace(/\s+#.*$/, ''));
    expect(lines).toHaveLength(3);
    const outputs: string[] = [];
    for (const written of lines) {
      const line = written.replace(/planner-key\.json/g, key);
      const result = await run('sh', ['-c', line], { cwd: ROOT, env }).catch((error: { stderr: string }) => {
        throw new Error(`README line failed: ${line}\n${error.stderr}`);
      });
      outputs.push(result.stdout);
    }
    expect(existsSync(key)).toBe(false);
    expect(outputs[0]).toContain('Calendar 1 (Anna (Google), Google) added to schedule 1');
    expect(outputs[2]).toMatch(/Anna \(Google\)\s+google/);
    const stored = JSON.parse(keyText) as { private_key: string };
    const secretLine = stored.private_key.split('\n')[1]!;
    for (const output of outputs) expect(output).not.toContain(secretLine);
    expect(await cliJson(db, 'calendar', 'list')).toEqual([
      expect.objectContaining({ id: 1, kind: 'google', user: 'anna@example.com', writing: expect.anything() }),
    ]);
  }, 60_000);

  it("the consent page: the address printed, Google's answer back at planner serve, the command goes on by itself", async () => {
    const google = await fakeGoogle();
    const { clientId, clientSecret } = google.oauthClient();
    const db = tempDb();
    await bookableDb(db);
    const server = await serve(db, { PLANNER_TEST_GOOGLE_BASE: google.url });
    const block = readmeBlocks('Google Calendar', 'sh')[1]!;
    const [written] = commandsOf(block).filter((line) => !line.startsWith('#'));
    // The README's client and secret are the fake's here, and the desk's https address is the test server's.
    const line = `${written!
      .replace("PLANNER_GOOGLE_CLIENT_SECRET='…'", `PLANNER_GOOGLE_CLIENT_SECRET='${clientSecret}'`)
      .replace('1234-abc.apps.googleusercontent.com', clientId)} --redirect-base ${server.url}`;
    const env = newcomerEnv({ PLANNER_DB: db, PLANNER_TEST_GOOGLE_BASE: google.url });
    const command = shell(line, env);
    const [, address] = await command.waitFor(/\n {2}(\S+\/o\/oauth2\/v2\/auth\?\S+)\n/);
    const shown = shownOutput(block);
    expect(command.output()).toContain(shown[0]);
    expect(command.output()).toMatch(/Waiting up to 15 minutes for Google's answer at \S+\/oauth\/google/);
    const consent = new URL(address!);
    expect(consent.searchParams.get('client_id')).toBe(clientId);
    expect(consent.searchParams.get('access_type')).toBe('offline');
    const redirectUri = consent.searchParams.get('redirect_uri')!;
    expect(redirectUri).toBe(`${server.url}/oauth/google`);
    // The practitioner chooses Allow: Google sends the browser back to planner's address with the code.
    const code = google.consent({
      clientId,
      redirectUri,
      state: consent.searchParams.get('state')!,
      account: 'anna@example.com',
      prompt: consent.searchParams.get('prompt') ?? undefined,
    });
    const back = await fetch(
      `${redirectUri}?state=${encodeURIComponent(consent.searchParams.get('state')!)}&code=${encodeURIComponent(code)}`,
    );
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Calendar connected');
    expect({ code: await command.exited, output: command.output() }).toMatchObject({
      code: 0,
      output: expect.stringContaining('added to schedule 1'),
    });
    // The same answer again opens nothing: it was the one flow's, and it is taken.
    const again = await fetch(`${redirectUri}?state=${encodeURIComponent(consent.searchParams.get('state')!)}&code=x`);
    expect(again.status).toBe(404);
    expect(server.output()).not.toContain(code);
    await server.stop();
  }, 60_000);
});

describe('README: Microsoft 365 and Outlook.com', () => {
  it('the code printed as the README shows it, typed in, and the calendar connected', async () => {
    const microsoft = await fakeMicrosoft();
    microsoft.pollIntervalSeconds = 1;
    const clientId = '11111111-2222-3333-4444-555555555555';
    microsoft.registerApp(clientId, { publicClient: true });
    const db = tempDb();
    await bookableDb(db);
    const block = readmeBlocks('Microsoft 365 and Outlook.com', 'sh')[0]!;
    const [line] = commandsOf(block).filter((one) => !one.startsWith('#'));
    const command = shell(line!, newcomerEnv({ PLANNER_DB: db, PLANNER_TEST_MICROSOFT_BASE: microsoft.url }));
    const [printed, code] = await command.waitFor(/To sign in, open \S+ on any device, enter the code (\S+),.*\n/);
    expect(printed!.trim()).toBe(shownOutput(block)[0]!.replace('ABCD-1234', code!));
    microsoft.approve(code!, 'anna@example.com');
    expect(await command.exited).toBe(0);
    expect(command.output()).toContain('Calendar 1 (Anna (Outlook), Microsoft) added to schedule 1');
  }, 60_000);
});
