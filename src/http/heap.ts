/**
 * How `planner serve` keeps its memory small (issue 17; the readings are in docs/performance.md). Under load V8
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

/** Sets the heap's heuristics for a long-running server (idempotent; the CLI's short commands leave V8 as it is). */
export function tuneHeapForServer(): void {
  for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
}
