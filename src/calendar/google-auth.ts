/**
 * How planner gets into a Google calendar: an access token from Google's token endpoint, either for a service account
 * (planner signs its own RS256 JWT with the account's key: "OAuth 2.0 for Server to Server Applications") or for a
 * Google account that consented through the web flow (its refresh token: "Using OAuth 2.0 for Web Server
 * Applications"). Tokens are kept in memory per secret until a minute before they expire. No token, key or secret is
 * ever in a message.
 */
import { createHash, createPrivateKey, sign } from 'node:crypto';
import type { OutboundAnswer } from '../outbound/request.ts';
import { call, GOOGLE_WRITE_LIMITS, type GoogleSession, jsonOf, openGoogleSession, reasonOf } from './google-http.ts';
import {
  type GoogleOAuth,
  type GoogleServiceAccount,
  ProviderAuthError,
  type ProviderSecret,
  providerBase,
} from './provider.ts';

/** The one scope planner asks for: the events of calendars, not their settings or sharing. */
export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/calendar.events';

/** The audience of a service account's JWT: Google's token endpoint, whatever base a test gives. */
const JWT_AUDIENCE = 'https://oauth2.googleapis.com/token';

/** Tokens are asked again this long before Google says they expire (a request in flight must not carry a dead one). */
const EARLY_MS = 60_000;

const tokens = new Map<string, { token: string; until: number }>();

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The key of a secret in the token cache: a hash, so the cache holds no copy of the secret. */
function cacheKey(secret: ProviderSecret): string {
  return createHash('sha256').update(JSON.stringify(secret)).digest('hex');
}

/** The service account's signed JWT asking for GOOGLE_SCOPE for an hour from `now` (Unix seconds). */
export function serviceAccountAssertion(key: GoogleServiceAccount, now: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) };
  const claims = { iss: key.clientEmail, scope: GOOGLE_SCOPE, aud: JWT_AUDIENCE, iat: now, exp: now + 3600 };
  const signed = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), createPrivateKey(key.privateKey)).toString('base64url')}`;
}

/** The token request's form for `secret`. */
function grantOf(secret: GoogleServiceAccount | GoogleOAuth): Record<string, string> {
  if (secret.type === 'google-service-account')
    return {
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: serviceAccountAssertion(secret, Math.floor(Date.now() / 1000)),
    };
  return {
    grant_type: 'refresh_token',
    client_id: secret.clientId,
    client_secret: secret.clientSecret,
    refresh_token: secret.refreshToken,
  };
}

/** The token endpoint's codes that say the consent or key is gone: they do not heal by waiting. */
const REFUSALS = new Set(['invalid_grant', 'unauthorized_client', 'invalid_client']);

/** The line of a refused token request: why, and what the practitioner or admin does. */
function refusalLine(secret: GoogleServiceAccount | GoogleOAuth, code: string): string {
  const reconnect = 'then reconnect the calendar (planner calendar reconnect)';
  if (secret.type === 'google-service-account') {
    const why =
      code === 'invalid_grant'
        ? 'the key was deleted or disabled, or its service account was'
        : code === 'unauthorized_client'
          ? 'the service account may not ask for access to calendars'
          : 'Google does not know this key or its service account';
    return `Google refused planner's key for ${secret.clientEmail} (${code}): ${why}; create a new JSON key for it in the Google Cloud console, ${reconnect}`;
  }
  if (code === 'invalid_grant')
    return `Google refused planner's access to the Google account (invalid_grant): the access was removed, or expired; ${reconnect} and allow it again`;
  return `Google refused planner's OAuth client ${secret.clientId} (${code}): the client was deleted or its secret changed; check it in the Google Cloud console, ${reconnect}`;
}

