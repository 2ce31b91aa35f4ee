import { type BenchRun, load, median, serverTime, windowQueryTime } from '../harness.ts';

/**
 * 2. GET /days over 365 days with the bookings, against reading the window's bookings once.
 */
export async function days(run: BenchRun): Promise<void> {
  const { db, key, auth, results } = run;
  const { api, daysUrl } = run.main;
  const daysFirst = await serverTime(daysUrl, key, 1);
  const daysTime = await serverTime(daysUrl, key);
  const daysFloor = windowQueryTime(db, 1, 365);
  const daysLoad = await load({ url: daysUrl, headers: auth, duration: 5 });
  // Issue 17: the first answer (nothing cached), and answers right after a booking of the schedule (the cache
  // recomputes the days the booking touched and the days within the notice of now).
  const daysAfterBooking: number[] = [];
  const freeDays = ((await (await fetch(daysUrl, { headers: auth })).json()) as { data: string[] }).data;
  for (const day of freeDays.slice(5, 25)) {
    const free = (
      (await (await fetch(`${api}/slots?schedule=1&reason=1&day=${day}`, { headers: auth })).json()) as {
        data: string[];
      }
    ).data;
    const booked = await fetch(`${api}/bookings`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: 1,
        reason: 1,
        slot: free[0],
        submission: { first_name: 'Bench', last_name: 'Change', email: `change-${day}@bench.example` },
      }),
    });
    if (booked.status !== 201) throw new Error(`booking for the /days change answered ${booked.status}`);
    daysAfterBooking.push(await serverTime(daysUrl, key, 1));
  }
  results.days = {
    serverMs: daysTime,
    firstMs: daysFirst,
    afterBookingMs: median(daysAfterBooking),
    floorMs: daysFloor.ms,
    windowRows: daysFloor.rows,
    ratio: daysTime / daysFloor.ms,
    target: '<= 1 ms',
    load: daysLoad,
  };
}
