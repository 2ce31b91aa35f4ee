/**
 * Node's module compile cache for `planner serve` (issue 49). The systemd units turn it on with Node's own variable,
 * `NODE_COMPILE_CACHE`, in the practice's state folder (the only folder they let the service write), so the
 * executable reads every module's compiled code from there instead of compiling it at each start. Node owns the
 * format: an entry of another Node version, of other V8 flags, of another build of a file, or damaged, is not used
 * and is written anew; a folder that cannot be written leaves the cache off. Not shared between the practices of
 * one machine: each runs as its own user in a 0700 folder, and code one practice's process wrote is not for
 * another's to run.
 */
import { readdirSync, rmSync } from 'node:fs';
import { flushCompileCache, getCompileCacheDir } from 'node:module';
import { join } from 'node:path';

/** Node's entries are files named by 8 hex digits; the executable writes about 60 (600 KB) a build. */
const ENTRY = /^[0-9a-f]{8}$/;
/** More than this many entries: those of earlier builds have piled up (each upgrade leaves its own; 10 MB at most). */
const MOST_ENTRIES = 1_000;

/**
 * Writes what this process compiled, its warm-up included, to the cache now rather than at exit (a server may run
 * for months, or be killed), which also frees the cache's copy Node holds until then. When earlier builds' entries
 * have piled up past MOST_ENTRIES, all are removed first: Node writes only what it did not read, so the next start
 * compiles once more and writes them again.
 * Does nothing when the cache is off; a cache that cannot be tidied or written is no reason not to serve.
 */
export function keepCompileCache(): void {
  const folder = getCompileCacheDir?.();
  if (!folder) return;
  try {
    // Tidied only in a folder given for it (the units'), not in the one Node's other programs share under /tmp.
    const entries = process.env.NODE_COMPILE_CACHE ? readdirSync(folder).filter((name) => ENTRY.test(name)) : [];
    if (entries.length > MOST_ENTRIES) for (const name of entries) rmSync(join(folder, name), { force: true });
    flushCompileCache();
  } catch {
    // the cache stays as Node left it
  }
}
