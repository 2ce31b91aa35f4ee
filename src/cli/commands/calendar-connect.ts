/**
 * `planner calendar connect <schedule-id> google|microsoft` and `planner calendar reconnect <id>`: a practitioner's
 * Google or Microsoft calendar, reached through the provider's sign-in (calendar/provider.ts), never a password.
 *
 * - Google with a service account's key file (`--key-file`): read once, stored like a password; the file can be deleted.
 * - Google with the OAuth web flow (`--oauth --client-id`): the command prints Google's consent address, and waits for
 *   the answer that comes back to planner's public address (app/calendars/consents.ts).
 * - Microsoft with the device-code flow: the command prints the code and the address, and waits.
 *
 * Each reads the calendar once (and, with `--write-bookings`, writes a test event) before anything is stored.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ProviderName, ProviderSecret } from '../../calendar/provider.ts';
import { SYNC_EVERY_DEFAULT_MINUTES, SYNC_EVERY_MAX_MINUTES } from '../../domain/checks.ts';
import { invalid } from '../../errors.ts';
import { id, print, printJson, readContext, secretInput, whole, withContext } from '../shared.ts';

interface ConnectOptions {
  calendar?: string;
  keyFile?: string;
  oauth?: boolean;
  clientId?: string;
  clientSecretStdin?: boolean;
  tenant?: string;
  redirectBase?: string;
  name?: string;
  every?: string;
  writeBookings?: boolean;
  details?: string;
  json?: boolean;
}

/** Lines for the person at the terminal while the command waits: on stderr with --json, so stdout stays JSON. */
function say(json: boolean | undefined, ...lines: string[]): void {
  if (json) process.stderr.write(lines.map((line) => `${line}\n`).join(''));
  else print(...lines);
}

/** The provider's name as the command takes it. */
function providerOf(text: string): ProviderName {
  if (text === 'google' || text === 'microsoft') return text;
  throw invalid(
    `the provider is google or microsoft (got "${text}"); an iCalendar or CalDAV address: planner calendar add`,
  );
}

/** Reads a service account's key file once: the key is stored in planner's file, the file itself is not needed again. */
async function keyOf(path: string): Promise<ProviderSecret> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw invalid(
      `--key-file ${path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): give the path of the JSON key you downloaded`,
    );
  }
  const { readServiceAccountKey } = await import('../../calendar/google.ts');
  try {
    return readServiceAccountKey(text);
  } catch (error) {
    throw invalid(`--key-file ${path}: ${(error as Error).message}`);
  }
}

/** The base of planner's public address Google's consent comes back to: --redirect-base, the desk's, else the self-service page's. */
async function redirectBaseOf(command: Command, given: string | undefined): Promise<string> {
  const settings = await readContext(command, (ctx) => ctx.settings());
  const base = given ?? settings.desk?.url ?? settings.portal?.url;
  if (!base)
    throw invalid(
      "Google's consent comes back to planner's public HTTPS address, and none is set: give --redirect-base https://<planner's address>, or turn the front desk on first (planner desk enable --url …)",
    );
  // The one rule of every public address (https, plain http only for a loopback address), in this option's name.
  const { checkPublicUrl } = await import('../../app/practice/public-url.ts');
  try {
    return checkPublicUrl(base);
  } catch (error) {
    throw invalid((error as Error).message.replaceAll('--url', '--redirect-base'));
  }
}

/**
 * Runs Google's OAuth web flow for `clientId`: prints the consent address, waits for the answer at planner's public
 * address, and exchanges the code. Returns the account's secret.
 */
async function googleOAuth(
  command: Command,
  options: { clientId: string; clientSecret: string; redirectBase: string; json?: boolean },
): Promise<ProviderSecret> {
  const { googleConsentUrl, exchangeGoogleCode } = await import('../../calendar/google.ts');
  const { startConsent, awaitConsent, CONSENT_PATH, CONSENT_SECONDS } = await import('../../app/calendars/consents.ts');
  const redirectUri = `${options.redirectBase}${CONSENT_PATH}`;
  const state = await withContext(command, (ctx) => startConsent(ctx));
  say(
    options.json,
    'Open this address in a browser where the practitioner is signed in to Google, and choose Allow:',
    `  ${googleConsentUrl({ clientId: options.clientId, redirectUri, state })}`,
    `Waiting up to ${CONSENT_SECONDS / 60} minutes for Google's answer at ${redirectUri} (planner serve must be running there)…`,
  );
  const code = await withContext(command, (ctx) => awaitConsent(ctx, state)).catch((error: Error) => {
    throw invalid(error.message);
  });
  try {
    return await exchangeGoogleCode({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      code,
      redirectUri,
    });
  } catch (error) {
    throw invalid(`Google's consent could not be completed, nothing was changed: ${(error as Error).message}`);
  }
}

