import type { Command } from 'commander';
import { availableDays, availableSlots } from '../../app/bookings/availability.ts';
import type { AppContext } from '../../app/context.ts';
import { isConfigured } from '../../app/practice/configured.ts';
import { createDemo } from '../../app/practice/demo.ts';
import { AppError } from '../../errors.ts';
import { print, whole, withContext } from '../shared.ts';
import { type ServeOptions, serve } from './serve.ts';

/**
 * Returns ready-to-paste curl calls for the six API calls against `base`, with real values: the first free day of
 * schedule 1, reason 1 and its first free time, as GET /days and GET /slots answer them now.
 */
function curlCalls(base: string, token: string, slot: string): string[] {
  const auth = `-H "Authorization: Bearer ${token}"`;
  const day = slot.slice(0, 10);
  return [
    `curl -s ${auth} ${base}/api/schedules`,
    `curl -s ${auth} "${base}/api/reasons?schedule=1"`,
    `curl -s ${auth} "${base}/api/days?schedule=1&reason=1"`,
    `curl -s ${auth} "${base}/api/slots?schedule=1&reason=1&day=${day}"`,
    `curl -s ${auth} "${base}/api/forms?schedule=1&reason=1&slot=${slot.replace(' ', '%20')}"`,
    `curl -s ${auth} -H "Content-Type: application/json" -X POST ${base}/api/bookings \\`,
    `  -d '{"schedule":1,"reason":1,"slot":"${slot}","submission":{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}}'`,
  ];
}

/** The first free time of schedule 1, reason 1 (`YYYY-MM-DD HH:MM:SS`), from the engine GET /slots uses. */
function firstFreeSlot(ctx: AppContext): string {
  const [day] = availableDays(ctx, 1, 1); // a day is listed only when it has a free time
  const [first] = day === undefined ? [] : availableSlots(ctx, 1, 1, day);
  if (first) return first.local;
  throw new AppError('conflict', 'the demo has no free time: check the machine clock');
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('create a demo installation (never overwrites one), print a token and curl calls; --serve to serve it')
    .option('--serve', 'serve the installation afterwards (also when it already existed)')
    .option('--host <addr>', 'address to serve on', '127.0.0.1')
    .option('--port <n>', 'port to serve on (PLANNER_PORT sets the default)', process.env.PLANNER_PORT || '3000')
    .action(async (options: ServeOptions & { serve?: boolean }, command: Command) => {
      if (options.serve) {
        // A taken port fails before anything is created or a token printed that nothing would serve.
        const { assertCanListen } = await import('../../http/server.ts');
        await assertCanListen(options.host, whole(options.port, '--port'));
      }
      const created = await withContext(
        command,
        async (ctx) => {
          if (isConfigured(ctx.settings())) {
            if (!options.serve) {
              throw new AppError(
                'conflict',
                `an installation already exists at ${ctx.store.file}; the demo never overwrites one (use another --db)`,
              );
            }
            print(
              `An installation already exists at ${ctx.store.file}; leaving it as it is. (A new token: planner token new)`,
            );
            return false;
          }
          const token = await createDemo(ctx);
          const base = `http://${options.host}:${options.port}`;
          print(
            `Created the demo installation in ${ctx.store.file}: 2 schedules, 5 reasons, weekday hours, API enabled.`,
            '',
            `API token (shown once): ${token}`,
            '',
            'Try the six calls in order (the day and time are the first free ones now):',
            ...curlCalls(base, token, firstFreeSlot(ctx)),
            '',
          );
          return true;
        },
        true,
      );
      if (options.serve) await serve(command, options);
      else if (created) print('Serve it with: planner serve');
    });
}
