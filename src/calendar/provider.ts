/**
 * The practitioner's Google Calendar or Microsoft 365/Outlook.com calendar, read and written through the providers'
 * own APIs (neither speaks CalDAV to planner: Google's takes OAuth only, Microsoft has none). What every provider
 * gives planner, whatever it calls it: its events over a window as iCalendar texts (so that calendar/busy.ts decides
 * what blocks, exactly as for a CalDAV calendar), and one event per booking that a retry can never copy (Google: an id
 * planner derives from the reference; Microsoft: `transactionId`), written over the version planner last wrote
 * (ETag, `If-Match`).
 *
 * The providers' code (google.ts, microsoft.ts) is loaded at first use: a server without such a calendar never holds
 * it. The hosts are fixed (Google's and Microsoft's API and login hosts); a test sets another base address through
 * PLANNER_TEST_GOOGLE_BASE or PLANNER_TEST_MICROSOFT_BASE, and nothing else does.
 */
import { CalendarWriteError } from './write.ts';

export type ProviderName = 'google' | 'microsoft';

/** A Google service account's key (its JSON key file, read once): planner signs its own token requests with it. */
export interface GoogleServiceAccount {
  type: 'google-service-account';
  clientEmail: string;
  /** PEM, PKCS #8. */
  privateKey: string;
  privateKeyId?: string;
}

/** A Google account's consent through the OAuth web flow (an organisation that forbids service-account keys). */
export interface GoogleOAuth {
  type: 'google-oauth';
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

/** A Microsoft account's consent through the device-code flow (a public client: no secret of planner's own). */
export interface MicrosoftDevice {
  type: 'microsoft-device';
  clientId: string;
  /** `common`, `organizations`, `consumers` or the organisation's tenant id. */
  tenant: string;
  /** Renewed on every use (saveSecret). */
  refreshToken: string;
  /** The account that signed in (the id_token's `preferred_username`): named in messages, never used to sign in. */
  account?: string;
}

/** What is stored of an account (in the calendar's `password` column, JSON): a secret, masked in every output. */
export type ProviderSecret = GoogleServiceAccount | GoogleOAuth | MicrosoftDevice;

/** One calendar of one account, as planner reaches it. */
export interface ProviderAccount {
  provider: ProviderName;
  /**
   * Google: the calendar's id (`primary` with OAuth, or the address of the calendar the practitioner shared with the
   * service account). Microsoft: the calendar's id, or '' for the account's default calendar.
   */
  calendarId: string;
  secret: ProviderSecret;
  /**
   * Stores a secret the provider renewed (Microsoft's refresh token, renewed on every use) before it is used again.
   * Called before the call that renewed it returns.
   */
  saveSecret: (next: ProviderSecret) => void;
}

/** The event planner writes for a booking. */
export interface ProviderEvent {
  reference: string;
  summary: string;
  description: string;
  /** '' for none. */
  location: string;
  /** Unix seconds, [startAt, endAt). */
  startAt: number;
  endAt: number;
  /** The installation's IANA zone: the zone the event is shown in. */
  zone: string;
}

/** Where planner's event is in the provider's calendar: its id and the version planner last wrote. */
export interface EventRef {
  id: string;
  /** The ETag planner wrote (Google's `etag`, Graph's `@odata.etag`); null when the provider gave none. */
  etag: string | null;
}

/** What a write did. */
export interface ProviderWritten {
  ref: EventRef;
  /**
   * The event was not as planner last wrote it (a 412, or there already while planner had forgotten it, and not as
   * planner would write it): planner wrote its own state over it.
   */
  overwritten: boolean;
  /** What the calendar held before planner wrote over it, as one VCALENDAR (busy.ts reads its time). */
  found?: string;
}

/** A read: nothing changed since `state`, or every event over the window, as one VCALENDAR text each. */
export type ProviderRead =
  | { unchanged: true; state: ProviderState }
  | { unchanged: false; texts: string[]; state: ProviderState };

/** What a read remembers for the next one (a sync token, a delta link, the events it holds): JSON, stored. */
export type ProviderState = Record<string, unknown>;

export interface ProviderClient {
  /**
   * Reads the calendar over [from, to) (Unix seconds): incrementally from `state` (what the last read returned), or
   * whole when `state` is undefined or the provider no longer knows it. The texts are what calendar/busy.ts reads:
   * planner's own events with the UID `eventUid(reference)` (domain/event-uid.ts), a cancelled or free one marked
   * so. Throws CalendarFetchError (one line), or ProviderAuthError.
   */
  read(state: ProviderState | undefined, window: { from: number; to: number }): Promise<ProviderRead>;
  /**
   * Makes planner's event of `event.reference` be `event`: created when `ref` is undefined (a create retried after a
   * lost answer or a crash finds the one it made: never a second), else written over the version `ref.etag` (If-Match;
   * a 412 reads the event and writes again). Throws CalendarWriteError, or ProviderAuthError.
   */
  put(event: ProviderEvent, ref: EventRef | undefined): Promise<ProviderWritten>;
  /**
   * Removes planner's event of `reference` (at `ref`, or, when planner recorded none, the one a lost create may have
   * made); one that is not there is no error. Throws CalendarWriteError, or ProviderAuthError.
   */
  remove(reference: string, ref: EventRef | undefined): Promise<void>;
  /**
   * Checks that planner may write: an event of its own, written and removed at once (never read as busy). Throws
   * CalendarWriteError as calendar/write.ts's `checkWritable` does.
   */
  checkWritable(at: Date, zone: string): Promise<void>;
}

/**
 * The account's consent is gone: a token revoked or expired (`invalid_grant`), a key deleted, the calendar no longer
 * shared with it or shared without "make changes to events". It does not heal by waiting: the calendar needs
 * reconnecting (`planner calendar reconnect`). Answered, so the writes of the calendar wait with back-off meanwhile.
 */
export class ProviderAuthError extends CalendarWriteError {
  readonly reconnect = true;
  constructor(message: string) {
    super(message, { answered: true });
  }
}

/**
 * A provider's error code as planner may show it (in a line, a mail, the file): a plain code of at most 64 characters
 * (`invalid_grant`, `rateLimitExceeded`, `ErrorAccessDenied`); anything else an answer puts there is not shown.
 */
export function plainCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : undefined;
}

