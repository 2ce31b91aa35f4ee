import type { Command } from 'commander';
import { rotateToken } from '../../app/practice/token.ts';
import { print, printJson, withContext } from '../shared.ts';

export function registerToken(program: Command): void {
  const token = program.command('token').description('the API token');
  token
    .command('new')
    .description('create the one API token, replacing the previous one at once; it is shown only now')
    .option('--json', 'print {"token": "…"}')
    .action(async (options: { json?: boolean }, command: Command) => {
      const value = await withContext(command, (ctx) => rotateToken(ctx));
      if (options.json) {
        printJson({ token: value });
        return;
      }
      print(value);
      process.stderr.write('This token is shown once and cannot be shown again; the previous token no longer works.\n');
    });
}
