/** Microsoft 365 and Outlook.com (issue 48): being built (the helper's branch replaces this file). */
import type { MicrosoftDevice, ProviderAccount, ProviderClient } from './provider.ts';

export interface DeviceLogin {
  userCode: string;
  verificationUri: string;
  message: string;
  deviceCode: string;
  intervalSeconds: number;
  expiresAtMs: number;
}
export function microsoftClient(_account: ProviderAccount): ProviderClient {
  throw new Error('Microsoft calendars are not built yet');
}
export async function startDeviceLogin(_input: { clientId: string; tenant: string }): Promise<DeviceLogin> {
  throw new Error('Microsoft calendars are not built yet');
}
export async function finishDeviceLogin(
  _login: DeviceLogin,
  _input: { clientId: string; tenant: string },
  _options: { signal?: AbortSignal } = {},
): Promise<{ secret: MicrosoftDevice; account: string }> {
  throw new Error('Microsoft calendars are not built yet');
}
