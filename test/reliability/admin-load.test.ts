import { describe, expect, it } from 'vitest';
import { api, bookableDb, cli, cliOk, serve, tempDb } from '../helpers.ts';

describe('admin while serving', () => {
  it('CLI writes during a load run never give API clients a 500 or SQLITE_BUSY, and each is seen at the next request', async () => {
    const db = tempDb();
    let token = await bookableDb(db, { schedules: [{ stepMinutes: 5 }] });
    await cliOk(db, 'api', 'limit', '100000');
    const server = await serve(db, {}, ['--log', 'off']);
    const days = (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];

    // Load: six clients reading and booking until the admin is done (bounded: 60 s at most). They book from the
    // sixth day on, so the admin's checks below look at days the load leaves alone.
    const loadDays = days.slice(5);
    const seen: { status: number; body: string; stale: boolean }[] = [];
    let done = false;
    let rotating = false; // from the moment `token new` starts until the clients hold the new token
    const deadline = Date.now() + 60_000;
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; !done && Date.now() < deadline; i++) {
          const used = token;
          const day = loadDays[(client + i) % loadDays.length]!;
          const paths = [
            `/api/schedules`,
            `/api/days?schedule=1&reason=1`,
            `/api/slots?schedule=1&reason=1&day=${day}`,
            `/api/forms?schedule=1&reason=1&slot=${day}%2012:00:00`,
          ];
          const booking = i % 3 === 0;
          const response = await fetch(`${server.url}${booking ? '/api/bookings' : paths[i % paths.length]}`, {
            method: booking ? 'POST' : 'GET',
            headers: { authorization: `Bearer ${used}`, 'content-type': 'application/json' },
            body: booking
              ? JSON.stringify({
                  schedule: 1,
                  reason: 1,
                  slot: `${day} ${String(9 + (i % 8)).padStart(2, '0')}:${String((i * 5) % 60).padStart(2, '0')}:00`,
                  submission: { first_name: 'L', last_name: `${client}-${i}`, email: `l${client}-${i}@example.com` },
                })
              : undefined,
          }).catch((error: Error) => error);
          if (response instanceof Error)
            seen.push({ status: 0, body: String(response.cause ?? response), stale: false });
          else seen.push({ status: response.status, body: await response.text(), stale: used !== token || rotating });
        }
      }),
    );

    const admin: { args: string[]; code: number; stderr: string }[] = [];
    const run = async (...args: string[]) => {
      const result = await cli(db, ...args);
      admin.push({ args, code: result.code, stderr: result.stderr });
      return result;
    };
    try {
      for (let round = 0; round < 2; round++) {
        const from = round === 0 ? '10:00' : '11:00';
        await run('hours', 'set', '1', 'mon-sun', `${from}-17:00`);
        expect((await api(server.url, `/api/slots?schedule=1&reason=1&day=${days[3]}`, token)).body.data[0]).toBe(
          `${days[3]} ${from}:00`,
        );

        await run('field', 'add', `note_${round}`, '--label', 'Note');
        const forms = await api(server.url, `/api/forms?schedule=1&reason=1&slot=${days[3]}%2016:00:00`, token);
        expect(forms.status, JSON.stringify([forms.body, admin.at(-1)])).toBe(200);
        expect(Object.keys(forms.body.data)).toContain(`note_${round}`);

        const limit = String(90_000 + round);
        await run('api', 'limit', limit);
        expect((await api(server.url, '/api/schedules', token)).headers.get('ratelimit-policy')).toBe(
          `"default";q=${limit};w=60`,
        );

        const old = token;
        rotating = true;
        const rotated = await run('token', 'new', '--json');
        token = JSON.parse(rotated.stdout).token;
        rotating = false;
        expect((await api(server.url, '/api/schedules', old)).status).toBe(401);
        expect((await api(server.url, '/api/schedules', token)).status).toBe(200);
      }
    } finally {
      done = true;
      await load;
    }

    expect(admin.filter((command) => command.code !== 0 || command.stderr !== '')).toEqual([]);
    expect(seen.length).toBeGreaterThan(200);
    expect(seen.filter((answer) => answer.status >= 500 || /SQLITE|busy|locked/i.test(answer.body))).toEqual([]);
    // 401 only for a request sent with the token just replaced (never throttled: a replaced token is not a guess).
    expect(seen.filter((answer) => answer.status === 401 && !answer.stale)).toEqual([]);
    expect(seen.filter((answer) => ![200, 201, 401, 404].includes(answer.status))).toEqual([]);
    expect(seen.some((answer) => answer.status === 201)).toBe(true);
    expect(await server.stop()).toBe(0);
  });
});
