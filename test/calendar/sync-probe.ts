/**
 * A process that syncs one calendar of a planner file the way `planner serve`'s loop does (`syncCalendars`, the
 * server's own code, on the file, with a fixed clock) and measures what the sync costs the process (issue 36):
 * - `holdCpuMs`: the longest the event loop was held, as CPU time of the main thread between two ticks of a 1 ms
 *   timer (what planner's code did without giving the loop back; a loaded machine that takes the CPU away from the
 *   process makes the wall-clock gap longer, not this);
 * - `holdWallMs`: the same gap in wall-clock time (information);
 * - `peakMiB`: the most the process's resident memory grew during the sync (its peak, from the kernel, less what it
 *   held before).
 * Usage: node sync-probe.ts <file> <now ISO> <calendar id>. Prints one JSON line: the outcome and the figures.
 */
import { syncCalendars } from '../../src/app/calendars/calendars.ts';
import { createContext } from '../../src/app/context.ts';
import { openStore } from '../../src/store/db.ts';
import { watchLoopHold } from '../cpu.ts';

const [file, now, id] = process.argv.slice(2);
const store = openStore(file!);
const ctx = createContext(store, () => new Date(now!));
// What loads at the first read (ical.js, the zones) is loaded first, as `planner serve` warms it at start.
const { warmBusyReader } = await import('../../src/calendar/busy.ts');
warmBusyReader('Europe/Berlin');

const before = process.memoryUsage.rss();
const hold = watchLoopHold();
const started = performance.now();
const [outcome] = await syncCalendars(ctx, Number(id), { conflicts: false });
const ms = performance.now() - started;
const { cpuMs: holdCpu, wallMs: holdWall } = await hold.stop();
const peakMiB = (process.resourceUsage().maxRSS * 1024 - before) / 2 ** 20;
const rows = (
  store.db
    .prepare(
      'SELECT count(*) AS n FROM busy_times t JOIN calendars c ON c.id = t.calendar_id AND c.generation = t.generation',
    )
    .get() as { n: number }
).n;
store.close();
process.stdout.write(
  `${JSON.stringify({ ok: outcome!.ok, error: outcome!.error, ms: Math.round(ms), holdCpuMs: Number(holdCpu.toFixed(1)), holdWallMs: Number(holdWall.toFixed(1)), peakMiB: Number(Math.max(0, peakMiB).toFixed(1)), rows })}\n`,
);
