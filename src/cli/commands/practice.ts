import type { Command } from 'commander';
import { checkInitAnswer, LOCALES } from '../../app/practice/init.ts';
import { changePractice, checkLanguages, type PracticeSettings, showPractice } from '../../app/practice/practice.ts';
import { invalid } from '../../errors.ts';
import { print, printJson, readContext, withContext } from '../shared.ts';

/** The options `init` and `practice set` share, as commander names them. */
export interface PracticeOptions {
  name?: string;
  timezone?: string;
  notify?: string;
  locale?: string;
  languages?: string;
  address?: string;
  phone?: string;
  website?: string;
}

/** Each setting's option as typed, for error lines and for what `init` says is missing. */
export const FLAGS: Record<keyof PracticeSettings, string> = {
  practiceName: '--name <practice>',
  timeZone: '--timezone <IANA zone>',
  notifyEmail: '--notify <email>',
  locale: `--locale ${LOCALES.join('|')}`,
  languages: '--languages <list>',
  address: '--address <text>',
  phone: '--phone <number>',
  website: '--website <url>',
};

/**
 * Returns the settings given as options (undefined: not given), each checked as `init` checks it before the file is
 * opened: a bad one throws one line naming the option as typed.
 */
export function givenSettings(options: PracticeOptions): Partial<Record<keyof PracticeSettings, string>> {
  const given = {
    practiceName: options.name,
    timeZone: options.timezone,
    notifyEmail: options.notify,
    locale: options.locale,
    languages: options.languages,
    address: options.address,
    phone: options.phone,
    website: options.website,
  };
  if (given.languages !== undefined) checkLanguages(given.languages);
  for (const [name, value] of Object.entries(given) as [keyof PracticeSettings, string | undefined][]) {
    const problem = value === undefined || name === 'languages' ? undefined : checkInitAnswer(name, value);
    if (problem) throw invalid(`${FLAGS[name].split(' ')[0]}: ${problem}`);
  }
  return given;
}

/** The practice's settings as `practice show` and `practice set` print them. */
function practiceLines(practice: PracticeSettings): string[] {
  const none = (value: string, flag: string) => value || `not given (planner practice set ${flag} …)`;
  return [
    `name         ${practice.practiceName}`,
    `time zone    ${practice.timeZone}`,
    `language     ${practice.locale}${practice.languages.length > 1 ? ` (its own); customers also in ${practice.languages.slice(1).join(', ')}` : ''}`,
    `notices to   ${practice.notifyEmail}`,
    `address      ${none(practice.address, '--address')}`,
    `phone        ${none(practice.phone, '--phone')}`,
    `website      ${none(practice.website, '--website')}`,
  ];
}

/** The options `init` and `practice set` share for where customers find and reach the practice. */
export function contactOptions(command: Command): Command {
  return command
    .option('--address <text>', 'where the practice is, on one line (shown in mails, the .ics and the page)')
    .option('--phone <number>', 'the phone number customers call (mails and the page)')
    .option('--website <url>', "the practice's website, http(s) (the page's way back after a cancel)");
}

export function registerPractice(program: Command): void {
  const practice = program
    .command('practice')
    .description("the practice's settings from init: name, time zone, language, notices, address, phone, website");
  practice
    .command('show')
    .description("show the practice's settings")
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const settings = await readContext(command, (ctx) => showPractice(ctx));
      if (options.json) printJson(settings);
      else print(...practiceLines(settings));
    });
  contactOptions(
    practice
      .command('set')
      .description(
        "change the practice's settings, each checked as init checks it ('' clears the address, phone or website)",
      )
      .option('--name <practice>', 'practice name')
      .option('--timezone <zone>', 'IANA time zone, e.g. Europe/Berlin: bookings keep their instant, hours stay local')
      .option('--notify <email>', 'address that receives booking notices')
      .option(
        '--locale <locale>',
        `the practice's own language (its notices, the feed, the desk): ${LOCALES.join(', ')}`,
      )
      .option(
        '--languages <list>',
        "the languages customers are served in, the practice's own first, e.g. de,fr (each customer gets theirs)",
      ),
  ).action(async (options: PracticeOptions, command: Command) => {
    const changes = givenSettings(options);
    const change = await withContext(command, (ctx) => changePractice(ctx, changes));
    const { before, after, shiftedBookings } = change;
    const lines = practiceLines(after);
    if (after.timeZone !== before.timeZone) {
      lines.push(
        shiftedBookings === 0
          ? `The time zone changed from ${before.timeZone} to ${after.timeZone}: no upcoming booking shows another local time.`
          : `The time zone changed from ${before.timeZone} to ${after.timeZone}: ${shiftedBookings} upcoming booking(s) keep their instant and now show another local time (planner bookings list); the opening hours stay the same local times.`,
      );
    }
    if (after.locale !== before.locale) {
      lines.push(
        `Notices, the feed, the desk and the pages now speak ${after.locale}, as do the mails of customers who asked for no other language (the others keep theirs); the form's labels keep their words (they may be your own): planner field set <key> --label … changes one.`,
      );
    }
    if (after.languages.join(',') !== before.languages.join(',') && after.languages.length > 1) {
      lines.push(
        `Customers now get ${after.languages.join(', ')}: their browser's language, or the one they pick on the pages, kept with their booking. planner doctor names the labels and reasons without a text in ${after.languages.slice(1).join(', ')}.`,
      );
    }
    print('Saved.', ...lines);
  });
}
