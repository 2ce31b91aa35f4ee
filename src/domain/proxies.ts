/**
 * The reverse proxies whose `X-Forwarded-For` planner believes: none unless the admin names
 * them (`planner proxy set`, or `planner portal enable --trust-proxy`), as IP addresses or CIDR ranges. Pure.
 */
import ipaddr from 'ipaddr.js';
import type { Checked } from './checks.ts';

/** The trusted proxies as ranges (a single address is a range of its full length). */
export type TrustedProxies = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];

/** Returns `text` as an address with IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as the IPv4 address it carries, or undefined. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.trim().replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

/**
 * Checks the list the admin gives (`127.0.0.1`, `10.0.0.0/8,::1`, or `none`) and returns it in one written form
 * (comma-separated, as stored; '' for none), or the problem.
 */
export function checkTrustedProxies(text: string): Checked<string> {
  const items = text.split(',').map((item) => item.trim());
  if (items.length === 1 && (items[0] === 'none' || items[0] === '')) return { ok: true, value: '' };
  const written: string[] = [];
  for (const item of items) {
    const [address, bits, ...rest] = item.split('/');
    const ip = parseAddress(address ?? '');
    const max = ip?.kind() === 'ipv4' ? 32 : 128;
    const length = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
    if (!ip || rest.length > 0 || length < 0 || length > max) {
      return {
        ok: false,
        error: `"${item}" is not an IP address or CIDR range (examples: 127.0.0.1, ::1, 10.0.0.0/8; none to trust no proxy)`,
      };
    }
    written.push(length === max ? ip.toString() : `${ip.toString()}/${length}`);
  }
  return { ok: true, value: [...new Set(written)].join(',') };
}

/** Returns the stored list (as checkTrustedProxies wrote it) as ranges. */
export function trustedProxiesOf(stored: string): TrustedProxies {
  if (stored === '') return [];
  return stored.split(',').map((item) => {
    const [address, bits] = item.split('/');
    const ip = parseAddress(address!)!;
    return [ip, bits === undefined ? (ip.kind() === 'ipv4' ? 32 : 128) : Number(bits)] as const;
  });
}

/** True when `address` lies in one of the trusted ranges. */
export function isTrustedProxy(trusted: TrustedProxies, address: string): boolean {
  if (trusted.length === 0) return false;
  const ip = parseAddress(address);
  return (
    ip !== undefined && trusted.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range as never, bits))
  );
}

/**
 * Returns the client's address: the connection's peer, unless that is a trusted proxy; then the rightmost entry of
 * `X-Forwarded-For` that is not a trusted proxy (entries further left are whatever the client sent, and could be
 * made up). When every entry is trusted, the leftmost; when the header is missing or malformed, the peer.
 */
export function clientAddressOf(peer: string, forwardedFor: string | null, trusted: TrustedProxies): string {
  if (forwardedFor === null || !isTrustedProxy(trusted, peer)) return peer;
  const hops = forwardedFor.split(',').map((hop) => hop.trim());
  if (hops.some((hop) => parseAddress(hop) === undefined)) return peer;
  for (let index = hops.length - 1; index >= 0; index--) {
    if (!isTrustedProxy(trusted, hops[index]!) || index === 0) return parseAddress(hops[index]!)!.toString();
  }
  return peer;
}
