/** Microsoft 365 and Outlook.com (issue 48): being built. */
import type { ProviderAccount, ProviderClient } from './provider.ts';

export function microsoftClient(_account: ProviderAccount): ProviderClient {
  throw new Error('Microsoft calendars are not built yet');
}