/** Runs Microsoft's device-code flow: prints the code and the address, waits. Returns the secret and who signed in. */
async function microsoftDevice(options: {
  clientId: string;
  tenant: string;
  json?: boolean;
}): Promise<{ secret: ProviderSecret; account: string }> {
  const { startDeviceLogin, finishDeviceLogin } = await import('../../calendar/microsoft.ts');
  const input = { clientId: options.clientId, tenant: options.tenant };
  try {
    const login = await startDeviceLogin(input);
    say(
      options.json,
      `To sign in, open ${login.verificationUri} on any device, enter the code ${login.userCode}, and sign in as the practitioner.`,
      `Waiting up to ${Math.max(1, Math.round((login.expiresAtMs - Date.now()) / 60_000))} minutes…`,
    );
    return await finishDeviceLogin(login, input);
  } catch (error) {
    throw invalid(`the Microsoft sign-in did not complete, nothing was changed: ${(error as Error).message}`);
  }
}

/** The Google OAuth client's secret: from standard input, PLANNER_GOOGLE_CLIENT_SECRET, or a prompt. */
async function clientSecretOf(fromStdin: boolean | undefined): Promise<string> {
  const secret = await secretInput(
    fromStdin === true,
    'PLANNER_GOOGLE_CLIENT_SECRET',
    'Client secret of the OAuth client (Google Cloud console → APIs & Services → Credentials)',
  );
  if (!secret)
    throw invalid(
      '--oauth needs the OAuth client secret: type it at the prompt, or give it with --client-secret-stdin or PLANNER_GOOGLE_CLIENT_SECRET',
    );
  return secret;
}

/** Which calendar, how it is reached, and who the account is, from `connect`'s options (running the sign-in). */
async function signIn(
  command: Command,
  provider: ProviderName,
  options: ConnectOptions,
): Promise<{ calendarId: string; secret: ProviderSecret; accountName: string; keyFile?: string }> {
  if (provider === 'microsoft') {
    if (options.keyFile || options.oauth)
      throw invalid('--key-file and --oauth are Google’s; Microsoft signs in with a code');
    if (!options.clientId)
      throw invalid(
        'give --client-id <application id> of the app registered for planner in Microsoft Entra (README: "Microsoft 365 and Outlook.com")',
      );
    const signedIn = await microsoftDevice({
      clientId: options.clientId,
      tenant: options.tenant ?? 'common',
      json: options.json,
    });
    return { calendarId: options.calendar ?? '', secret: signedIn.secret, accountName: signedIn.account };
  }
  if (options.tenant) throw invalid('--tenant is Microsoft’s');
  if (options.keyFile && options.oauth) throw invalid('give --key-file (a service account) or --oauth, not both');
  if (options.keyFile) {
    if (!options.calendar)
      throw invalid(
        'give --calendar <address>: the calendar the practitioner shared with the service account (usually their Google address)',
      );
    const secret = await keyOf(options.keyFile);
    return { calendarId: options.calendar, secret, accountName: options.calendar, keyFile: options.keyFile };
  }
  if (!options.oauth)
    throw invalid(
      'give --key-file <key.json> (a service account) or --oauth --client-id <id> (README: "Google Calendar")',
    );
  if (!options.clientId) throw invalid('--oauth needs --client-id <id> of the OAuth client');
  const clientSecret = await clientSecretOf(options.clientSecretStdin);
  const redirectBase = await redirectBaseOf(command, options.redirectBase);
  const secret = await googleOAuth(command, {
    clientId: options.clientId,
    clientSecret,
    redirectBase,
    json: options.json,
  });
  const calendarId = options.calendar ?? 'primary';
  return { calendarId, secret, accountName: calendarId === 'primary' ? 'Google (primary calendar)' : calendarId };
}