/** The hosts a provider is reached at, fixed; a test's base address (PLANNER_TEST_<PROVIDER>_BASE) stands for all. */
export const PROVIDER_HOSTS = {
  google: {
    api: 'https://www.googleapis.com',
    token: 'https://oauth2.googleapis.com',
    consent: 'https://accounts.google.com',
  },
  microsoft: { api: 'https://graph.microsoft.com', login: 'https://login.microsoftonline.com' },
} as const;

/**
 * The base address of `provider`'s `host` (PROVIDER_HOSTS), and whether loopback and private addresses are allowed:
 * only with a test's base address.
 */
export function providerBase<P extends ProviderName>(
  provider: P,
  host: keyof (typeof PROVIDER_HOSTS)[P],
): { base: string; allowInsecure: boolean } {
  const test = process.env[provider === 'google' ? 'PLANNER_TEST_GOOGLE_BASE' : 'PLANNER_TEST_MICROSOFT_BASE'];
  if (test) return { base: test.replace(/\/$/, ''), allowInsecure: true };
  return { base: (PROVIDER_HOSTS[provider] as Record<string, string>)[host as string]!, allowInsecure: false };
}

/** The client of `account`'s calendar; the provider's code is loaded here, at first use. */
export async function openProvider(account: ProviderAccount): Promise<ProviderClient> {
  if (account.provider === 'google') return (await import('./google.ts')).googleClient(account);
  return (await import('./microsoft.ts')).microsoftClient(account);
}
