import type { Command } from 'commander';
import { getStatus } from '../../app/operations/status.ts';
import { changeRateLimit, DEFAULT_RATE_LIMIT, switchApi } from '../../app/practice/api.ts';
import { print, printJson, readContext, whole, withContext } from '../shared.ts';

export function registerApi(program: Command): void {
  const api = program.command('api').description('switch the booking API on or off and set its rate limit');
  api
    .command('enable')
    .description('turn the API on (a running server sees it at its next request)')
    .action(async (_options: unknown, command: Command) => {
      await withContext(command, (ctx) => switchApi(ctx, true));
      print('API enabled.');
    });
  api
    .command('disable')
    .description('turn the API off: every call answers 503 "API disabled"')
    .action(async (_options: unknown, command: Command) => {
      await withContext(command, (ctx) => switchApi(ctx, false));
      print('API disabled.');
    });
  api
    .command('status')
    .description('show whether the API is on, the token present and the rate limit')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const status = await readContext(command, (ctx) => getStatus(ctx).api);
      if (options.json) printJson(status);
      else
        print(
          `API ${status.enabled ? 'enabled' : 'disabled'}, token ${status.tokenPresent ? 'present' : 'none'}, limit ${status.rateLimitPerMinute} requests/minute per token.`,
        );
    });
  api
    .command('limit')
    .description(`set the rate limit in requests per minute per token (default ${DEFAULT_RATE_LIMIT})`)
    .argument('<requests-per-minute>')
    .action(async (perMinute: string, _options: unknown, command: Command) => {
      const value = whole(perMinute, 'requests-per-minute');
      await withContext(command, (ctx) => changeRateLimit(ctx, value));
      print(`Rate limit set to ${value} requests per minute per token.`);
    });
}
