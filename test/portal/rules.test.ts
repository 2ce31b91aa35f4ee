/**
 * The page's rules that depend on the clock, in-process with a fixed clock (the real-process tests are in
 * portal.test.ts): a link stops working for changes at the start and after a cancellation, expires 30 days after
 * the appointment's end, and the page speaks the installation's language.
 */
import { describe, expect, it } from 'vitest';
import { availableSlots } from '../../src/app/bookings/availability.ts';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking } from '../../src/app/bookings/lifecycle.ts';
import { createContext } from '../../src/app/context.ts';
import { startRuntime } from '../../src/app/operations/runtime.ts';
import { enablePortal } from '../../src/app/pages/portal.ts';
import { setHours } from '../../src/app/practice/hours.ts';
import { initInstallation } from '../../src/app/practice/init.ts';
import { changePractice } from '../../src/app/practice/practice.ts';
import { addReason, changeReason } from '../../src/app/practice/reasons.ts';
import { addSchedule } from '../../src/app/practice/schedules.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/db.ts';
import { createManageToken } from '../../src/store/manage-links.ts';
import { snapshot, tempDb } from '../helpers.ts';
import { formFields, offeredSlots, textOf } from './page.ts';

/** An installation in `locale` with one booking on Tuesday 2026-06-02 10:00 Berlin, the page on; the clock is `clock.now`. */
async function installation(
  locale: 'en' | 'de' = 'en',
  practice: { address?: string; phone?: string; website?: string } = {},
) {
  const file = tempDb();
  const store = openStore(file);
  const clock = { now: new Date('2026-06-01T06:00:00Z') };
  const ctx = createContext(store, () => clock.now);
  initInstallation(ctx, {
    practiceName: 'Praxis Sonne',
    timeZone: 'Europe/Berlin',
    notifyEmail: 'desk@sonne.example',
    locale,
  });
  const schedule = addSchedule(ctx, {
    name: 'Dr. Weber',
    daysAhead: 14,
    noticeMinutes: 0,
    stepMinutes: 30,
    capacity: 1,
  });
  const reason = addReason(ctx, schedule, { name: 'Check-up', durationMinutes: 30 });
  setHours(ctx, schedule, 'mon-fri', '09:00-12:00');
  const booked = createBooking(
    ctx,
    {
      scheduleId: schedule,
      reasonId: reason,
      slot: '2026-06-02 10:00:00',
      submission: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    },
    'api',
  );
  enablePortal(ctx, { url: 'https://booking.sonne.example', cancelUntilHours: 24 });
  if (Object.keys(practice).length) changePractice(ctx, practice);
  const token = createManageToken(store, booked.bookingId, clock.now.toISOString());
  const runtime = await startRuntime(store, { now: () => clock.now });
  const app = createHttpApp({ runtime, log: () => {} });
  const get = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, html: await response.text() };
  };
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://booking.sonne.example' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, html: await response.text() };
  };
  /**
   * Posts a form whose headers arrive now and whose body arrives only after `meanwhile()` (which moves the clock):
   * the request as a slow phone sends it.
   */
  const postLate = async (path: string, fields: Record<string, string>, meanwhile: () => void) => {
    let send!: (bytes: Uint8Array) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (bytes) => {
          controller.enqueue(bytes);
          controller.close();
        };
      },
    });
    const answer = app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://booking.sonne.example' },
      body,
      duplex: 'half',
    } as RequestInit);
    // The door has the headers: it opened the booking and now waits for the body.
    await new Promise((resolve) => setImmediate(resolve));
    meanwhile();
    send(new TextEncoder().encode(new URLSearchParams(fields).toString()));
    const response = await answer;
    return { status: response.status, html: await response.text() };
  };
  return { file, ctx, clock, booked, link: `/manage/${token}`, get, post, postLate };
}

