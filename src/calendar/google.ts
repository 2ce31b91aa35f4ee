/** Google Calendar (issue 48): being built (the helper's branch replaces this file). */
import type { GoogleOAuth, GoogleServiceAccount, ProviderAccount, ProviderClient } from './provider.ts';

export function googleClient(_account: ProviderAccount): ProviderClient {
  throw new Error('Google Calendar is not built yet');
}
export function readServiceAccountKey(_text: string): GoogleServiceAccount {
  throw new Error('Google Calendar is not built yet');
}
export function googleConsentUrl(_input: { clientId: string; redirectUri: string; state: string }): string {
  throw new Error('Google Calendar is not built yet');
}
export async function exchangeGoogleCode(_input: {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
}): Promise<GoogleOAuth> {
  throw new Error('Google Calendar is not built yet');
}
