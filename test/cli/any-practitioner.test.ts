/**
 * A practice of several (issue 40), through the real CLI and server: one reason offered by several schedules
 * (`reason add 1,2,3`, `reason set --schedules`), its free times over all of them (`slots any`), a booking with
 * whoever is free (`bookings add any`: the fewest booked minutes that day, then the lowest id), and the API's
 * GET /reasons of each schedule listing it with the same id, bookable at either.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bookableDb, cliJson, cliOk, fieldArgs, refused, serve, tempDb } from '../helpers.ts';

const customer = (n: number) => fieldArgs({ first_name: 'Ada', last_name: `L${n}`, email: `ada${n}@example.com` });

interface AnyListed {
  timeZone: string;
  reason: { id: number; name: string; durationMinutes: number };
  schedules: { id: number; name: string }[];
  days: { day: string; slots: { slot: string; schedules: number[] }[] }[];
}

describe('a practice of three with a shared reason', () => {
  const db = tempDb();
  let token = '';
  let days: string[] = [];
  beforeAll(async () => {
    // Schedule 1 (Dr. Weber) and 2 (Dr. Roth) 08:00-18:00 every day, 3 (Dr. Lang) 08:00-12:00; reason 1 of schedule 1.
    token = await bookableDb(db, {
      schedules: [{}, { name: 'Dr. Roth' }, { name: 'Dr. Lang', hours: { 'mon-sun': '08:00-12:00' } }],
    });
    days = (await cliJson(db, 'slots', '1', '1')).days.map((day: { day: string }) => day.day);
  }, 60_000);

  it('reason add with several ids makes one reason that each schedule lists; one id works as before', async () => {
    expect(await cliOk(db, 'reason', 'add', '1,2,3', 'Shared check-up', '--duration', '30')).toBe(
      'Added reason 2 "Shared check-up" (30 min) to schedules 1, 2 and 3.\n',
    );
    expect(await cliOk(db, 'reason', 'add', '2', 'Solo', '--duration', '20')).toBe(
      'Added reason 3 "Solo" (20 min) to schedule 2.\n',
    );
    for (const schedule of ['1', '2', '3']) {
      const listed = await cliJson(db, 'reason', 'list', schedule);
      expect(listed.find((reason: { id: number }) => reason.id === 2)).toMatchObject({
        name: 'Shared check-up',
        scheduleIds: [1, 2, 3],
      });
    }
    expect((await cliJson(db, 'reason', 'list', '2')).map((reason: { id: number }) => reason.id)).toEqual([2, 3]);
    const table = (await cliOk(db, 'reason', 'list', '1')).split('\n');
    expect(table[0]).toMatch(/^ID +NAME +MINUTES +BUFFERS +POSITION +SCHEDULES +SERIES +DESCRIPTION$/);
    expect(table.find((line) => line.startsWith('2 '))).toMatch(/Shared check-up +30 +0\/0 +\d+ +1,2,3/);
  });

  it('GET /api/reasons of two schedules lists it with the same id, and booking it works at either', async () => {
    const server = await serve(db);
    for (const schedule of [1, 2]) {
      const reasons = (await api(server.url, `/api/reasons?schedule=${schedule}`, token)).body.data;
      expect(reasons).toContainEqual({ id: 2, name: 'Shared check-up', description: '', duration: 1800 });
    }
    const day = days[5]!;
    for (const schedule of [1, 2]) {
      const answer = await api(server.url, '/api/bookings', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schedule,
          reason: 2,
          slot: `${day} 15:00:00`,
          submission: { first_name: 'Api', last_name: `S${schedule}`, email: `api${schedule}@example.com` },
        }),
      });
      expect(answer.status).toBe(201);
    }
    // Not offered by schedule 2: the spec's 404, as for any reason of another schedule.
    const solo = await api(server.url, '/api/slots?schedule=1&reason=3&day=' + day, token);
    expect(solo.status).toBe(404);
    const any = await api(server.url, `/api/slots/any?reason=2&day=${day}`, token);
    expect(any.status).toBe(200);
    expect(any.body.data.find((time: { slot: string }) => time.slot === `${day} 15:00:00`)).toBeUndefined();
    expect(any.body.data[0]).toEqual({ slot: `${day} 08:00:00`, schedules: [1, 2, 3] });
    for (const query of ['reason=99&day=' + day, 'reason=2', 'reason=2&day=2026-02-30', 'reason=x&day=' + day]) {
      const answer = await api(server.url, `/api/slots/any?${query}`, token);
      expect([answer.status, answer.body], query).toEqual([404, { error: 'Not Found' }]);
    }
  }, 60_000);

  it('slots any lists the free times over every schedule offering it, each with who is free (JSON and text)', async () => {
    const day = days[2]!;
    const listed = await cliJson<AnyListed>(db, 'slots', 'any', '2', '--day', day, '--days', '1');
    expect(listed.timeZone).toBe('Europe/Berlin');
    expect(listed.reason).toEqual({ id: 2, name: 'Shared check-up', durationMinutes: 30 });
    expect(listed.schedules).toEqual([
      { id: 1, name: 'Dr. Weber' },
      { id: 2, name: 'Dr. Roth' },
      { id: 3, name: 'Dr. Lang' },
    ]);
    expect(listed.days).toHaveLength(1);
    const slots = listed.days[0]!.slots;
    expect(slots).toHaveLength(20); // 08:00 … 17:30
    expect(slots[0]).toEqual({ slot: `${day} 08:00:00`, schedules: [1, 2, 3] });
    expect(slots.find((time) => time.slot === `${day} 12:00:00`)).toEqual({
      slot: `${day} 12:00:00`,
      schedules: [1, 2],
    });
    const text = (await cliOk(db, 'slots', 'any', '2', '--day', day, '--days', '2')).split('\n');
    expect(text[0]).toBe(
      'Free times for Shared check-up (30 min) with any of Dr. Weber (1), Dr. Roth (2), Dr. Lang (3), in Europe/Berlin; after each time, the schedules free then:',
    );
    expect(text[1]).toMatch(
      new RegExp(
        `^\\w{3} ${day}  08:00 \\(1,2,3\\) 08:30 \\(1,2,3\\) .* 11:30 \\(1,2,3\\) 12:00 \\(1,2\\) .* 17:30 \\(1,2\\)$`,
      ),
    );
    expect(text[3]).toMatch(/^Book one with whoever is free: planner bookings add any 2 "YYYY-MM-DD HH:MM"/);
  });

  it('bookings add any books the fewest booked minutes that day, then the lowest id, and names who', async () => {
    const day = days[3]!;
    // Schedule 1 already has 30 minutes that day: the first "any" goes to schedule 2, the lowest of the two at 0.
    await cliOk(db, 'bookings', 'add', '1', '1', `${day} 09:00`, ...customer(1));
    const first = await cliJson(db, 'bookings', 'add', 'any', '2', `${day} 10:00`, ...customer(2));
    expect(first.schedule).toEqual({ id: 2, name: 'Dr. Roth' });
    expect(first.start).toMatch(new RegExp(`^${day}T\\d{2}:00:00Z$`));
    // Now schedules 1 and 2 have 30 minutes, 3 none: schedule 3; then 1 (30 = 30, lower id than 2).
    expect(await cliOk(db, 'bookings', 'add', 'any', '2', `${day} 10:00`, ...customer(3))).toMatch(
      new RegExp(
        `^Booked \\d+ \\([2-9A-Z]{16}\\) with Dr\\. Lang \\(schedule 3\\) for ${day} 10:00 Europe/Berlin: Shared check-up \\(reason 2\\), Ada L3\\.`,
      ),
    );
    expect((await cliJson(db, 'bookings', 'add', 'any', '2', `${day} 10:00`, ...customer(4))).schedule.id).toBe(1);
    const shown = await cliJson(db, 'bookings', 'show', first.reference);
    expect([shown.scheduleName, shown.reasonName]).toEqual(['Dr. Roth', 'Shared check-up']);
    // Nobody is free at 10:00 any more: why for each, and the next free times over all of them.
    await refused(
      db,
      ['bookings', 'add', 'any', '2', `${day} 10:00`, ...customer(5)],
      new RegExp(
        `^planner: ${day} 10:00:00 is not free with any schedule that offers it \\(schedule 1: it is taken by another booking; schedule 2: it is taken by another booking; schedule 3: it is taken by another booking\\)\\. Next free times: ${day} 10:30 \\(schedules 1, 2, 3\\), ${day} 11:00 \\(schedules 1, 2, 3\\), ${day} 11:30 \\(schedules 1, 2, 3\\) \\(more: planner slots any 2 --day ${day}\\)\\.`,
      ),
    );
    // Before every schedule's hours: the same refusal as a single booking's.
    await refused(db, ['bookings', 'add', 'any', '2', `${day} 07:00`, ...customer(6)], /outside the opening hours/);
    // A move keeps the practitioner, even to a time another is free at too.
    await cliOk(db, 'bookings', 'move', first.reference, `${day} 16:00`, '--no-notify');
    const moved = await cliJson(db, 'bookings', 'show', first.reference);
    expect([moved.scheduleName, moved.localStart]).toEqual(['Dr. Roth', `${day} 16:00`]);
  });

  it.each([
    [['reason', 'add', '1,99', 'X', '--duration', '30'], /schedule 99 does not exist/],
    [
      ['reason', 'add', '1,x', 'X', '--duration', '30'],
      /schedule-id must be schedule ids separated by commas, e\.g\. 1 or 1,2,3 \(got "1,x"\)/,
    ],
    [['reason', 'set', '2', '--schedules', ''], /--schedules must be schedule ids separated by commas/],
    [['reason', 'set', '2', '--schedules', '1,42'], /schedule 42 does not exist/],
    [['reason', 'set', '99', '--schedules', '1'], /reason 99 does not exist/],
    [['slots', 'any', '99'], /reason 99 does not exist/],
    [['slots', 'any', 'x'], /reason-id must be a whole number/],
    [['bookings', 'add', 'any', '99', '2030-01-01 10:00', ...customer(7)], /reason 99 does not exist/],
    [['bookings', 'add', 'any', '2', '2030-01-01 25:00', ...customer(7)], /is not a local time/],
    [['bookings', 'add', 'any', '2', '2030-01-01 10:00'], /--field first_name is required/],
  ])('refuses %j in one line, changing nothing', async (args, message) => {
    await refused(db, args, message);
  });

  it('reason set --schedules changes who offers it; a schedule that stops keeps its bookings of it', async () => {
    const before = await cliJson(db, 'bookings', 'list', '--schedule', '1', '--from', days[0]!);
    const text = await cliOk(db, 'reason', 'set', '2', '--schedules', '2,3');
    expect(text).toMatch(/^reason 2 "Shared check-up": 30 min, position \d+, offered by schedules 2 and 3\n/);
    expect(text).toMatch(
      /Schedule 1 no longer offers it; its 2 future booking\(s\) of it are kept \(they can be cancelled, not moved\)\./,
    );
    expect((await cliJson(db, 'reason', 'list', '1')).map((reason: { id: number }) => reason.id)).toEqual([1]);
    expect(await cliJson(db, 'bookings', 'list', '--schedule', '1', '--from', days[0]!)).toEqual(before);
    const listed = await cliJson<AnyListed>(db, 'slots', 'any', '2', '--day', days[2]!, '--days', '1');
    expect(listed.schedules.map((schedule) => schedule.id)).toEqual([2, 3]);
    expect(listed.days[0]!.slots[0]).toEqual({ slot: `${days[2]} 08:00:00`, schedules: [2, 3] });
    await refused(
      db,
      ['bookings', 'add', '1', '2', `${days[2]} 10:00`, ...customer(8)],
      /schedule 1 does not offer reason 2 "Shared check-up" \(planner reason set 2 --schedules 2,3,1 would add it\)/,
    );
    expect(await cliJson(db, 'reason', 'set', '2', '--schedules', '1,2,3')).toMatchObject({ scheduleIds: [1, 2, 3] });
  });
});

describe('bookings move --schedule: the admin moves a booking to another practitioner of a shared reason', () => {
  it('moves it where that practitioner offers the reason and is free; refuses in one line elsewhere, nothing changed', async () => {
    const db = tempDb();
    // Reason 1 offered by Dr. Weber and Dr. Roth (10:00-12:00), not by Dr. Lang (no hours).
    await bookableDb(db, {
      schedules: [{}, { name: 'Dr. Roth', hours: { 'mon-sun': '10:00-12:00' } }, { name: 'Dr. Lang', hours: {} }],
      reasons: [{ schedules: [1, 2] }],
    });
    const day = (await cliJson(db, 'slots', '1', '1')).days[2].day as string;
    const booked = await cliJson(db, 'bookings', 'add', '1', '1', `${day} 08:00`, ...customer(1));
    // Dr. Lang does not offer the reason; Dr. Roth has no 08:00.
    await refused(
      db,
      ['bookings', 'move', booked.reference, `${day} 10:30`, '--schedule', '3'],
      /schedule 3 does not offer reason 1 "Check-up" \(planner reason set 1 --schedules 1,2,3 would add it\)/,
    );
    await refused(
      db,
      ['bookings', 'move', booked.reference, `${day} 08:00`, '--schedule', '2'],
      /is not a free slot: it is outside the opening hours/,
    );
    await refused(db, ['bookings', 'move', booked.reference, `${day} 10:30`, '--schedule', 'x'], /--schedule/);
    expect(await cliOk(db, 'bookings', 'move', booked.reference, `${day} 10:30`, '--schedule', '2')).toBe(
      `Moved ${booked.id} (${booked.reference}) to ${day} 10:30 Europe/Berlin with Dr. Roth (schedule 2). The customer’s update is in the outbox.\n`,
    );
    expect(await cliJson(db, 'bookings', 'show', booked.reference)).toMatchObject({ scheduleId: 2, sequence: 1 });
    // Dr. Weber's 08:00 is free again.
    expect((await cliJson(db, 'slots', '1', '1', '--day', day, '--days', '1')).days[0].slots).toContain(
      `${day} 08:00:00`,
    );
  });
});
