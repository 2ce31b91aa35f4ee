import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { print } from '../shared.ts';

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the booking API (the one served at /api/openapi.json)')
    .option('--out <file>', 'write it to a file instead')
    .action(async (options: { out?: string }) => {
      const { openApiDocument } = await import('../../schemas/openapi.ts'); // the schema builder: only for this command
      const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
      if (options.out) {
        writeFileSync(options.out, text);
        print(`Wrote ${options.out}.`);
      } else process.stdout.write(text);
    });
}
