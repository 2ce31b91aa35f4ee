/**
 * A Google or Microsoft sign-in that dies in the middle of the week (issue 48), with the clock in the test's hand:
 * the bookings made, moved and cancelled meanwhile succeed; the calendar is marked for reconnecting at once (the
 * practice mailed once, `status` saying what to run); after the reconnect the calendar holds exactly the upcoming
 * bookings, each once, at its time. The providers are the fakes of their APIs; the rest is planner's own code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking } from '../../src/app/bookings/create-booking.ts';
import { cancelBooking, moveBooking } from '../../src/app/bookings/lifecycle.ts';
import { calendars } from '../../src/app/calendars/calendar-views.ts';
import { alertWriteFailures, deliverWrites } from '../../src/app/calendars/calendar-writes.ts';
import { connectCalendar, reconnectCalendar, syncCalendars } from '../../src/app/calendars/calendars.ts';
import type { AppContext } from '../../src/app/context.ts';
import { readServiceAccountKey } from '../../src/calendar/google.ts';
import type { ProviderSecret } from '../../src/calendar/provider.ts';
import { unsentMessages } from '../../src/store/outbox.ts';
import { cliWith } from '../helpers.ts';
import { practice } from '../practice.ts';
import { fakeGoogle } from './fake-google.ts';
import { fakeMicrosoft } from './fake-microsoft.ts';

const CALENDAR = 'anna@example.com';

/** A provider's account as the test drives it: a sign-in, its death, a new one, and planner's events (reference → start). */
interface Account {
  provider: 'google' | 'microsoft';
  calendarId: string;
  signIn(): ProviderSecret;
  die(): void;
  events(): Map<string, string>;
}

let google: Awaited<ReturnType<typeof fakeGoogle>>;
let microsoft: Awaited<ReturnType<typeof fakeMicrosoft>>;
const saved = { ...process.env };
beforeAll(async () => {
  google = await fakeGoogle();
  microsoft = await fakeMicrosoft();
  process.env.PLANNER_TEST_GOOGLE_BASE = google.url;
  process.env.PLANNER_TEST_MICROSOFT_BASE = microsoft.url;
});
afterAll(() => {
  process.env = saved;
});

function googleAccount(): Account {
  const email = 'planner@planner-test.iam.gserviceaccount.com';
  let keyId = '';
  return {
    provider: 'google',
    calendarId: CALENDAR,
    signIn() {
      google.share(CALENDAR, email, 'writer');
      const secret = readServiceAccountKey(google.serviceAccountKey(email));
      keyId = secret.privateKeyId!;
      return secret;
    },
    // The key is deleted (an admin's clean-up, a key rotated out): its token runs out within the hour.
    die() {
      google.deleteKey(email, keyId);
      google.expireTokens();
    },
    events: () =>
      new Map(
        google
          .events(CALENDAR)
          .filter((event) => /^planner[0-9a-f]+$/.test(String(event.id)))
          .map((event) => [
            Buffer.from(String(event.id).slice(7), 'hex').toString().toUpperCase(),
            new Date(String((event.start as { dateTime: string }).dateTime)).toISOString(),
          ]),
      ),
  };
}

function microsoftAccount(): Account {
  const clientId = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
  microsoft.registerApp(clientId, { publicClient: true });
  return {
    provider: 'microsoft',
    calendarId: '',
    signIn: () => ({
      type: 'microsoft-device',
      clientId,
      tenant: 'common',
      refreshToken: microsoft.signIn(clientId, CALENDAR),
      account: CALENDAR,
    }),
    // The practitioner removes planner's access (myapps.microsoft.com): its tokens are refused.
    die: () => microsoft.revoke(CALENDAR),
    events: () =>
      new Map(
        microsoft
          .events(CALENDAR)
          .filter((event) => /^planner-[0-9a-z]{16}$/i.test(String(event.transactionId ?? '')))
          .map((event) => [
            String(event.transactionId).slice(8).toUpperCase(),
            new Date(`${event.start.dateTime.slice(0, 19)}Z`).toISOString(),
          ]),
      ),
  };
}

/** Books `slot` (local time) for a new customer. */
function book(ctx: AppContext, slot: string, name: string): string {
  return createBooking(
    ctx,
    {
      scheduleId: 1,
      reasonId: 1,
      slot: `${slot}:00`,
      submission: { first_name: name, last_name: 'Test', email: `${name.toLowerCase()}@example.com` },
    },
    'api',
  ).reference;
}

