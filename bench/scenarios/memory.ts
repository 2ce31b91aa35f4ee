import { anonymousMiB, type BenchRun, load, rssMiB } from '../harness.ts';

/**
 * 6. Memory: after the full run, then after the same read load twice more. A leak would grow each round.
 */
export async function memory(run: BenchRun): Promise<void> {
  const { auth, results } = run;
  const { server, api, rss, anonymous, daysUrl, slotsUrl } = run.main;
  rss.end = rssMiB(server.pid);
  anonymous.end = anonymousMiB(server.pid);
  for (const round of ['again1', 'again2']) {
    await load({ url: `${api}/schedules`, headers: auth, duration: 3 });
    await load({ url: slotsUrl, headers: auth, duration: 3 });
    await load({ url: daysUrl, headers: auth, duration: 3 });
    rss[round] = rssMiB(server.pid);
  }
  results.rssMiB = rss;
  results.anonymousMiB = anonymous;
  await server.stop();
}