/** POSTs `form` to the token endpoint and returns the answer (rate limits waited out as every request's). */
async function postToken(
  gs: GoogleSession,
  form: Record<string, string>,
): Promise<{ url: string; answer: OutboundAnswer }> {
  const url = `${providerBase('google', 'token').base}/token`;
  const answer = await call(
    gs,
    'POST',
    url,
    { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    new URLSearchParams(form).toString(),
  );
  return { url, answer };
}

/**
 * An access token for `secret`: the cached one while it has more than a minute left, else a new one (`fresh`: always
 * a new one, after the API refused the cached one). Throws ProviderAuthError when Google refuses the key or consent.
 */
export async function accessToken(gs: GoogleSession, secret: ProviderSecret, fresh = false): Promise<string> {
  if (secret.type === 'microsoft-device') throw new Error('a Microsoft account has no Google token');
  const key = cacheKey(secret);
  const cached = tokens.get(key);
  if (!fresh && cached && cached.until > Date.now()) return cached.token;
  tokens.delete(key);
  const { url, answer } = await postToken(gs, grantOf(secret));
  const code = reasonOf(answer);
  if (answer.status >= 400 && code && REFUSALS.has(code)) throw new ProviderAuthError(refusalLine(secret, code));
  const host = new URL(url).host;
  if (answer.status !== 200)
    throw gs.fail(`${host} answered HTTP ${answer.status}${code ? ` ${code}` : ''} to planner's token request`, true);
  const body = jsonOf<{ access_token?: unknown; expires_in?: unknown }>(gs, url, answer);
  if (typeof body.access_token !== 'string' || body.access_token === '')
    throw gs.fail(`${host} answered planner's token request without a token`, true);
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  tokens.set(key, { token: body.access_token, until: Date.now() + seconds * 1000 - EARLY_MS });
  return body.access_token;
}

/** Forgets every cached token (a test that revokes access, or a secret replaced). */
export function forgetGoogleTokens(): void {
  tokens.clear();
}

const NOT_A_KEY =
  'that is not a Google service account key file: create a JSON key for the service account in the Google Cloud console (IAM → Service accounts → Keys)';

/** Reads a Google service account's JSON key file; throws an Error with the one line of what is wrong and what to do. */
export function readServiceAccountKey(text: string): GoogleServiceAccount {
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${NOT_A_KEY} (it is not JSON)`);
  }
  if (file === null || typeof file !== 'object' || file.type !== 'service_account') throw new Error(NOT_A_KEY);
  const { client_email: email, private_key: pem, private_key_id: keyId } = file;
  if (typeof email !== 'string' || !email.includes('@')) throw new Error(`${NOT_A_KEY} (it has no client_email)`);
  if (typeof pem !== 'string') throw new Error(`${NOT_A_KEY} (it has no private_key)`);
  try {
    createPrivateKey(pem);
  } catch {
    throw new Error(
      `the key file of ${email} holds a private_key that does not load: download a new JSON key for it in the Google Cloud console (IAM → Service accounts → Keys)`,
    );
  }
  return {
    type: 'google-service-account',
    clientEmail: email,
    privateKey: pem,
    ...(typeof keyId === 'string' && keyId !== '' ? { privateKeyId: keyId } : {}),
  };
}

/** The address the practitioner opens to let planner at their calendar (Google's consent page). */
export function googleConsentUrl(options: { clientId: string; redirectUri: string; state: string }): string {
  const query = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: GOOGLE_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: options.state,
  });
  return `${providerBase('google', 'consent').base}/o/oauth2/v2/auth?${query}`;
}

/**
 * Exchanges the code Google's consent page sent back for the account's refresh token. Throws an Error with one line:
 * a code refused, or an answer without a refresh token (Google gives one only at the first consent).
 */
export async function exchangeGoogleCode(options: {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
}): Promise<GoogleOAuth> {
  const gs = openGoogleSession(GOOGLE_WRITE_LIMITS, (line) => new Error(line));
  const { url, answer } = await postToken(gs, {
    grant_type: 'authorization_code',
    code: options.code,
    client_id: options.clientId,
    client_secret: options.clientSecret,
    redirect_uri: options.redirectUri,
  });
  const host = new URL(url).host;
  if (answer.status !== 200) {
    const code = reasonOf(answer);
    throw new Error(
      `${host} refused the consent's code (HTTP ${answer.status}${code ? ` ${code}` : ''}): it was used already or has expired, or the client id, secret or redirect address is wrong; connect again`,
    );
  }
  const body = jsonOf<{ refresh_token?: unknown }>(gs, url, answer);
  if (typeof body.refresh_token !== 'string' || body.refresh_token === '')
    throw new Error(
      `Google gave no refresh token (it gives one at the first consent only): remove planner's access at https://myaccount.google.com/permissions and connect again`,
    );
  return {
    type: 'google-oauth',
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    refreshToken: body.refresh_token,
  };
}
