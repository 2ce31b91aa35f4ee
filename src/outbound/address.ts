/**
 * Which addresses planner may reach when it calls an address an admin gave (one policy for every outbound
 * request: webhooks, the practitioner's calendars read and written): https only, no credentials in the URL, and no
 * local or private address unless the admin allowed it (`--allow-insecure`), checked when the address is given and
 * again on the address each connection actually uses (`guardedLookup`). The requests themselves: request.ts.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalid } from '../errors.ts';

/**
 * Blocks of the IANA special-purpose address registries that ipaddr.js (2.5) does not name: IPv4-compatible IPv6
 * (`::a.b.c.d`, deprecated by RFC 4291, still routed to the IPv4 address by some stacks) and the dummy IPv6 prefix
 * (RFC 9780). Every other block of both registries has a name there (test/webhooks/url.test.ts lists them all).
 */
const UNNAMED_BLOCKS = (
  [
    ['::', 96],
    ['100:0:0:1::', 64],
  ] as const
).map(([network, bits]) => [ipaddr.IPv6.parse(network), bits] as const);

/**
 * True when `address` (an IP literal) is anything but an ordinary public unicast address: loopback, private
 * networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, documentation and every
 * other special-purpose block, and the IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * NAT64, 6to4, Teredo), which can lead back to an internal IPv4 address. A webhook may reach those only with
 * `--allow-insecure`: the service must not become a tool to probe the practice's internal network. False for a
 * name (names are checked on the addresses they resolve to).
 */
export function isInternalAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // IPv4-mapped IPv6 is judged as the IPv4 address it carries
  if (ip.range() !== 'unicast') return true;
  return ip.kind() === 'ipv6' && UNNAMED_BLOCKS.some(([network, bits]) => (ip as ipaddr.IPv6).match(network, bits));
}

/**
 * Whether a URL's host names this machine or a private network: localhost (and `LOCALHOST.`, `x.localhost`: the URL
 * parser lowercases but keeps a trailing dot) or an address that is not public unicast (`isInternalAddress`). What
 * `--allow-insecure` allows for webhooks and the practitioner's calendars alike.
 */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || isInternalAddress(host);
}

/** How a door names the address it checks, in its errors. */
export interface AddressWords {
  /** "a webhook URL", "a calendar address". */
  what: string;
  /** The schemes it takes, as written in the error: "https://", "https:// or webcal://". */
  schemes: string;
  /** What to do instead of a user and password in the URL. */
  login: string;
}

/**
 * Checks an outbound address as an admin gave it: http(s) only, no credentials; plain http and local or private
 * hosts only with `allowInsecure`. Returns the URL; throws `invalid` in the door's words. Names are checked again at
 * each connection, after DNS (`guardedLookup`).
 */
export function checkOutboundUrl(url: URL, allowInsecure: boolean, words: AddressWords): URL {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`${words.what} must start with ${words.schemes} (got ${url.protocol})`);
  if (url.username || url.password) throw invalid(`${words.what} must not contain a user or password: ${words.login}`);
  if (!allowInsecure) {
    if (url.protocol === 'http:')
      throw invalid(`${words.what} must use https:// (plain http only with --allow-insecure)`);
    if (isLocalHostname(url.hostname))
      throw invalid(`${url.hostname} is a local or private address: allowed only with --allow-insecure`);
  }
  return url;
}

/**
 * A DNS lookup for a request that refuses internal addresses (unless the admin allowed them), so a public name
 * that resolves to an internal address, or starts to (DNS rebinding), is not reached: the check is made on the
 * address the connection actually uses.
 */
export function guardedLookup(allowInsecure: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const allowed = allowInsecure ? list : list.filter((entry) => !isInternalAddress(entry.address));
      if (allowed.length === 0) {
        return callback(
          Object.assign(new Error(`${hostname} resolves to a local or private address`), { code: 'EINTERNAL' }),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
