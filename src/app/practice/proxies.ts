/**
 * The reverse proxies whose `X-Forwarded-For` planner believes, for every door that counts per client address (the
 * API's failed-token throttle, the page's and the feed's throttles of unknown links). None until the admin names
 * them: without a trusted proxy, a client is the connection's peer, whatever headers it sends.
 */
import { checkTrustedProxies } from '../../domain/proxies.ts';
import { invalid } from '../../errors.ts';
import { setTrustedProxies } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';
import { requireConfigured } from './configured.ts';

/** Returns the list as stored (`127.0.0.1,10.0.0.0/8`, '' for none), or throws a clear error naming `option`. */
export function checkProxyList(text: string, option = 'the proxy list'): string {
  const checked = checkTrustedProxies(text);
  if (!checked.ok) throw invalid(`${option}: ${checked.error}`);
  return checked.value;
}

/** Sets the trusted proxies from the admin's text (`none` for none); returns them. A running server sees them at its next request. */
export function trustProxies(ctx: AppContext, text: string, option?: string): string[] {
  const proxies = checkProxyList(text, option);
  requireConfigured(ctx);
  setTrustedProxies(ctx.store, proxies);
  return proxies === '' ? [] : proxies.split(',');
}

/** Returns the trusted proxies (none: an empty list). */
export function trustedProxies(ctx: AppContext): string[] {
  const stored = requireConfigured(ctx).trustedProxies;
  return stored === '' ? [] : stored.split(',');
}