/** `planner calendar connect`. */
export function registerConnect(calendar: Command): void {
  calendar
    .command('connect')
    .description(
      "add the practitioner's Google or Microsoft calendar to a schedule, through the provider's sign-in; reads it once (and with --write-bookings writes a test event) before anything is stored",
    )
    .argument('<schedule-id>')
    .argument('<provider>', 'google or microsoft')
    .option(
      '--calendar <id>',
      "Google: the calendar's address (its id; with --oauth default primary); Microsoft: a calendar's id (default: the account's calendar)",
    )
    .option('--key-file <path>', "Google: a service account's JSON key, read once (the file can be deleted after)")
    .option(
      '--oauth',
      "Google: sign in through Google's consent page instead (an organisation that forbids service-account keys)",
    )
    .option('--client-id <id>', 'the OAuth client (Google --oauth) or the app registration (Microsoft)')
    .option('--client-secret-stdin', 'Google --oauth: read the client secret from the first line of standard input')
    .option(
      '--tenant <tenant>',
      'Microsoft: common (default), organizations, consumers, or the organisation’s tenant id',
    )
    .option(
      '--redirect-base <url>',
      "Google --oauth: planner's public https address Google sends the browser back to (default: the desk's)",
    )
    .option('--name <label>', 'how lists and mails name it (default: the account)')
    .option(
      '--every <minutes>',
      `minutes between syncs, 1 to ${SYNC_EVERY_MAX_MINUTES}`,
      String(SYNC_EVERY_DEFAULT_MINUTES),
    )
    .option('--write-bookings', 'also write every booking of the schedule into this calendar (checked by a test write)')
    .option(
      '--details <full|minimal>',
      'what each written event tells of the customer: minimal (the reason, first name and reference; the default) or full (every answer of the form)',
    )
    .option('--json', 'print JSON (the sign-in’s lines go to standard error)')
    .action(async (scheduleText: string, providerText: string, options: ConnectOptions, command: Command) => {
      const scheduleId = id(scheduleText, 'schedule-id');
      const provider = providerOf(providerText);
      const everyMinutes = whole(options.every ?? String(SYNC_EVERY_DEFAULT_MINUTES), '--every');
      const { connectCalendar, checkDetails } = await import('../../app/calendars/calendars.ts');
      const details = options.details === undefined ? undefined : checkDetails(options.details);
      if (details && !options.writeBookings) throw invalid('--details goes with --write-bookings');
      // The schedule is checked before a sign-in is asked for.
      const { scheduleOf } = await import('../../app/calendars/calendar-views.ts');
      await readContext(command, (ctx) => scheduleOf(ctx, scheduleId));
      const signedIn = await signIn(command, provider, options);
      const added = await withContext(command, (ctx) =>
        connectCalendar(
          ctx,
          scheduleId,
          { provider, calendarId: signedIn.calendarId, secret: signedIn.secret },
          {
            label: options.name,
            everyMinutes,
            writeBookings: options.writeBookings === true,
            details,
            accountName: signedIn.accountName,
          },
        ),
      );
      const { writeNow } = await import('./calendar.ts');
      const written = options.writeBookings ? await writeNow(command, added.id, 'written') : undefined;
      if (options.json) {
        printJson(added);
        return;
      }
      print(
        `Calendar ${added.id} (${added.label}, ${provider === 'google' ? 'Google' : 'Microsoft'}) added to schedule ${scheduleId}: ${added.busy} busy time(s) in the schedule's window now block booking.`,
        `A running planner serve syncs it every ${added.everyMinutes} minute(s); planner calendar busy ${scheduleId} shows what blocks.`,
        ...(signedIn.keyFile
          ? [`The key is stored in planner's file; ${signedIn.keyFile} is no longer needed and may be deleted.`]
          : []),
        ...(written
          ? [
              `It receives every booking of schedule ${scheduleId} from now on; its upcoming bookings: ${written.line}`,
              ...written.overwritten,
            ]
          : []),
      );
    });
}

/** `planner calendar reconnect`. */
export function registerReconnect(calendar: Command): void {
  calendar
    .command('reconnect')
    .description(
      'give a Google or Microsoft calendar a new sign-in (its access was revoked, expired or unshared): checked by a read first; then what waited is written, each once',
    )
    .argument('<id>')
    .option('--key-file <path>', 'Google service account: the new JSON key (read once)')
    .option(
      '--client-secret-stdin',
      'Google --oauth: read the client secret from standard input (default: the one stored)',
    )
    .option('--redirect-base <url>', "Google --oauth: planner's public https address (default: the desk's)")
    .option('--json', 'print JSON (the sign-in’s lines go to standard error)')
    .action(async (text: string, options: ConnectOptions, command: Command) => {
      const calendarId = id(text);
      const { providerCalendar } = await import('../../app/calendars/providers.ts');
      const calendar = await readContext(command, (ctx) => providerCalendar(ctx, calendarId));
      const stored = calendar.secret;
      let secret: ProviderSecret;
      let accountName: string | null = null;
      if (stored.type === 'google-service-account') {
        if (!options.keyFile)
          throw invalid(
            `give --key-file <new-key.json>: a new key of ${stored.clientEmail}, or of another service account the calendar is shared with`,
          );
        secret = await keyOf(options.keyFile);
      } else if (stored.type === 'google-oauth') {
        const clientSecret = options.clientSecretStdin ? await clientSecretOf(true) : stored.clientSecret;
        const redirectBase = await redirectBaseOf(command, options.redirectBase);
        secret = await googleOAuth(command, {
          clientId: stored.clientId,
          clientSecret,
          redirectBase,
          json: options.json,
        });
      } else {
        const signedIn = await microsoftDevice({
          clientId: stored.clientId,
          tenant: stored.tenant,
          json: options.json,
        });
        secret = signedIn.secret;
        accountName = signedIn.account;
      }
      const { reconnectCalendar } = await import('../../app/calendars/calendars.ts');
      const outcome = await withContext(command, (ctx) => reconnectCalendar(ctx, calendarId, secret, accountName));
      const { writeNow } = await import('./calendar.ts');
      const written = calendar.writeBookings ? await writeNow(command, calendarId, 'written') : undefined;
      if (options.json) {
        printJson({ ...outcome, written: written?.line ?? null });
        return;
      }
      print(
        `Calendar ${calendarId} (${calendar.label}) reconnected: ${outcome.ok ? 'read' : `not read yet (${outcome.error})`}.`,
        ...(written ? [`What waited to be written: ${written.line}`, ...written.overwritten] : []),
        ...(options.keyFile
          ? [`The key is stored in planner's file; ${options.keyFile} is no longer needed and may be deleted.`]
          : []),
      );
    });
}
