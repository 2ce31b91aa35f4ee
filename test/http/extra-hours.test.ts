/**
 * Extra hours on a date (issue 40) on a real server: a Saturday with no weekly hours, opened by `planner hours extra`
 * from another process, is listed by GET /api/days at the next request (the cache of free days is not stale), GET
 * /api/slots gives its times, POST /api/bookings books one; `--remove` takes the day away again, and a closure wins.
 */
import { describe, expect, it } from 'vitest';
import { get, links, pageSetup, times } from '../booking-page/flow.ts';
import { api, apiBook, bookableDb, cliJson, cliOk, serve, tempDb } from '../helpers.ts';

/** The first Saturday at least two days after today in Berlin (the installation's zone), within the 30-day look-ahead. */
function nextSaturday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  for (let offset = 2; ; offset++) {
    const date = new Date(`${today}T12:00:00Z`);
    date.setUTCDate(date.getUTCDate() + offset);
    if (date.getUTCDay() === 6) return date.toISOString().slice(0, 10);
  }
}

describe('extra hours through the API (real server, real CLI)', () => {
  it('GET /days lists a Saturday with only extra hours, GET /slots gives its times, POST /bookings books one', async () => {
    const db = tempDb();
    const token = await bookableDb(db); // every day 08:00-18:00, 30-minute step, 30-minute reason
    await cliOk(db, 'hours', 'set', '1', 'sat-sun', 'closed');
    const saturday = nextSaturday();
    const server = await serve(db);
    const days = async () => (await api(server.url, '/api/days?schedule=1&reason=1', token)).body.data as string[];
    const slots = async () =>
      (await api(server.url, `/api/slots?schedule=1&reason=1&day=${saturday}`, token)).body.data as string[];

    const before = await days(); // the cache now holds the whole look-ahead
    expect(before.length).toBeGreaterThan(10);
    expect(before).not.toContain(saturday);
    expect(await slots()).toEqual([]);

    await cliOk(db, 'hours', 'extra', '1', saturday, '09:00-10:00,16:00-17:00');
    const opened = await days();
    expect(opened).toEqual([...before, saturday].sort());
    expect(await slots()).toEqual([
      `${saturday} 09:00:00`,
      `${saturday} 09:30:00`,
      `${saturday} 16:00:00`,
      `${saturday} 16:30:00`,
    ]);

    const booked = await apiBook(server.url, token, `${saturday} 09:30:00`);
    expect(booked.status).toBe(201);
    expect(await slots()).toEqual([`${saturday} 09:00:00`, `${saturday} 16:00:00`, `${saturday} 16:30:00`]);
    expect((await apiBook(server.url, token, `${saturday} 10:00:00`)).status).toBe(404); // after its extra hours

    // Replaced by fewer hours: the booking is listed as outside them, and the day keeps what is left.
    const replaced = await cliJson(db, 'hours', 'extra', '1', saturday, '16:00-17:00', '--json');
    expect(replaced.stranded.map((item: { reference: string }) => item.reference)).toEqual([
      booked.body.booking_details_id,
    ]);
    expect(await slots()).toEqual([`${saturday} 16:00:00`, `${saturday} 16:30:00`]);
    expect(await days()).toContain(saturday);

    // A closure wins; removing it gives the extra hours back; --remove takes the day away.
    const closure = await cliJson(db, 'closure', 'add', '1', saturday, '--json');
    expect(await days()).toEqual(before);
    expect(await slots()).toEqual([]);
    await cliOk(db, 'closure', 'remove', String(closure.id));
    expect(await days()).toContain(saturday);
    await cliOk(db, 'hours', 'extra', '1', saturday, '--remove');
    expect(await days()).toEqual(before);
    expect(await slots()).toEqual([]);
    await server.stop();
  }, 60_000);

  it('the booking page offers the Saturday and its times once `hours extra` opens it', async () => {
    const saturday = nextSaturday();
    const s = await pageSetup({ more: (db) => cliOk(db, 'hours', 'set', '1', 'sat-sun', 'closed').then(() => {}) });
    const dayLinks = async () =>
      links((await get(`${s.base}/book/days?schedule=1&reason=1`)).html, '/book/times?').filter((link) =>
        link.includes(`day=${saturday}`),
      );
    expect(await dayLinks()).toEqual([]);
    await cliOk(s.db, 'hours', 'extra', '1', saturday, '09:00-10:00');
    const [link] = await dayLinks();
    expect(link).toBeDefined();
    expect(times((await get(`${s.base}${link}`)).html)).toEqual(['09:00', '09:30']);
  }, 60_000);
});
