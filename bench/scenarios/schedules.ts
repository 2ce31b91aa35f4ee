import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchRun, children, load, median, ROOT, sideBySide, startServer, work } from '../harness.ts';

/**
 * 1. GET /schedules against a bare node:http server answering the same bytes.
 */
export async function schedules(run: BenchRun): Promise<void> {
  const { db, auth, results } = run;
  const { api } = run.main;
  const sample = await fetch(`${api}/schedules`, { headers: auth });
  const sampleHeaders: Record<string, string> = {};
  sample.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'server-timing', 'transfer-encoding'].includes(name))
      sampleHeaders[name] = value;
  });
  const bytesFile = join(work, 'schedules.json');
  writeFileSync(bytesFile, JSON.stringify({ body: await sample.text(), headers: sampleHeaders }));
  const floorChild = spawn(process.execPath, [join(ROOT, 'bench/floor-http.ts'), bytesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(floorChild);
  const [floorPort] = (await once(floorChild.stdout!, 'data')) as [Buffer];
  const floorUrl = `http://127.0.0.1:${String(floorPort).trim()}/api/schedules`;
  // As clients call (issue 29): 10 keep-alive connections, one request at a time on each. Then the same pipelined
  // (10 in flight on each connection, as the benchmark measured before issue 29; no client calls so), and an h3 route
  // that answers the same bytes (what h3 and its Node adapter cost on their own).
  // Five rounds, not three: the row's target is to hold in every run (issue 49).
  const schedules = await sideBySide({ url: `${api}/schedules`, headers: auth }, { url: floorUrl }, 5);
  // The cost of the access log (issue 39): the same file served by a second server with `--log off`, side by side
  // with the default server (its log on, read by another process), alternately; and that server beside the floor.
  const quietServer = await startServer(db, undefined, { log: 'off' });
  const quietUrl = `${quietServer.url}/api/schedules`;
  const logged = await sideBySide({ url: `${api}/schedules`, headers: auth }, { url: quietUrl, headers: auth });
  const quietFloor = await sideBySide({ url: quietUrl, headers: auth }, { url: floorUrl });
  await quietServer.stop();
  const pipelined = await sideBySide(
    { url: `${api}/schedules`, headers: auth, pipelining: 10 },
    { url: floorUrl, pipelining: 10 },
  );
  floorChild.kill();
  const helloChild = spawn(process.execPath, [join(ROOT, 'bench/h3-hello.ts'), bytesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(helloChild);
  const [helloPort] = (await once(helloChild.stdout!, 'data')) as [Buffer];
  const helloUrl = `http://127.0.0.1:${String(helloPort).trim()}/api/schedules`;
  await load({ url: helloUrl, duration: 1 });
  const helloRuns = [
    await load({ url: helloUrl, duration: 3 }),
    await load({ url: helloUrl, duration: 3 }),
    await load({ url: helloUrl, duration: 3 }),
  ];
  const hello = { subject: { rps: median(helloRuns.map((run) => run.rps)) } };
  helloChild.kill();
  results.schedules = {
    ...schedules,
    logOn: logged.subject,
    logOff: logged.floor,
    logRatio: logged.subject.rps / logged.floor.rps,
    logOffRatio: quietFloor.subject.rps / quietFloor.floor.rps,
    // The rounds' pairs (harness.ts, sideBySide); the two medians' ratio as row 1 gave it until issue 49, beside it.
    ratio: schedules.ratio,
    ratioOfMedians: schedules.subject.rps / schedules.floor.rps,
    target: '>= 0.6',
    pipelined: { ...pipelined, ratio: pipelined.subject.rps / pipelined.floor.rps },
    h3Hello: { rps: hello.subject.rps, ratio: hello.subject.rps / schedules.floor.rps },
  };
}
