import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchRun, BIN, copyAsBefore, median, olderExecutable, ROOT, work } from '../harness.ts';

/** One start of a server: from the spawn to "serving", its first GET /slots, and a second (warm) one. */
interface Start {
  readyMs: number;
  /** From the spawn to the first answer's end (wall). */
  firstWallMs: number;
  /** The first answer's own time (Server-Timing `app`). */
  firstServerMs: number;
  /** A second GET /slots (another day) of the same process: wall and server time. */
  warmWallMs: number;
  warmServerMs: number;
}

const serverMs = (answer: Response) => Number(/app;dur=([\d.]+)/.exec(answer.headers.get('server-timing') ?? '')?.[1]);

/** Starts `command serve` on `db` with `env`, asks GET /slots twice, stops it. */
async function once(command: string[], db: string, key: string, days: string[], env: Record<string, string>) {
  const started = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), 'serve', '--port', '0', '--log', 'off', '--db', db], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let said = '';
    child.stdout!.on('data', (chunk) => {
      said += chunk;
      const match = /serving (http:\/\/\S+)\/api/.exec(said);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`section 12b: the server exited before serving:\n${said}`)));
  });
  const ready = performance.now();
  const slots = (day: string) =>
    fetch(`${url}/api/slots?schedule=1&reason=1&day=${day}`, { headers: { authorization: `Bearer ${key}` } });
  const first = await slots(days[0]!);
  await first.arrayBuffer();
  const firstEnd = performance.now();
  const warmStart = performance.now();
  const warm = await slots(days[1]!);
  await warm.arrayBuffer();
  const warmEnd = performance.now();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return {
    readyMs: ready - started,
    firstWallMs: firstEnd - started,
    firstServerMs: serverMs(first),
    warmWallMs: warmEnd - warmStart,
    warmServerMs: serverMs(warm),
  } satisfies Start;
}

/** The medians of `starts`, field by field. */
function medians(starts: Start[]): Start {
  const of = (key: keyof Start) => median(starts.map((start) => start[key]));
  return {
    readyMs: of('readyMs'),
    firstWallMs: of('firstWallMs'),
    firstServerMs: of('firstServerMs'),
    warmWallMs: of('warmWallMs'),
    warmServerMs: of('warmServerMs'),
  };
}

/**
 * 12b. A single practice's first request after start (issue 49): the single executable when built (else node), on a
 * copy of the benchmark's file, started 7 times as a service starts it; each time GET /slots once right after
 * "serving" (wall time from the spawn to its answer, and its own time by Server-Timing), then once more warm. Taken
 * twice: as the server starts now, and with Node's module compile cache in a folder of its own (`NODE_COMPILE_CACHE`,
 * filled by the first start and read by the others, as the units give it), medians of each; with `--before
 * <executable>`, a third time with that one (before issue 49), in turn with the others.
 */
export async function firstRequest(run: Pick<BenchRun, 'db' | 'key' | 'results' | 'generated'>): Promise<void> {
  const db = join(work, 'first-request.db');
  copyFileSync(run.db, db);
  const sea = join(ROOT, 'dist/planner');
  const command = existsSync(sea) ? [sea] : [process.execPath, BIN];
  // Two days, so that the warm request is not answered from what the first computed.
  const next = new Date(Date.parse(`${run.generated.busiestDay}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const days = [run.generated.busiestDay, next];
  const cache = mkdtempSync(join(work, 'compile-cache-'));
  const plain: Start[] = [];
  const cached: Start[] = [];
  // Before issue 49 (`--before <executable>`): its own copy, whose token is an argon2id hash as that version stored it.
  const older = olderExecutable();
  const olderDb = join(work, 'first-request-before.db');
  if (older) await copyAsBefore(run.db, [olderDb], run.key);
  const before: Start[] = [];
  await once(command, db, run.key, days, { NODE_COMPILE_CACHE: cache }); // fills the cache
  for (let index = 0; index < 7; index++) {
    plain.push(await once(command, db, run.key, days, {}));
    cached.push(await once(command, db, run.key, days, { NODE_COMPILE_CACHE: cache }));
    if (older) before.push(await once([older], olderDb, run.key, days, {}));
  }
  rmSync(cache, { recursive: true, force: true });
  run.results.firstRequest = {
    command: existsSync(sea) ? 'dist/planner' : 'node bin/planner.js',
    ...(older ? { before: medians(before) } : {}),
    plain: medians(plain),
    compileCache: medians(cached),
  };
}
