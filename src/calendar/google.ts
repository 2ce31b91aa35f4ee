/** Google Calendar (issue 48): being built. */
import type { ProviderAccount, ProviderClient } from './provider.ts';

export function googleClient(_account: ProviderAccount): ProviderClient {
  throw new Error('Google Calendar is not built yet');
}
