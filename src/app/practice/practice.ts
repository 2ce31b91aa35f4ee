/**
 * The practice's own settings after `init`: name, time zone, language, the notices' address, and where
 * customers find and reach the practice. `planner practice set` changes them with the checks `init` makes.
 */

import { offsetAt, offsetTable } from '../../domain/zone.ts';
import { invalid } from '../../errors.ts';
import { upcomingStarts } from '../../store/bookings.ts';
import { type Locale, type PracticeSettings, setPractice } from '../../store/settings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from './configured.ts';
import { checkInitAnswer } from './init.ts';

export type { PracticeSettings };

/** Returns the practice's settings. */
export function showPractice(ctx: AppContext): PracticeSettings {
  const { practiceName, timeZone, locale, notifyEmail, address, phone, website } = requireConfigured(ctx);
  return { practiceName, timeZone, locale, notifyEmail, address, phone, website };
}

export interface PracticeChange {
  before: PracticeSettings;
  after: PracticeSettings;
  /** With a new time zone: how many upcoming bookings now show another local time (each keeps its instant). */
  shiftedBookings: number;
}

/**
 * Changes the given settings (`undefined`: unchanged; '' clears the address, phone or website), each checked as
 * `init` checks it, in one transaction. A booking keeps its instant when the time zone changes; the hours stay the
 * same local times in the new zone.
 */
export function changePractice(
  ctx: AppContext,
  changes: Partial<Record<keyof PracticeSettings, string>>,
): PracticeChange {
  for (const [name, value] of Object.entries(changes) as [keyof PracticeSettings, string | undefined][]) {
    const problem = value === undefined ? undefined : checkInitAnswer(name, value);
    if (problem) throw invalid(problem, name);
  }
  if (Object.values(changes).every((value) => value === undefined)) {
    throw invalid(
      'nothing to change: give at least one of --name, --timezone, --notify, --locale, --address, --phone, --website',
    );
  }
  return ctx.store.tx(() => {
    const before = showPractice(ctx);
    const given = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    ) as Partial<PracticeSettings>;
    const after: PracticeSettings = {
      ...before,
      ...given,
      practiceName: (given.practiceName ?? before.practiceName).trim(),
      address: (given.address ?? before.address).trim(),
      phone: (given.phone ?? before.phone).trim(),
      locale: (given.locale ?? before.locale) as Locale,
    };
    setPractice(ctx.store, after);
    const shiftedBookings = after.timeZone === before.timeZone ? 0 : countShifted(ctx, before.timeZone, after.timeZone);
    return { before, after, shiftedBookings };
  });
}

/** Counts the upcoming bookings whose local time differs between the two zones (one query, arithmetic per row). */
function countShifted(ctx: AppContext, from: string, to: string): number {
  const starts = upcomingStarts(ctx.store, unixSeconds(ctx.now()));
  if (starts.length === 0) return 0;
  const first = Math.min(...starts);
  const last = Math.max(...starts);
  const old = offsetTable(from, first, last);
  const now = offsetTable(to, first, last);
  return starts.filter((at) => offsetAt(old, at) !== offsetAt(now, at)).length;
}
