import { describe, expect, it } from 'vitest';
import { checkTrustedProxies, clientAddressOf, trustedProxiesOf } from '../../src/domain/proxies.ts';

describe('checkTrustedProxies', () => {
  it.each([
    ['none', ''],
    ['127.0.0.1', '127.0.0.1'],
    [' 127.0.0.1 , ::1 ', '127.0.0.1,::1'],
    ['10.0.0.0/8,10.0.0.0/8', '10.0.0.0/8'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['192.168.1.7/32', '192.168.1.7'],
    ['fd00::/8', 'fd00::/8'],
  ])('takes %j as %j', (text, written) => {
    expect(checkTrustedProxies(text)).toEqual({ ok: true, value: written });
  });

  it.each([
    '127.0.0.300',
    '10.0.0.0/33',
    '::1/129',
    'proxy.example',
    '10.0.0.0/x',
    '1.2.3.4/8/9',
    '127.0.0.1,,::1',
    'none,127.0.0.1',
  ])('refuses %j', (text) => {
    const checked = checkTrustedProxies(text);
    expect(checked.ok).toBe(false);
  });
});

describe('clientAddressOf', () => {
  const trusted = trustedProxiesOf('127.0.0.1,10.0.0.0/8');
  it.each<[string, string | null, string]>([
    ['203.0.113.9', '198.51.100.1', '203.0.113.9'], // not a trusted peer: the header is ignored
    ['127.0.0.1', null, '127.0.0.1'],
    ['127.0.0.1', '198.51.100.1', '198.51.100.1'],
    ['::ffff:127.0.0.1', '198.51.100.1', '198.51.100.1'],
    ['127.0.0.1', '203.0.113.50, 198.51.100.1', '198.51.100.1'], // the client's own entry does not count
    ['127.0.0.1', '198.51.100.1, 10.1.2.3', '198.51.100.1'], // two trusted hops
    ['127.0.0.1', '10.1.2.3, 10.9.9.9', '10.1.2.3'], // all trusted: the leftmost
    ['127.0.0.1', 'garbage, 198.51.100.1', '127.0.0.1'], // malformed: the peer
    ['127.0.0.1', '', '127.0.0.1'],
  ])('peer %s with X-Forwarded-For %j is %s', (peer, forwarded, client) => {
    expect(clientAddressOf(peer, forwarded, trusted)).toBe(client);
  });

  it('trusts nobody by default', () => {
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', trustedProxiesOf(''))).toBe('127.0.0.1');
  });
});
