import { type BenchRun, wallTime } from '../harness.ts';

/**
 * 7. Start-up (before anything else loads the machine).
 */
export async function startup(run: Pick<BenchRun, 'db' | 'results'>): Promise<void> {
  const { db, results } = run;
  results.startup = { versionMs: await wallTime(['--version']), statusMs: await wallTime(['status', '--db', db]) };
}
