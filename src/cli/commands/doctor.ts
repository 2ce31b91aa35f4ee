import type { Command } from 'commander';
import { diagnose } from '../../app/operations/doctor.ts';
import { print, printJson, readContext } from '../shared.ts';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check what breaks real installs: file, permissions, setup, clock, API, token, mail, the live proxy')
    .option('--mail', 'also connect to the SMTP server')
    .option(
      '--url <base>',
      'call the live installation, e.g. https://booking.example/api (needs --token or PLANNER_TOKEN)',
    )
    .option('--token <token>', 'the API token, for --url')
    .option('--json', 'print JSON')
    .action(async (options: { mail?: boolean; url?: string; token?: string; json?: boolean }, command: Command) => {
      const checks = await readContext(command, (ctx) =>
        diagnose(ctx, { mail: options.mail, url: options.url, token: options.token ?? process.env.PLANNER_TOKEN }),
      );
      if (options.json) printJson(checks);
      else print(...checks.map((check) => `${check.status.padEnd(4)}  ${check.name.padEnd(11)} ${check.detail}`));
      const failed = checks.filter((check) => check.status === 'fail').length;
      if (failed > 0) {
        process.stderr.write(`planner: doctor found ${failed} problem(s) to fix (marked fail above)\n`);
        process.exitCode = 1;
      }
    });
}
