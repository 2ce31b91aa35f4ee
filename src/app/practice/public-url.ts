/**
 * The practice's public address: where customers reach the self-service page, the booking page and the feed (and the
 * front desk), one rule for every `--url`.
 */
import { isIP } from 'node:net';
import { invalid } from '../../errors.ts';

function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return isIP(bare) === 6 && bare === '::1';
}

/**
 * Returns the practice's public base URL in its one form (`https://host[:port]`, no trailing slash), or throws a
 * clear error: https only, but for loopback addresses (tests, a proxy on the same machine); no path, query or user.
 */
export function checkPublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`--url "${text}" is not a URL (example: https://booking.praxis.example)`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw invalid(
      '--url must start with https:// (plain http:// only for a loopback address such as http://127.0.0.1:3000)',
    );
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw invalid(
      '--url takes the public address only, without a path, query or user (example: https://booking.praxis.example)',
    );
  }
  return url.origin;
}
