/**
 * The verdicts of src/app/operations/health.ts, in-process and one table per part: `planner status` and `planner
 * doctor` print them (their tests go through a server and the CLI), so every branch of each verdict is held here,
 * with the boundaries where one turns into another.
 */
import { describe, expect, it } from 'vitest';
import type { CalendarView, WritingView } from '../../src/app/calendars/calendar-views.ts';
import {
  bookingPageVerdict,
  calendarEditsVerdict,
  calendarVerdict,
  calendarWriteVerdict,
  mailTransportVerdict,
  mailVerdict,
  REPLICA_LAG_LIMIT_SECONDS,
  replicationVerdict,
  webhookVerdict,
} from '../../src/app/operations/health.ts';
import type { OutboxCounts } from '../../src/store/outbox.ts';
import type { BookingPageSettings, PortalSettings } from '../../src/store/settings.ts';

type EditView = CalendarView['edits'][number];

const NOW = Date.parse('2026-06-01T08:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

describe('mailVerdict', () => {
  const counts = (part: Partial<OutboxCounts>): OutboxCounts => ({
    pending: 0,
    scheduled: 0,
    failed: 0,
    retrying: 0,
    retryingSince: null,
    lastError: null,
    ...part,
  });
  it.each<[string, boolean, Partial<OutboxCounts>, ReturnType<typeof mailVerdict>]>([
    ['set up, nothing waiting', true, {}, { health: 'ok', why: 'ok' }],
    ['set up, messages due but not yet tried', true, { pending: 3, scheduled: 2 }, { health: 'ok', why: 'ok' }],
    ['set up, a message retried', true, { pending: 1, retrying: 1 }, { health: 'fail', why: 'retrying' }],
    ['retrying outweighs failed for good', true, { retrying: 1, failed: 4 }, { health: 'fail', why: 'retrying' }],
    ['retrying outweighs not set up', false, { retrying: 1 }, { health: 'fail', why: 'retrying' }],
    ['not set up', false, {}, { health: 'warn', why: 'not-configured' }],
    ['not set up outweighs failed for good', false, { failed: 2 }, { health: 'warn', why: 'not-configured' }],
    ['set up, messages failed for good', true, { failed: 1 }, { health: 'warn', why: 'failed' }],
  ])('%s', (_name, configured, part, verdict) => {
    expect(mailVerdict(configured, counts(part))).toEqual(verdict);
  });
});

describe('webhookVerdict', () => {
  it.each<[{ retrying: number; failed: number }, ReturnType<typeof webhookVerdict>]>([
    [
      { retrying: 0, failed: 0 },
      { health: 'ok', why: 'ok' },
    ],
    [
      { retrying: 1, failed: 0 },
      { health: 'fail', why: 'failing' },
    ],
    [
      { retrying: 0, failed: 1 },
      { health: 'fail', why: 'failing' },
    ],
    [
      { retrying: 2, failed: 3 },
      { health: 'fail', why: 'failing' },
    ],
  ])('%j', (hook, verdict) => {
    expect(webhookVerdict(hook)).toEqual(verdict);
  });
});

describe('calendarVerdict', () => {
  // Stale after three intervals, and never sooner than an hour: 60 minutes for a calendar read every 5 or 20
  // minutes, 180 for one read hourly.
  it.each<[string, 'ok' | 'failing', string | null, number, ReturnType<typeof calendarVerdict>]>([
    ['read a minute ago', 'ok', minutesAgo(1), 5, { health: 'ok', why: 'ok' }],
    ['failing, read a minute ago', 'failing', minutesAgo(1), 5, { health: 'fail', why: 'failing' }],
    ['failing outweighs stale', 'failing', null, 5, { health: 'fail', why: 'failing' }],
    ['never read', 'ok', null, 5, { health: 'warn', why: 'stale' }],
    ['every 5 min, read 60 min ago: the hour is the floor', 'ok', minutesAgo(60), 5, { health: 'ok', why: 'ok' }],
    ['every 5 min, read just over an hour ago', 'ok', minutesAgo(60.001), 5, { health: 'warn', why: 'stale' }],
    ['every 20 min, read 60 min ago (three intervals)', 'ok', minutesAgo(60), 20, { health: 'ok', why: 'ok' }],
    ['every 20 min, read 61 min ago', 'ok', minutesAgo(61), 20, { health: 'warn', why: 'stale' }],
    ['every 60 min, read 179 min ago', 'ok', minutesAgo(179), 60, { health: 'ok', why: 'ok' }],
    ['every 60 min, read 181 min ago', 'ok', minutesAgo(181), 60, { health: 'warn', why: 'stale' }],
  ])('%s', (_name, state, lastSuccess, everyMinutes, verdict) => {
    expect(calendarVerdict({ state, lastSuccess, everyMinutes, reconnect: null }, NOW)).toEqual(verdict);
  });
  it('an account to reconnect outweighs everything: it does not heal by waiting', () => {
    const reconnect = { why: 'invalid_grant', command: 'planner calendar reconnect 1' };
    for (const state of ['ok', 'failing'] as const)
      expect(calendarVerdict({ state, lastSuccess: minutesAgo(1), everyMinutes: 5, reconnect }, NOW)).toEqual({
        health: 'fail',
        why: 'reconnect',
      });
  });
});

describe('calendarWriteVerdict', () => {
  const writing = (part: Partial<WritingView>): WritingView => ({
    waiting: 0,
    state: 'ok',
    failingSince: null,
    lastError: null,
    stuck: false,
    ...part,
  });
  it.each<[string, WritingView | null, ReturnType<typeof calendarWriteVerdict>]>([
    ['not receiving bookings', null, undefined],
    ['writing', writing({}), { health: 'ok', why: 'ok' }],
    ['writing, changes waiting their turn', writing({ waiting: 4 }), { health: 'ok', why: 'ok' }],
    [
      'catching up after an outage',
      writing({ state: 'catching-up', waiting: 9 }),
      { health: 'ok', why: 'catching-up' },
    ],
    [
      'failing',
      writing({ state: 'failing', waiting: 2, failingSince: '2026-06-01T07:00:00Z', lastError: 'HTTP 503' }),
      { health: 'fail', why: 'failing' },
    ],
    [
      'failing for long: stuck',
      writing({ state: 'failing', waiting: 2, failingSince: '2026-05-29T07:00:00Z', stuck: true }),
      { health: 'fail', why: 'stuck' },
    ],
  ])('%s', (_name, view, verdict) => {
    expect(calendarWriteVerdict({ writing: view })).toEqual(verdict);
  });
});

describe('calendarEditsVerdict', () => {
  it.each<[string, EditView[], ReturnType<typeof calendarEditsVerdict>]>([
    ['no event edited in a calendar app', [], undefined],
    ['one event edited', [{} as EditView], { health: 'warn', why: 'edited' }],
    ['several', [{} as EditView, {} as EditView], { health: 'warn', why: 'edited' }],
  ])('%s', (_name, edits, verdict) => {
    expect(calendarEditsVerdict({ edits })).toEqual(verdict);
  });
});

describe('bookingPageVerdict', () => {
  const page: BookingPageSettings = { schedules: 'all', embedFrom: [], privacyUrl: null, perHour: 10, perEmail: 3 };
  const portal: PortalSettings = { url: 'https://booking.example', cancelUntilHours: 24, reschedule: true };
  it.each<[string, BookingPageSettings | null, PortalSettings | null, ReturnType<typeof bookingPageVerdict>]>([
    ['off', null, null, { health: 'ok', why: 'off' }],
    ['off, the self-service page on', null, portal, { health: 'ok', why: 'off' }],
    ['on and served under the self-service page', page, portal, { health: 'ok', why: 'served' }],
    ['on, the self-service page off: not served', page, null, { health: 'fail', why: 'not-served' }],
  ])('%s', (_name, bookingPage, portalSettings, verdict) => {
    expect(bookingPageVerdict({ bookingPage, portal: portalSettings })).toEqual(verdict);
  });
});

describe('mailTransportVerdict', () => {
  it.each<[string, string | null, ReturnType<typeof mailTransportVerdict>]>([
    ['mail not set up', null, undefined],
    ['smtps://, a login', 'smtps://planner:pw@mail.example:465', { health: 'ok', why: 'ok' }],
    ['smtp:// with STARTTLS required', 'smtp://planner:pw@mail.example:587', { health: 'ok', why: 'ok' }],
    [
      'the password allowed in clear',
      'smtp://planner:pw@mail.example:25?insecure_password_in_clear=yes',
      { health: 'fail', why: 'password-in-clear' },
    ],
  ])('%s', (_name, url, verdict) => {
    expect(mailTransportVerdict(url)).toEqual(verdict);
  });
});

describe('replicationVerdict', () => {
  const replica = (lagSeconds: number) => ({ lagSeconds });
  it.each<[string, Parameters<typeof replicationVerdict>[0], ReturnType<typeof replicationVerdict>]>([
    ['off: a choice', { state: 'off' }, { health: 'ok', why: 'off' }],
    ['its replica cannot be read', { state: 'unreadable' }, { health: 'fail', why: 'unreadable' }],
    [
      'on, within the limit',
      { state: 'on', replicas: [replica(0), replica(REPLICA_LAG_LIMIT_SECONDS)] },
      { health: 'ok', why: 'ok' },
    ],
    [
      'one replica a second past the limit',
      { state: 'on', replicas: [replica(1), replica(REPLICA_LAG_LIMIT_SECONDS + 1)] },
      { health: 'fail', why: 'behind' },
    ],
  ])('%s', (_name, replication, verdict) => {
    expect(replicationVerdict(replication)).toEqual(verdict);
  });
});
