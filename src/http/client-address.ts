/**
 * The client's address, as every door that counts per address reads it (the API's failed-token throttle, the page's
 * and the feed's throttles of unknown links): the connection's peer, or, when the peer is a proxy the admin trusts
 * (`planner proxy set`), the address that proxy reports in `X-Forwarded-For` (domain/proxies.ts). By default no
 * proxy is trusted, so a client on the same host cannot pick its own address with a header.
 */
import { getRequestIP, type H3Event } from 'h3';
import { clientAddressOf, type TrustedProxies, trustedProxiesOf } from '../domain/proxies.ts';
import type { Settings } from '../store/settings.ts';

/** Returns `clientAddress(event)`, reading the trusted proxies from `settings()` (parsed again only when they change). */
export function createClientAddress(settings: () => Settings): (event: H3Event) => string {
  let parsed: { stored: string; ranges: TrustedProxies } = { stored: '', ranges: [] };
  return (event) => {
    const peer = getRequestIP(event) ?? 'unknown';
    const stored = settings().trustedProxies;
    if (stored === '') return peer;
    if (parsed.stored !== stored) parsed = { stored, ranges: trustedProxiesOf(stored) };
    return clientAddressOf(peer, event.req.headers.get('x-forwarded-for'), parsed.ranges);
  };
}