describe('the page’s rules over time (fixed clock, in-process)', () => {
  it('offers the times the engine offers, buffers included (issue 16)', async () => {
    const { ctx, link, get } = await installation();
    changeReason(ctx, 1, { bufferAfterMinutes: 30 });
    createBooking(
      ctx,
      {
        scheduleId: 1,
        reasonId: 1,
        slot: '2026-06-03 10:00:00',
        submission: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      },
      'api',
    );
    const times = offeredSlots((await get(`${link}/reschedule?day=2026-06-03`)).html).map((slot) => slot.slice(11, 16));
    // Grace keeps 10:00-11:00; a moved check-up needs 30 minutes after it too: 09:00 is the last start before her.
    expect(times).toEqual(['09:00', '11:00', '11:30']);
    expect(times).toEqual(availableSlots(ctx, 1, 1, '2026-06-03', 1).map((slot) => slot.local.slice(11, 16)));
  });

  it('open until the deadline (24 h before), then refused; at the start it says so; 30 days after the end it is an unknown link', async () => {
    const { file, clock, link, get, post } = await installation();
    // 2026-06-01 08:00 Berlin: 26 h before the start.
    const open = await get(link);
    expect(textOf((await get(`${link}?done=cancelled`)).html)).not.toContain('Your appointment is cancelled'); // only after a cancel
    expect(textOf(open.html)).toContain(
      'You can cancel or change this appointment here until Monday, 1 June 2026, 10:00 CEST',
    );
    const form = formFields((await get(`${link}/cancel`)).html, '/cancel')!;

    clock.now = new Date('2026-06-01T08:00:01Z'); // one second past the deadline
    expect(textOf((await get(link)).html)).toContain(
      'Changes here were possible until Monday, 1 June 2026, 10:00 CEST',
    );
    const before = snapshot(file);
    const late = await post(`${link}/cancel`, form);
    expect(late.status).toBe(409);
    expect(textOf(late.html)).toContain('It is too late to change this appointment here');
    expect(snapshot(file)).toEqual(before);

    clock.now = new Date('2026-06-02T08:00:00Z'); // the start
    const started = await get(link);
    expect(textOf(started.html)).toContain('This appointment has begun or is over');
    expect(started.html).not.toContain('<form');
    expect((await post(`${link}/cancel`, form)).status).toBe(409);
    expect(snapshot(file)).toEqual(before);

    clock.now = new Date('2026-07-02T08:30:00Z'); // 30 days after the end: still shown
    expect((await get(link)).status).toBe(200);
    clock.now = new Date('2026-07-02T08:30:01Z');
    const expired = await get(link);
    const unknown = await get(`/manage/${'Q'.repeat(43)}`);
    expect(expired.status).toBe(404);
    expect(expired.html).toBe(unknown.html);
  });

  it('checks the deadline and the start when the change is made, not when the headers came (issue 23, finding 7)', async () => {
    for (const [cancelUntil, headersAt, bodyAt, refusal] of [
      // The probe: --cancel-until 0, headers 1.5 s before the start, the body 1 s after it.
      [0, '2026-06-02T07:59:58.500Z', '2026-06-02T08:00:01Z', 'This appointment has begun or is over'],
      // The deadline 24 h before: headers a second before it, the body a second after.
      [24, '2026-06-01T07:59:59Z', '2026-06-01T08:00:01Z', 'It is too late to change this appointment here'],
    ] as const) {
      const { file, clock, link, get, postLate } = await installation();
      // As `planner portal enable` does: another connection (the server's own writes do not refresh its settings).
      const admin = openStore(file);
      enablePortal(
        createContext(admin, () => clock.now),
        { url: 'https://booking.sonne.example', cancelUntilHours: cancelUntil },
      );
      admin.close();
      clock.now = new Date(headersAt);
      const cancelForm = formFields((await get(`${link}/cancel`)).html, '/cancel')!;
      const slot = offeredSlots((await get(`${link}/reschedule?day=2026-06-03`)).html)[0]!;
      const moveForm = formFields(
        (await get(`${link}/reschedule?day=2026-06-03&time=${slot.slice(11, 16)}`)).html,
        '/reschedule',
      )!;
      const before = snapshot(file);
      for (const [path, form] of [
        [`${link}/cancel`, cancelForm],
        [`${link}/reschedule`, moveForm],
      ] as const) {
        clock.now = new Date(headersAt);
        const late = await postLate(path, form, () => (clock.now = new Date(bodyAt)));
        expect([path, late.status]).toEqual([path, 409]);
        expect(textOf(late.html)).toContain(refusal);
        expect(snapshot(file)).toEqual(before);
      }
      // In time, the same request changes the booking.
      clock.now = new Date(headersAt);
      expect((await postLate(`${link}/cancel`, cancelForm, () => {})).status).toBe(303);
    }
  });

  it('a booking the practice cancelled: the page says so, and the form made before is refused', async () => {
    const { file, ctx, booked, link, get, post } = await installation();
    const form = formFields((await get(`${link}/cancel`)).html, '/cancel')!;
    cancelBooking(ctx, booked.reference, { notify: false, reason: 'Practice closed' });
    const page = await get(link);
    expect(textOf(page.html)).toContain('This appointment is cancelled');
    expect(textOf(page.html)).toContain('Practice closed');
    const before = snapshot(file);
    const answer = await post(`${link}/cancel`, form);
    expect(answer.status).toBe(409);
    expect(textOf(answer.html)).toContain('This appointment is already cancelled');
    expect(snapshot(file)).toEqual(before);
  });

  it('speaks the installation’s language (de), also on the not-found page', async () => {
    const { link, get } = await installation('de');
    const page = await get(link);
    expect(page.html).toContain('<html lang="de">');
    expect(textOf(page.html)).toContain('Dienstag, 2. Juni 2026, 10:00 MESZ');
    expect(textOf(page.html)).toContain('Termin verlegen');
    expect(textOf(page.html)).toContain('Termin absagen');
    const missing = await get(`/manage/${'Q'.repeat(43)}`);
    expect(missing.html).toContain('<html lang="de">');
    expect(textOf(missing.html)).toContain('Dieser Link ist ungültig');
  });

  it('in German: where and whom to call, the steps of a move, too late, and the way back after a cancel (issue 24)', async () => {
    const { file, ctx, clock, booked, link, get } = await installation('de', {
      address: 'Sonnenweg 1, 10115 Berlin',
      phone: '+49 30 1234567',
      website: 'https://sonne.example',
    });
    const overview = await get(link);
    expect(overview.html).toContain('<dt>Wo</dt><dd>Sonnenweg 1, 10115 Berlin</dd>');
    expect(overview.html).toContain(
      '<footer><p>Praxis Sonne<br>Sonnenweg 1, 10115 Berlin<br>Telefon: <a href="tel:+49301234567">+49 30 1234567</a></p></footer>',
    );
    const days = await get(`${link}/reschedule`);
    expect(days.html).toContain('<summary>Gebucht: Di., 2. Juni, 10:00</summary>');
    expect(days.html).toContain(
      '/reschedule?day=2026-06-02" aria-current="date">Di., 2. Juni<span class="tag">Ihr Termin</span></a>',
    );
    const times = await get(`${link}/reschedule?day=2026-06-03`);
    expect(textOf(times.html)).toContain('Freie Zeiten am Mittwoch, 3. Juni 2026');
    expect(times.html).toContain('<h2 class="group">Vormittag</h2>');
    expect(textOf(times.html)).toContain('Die Verlegung bestätigen Sie im nächsten Schritt.');
    const confirm = await get(`${link}/reschedule?day=2026-06-03&time=10:00`);
    expect(confirm.html).toContain('<h1>Auf Mittwoch, 3. Juni, 10:00 verlegen?</h1>');
    expect(textOf(confirm.html)).toContain(
      'Bisher Dienstag, 2. Juni 2026, 10:00 MESZ Neu Mittwoch, 3. Juni 2026, 10:00 MESZ',
    );
    expect(textOf(confirm.html)).toContain('Ja, Termin verlegen');
    expect(textOf(confirm.html)).toContain('Nein, andere Zeit wählen');
    expect(formFields(confirm.html, '/reschedule')).toMatchObject({ slot: '2026-06-03 10:00:00' });

    clock.now = new Date('2026-06-01T08:00:01Z'); // past the deadline
    const late = await get(link);
    expect(textOf(late.html)).toContain(
      'Um den Termin jetzt zu ändern oder abzusagen, rufen Sie bitte Praxis Sonne an.',
    );
    expect(late.html).toContain('<a class="button" href="tel:+49301234567">+49 30 1234567 anrufen</a>');
    // As `planner practice set --phone ''` does: another connection (the server's own writes do not refresh its settings).
    const admin = openStore(file);
    changePractice(
      createContext(admin, () => clock.now),
      { phone: '' },
    );
    admin.close();
    const withoutPhone = await get(link);
    expect(textOf(withoutPhone.html)).toContain('antworten Sie bitte auf Ihre Bestätigungs-E-Mail von Praxis Sonne');

    cancelBooking(ctx, booked.reference, { notify: false });
    const cancelled = await get(link);
    expect(cancelled.html).toContain(
      '<p>Für einen neuen Termin:</p><a class="button" href="https://sonne.example">Website von Praxis Sonne</a>',
    );
  });
});
