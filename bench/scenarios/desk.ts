import * as OTPAuth from 'otpauth';
import { openStore } from '../../src/store/db.ts';
import { FILL_SEARCH_KEYS } from '../../src/store/migrations.ts';
import { type BenchRun, cli, median } from '../harness.ts';

/**
 * 16. The front desk (issue 46): the day page of three practitioners on the busiest day (server time and size), a
 * customer search over every booking (by a name in another spelling, and by a phone as typed), and GET /slots while
 * logins flood the desk (wrong passwords from many addresses: each one Argon2 hash, one at a time) beside GET /slots
 * alone, in alternate rounds.
 */
export async function desk(run: BenchRun): Promise<void> {
  const { db, auth, results, generated } = run;
  const { server, slotsUrl } = run.main;
  const base = server.url;
  // The generated bookings carry no submission: give each a name, an address and a phone, as people book.
  const store = openStore(db);
  store.db.exec(
    `UPDATE bookings SET submission = json_object('first_name', 'Anna', 'last_name',
       CASE WHEN id % 1000 = 7 THEN 'Müller' ELSE 'Kunde ' || (customer_id % 5000) END,
       'email', 'c' || customer_id || '@bench.example', 'phone', '0170 ' || (1000000 + (customer_id * 7919) % 9000000))`,
  );
  store.db.exec(FILL_SEARCH_KEYS); // as the server writes them with each booking
  const bookings = (store.db.prepare('SELECT count(*) AS n FROM bookings').get() as { n: number }).n;
  store.close();
  await cli(db, 'desk', 'enable', '--url', base);
  await cli(db, 'proxy', 'set', '127.0.0.1'); // the flood's addresses, one per login (X-Forwarded-For)
  const added = JSON.parse(
    await cli(
      db,
      'staff',
      'add',
      'bench@desk.example',
      '--name',
      'Bench',
      '--role',
      'practitioner',
      '--schedule',
      '1,2,3',
      '--json',
    ),
  ) as { enrol_url: string };
  const origin = { origin: base, 'content-type': 'application/x-www-form-urlencoded' };
  const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...origin, ...headers },
      body: new URLSearchParams(form),
    });
  const password = 'correct horse battery staple';
  const chosen = await post(`${added.enrol_url}/password`, { password });
  if (chosen.status !== 303)
    throw new Error(`the enrolment's password answered ${chosen.status}: ${(await chosen.text()).slice(0, 300)}`);
  const page = await (await fetch(added.enrol_url)).text();
  const uri = /otpauth:\/\/totp\/[^<]+/
    .exec(page)![0]
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  await post(`${added.enrol_url}/code`, { code: totp.generate() });
  const pending = (await post(`${base}/desk/login`, { email: 'bench@desk.example', password })).headers.getSetCookie();
  const loggedIn = await post(
    `${base}/desk/login/code`,
    { code: totp.generate({ timestamp: Date.now() + 30_000 }) },
    { cookie: pending.map((cookie) => cookie.split(';')[0]).join('; ') },
  );
  const cookie = loggedIn.headers
    .getSetCookie()
    .map((one) => one.split(';')[0]!)
    .find((one) => one.startsWith('__Host-planner-desk=') && one.length > 30)!;
  if (!cookie) throw new Error(`the desk's login failed (${loggedIn.status})`);

  /** The median Server-Timing of `count` GETs of `path` with the session, and the largest answer's size. */
  async function timed(path: string, count = 60): Promise<{ serverMs: number; bytes: number; html: string }> {
    const times: number[] = [];
    let bytes = 0;
    let html = '';
    for (let i = 0; i < count + 5; i++) {
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      html = await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      if (i >= 5) times.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1]));
      bytes = Math.max(bytes, Buffer.byteLength(html));
    }
    return { serverMs: median(times), bytes, html };
  }
  const day = await timed(`/desk/day/${generated.busiestDay}`);
  const appointments = [...day.html.matchAll(/<section class="card"[\s\S]*?<\/section>/g)].map(
    (section) => (section[0].match(/<li class="(booked|arrived|no_show|cancelled)"/g) ?? []).length,
  );
  const byName = await timed(`/desk/customers?q=${encodeURIComponent('mueller')}`);
  const byPhone = await timed(
    `/desk/customers?q=${encodeURIComponent(`+49 170 ${1000000 + ((42 * 7919) % 9000000)}`)}`,
  );
  const found = (html: string) => (html.match(/<li><a href="\/desk\/customers\//g) ?? []).length;

  // GET /slots alone and during a flood of logins, alternately, three rounds each.
  let flooding = false;
  let logins = 0;
  const flood = async (lane: number) => {
    for (let n = 0; flooding; n++) {
      const address = `10.${lane}.${Math.floor(n / 250) % 250}.${n % 250}`;
      await post(
        `${base}/desk/login`,
        { email: `nobody${n}@desk.example`, password: 'wrong password' },
        {
          'x-forwarded-for': address,
        },
      ).then((response) => response.arrayBuffer());
      logins++;
    }
  };
  /** The median wall time (ms, to the microsecond) of `count` GET /slots one after another, as a client sees it. */
  const slotsMedian = async (count = 400) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(slotsUrl, { headers: auth });
      await response.arrayBuffer();
      times.push(performance.now() - started);
    }
    return median(times);
  };
  await slotsMedian(100); // warm
  const alone: number[] = [];
  const during: number[] = [];
  let floodSeconds = 0;
  for (let round = 0; round < 3; round++) {
    alone.push(await slotsMedian());
    flooding = true;
    const started = performance.now();
    const lanes = Array.from({ length: 8 }, (_, lane) => flood(lane));
    during.push(await slotsMedian());
    flooding = false;
    await Promise.all(lanes);
    floodSeconds += (performance.now() - started) / 1000;
  }
  const slotsAlone = median(alone);
  const slotsDuring = median(during);
  results.desk = {
    day: generated.busiestDay,
    appointments,
    dayServerMs: day.serverMs,
    dayBytes: day.bytes,
    bookings,
    searchNameMs: byName.serverMs,
    searchNameFound: found(byName.html),
    searchPhoneMs: byPhone.serverMs,
    searchPhoneFound: found(byPhone.html),
    loginsPerSecond: logins / floodSeconds,
    slotsAloneP50: slotsAlone,
    slotsDuringP50: slotsDuring,
    slotsRatio: slotsDuring / slotsAlone,
    target:
      'day page ≤ 5 ms and ≤ 40 KB; a search over 50,000 bookings ≤ 10 ms; GET /slots median within 10 % during a login flood',
  };
}
