import { type BenchRun, median } from '../harness.ts';

/**
 * 3b. The calendar feed of schedule 2: every booking from 30 days back to its look-ahead (issue 16: 5,000 within a
 * time budget). Wall time of whole answers, median of 20, after 3 to warm up.
 */
export async function feed(run: BenchRun): Promise<void> {
  const { results } = run;
  const { feedUrl } = run.main;
  const times: number[] = [];
  let events = 0;
  let bytes = 0;
  for (let round = 0; round < 23; round++) {
    const begun = performance.now();
    const text = await (await fetch(feedUrl)).text();
    if (round >= 3) times.push(performance.now() - begun);
    events = text.split('BEGIN:VEVENT').length - 1;
    bytes = Buffer.byteLength(text);
  }
  results.feed = { events, bytes, ms: median(times), target: '<= 250 ms for >= 5,000 events' };
}
