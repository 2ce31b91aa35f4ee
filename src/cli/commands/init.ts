import type { Command } from 'commander';
import {
  checkInitAnswer,
  type InitAnswers,
  initInstallation,
  LOCALES,
  refuseInitialised,
} from '../../app/practice/init.ts';
import { LANGUAGE_NAMES } from '../../domain/locales.ts';
import { AppError, invalid } from '../../errors.ts';
import { interactive, print, withContext } from '../shared.ts';
import { contactOptions, FLAGS, givenSettings, type PracticeOptions } from './practice.ts';

type InitOptions = PracticeOptions & { yes?: boolean };

/** The machine's own zone as the prompt's default, when it is a place name (a server's `Etc/UTC` is not). */
function machineZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return checkInitAnswer('timeZone', zone) === undefined ? zone : undefined;
}

/** Asks for each answer not given as a flag (on a terminal only), then confirms unless --yes. */
async function collectAnswers(options: InitOptions): Promise<InitAnswers> {
  const given: Partial<InitAnswers> = givenSettings(options); // checked before any question, so a typo fails fast
  const missing = (['practiceName', 'timeZone', 'notifyEmail'] as const).filter((name) => given[name] === undefined);
  if (!interactive()) {
    if (missing.length > 0) {
      throw invalid(
        `missing ${missing.map((name) => FLAGS[name]).join(', ')} (or run \`planner init\` in a terminal to be asked)`,
      );
    }
    return { ...(given as InitAnswers), locale: given.locale ?? 'en' };
  }
  const { confirm, input, select } = await import('@inquirer/prompts'); // only a terminal needs them
  const validate = (name: keyof InitAnswers) => (value: string) => checkInitAnswer(name, value.trim()) ?? true;
  const answers: InitAnswers = {
    ...given,
    practiceName:
      given.practiceName ?? (await input({ message: 'Practice name:', validate: validate('practiceName') })).trim(),
    timeZone:
      given.timeZone ??
      (
        await input({
          message: 'Time zone (IANA):',
          default: machineZone(),
          validate: validate('timeZone'),
        })
      ).trim(),
    notifyEmail:
      given.notifyEmail ??
      (await input({ message: 'E-mail for booking notices:', validate: validate('notifyEmail') })).trim(),
    address:
      given.address ??
      (
        await input({ message: 'Address customers come to (one line; Enter to skip):', validate: validate('address') })
      ).trim(),
    phone:
      given.phone ??
      (await input({ message: 'Phone customers call (Enter to skip):', validate: validate('phone') })).trim(),
    website:
      given.website ??
      (
        await input({ message: 'Website of the practice (https://…; Enter to skip):', validate: validate('website') })
      ).trim(),
    locale:
      given.locale ??
      (await select({
        message: 'Language of mails, the page, the feed and the form labels:',
        choices: LOCALES.map((locale) => ({ name: LANGUAGE_NAMES[locale], value: locale })),
      })),
  };
  if (!options.yes) {
    const ok = await confirm({
      message: `Create "${answers.practiceName}" (${answers.timeZone}, ${answers.locale}, notices to ${answers.notifyEmail})?`,
      default: true,
    });
    if (!ok) throw new AppError('conflict', 'init cancelled; nothing was changed');
  }
  return answers;
}

export function registerInit(program: Command): void {
  contactOptions(
    program
      .command('init')
      .description(
        'complete the installation (asks for what is not given, on a terminal; `planner practice set` changes it later)',
      )
      .option('--name <practice>', 'practice name')
      .option('--timezone <zone>', 'IANA time zone, e.g. Europe/Berlin')
      .option('--notify <email>', 'address that receives booking notices')
      .option(
        '--locale <locale>',
        `language of mails, the pages, the feed and the default form labels: ${LOCALES.join(', ')}`,
      ),
  )
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (options: InitOptions, command: Command) => {
      // Without a terminal the flags are all there is: check them before the file is even opened.
      const given = interactive() ? undefined : await collectAnswers(options);
      await withContext(
        command,
        async (ctx) => {
          refuseInitialised(ctx); // before the questions: do not ask what cannot be used
          const settings = initInstallation(ctx, given ?? (await collectAnswers(options)));
          print(
            `Initialised "${settings.practiceName}" (${settings.timeZone}, ${settings.locale}) in ${ctx.store.file}.`,
            'Next: planner schedule add <name>, planner hours set, planner api enable, planner token new.',
          );
        },
        true,
      );
    });
}
