/**
 * How `planner serve` keeps its memory small (the readings are in docs/performance.md). Under load V8
 * grows its young generation from 1 to 64 MiB per semi-space (this machine: 128 MiB of new space) and lets the old
 * generation run far past what is alive before it collects (about 2× here); both stay grown long after the load,
 * and together they were most of the 300 MiB the server reached under the soak. Two of V8's heuristics are set when
 * the server starts, before any load:
 * - `--semi-space-growth-factor=1`: the young generation stays near its first size (1 MiB a semi-space). Our requests
 *   leave little alive, so more frequent scavenges cost little: the benchmark's figures did not move.
 * - `--heap-growing-percent=20`: a full collection comes when the old generation has grown 20 % past what the
 *   last one left alive (V8 picks 10 % to 300 % by its own measure of speed).
 * Neither caps the heap: a server that needs more memory gets it (no `--max-old-space-size`, which would crash it
 * instead). Both are read by V8 at each collection, so setting them at run time works for `node bin/planner.js`
 * and for the single executable alike; a test (test/http/heap.test.ts) shows they take effect.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'] as const;

/**
 * The V8 flags built into the single executable (its `execArgv`, scripts/build-bin.ts), for every command
 * it runs. Both take effect only when V8 starts, so `serve` cannot set them for itself as it sets HEAP_FLAGS:
 * - `--no-concurrent-recompilation`: V8's optimizing compiler runs on the main thread, not in background threads
 *   whose memory (9 to 43 MiB under load) stayed with the process; an optimization now holds a request for its
 *   length, once per hot function after a start.
 * - `--max-semi-space-size=1`: the young generation at most 1 MiB a semi-space (more frequent, shorter scavenges).
 * Measured with `node bench/anon-probe.ts dist/planner` (anonymous MiB idle / under reads, two runs each): none
 * 26.8 / 59–61; the first alone 25.8 / 44; the second alone 25.5 / 53–60; both 24.6 / 38.8. Their cost: GET /days
 * on the executable 9,000–9,250 → 7,300–7,400 req/s (bench/profile.ts; GET /schedules within its noise); the
 * token-flood test (the valid requests' median under a flood) holds with both, 0.34 to 0.85 ms added against 0.06
 * to 0.69 ms without. Tried and not kept (docs/performance.md): V8 flags set at run time (none moved the
 * memory), `--single-threaded` (70–80 MiB under reads), `--v8-pool-size=1` (more under reads).
 */
export const EXECUTABLE_FLAGS = ['--no-concurrent-recompilation', '--max-semi-space-size=1'] as const;

/** Sets the heap's heuristics for a long-running server (idempotent; the CLI's short commands leave V8 as it is). */
export function tuneHeapForServer(): void {
  for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
}
