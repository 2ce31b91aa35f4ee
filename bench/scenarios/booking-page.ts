import { type BenchRun, cli, freeTargets, median } from '../harness.ts';

/**
 * 10. The booking page (issue 27): each page's server time and size, and whole bookings through it (every request of
 * a customer's flow: the first page, the days, the times, the form, the review, the booking), 10 customers at once.
 */
export async function bookingPage(run: BenchRun): Promise<void> {
  const { db, auth, results } = run;
  const { server, api } = run.main;
  const postRate: number = results.bookings.bookingsPerSecond; // 4.
  await cli(db, 'portal', 'enable', '--url', server.url, '--cancel-until', '0');
  await cli(db, 'booking-page', 'enable', '--per-hour', '10000', '--per-email', '1000');
  const pageTargets = await freeTargets(auth, api, 310);
  const hiddenIn = (html: string) =>
    Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [
        match[1]!,
        match[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
      ]),
    );
  const pageTimes: Record<string, number[]> = {};
  const pageBytes: Record<string, number> = {};
  /** One request of the flow; records its Server-Timing and size under `step`. */
  async function pageStep(step: string, url: string, form?: Record<string, string>): Promise<string> {
    const response = await fetch(
      url,
      form
        ? {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              origin: 'null',
              'sec-fetch-site': 'same-origin',
            },
            body: new URLSearchParams(form).toString(),
          }
        : {},
    );
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${step} answered ${response.status}`);
    (pageTimes[step] ??= []).push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]));
    pageBytes[step] = Math.max(pageBytes[step] ?? 0, Buffer.byteLength(html));
    return html;
  }
  /** A customer's booking of `target` through every page. */
  async function bookThroughPage(target: { schedule: number; reason: number; slot: string }, n: number): Promise<void> {
    const choice = `schedule=${target.schedule}&reason=${target.reason}`;
    const day = target.slot.slice(0, 10);
    await pageStep('choose', `${server.url}/book/`);
    await pageStep('days', `${server.url}/book/days?${choice}`);
    await pageStep('times', `${server.url}/book/times?${choice}&day=${day}`);
    const details = await pageStep(
      'details',
      `${server.url}/book/details?${choice}&day=${day}&time=${target.slot.slice(11, 16)}`,
    );
    const typed = {
      'f.first_name': 'Page',
      'f.last_name': `Client ${n}`,
      'f.email': `page${n}@bench.example`,
      homepage: '',
    };
    const review = await pageStep('review', `${server.url}/book/review`, { ...hiddenIn(details), ...typed });
    const done = await pageStep('confirm', `${server.url}/book/confirm`, hiddenIn(review));
    if (!done.includes('class="note done"')) throw new Error('a booking through the page was not confirmed');
  }
  for (let n = 0; n < 10; n++) await bookThroughPage(pageTargets[n]!, n); // warm-up
  for (const step of Object.keys(pageTimes)) pageTimes[step] = [];
  let nextPage = 10;
  const pageStarted = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (nextPage < pageTargets.length) {
        const n = nextPage++;
        await bookThroughPage(pageTargets[n]!, n);
      }
    }),
  );
  const pageRate = (pageTargets.length - 10) / ((performance.now() - pageStarted) / 1000);
  // Server time of each page alone, one request at a time (the load above shares the two cores with its client).
  const quietTarget = pageTargets.at(-1)!;
  const quiet: Record<string, number> = {};
  for (const [step, url] of [
    ['choose', `${server.url}/book/`],
    ['days', `${server.url}/book/days?schedule=${quietTarget.schedule}&reason=${quietTarget.reason}`],
    [
      'times',
      `${server.url}/book/times?schedule=${quietTarget.schedule}&reason=${quietTarget.reason}&day=${quietTarget.slot.slice(0, 10)}`,
    ],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await fetch(url);
      await response.arrayBuffer();
      times.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]));
    }
    quiet[step] = median(times);
  }
  results.bookingPage = {
    bookings: pageTargets.length - 10,
    bookingsPerSecond: pageRate,
    apiPerSecond: postRate,
    ratio: pageRate / postRate,
    serverMs: Object.fromEntries(Object.entries(pageTimes).map(([step, times]) => [step, median(times)])),
    quietServerMs: quiet,
    bytes: pageBytes,
    target: '<= 1 ms and <= 15 KB a page',
  };
}
