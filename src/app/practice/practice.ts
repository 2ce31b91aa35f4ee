/**
 * The practice's own settings after `init`: name, time zone, language, the notices' address, and where
 * customers find and reach the practice. `planner practice set` changes them with the checks `init` makes.
 */

import { isLocale, offeredLanguages } from '../../domain/languages.ts';
import { LOCALES } from '../../domain/locales.ts';
import { offsetAt, offsetTable } from '../../domain/zone.ts';
import { invalid } from '../../errors.ts';
import { upcomingStarts } from '../../store/bookings.ts';
import { type Locale, type PracticeSettings, setPractice } from '../../store/settings.ts';
import { type AppContext, unixSeconds } from '../context.ts';
import { requireConfigured } from './configured.ts';
import { checkInitAnswer } from './init.ts';
import { swapOwnLanguage } from './local-texts.ts';

export type { PracticeSettings };

/** Returns the practice's settings. */
export function showPractice(ctx: AppContext): PracticeSettings {
  const { practiceName, timeZone, locale, languages, notifyEmail, address, phone, website } = requireConfigured(ctx);
  return { practiceName, timeZone, locale, languages, notifyEmail, address, phone, website };
}

/**
 * Returns the languages `--languages` names (`de,fr`: the practice's own first), or throws naming what is wrong: a
 * language planner does not speak, one named twice, or none.
 */
export function checkLanguages(text: string): Locale[] {
  const names = text.split(',').map((one) => one.trim().toLowerCase());
  const unknown = names.find((one) => !isLocale(one));
  if (names.every((one) => one === ''))
    throw invalid('--languages names none: give e.g. --languages de,fr', 'languages');
  if (unknown !== undefined)
    throw invalid(
      `--languages: "${unknown}" is not one of ${LOCALES.join(', ')} (example: --languages de,fr, the practice's own first)`,
      'languages',
    );
  const twice = names.find((one, at) => names.indexOf(one) !== at);
  if (twice !== undefined) throw invalid(`--languages names "${twice}" twice: name each language once`, 'languages');
  return names as Locale[];
}

/**
 * The offered languages after a change: `--languages` as given; a new own language (`--locale`) first, the others
 * kept (the old own one among them while it stays offered: it is kept when the new one was already offered, replaced
 * when it was not).
 */
function languagesAfter(
  before: PracticeSettings,
  locale: Locale | undefined,
  languages: Locale[] | undefined,
): Locale[] {
  if (languages) return languages;
  if (locale === undefined || locale === before.locale) return before.languages;
  const others = before.languages.includes(locale) ? before.languages : before.languages.slice(1);
  return offeredLanguages(locale, others);
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
  input: Partial<Record<keyof PracticeSettings, string>>,
): PracticeChange {
  const { languages: languagesText, ...changes } = input;
  for (const [name, value] of Object.entries(changes) as [
    Exclude<keyof PracticeSettings, 'languages'>,
    string | undefined,
  ][]) {
    const problem = value === undefined ? undefined : checkInitAnswer(name, value);
    if (problem) throw invalid(problem, name);
  }
  const languages = languagesText === undefined ? undefined : checkLanguages(languagesText);
  if (languages && changes.locale !== undefined && changes.locale !== languages[0])
    throw invalid(
      `--locale ${changes.locale} and --languages ${languages.join(',')} disagree: the first of --languages is the practice's own`,
      'languages',
    );
  if (Object.values(input).every((value) => value === undefined)) {
    throw invalid(
      'nothing to change: give at least one of --name, --timezone, --notify, --locale, --languages, --address, --phone, --website',
    );
  }
  return ctx.store.tx(() => {
    const before = showPractice(ctx);
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<
      Omit<PracticeSettings, 'languages'>
    >;
    const offered = languagesAfter(before, given.locale, languages);
    const after: PracticeSettings = {
      ...before,
      ...given,
      practiceName: (given.practiceName ?? before.practiceName).trim(),
      address: (given.address ?? before.address).trim(),
      phone: (given.phone ?? before.phone).trim(),
      locale: offered[0]!,
      languages: offered,
    };
    setPractice(ctx.store, after);
    // A new own language: the texts given in it become the texts, the ones they replace the old language's.
    if (after.locale !== before.locale) swapOwnLanguage(ctx, before.locale, after.locale);
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