describe.each([
  ['Google', googleAccount],
  ['Microsoft', microsoftAccount],
])('a %s sign-in that dies mid-week (issue 48)', (_name, make) => {
  it('bookings succeed meanwhile, status says reconnect, and after it the calendar holds exactly the upcoming bookings', async () => {
    const account = make();
    // Monday 7 December 2026, 08:00 in Berlin.
    const clock = { now: new Date('2026-12-07T07:00:00Z') };
    const { ctx, store, file } = practice({ clock });
    await connectCalendar(
      ctx,
      1,
      { provider: account.provider, calendarId: account.calendarId, secret: account.signIn() },
      { writeBookings: true, accountName: CALENDAR, label: 'Anna' },
    );
    const monday = [book(ctx, '2026-12-08 09:00', 'Ada'), book(ctx, '2026-12-10 09:00', 'Bea')];
    expect(await deliverWrites(ctx, 1)).toEqual({ written: 2, error: null });
    expect([...account.events().keys()].sort()).toEqual([...monday].sort());

    // Wednesday: the sign-in dies. Bookings go on: made, moved and cancelled.
    clock.now = new Date('2026-12-09T07:00:00Z');
    account.die();
    const wednesday = [book(ctx, '2026-12-10 10:00', 'Cy'), book(ctx, '2026-12-11 11:00', 'Dan')];
    moveBooking(ctx, monday[1]!, '2026-12-11 14:00:00', { notify: false, force: false });
    cancelBooking(ctx, wednesday[0]!, { notify: false });
    const failed = await deliverWrites(ctx, 1);
    expect(failed.written).toBe(0);
    expect(failed.error).toMatch(account.provider === 'google' ? /invalid_grant/ : /AADSTS50173|invalid_grant/);
    const [view] = calendars(ctx);
    expect(view!.reconnect).toEqual({
      why: expect.any(String),
      command:
        account.provider === 'google'
          ? 'planner calendar reconnect 1 --key-file <new-key.json>'
          : 'planner calendar reconnect 1',
    });
    const status = await cliWith(file, {}, 'status');
    expect(status.stdout).toContain(`RECONNECT: ${view!.reconnect!.why}`);
    expect(status.stdout).toContain(`reconnect: ${view!.reconnect!.command}`);
    const mails = () =>
      unsentMessages(store)
        .filter((message) => message.bookingId === null)
        .map((message) => message.subject);
    expect(mails()).toEqual(['Calendar "Anna" needs reconnecting: planner may no longer use it']);
    // Tried again later: still one mail.
    clock.now = new Date('2026-12-09T09:00:00Z');
    await deliverWrites(ctx, 1);
    expect(mails()).toHaveLength(1);
    // The calendar still shows what was written before (Bea at her old time): nothing was written since.
    expect(account.events().get(monday[1]!)).toBe('2026-12-10T08:00:00.000Z');

    // Thursday morning: reconnected. Everything that waited is written, each once.
    clock.now = new Date('2026-12-10T06:00:00Z');
    const outcome = await reconnectCalendar(ctx, 1, account.signIn(), null);
    expect(outcome.ok).toBe(true);
    expect((await deliverWrites(ctx, 1)).error).toBeNull();
    expect(Object.fromEntries(account.events())).toEqual({
      [monday[0]!]: '2026-12-08T08:00:00.000Z',
      [monday[1]!]: '2026-12-11T13:00:00.000Z',
      [wednesday[1]!]: '2026-12-11T10:00:00.000Z',
    });
    expect(calendars(ctx)[0]!.reconnect).toBeNull();
    expect((await cliWith(file, {}, 'status')).stdout).not.toContain('RECONNECT');
    store.close();
  }, 60_000);
});

describe('one mail about a sign-in that is gone, whatever else happens (issue 48)', () => {
  const notices = (store: ReturnType<typeof practice>['store']) =>
    unsentMessages(store)
      .filter((message) => message.bookingId === null)
      .map((message) => message.subject);

  it('a calendar only read: its reconnect mail, and no mail that it "receives bookings again"', async () => {
    const account = googleAccount();
    const clock = { now: new Date('2026-12-07T07:00:00Z') };
    const { ctx, store } = practice({ clock });
    await connectCalendar(
      ctx,
      1,
      { provider: 'google', calendarId: CALENDAR, secret: account.signIn() },
      { accountName: CALENDAR, label: 'Anna' },
    );
    account.die();
    for (const hour of [8, 9, 10]) {
      clock.now = new Date(`2026-12-07T${String(hour).padStart(2, '0')}:00:00Z`);
      expect((await syncCalendars(ctx, 1))[0]).toMatchObject({
        ok: false,
        error: expect.stringMatching(/invalid_grant/),
      });
      alertWriteFailures(ctx);
    }
    expect(notices(store)).toEqual(['Calendar "Anna" needs reconnecting: planner may no longer use it']);
    store.close();
  });

  it('a calendar shared to read but not to write: reconnect stays while its reads succeed, and one mail', async () => {
    const account = googleAccount();
    const clock = { now: new Date('2026-12-07T07:00:00Z') };
    const { ctx, store } = practice({ clock });
    await connectCalendar(
      ctx,
      1,
      { provider: 'google', calendarId: CALENDAR, secret: account.signIn() },
      { writeBookings: true, accountName: CALENDAR, label: 'Anna' },
    );
    google.share(CALENDAR, 'planner@planner-test.iam.gserviceaccount.com', 'reader');
    book(ctx, '2026-12-08 09:00', 'Ada');
    for (const hour of [8, 10, 12]) {
      clock.now = new Date(`2026-12-07T${String(hour).padStart(2, '0')}:00:00Z`);
      expect((await deliverWrites(ctx, 1)).written).toBe(0);
      expect((await syncCalendars(ctx, 1))[0]).toMatchObject({ error: null });
      alertWriteFailures(ctx);
      expect(calendars(ctx)[0]!.reconnect).not.toBeNull();
    }
    expect(notices(store)).toEqual(['Calendar "Anna" needs reconnecting: planner may no longer use it']);
    store.close();
  });
});
