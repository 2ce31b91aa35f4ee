import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalid } from '../errors.ts';

/**
 * Addresses a webhook may not reach without `--allow-insecure`: loopback, private networks, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, "this network", multicast and their IPv6 forms. The service must
 * not become a tool to probe the practice's internal network.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** True when `address` (an IP literal) is loopback, private, link-local or otherwise internal. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]; // IPv4-mapped IPv6
  if (mapped) return INTERNAL.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Checks a webhook URL as given to `planner webhook add`: http(s) only, no credentials; plain http, `localhost`
 * and internal IP literals only with `allowInsecure`. Names are checked again at each delivery, after DNS.
 */
export function checkWebhookUrl(text: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`"${text}" is not a URL: give the full address, e.g. https://example.com/planner-hook`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`a webhook URL must start with https:// (got ${url.protocol})`);
  if (url.username || url.password) throw invalid('a webhook URL must not contain a user or password: the signature authenticates planner');
  if (!allowInsecure) {
    if (url.protocol === 'http:') throw invalid('a webhook URL must use https:// (plain http only with --allow-insecure)');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || isInternalAddress(host)) {
      throw invalid(`${url.hostname} is a local or private address: allowed only with --allow-insecure`);
    }
  }
  return url.toString();
}

/**
 * A DNS lookup for delivery that refuses internal addresses (unless the hook allows them), so a public name
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
        return callback(Object.assign(new Error(`${hostname} resolves to a local or private address`), { code: 'EINTERNAL' }), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
