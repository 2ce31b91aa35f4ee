/**
 * Issue 40, on a real server: a move keeps the practitioner; where the booking's reason is shared, the self-service
 * page offers the other practitioners who offer it, and the move may go to one of them (their free times, their
 * checks). Where it is not shared, no choice is offered and a forged `schedule` changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, cliJson, cliOk } from '../helpers.ts';
import { bookingState, bookWithLink, formFields, page, postForm, type Setup, setup, slotsOf, textOf } from './page.ts';

describe('moving to another practitioner where the reason is shared (real server)', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
    // Schedule 1 (Dr. Weber) from setup; Dr. Roth offers reason 1 too, from 10:00 only; Dr. Lang offers nothing shared.
    await cliOk(s.db, 'schedule', 'add', 'Dr. Roth', '--days-ahead', '30', '--notice', '0', '--step', '30');
    await cliOk(s.db, 'hours', 'set', '2', 'mon-sun', '10:00-12:00');
    await cliOk(s.db, 'schedule', 'add', 'Dr. Lang', '--days-ahead', '30', '--notice', '0', '--step', '30');
    await cliOk(s.db, 'reason', 'add', '3', 'Other', '--duration', '30');
  });

  it("offers the practitioners of a shared reason, shows the chosen one's times, and moves the booking to them", async () => {
    const first = (await slotsOf(s, s.days[1]!))[0]!; // 08:00 with Dr. Weber
    const { booked, link } = await bookWithLink(s, first);
    // Not shared yet: no choice of practitioner.
    const alone = await page(`${link}/reschedule`);
    expect(alone.html).not.toContain('?with=');
    await cliOk(s.db, 'reason', 'set', '1', '--schedules', '1,2');

    const days = await page(`${link}/reschedule`);
    expect(days.status).toBe(200);
    const path = new URL(link).pathname;
    expect(days.html).toContain('<span class="current" aria-current="true">Dr. Weber</span>');
    expect(days.html).toContain(`href="${path}/reschedule?with=2">Dr. Roth</a>`);
    // Dr. Roth's times of a day: 10:00 to 11:30 only, each link keeping the choice.
    const day = s.days[2]!;
    const roth = await page(`${link}/reschedule?day=${day}&with=2`);
    const times = [...roth.html.matchAll(/time=(\d\d:\d\d)&#38;with=2"/g)].map((m) => m[1]);
    expect(times).toEqual(['10:00', '10:30', '11:00', '11:30']);
    // A practitioner who does not offer the reason is not chosen: the booking's own practitioner's times instead.
    const lang = await page(`${link}/reschedule?day=${day}&with=3`);
    expect(lang.html).not.toContain('with=3');
    expect(lang.html).toContain(`time=08:00"`);

    const confirm = await page(`${link}/reschedule?day=${day}&time=10:30&with=2`);
    expect(textOf(confirm.html)).toContain('With Dr. Roth');
    const form = formFields(confirm.html, '/reschedule')!;
    expect(form).toEqual({ sequence: '0', csrf: expect.any(String), slot: `${day} 10:30:00`, schedule: '2' });
    // A forged schedule that does not offer the reason: refused (400), nothing changed.
    const before = bookingState(s.db);
    const forged = await postForm(`${link}/reschedule`, { ...form, schedule: '3' });
    expect(forged.status).toBe(400);
    expect(bookingState(s.db)).toEqual(before);

    const moved = await postForm(`${link}/reschedule`, form);
    expect(moved.status).toBe(303);
    const shown = await cliJson(s.db, 'bookings', 'show', booked.booking_details_id);
    expect(shown).toMatchObject({ scheduleId: 2, scheduleName: 'Dr. Roth', localStart: `${day} 10:30`, sequence: 1 });
    // Dr. Roth's 10:30 is taken now; Dr. Weber's 08:00 of the first day is free again.
    const rothSlots = (await api(s.server.url, `/api/slots?schedule=2&reason=1&day=${day}`, s.token)).body.data;
    expect(rothSlots).not.toContain(`${day} 10:30:00`);
    expect(await slotsOf(s, s.days[1]!)).toContain(first);
    // The customer's update and the practice's notice name the practitioner before and after (each arrival
    // awaited, no polling).
    const flat = (text: string | false | undefined) => (text || '').replace(/\s+/g, ' ');
    const arrived = async (is: (mail: { subject?: string }) => boolean) => {
      for (let count = s.smtp.messages.length + 1; !s.smtp.messages.some(is); count++) await s.smtp.received(count);
      return s.smtp.messages.filter(is);
    };
    const isUpdate = (mail: { subject?: string }) => mail.subject?.startsWith('Changed:') === true;
    const isNotice = (mail: { subject?: string }) => mail.subject?.startsWith('Moved by the customer:') === true;
    const [update] = await arrived(isUpdate);
    const [notice] = await arrived(isNotice);
    for (const mail of [update!, notice!]) {
      expect(flat(mail.text)).toContain('This appointment is now with Dr. Roth instead of Dr. Weber.');
      expect(flat(mail.html)).toContain('This appointment is now with Dr. Roth instead of Dr. Weber.');
    }
    // The admin moves it back to Dr. Weber: named the other way round; then a move that keeps the practitioner
    // names no change of practitioner.
    await cliOk(s.db, 'bookings', 'move', booked.booking_details_id, `${day} 09:00`, '--schedule', '1');
    const back = async (count: number) => {
      let updates = s.smtp.messages.filter(isUpdate);
      while (updates.length < count) {
        await s.smtp.received(s.smtp.messages.length + 1);
        updates = s.smtp.messages.filter(isUpdate);
      }
      return updates[count - 1]!;
    };
    expect(flat((await back(2)).text)).toContain('This appointment is now with Dr. Weber instead of Dr. Roth.');
    await cliOk(s.db, 'bookings', 'move', booked.booking_details_id, `${day} 09:30`);
    const same = await back(3);
    expect(flat(same.text)).toContain('Dr. Weber');
    expect(flat(same.text)).not.toContain('instead of');
  });
});
