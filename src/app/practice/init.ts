/**
 * `planner init`: what its answers may be (shared by its flags, its prompts and `planner practice set`), the defaults
 * of a new installation, and the one transaction that completes it.
 */

import { isEmail, isPhone, nameMessage, nameProblem } from '../../domain/checks.ts';
import { DEFAULT_FIELDS, DEFAULT_LABELS } from '../../domain/form.ts';
import { LOCALES } from '../../domain/locales.ts';
import { timeZoneProblem } from '../../domain/zone.ts';
import { AppError, invalid } from '../../errors.ts';
import { insertField } from '../../store/fields.ts';
import { type Locale, markConfigured } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';
import { type ConfiguredSettings, isConfigured, requireConfigured } from './configured.ts';

/** The languages of the mails, the pages, the feed and the form's default labels (for init's flags and prompt). */
export { LOCALES };

/** Throws `conflict` when `planner init` has completed already: init asks this before its questions, and again in its transaction. */
export function refuseInitialised(ctx: AppContext): void {
  if (isConfigured(ctx.settings())) throw alreadyInitialised(ctx);
}

function alreadyInitialised(ctx: AppContext): AppError {
  return new AppError('conflict', `this installation is already initialised (${ctx.store.file}); nothing was changed`);
}

export interface InitAnswers {
  practiceName: string;
  timeZone: string;
  notifyEmail: string;
  locale: string;
  /** Optional: '' or absent when not given. */
  address?: string;
  phone?: string;
  website?: string;
}

/** The answers `init` needs; the address, phone and website may come later (`planner practice set`). */
export const REQUIRED_ANSWERS = ['practiceName', 'timeZone', 'notifyEmail', 'locale'] as const;

/** Returns the problem with one init answer, or undefined when it is fine. Shared by flags and prompts. */
export function checkInitAnswer(name: keyof InitAnswers, value: string): string | undefined {
  switch (name) {
    case 'address': {
      const problem = value === '' ? undefined : nameProblem(value);
      if (problem === 'too long')
        return 'the address is longer than 200 characters: write it on one line, e.g. "Hauptstraße 1, 10115 Berlin"';
      return problem && nameMessage('the address', problem);
    }
    case 'phone':
      return value === '' || isPhone(value) ? undefined : `"${value}" is not a phone number (example: +49 30 1234567)`;
    case 'website':
      return value === '' || isWebsite(value)
        ? undefined
        : `"${value}" is not a website address (example: https://practice.example)`;
    case 'practiceName': {
      const problem = nameProblem(value);
      if (problem === 'empty') return 'the practice name must not be empty';
      if (problem === 'too long') return 'the practice name is longer than 200 characters';
      return problem && nameMessage('the practice name', problem);
    }
    case 'timeZone':
      return timeZoneProblem(value);
    case 'notifyEmail':
      return isEmail(value) ? undefined : `"${value}" is not an e-mail address (example: desk@practice.example)`;
    case 'locale':
      return (LOCALES as readonly string[]).includes(value) ? undefined : `locale must be one of ${LOCALES.join(', ')}`;
  }
}

/** Returns true for an http(s) address without credentials, at most 500 characters. */
function isWebsite(text: string): boolean {
  if (text.length > 500 || !/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * A new installation reminds customers 48 hours ahead (`planner reminders set` changes it): a day before the
 * page's default deadline (24 h before the start, app/pages/portal.ts), so the reminder's "cancel or move until …" still
 * holds for a day when it arrives (with 24 h and 24 h it arrived as the deadline passed).
 */
export const DEFAULT_REMINDER_OFFSETS = [48 * 60];

/**
 * Completes the installation: settings and the default form fields, in one transaction.
 * Leaves the API disabled. Refuses an installation that is already initialised.
 */
export function initInstallation(ctx: AppContext, answers: InitAnswers): ConfiguredSettings {
  for (const name of [...REQUIRED_ANSWERS, 'address', 'phone', 'website'] as const) {
    const problem = checkInitAnswer(name, answers[name] ?? '');
    if (problem) throw invalid(problem, name);
  }
  const at = ctx.now().toISOString();
  ctx.store.tx(() => {
    const done = markConfigured(ctx.store, {
      practiceName: answers.practiceName.trim(),
      timeZone: answers.timeZone,
      locale: answers.locale as Locale,
      languages: [answers.locale as Locale],
      notifyEmail: answers.notifyEmail,
      address: (answers.address ?? '').trim(),
      phone: (answers.phone ?? '').trim(),
      website: answers.website ?? '',
      reminderOffsets: DEFAULT_REMINDER_OFFSETS,
      at,
    });
    if (!done) throw alreadyInitialised(ctx);
    for (const field of DEFAULT_FIELDS) {
      insertField(ctx.store, {
        ...field,
        label: DEFAULT_LABELS[answers.locale as Locale][field.key],
        formType: 'textbox',
        defaultValue: '',
        options: [],
      });
    }
  });
  return requireConfigured(ctx);
}
