/**
 * Issue 24, item 9, on a real server: moving on the page. A time picked leads to a confirmation step whose form
 * makes the move; the times are grouped by the part of the day; the booking's own day (and time) is marked; days
 * come in pages with earlier and later days; on the steps of a move the booking is one line. All of it plain links
 * and forms (test/browser/ clicks through it, with the keyboard too).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, cliJson } from '../helpers.ts';
import {
  bookingState,
  bookWithLink,
  confirmUrl,
  formFields,
  offeredSlots,
  page,
  postForm,
  type Setup,
  setup,
  slotsOf,
  textOf,
} from './page.ts';

/** The days a days page offers, in order. */
function offeredDays(html: string): string[] {
  return [
    ...html.matchAll(/<li><a class="button secondary[^"]*" href="[^"]*\/reschedule\?day=(\d{4}-\d{2}-\d{2})"/g),
  ].map((match) => match[1]!);
}

/** The `from` of the page's earlier and later days links. */
function pager(html: string): { earlier?: string; later?: string } {
  const earlier = /\/reschedule\?from=(\d{4}-\d{2}-\d{2})">Earlier days</.exec(html)?.[1];
  const later = /\/reschedule\?from=(\d{4}-\d{2}-\d{2})">Later days</.exec(html)?.[1];
  return { ...(earlier ? { earlier } : {}), ...(later ? { later } : {}) };
}

