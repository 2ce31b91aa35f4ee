import { describe, expect, it } from 'vitest';
import { isInternalAddress } from '../../src/outbound/address.ts';
import { checkWebhookUrl } from '../../src/webhooks/url.ts';

/**
 * Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (as of 2025), plus multicast, the
 * deprecated site-local and IPv4-compatible IPv6 blocks. Each must be refused without --allow-insecure: its first
 * and last address are checked.
 */
const SPECIAL_IPV4: [block: string, name: string][] = [
  ['0.0.0.0/8', 'this network'],
  ['0.0.0.0/32', 'this host on this network'],
  ['10.0.0.0/8', 'private use'],
  ['100.64.0.0/10', 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link local (cloud metadata)'],
  ['172.16.0.0/12', 'private use'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.0.0/29', 'IPv4 service continuity prefix (DS-Lite)'],
  ['192.0.0.8/32', 'IPv4 dummy address'],
  ['192.0.0.9/32', 'port control protocol anycast'],
  ['192.0.0.10/32', 'traversal using relays around NAT anycast'],
  ['192.0.0.170/32', 'NAT64/DNS64 discovery'],
  ['192.0.0.171/32', 'NAT64/DNS64 discovery'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112-v4'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private use'],
  ['192.175.48.0/24', 'direct delegation AS112 service'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'limited broadcast'],
];
const SPECIAL_IPV6: [block: string, name: string][] = [
  ['::1/128', 'loopback'],
  ['::/128', 'unspecified'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['64:ff9b::/96', 'IPv4-IPv6 translation (NAT64)'],
  ['64:ff9b:1::/48', 'local-use IPv4/IPv6 translation'],
  ['100::/64', 'discard-only'],
  ['100:0:0:1::/64', 'dummy IPv6 prefix'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001::/32', 'Teredo'],
  ['2001:1::1/128', 'port control protocol anycast'],
  ['2001:1::2/128', 'traversal using relays around NAT anycast'],
  ['2001:1::3/128', 'DNS-SD service registration protocol anycast'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:3::/32', 'AMT'],
  ['2001:4:112::/48', 'AS112-v6'],
  ['2001:10::/28', 'deprecated ORCHID'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001:30::/28', 'drone remote ID protocol entity tags'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['2620:4f:8000::/48', 'direct delegation AS112 service'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing SIDs'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local unicast'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

/** First and last address of a block, computed here (not by the library under test). */
function ends(block: string): [string, string] {
  const [network, bitsText] = block.split('/') as [string, string];
  const bits = Number(bitsText);
  if (network.includes(':')) {
    const value = ipv6ToBigInt(network);
    const host = (1n << BigInt(128 - bits)) - 1n;
    return [bigIntToIpv6(value & ~host), bigIntToIpv6(value | host)];
  }
  const value = network.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const size = 2 ** (32 - bits);
  const first = value - (value % size);
  const toText = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
  return [toText(first), toText(first + size - 1)];
}

function ipv6ToBigInt(text: string): bigint {
  const [head, tail = ''] = text.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = text.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
}

function bigIntToIpv6(value: bigint): string {
  return Array.from({ length: 8 }, (_, index) => ((value >> BigInt(16 * (7 - index))) & 0xffffn).toString(16)).join(
    ':',
  );
}

describe('webhook address guard', () => {
  it.each([...SPECIAL_IPV4, ...SPECIAL_IPV6])('refuses %s (%s): its first and last address', (block) => {
    const [first, last] = ends(block);
    expect([first, isInternalAddress(first)]).toEqual([first, true]);
    expect([last, isInternalAddress(last)]).toEqual([last, true]);
  });

  it.each([
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible 127.0.0.1'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1, hex'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo of 127.0.0.1 (client address inverted)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254, hex'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ])('refuses %s (%s)', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '100.128.0.1', // just past carrier-grade NAT
    '172.32.0.1', // just past 172.16.0.0/12
    '192.0.3.1', // just past TEST-NET-1
    '198.20.0.1', // just past benchmarking
    '223.255.255.254', // just below multicast
    '2003::1', // just past 6to4
    '2606:4700:4700::1111',
    '2a00:1450:4001:800::200e',
  ])('lets the public address %s through', (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });

  it('treats a name as unknown until it resolves (names are checked on their addresses at delivery)', () => {
    expect(isInternalAddress('hooks.example.com')).toBe(false);
  });

  it.each([
    ['https://[64:ff9b::7f00:1]/hook', '[64:ff9b::7f00:1]'],
    ['https://[2002:7f00:1::]/hook', '[2002:7f00:1::]'],
    ['https://[::127.0.0.1]/hook', '[::7f00:1]'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', '[2001:0:4136:e378:8000:63bf:80ff:fffe]'],
    ['https://LOCALHOST./hook', 'localhost.'],
    ['https://api.localhost./hook', 'api.localhost.'],
    ['https://127.0.0.1./hook', '127.0.0.1'],
    ['https://0x7f.1/hook', '127.0.0.1'],
  ])('refuses the URL %s without --allow-insecure, and takes it with it', (url, shown) => {
    expect(() => checkWebhookUrl(url, false)).toThrow(
      `${shown} is a local or private address: allowed only with --allow-insecure`,
    );
    expect(checkWebhookUrl(url, true)).toBe(new URL(url).toString());
  });
});
