import type { Command } from 'commander';
import { trustedProxies, trustProxies } from '../../app/practice/proxies.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';

/** The sentence `proxy set`, `proxy show` and `portal enable --trust-proxy` print. */
export function proxyLine(proxies: string[]): string {
  return proxies.length === 0
    ? 'Trusted proxies: none. Every client is counted by the address it connects from; X-Forwarded-For is ignored.'
    : `Trusted proxies: ${proxies.join(', ')}. From these, the client is the last X-Forwarded-For entry that is not one of them.`;
}

export function registerProxy(program: Command): void {
  const proxy = program
    .command('proxy')
    .description(
      'the reverse proxies whose X-Forwarded-For is believed, for the throttles of the API, the page and the feed (default: none)',
    );
  proxy
    .command('set')
    .description(
      'trust X-Forwarded-For from these addresses only, e.g. `proxy set 127.0.0.1,::1` for a proxy on this machine; `proxy set none` trusts none',
    )
    .argument('<addresses>', 'comma-separated IP addresses or CIDR ranges (10.0.0.0/8), or none')
    .action(async (addresses: string, _options: unknown, command: Command) => {
      print(proxyLine(await withContext(command, (ctx) => trustProxies(ctx, addresses))));
    });
  proxy
    .command('show')
    .description('show the trusted proxies')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const proxies = await readContext(command, (ctx) => trustedProxies(ctx));
      if (options.json) printJson({ trustedProxies: proxies });
      else print(proxyLine(proxies));
    });
}