describe('moving on the page (real server)', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });

  it('a picked time leads to a confirmation step; only its form moves the booking', async () => {
    const first = (await slotsOf(s, s.days[1]!))[0]!;
    const { booked, link } = await bookWithLink(s, first);
    const day = s.days[2]!;
    const times = await page(`${link}/reschedule?day=${day}`);
    expect(times.html).not.toContain('<form'); // the times are links: picking one changes nothing
    const wanted = offeredSlots(times.html)[4]!;
    expect(times.html).toContain(
      `href="${new URL(link).pathname}/reschedule?day=${day}&#38;time=${wanted.slice(11, 16)}"`,
    );

    const before = bookingState(s.db);
    const confirm = await page(confirmUrl(link, wanted));
    expect(confirm.status).toBe(200);
    const weekday = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
    }).format(new Date(`${day}T12:00:00Z`));
    expect(/<h1>(.*?)<\/h1>/.exec(confirm.html)![1]).toBe(`Move to ${weekday}, ${wanted.slice(11, 16)}?`);
    const text = textOf(confirm.html);
    expect(text).toMatch(new RegExp(`From .*, ${first.slice(11, 16)} CES?T To .*, ${wanted.slice(11, 16)} CES?T`));
    expect(text).toContain('Yes, move the appointment');
    expect(confirm.html).toContain(`/reschedule?day=${day}">No, choose another time</a>`);
    const form = formFields(confirm.html, '/reschedule')!;
    expect(form).toEqual({ sequence: '0', csrf: expect.any(String), slot: wanted });
    expect(bookingState(s.db)).toEqual(before); // opening the step changed nothing

    const moved = await postForm(`${link}/reschedule`, form);
    expect(moved.status).toBe(303);
    expect(await cliJson(s.db, 'bookings', 'show', booked.booking_details_id)).toMatchObject({
      sequence: 1,
      localStart: wanted.slice(0, 16),
    });
    // Its step again (the back button): the time is the booking's own now, so the day's times, it marked; no form.
    const again = await page(confirmUrl(link, wanted));
    expect(again.status).toBe(200);
    expect(again.html).not.toContain('<form');
    expect(again.html).toContain(
      `<span class="current" aria-current="time">${wanted.slice(11, 16)}<span class="tag">your appointment</span></span>`,
    );
    // A time that is not one: the day's times.
    const odd = await page(`${link}/reschedule?day=${day}&time=25:99`);
    expect(odd.status).toBe(200);
    expect(offeredSlots(odd.html)).toEqual(offeredSlots(again.html));
  });

  it('groups the times by morning, afternoon and evening; marks the booking’s own day and time', async () => {
    const booked = (await slotsOf(s, s.days[5]!))[3]!; // 09:30 (hours 08:00-18:00, 30 minute steps)
    const { link } = await bookWithLink(s, booked);
    const free = await slotsOf(s, s.days[5]!);
    const times = await page(`${link}/reschedule?day=${s.days[5]}`);
    const raw = [...times.html.matchAll(/<h2 class="group">([^<]+)<\/h2><ul class="choices times">(.*?)<\/ul>/g)].map(
      (match) => [match[1]!, match[2]!] as const,
    );
    const groups = raw.map(([name, list]) => [name, offeredSlots(list).map((slot) => slot.slice(11, 16))]);
    const local = (from: string, to: string) =>
      free.map((slot) => slot.slice(11, 16)).filter((time) => time >= from && time < to);
    expect(groups).toEqual([
      ['Morning', local('00:00', '12:00')],
      ['Afternoon', local('12:00', '17:00')],
      ['Evening', local('17:00', '24:00')],
    ]);
    expect(groups.flatMap(([, list]) => list)).toEqual(free.map((slot) => slot.slice(11, 16)));
    // The booking's own time, in its group, marked and without a link.
    expect(raw[0]![1]).toContain(
      `<li><a class="button" href="${new URL(link).pathname}/reschedule?day=${s.days[5]}&#38;time=09:00">09:00</a></li><li><span class="current" aria-current="time">09:30<span class="tag">your appointment</span></span></li>`,
    );
    expect(booked.slice(11, 16)).toBe('09:30');
    expect(offeredSlots(times.html)).not.toContain(booked);
    // Another day: no marked time.
    expect((await page(`${link}/reschedule?day=${s.days[6]}`)).html).not.toContain('aria-current');
    // The days: the booking's own day marked, once.
    const days = await page(`${link}/reschedule`);
    expect(days.html.match(/aria-current="date"/g)).toHaveLength(1);
    expect(days.html).toMatch(
      new RegExp(
        `href="[^"]*/reschedule\\?day=${s.days[5]}" aria-current="date">[^<]+<span class="tag">your appointment</span></a>`,
      ),
    );
  });

  it('days in pages of 14: first the page with the booking’s day, with earlier and later days', async () => {
    const days = (await api(s.server.url, '/api/days?schedule=1&reason=1', s.token)).body.data as string[]; // as now
    const { link } = await bookWithLink(s, (await slotsOf(s, days[20]!))[0]!);
    expect((await api(s.server.url, '/api/days?schedule=1&reason=1', s.token)).body.data).toEqual(days); // one booking fills no day
    const first = await page(`${link}/reschedule`);
    expect(offeredDays(first.html)).toEqual(days.slice(14, 28));
    expect(pager(first.html)).toEqual({ earlier: days[0], ...(days.length > 28 ? { later: days[28] } : {}) });
    expect(first.html).toContain(`/reschedule?day=${days[20]}" aria-current="date">`);
    const earlier = await page(`${link}/reschedule?from=${days[0]}`);
    expect(offeredDays(earlier.html)).toEqual(days.slice(0, 14));
    expect(pager(earlier.html)).toEqual({ later: days[14] });
    expect(earlier.html).not.toContain('aria-current');
    // Any day leads to the page that holds it (the times page's "Choose another day" links to its own day).
    expect(offeredDays((await page(`${link}/reschedule?from=${days[17]}`)).html)).toEqual(days.slice(14, 28));
    const times = await page(`${link}/reschedule?day=${days[17]}`);
    expect(times.html).toContain(`/reschedule?from=${days[17]}">Choose another day</a>`);
  });

  it('on the steps of a move the booking is one line that opens to the whole card; the overview shows it whole', async () => {
    const slot = (await slotsOf(s, s.days[7]!))[0]!;
    const { booked, link } = await bookWithLink(s, slot);
    const short = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
    }).format(new Date(`${s.days[7]}T12:00:00Z`));
    for (const path of ['/reschedule', `/reschedule?day=${s.days[8]}`]) {
      const step = await page(`${link}${path}`);
      expect(step.html).toContain(
        `<details class="card"><summary>Booked: ${short}, ${slot.slice(11, 16)}</summary><dl>`,
      );
      expect(step.html).not.toContain('<div class="card">');
      expect(/<details class="card">.*?<\/details>/s.exec(step.html)![0]).toContain(booked.booking_details_id);
    }
    const overview = await page(link);
    expect(overview.html).toContain('<div class="card"><dl>');
    expect(overview.html).not.toContain('<details');
  });
});
