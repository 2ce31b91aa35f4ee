import { type BenchRun, load, serverTime } from '../harness.ts';

/**
 * 3. GET /slots of the busiest day, and GET /forms.
 */
export async function slotsAndForms(run: BenchRun): Promise<void> {
  const { generated, key, auth, results } = run;
  const { api, slotsUrl } = run.main;
  const freeOnBusiest = (await (await fetch(slotsUrl, { headers: auth })).json()) as { data: string[] };
  const formsUrl = `${api}/forms?schedule=1&reason=1&slot=${encodeURIComponent(freeOnBusiest.data[0]!)}`;
  results.slots = {
    day: generated.busiestDay,
    serverMs: await serverTime(slotsUrl, key),
    load: await load({ url: slotsUrl, headers: auth, duration: 5 }),
  };
  results.forms = {
    serverMs: await serverTime(formsUrl, key),
    load: await load({ url: formsUrl, headers: auth, duration: 5 }),
  };
}
