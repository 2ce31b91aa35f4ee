import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../generate.ts';
import { type BenchRun, cli, serverTime, startServer, token, windowQueryTime, work } from '../harness.ts';

/**
 * 5. Growth: GET /days server time by look-ahead (same file) and by total bookings (same look-ahead).
 */
export async function growth(run: BenchRun): Promise<void> {
  const { db, now, key, results } = run;
  const growthWindow: Record<string, unknown>[] = [];
  const growthServer = await startServer(db);
  for (const days of [30, 90, 365]) {
    await cli(db, 'schedule', 'set', '1', '--days-ahead', String(days));
    const ms = await serverTime(`${growthServer.url}/api/days?schedule=1&reason=1`, key);
    growthWindow.push({ daysAhead: days, serverMs: ms, windowRows: windowQueryTime(db, 1, days).rows });
  }
  await growthServer.stop();
  const growthTotal: Record<string, unknown>[] = [];
  for (const total of [1_000, 10_000, 100_000]) {
    const file = join(work, `growth-${total}.db`);
    const made = generate({ file, now, schedules: 1, fill: 0.03, pastBookings: 0 });
    rmSync(file, { force: true });
    const sized = generate({ file, now, schedules: 1, fill: 0.03, pastBookings: Math.max(0, total - made.bookings) });
    await cli(file, 'api', 'limit', '1000000000');
    const growthKey = await token(file);
    const growthServer = await startServer(file);
    const ms = await serverTime(`${growthServer.url}/api/days?schedule=1&reason=1`, growthKey);
    growthTotal.push({ totalBookings: sized.bookings + sized.pastBookings, inWindow: sized.bookings, serverMs: ms });
    await growthServer.stop();
  }
  results.growth = { byWindow: growthWindow, byTotal: growthTotal };
}
