import { AppError, invalid } from '../errors.ts';
import { isEmail, isPhone, nameMessage, nameProblem } from '../domain/checks.ts';
import { DEFAULT_FIELDS, DEFAULT_LABELS } from '../domain/form.ts';
import { timeZoneProblem } from '../domain/zone.ts';
import { webhookHealth } from '../store/webhooks.ts';
import { markConfigured, setApiEnabled, setRateLimit, type Locale, type PortalSettings, type Settings } from '../store/settings.ts';
import { insertField } from '../store/fields.ts';
import { countRows, type Counts } from '../store/stats.ts';
import { outboxCounts, type OutboxCounts } from '../store/outbox.ts';
import { unixSeconds, type AppContext } from './context.ts';

export const LOCALES: readonly Locale[] = ['en', 'de'];

/** The settings of a configured installation: the fields `init` fills are present. */
export type ConfiguredSettings = Settings & { practiceName: string; timeZone: string; notifyEmail: string; configuredAt: string };

/** Returns true when `planner init` has completed. */
export function isConfigured(settings: Settings): settings is ConfiguredSettings {
  return settings.configuredAt !== null;
}

/** Throws `conflict` when `planner init` has completed already: init asks this before its questions, and again in its transaction. */
export function refuseInitialised(ctx: AppContext): void {
  if (isConfigured(ctx.settings())) throw alreadyInitialised(ctx);
}

function alreadyInitialised(ctx: AppContext): AppError {
  return new AppError('conflict', `this installation is already initialised (${ctx.store.file}); nothing was changed`);
}

/** Returns the settings, or throws `not_configured` with the fix when `init` has not run. */
export function requireConfigured(ctx: AppContext): ConfiguredSettings {
  const settings = ctx.settings();
  if (!isConfigured(settings)) {
    throw new AppError('not_configured', 'planner is not set up yet: run `planner init` first');
  }
  return settings;
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
      if (problem === 'too long') return 'the address is longer than 200 characters: write it on one line, e.g. "Hauptstraße 1, 10115 Berlin"';
      return problem && nameMessage('the address', problem);
    }
    case 'phone':
      return value === '' || isPhone(value) ? undefined : `"${value}" is not a phone number (example: +49 30 1234567)`;
    case 'website':
      return value === '' || isWebsite(value) ? undefined : `"${value}" is not a website address (example: https://practice.example)`;
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
      return (LOCALES as string[]).includes(value) ? undefined : `locale must be one of ${LOCALES.join(', ')}`;
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
 * page's default deadline (24 h before the start, app/portal.ts), so the reminder's "cancel or move until …" still
 * holds for a day when it arrives (issue 24, item 3: with 24 h and 24 h it arrived as the deadline passed).
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
      notifyEmail: answers.notifyEmail,
      address: (answers.address ?? '').trim(),
      phone: (answers.phone ?? '').trim(),
      website: answers.website ?? '',
      reminderOffsets: DEFAULT_REMINDER_OFFSETS,
      at,
    });
    if (!done) throw alreadyInitialised(ctx);
    for (const field of DEFAULT_FIELDS) {
      insertField(ctx.store, { ...field, label: DEFAULT_LABELS[answers.locale as Locale][field.key], formType: 'textbox', defaultValue: '', options: [] });
    }
  });
  return requireConfigured(ctx);
}

/** What `planner status` shows. Never contains the token. */
export interface Status {
  database: string;
  schemaVersion: number;
  configured: boolean;
  practiceName: string | null;
  timeZone: string | null;
  locale: Locale;
  notifyEmail: string | null;
  /** Where customers find and reach the practice ('' when not given). */
  address: string;
  phone: string;
  website: string;
  api: { enabled: boolean; tokenPresent: boolean; tokenCreatedAt: string | null; rateLimitPerMinute: number };
  /** The outbox: waiting, scheduled reminders, failed, and waiting after a failed attempt (since, last error). */
  mail: { configured: boolean; from: string | null } & OutboxCounts;
  /** The customers' self-service page (null while off) and the reminder offsets in minutes. */
  portal: PortalSettings | null;
  reminderOffsets: number[];
  /** The reverse proxies whose X-Forwarded-For is believed (`planner proxy set`); empty: none. */
  trustedProxies: string[];
  /** Every hook, with deliveries waiting (and how many of those are being retried) or failed: a failing hook shows here. */
  webhooks: { id: number; url: string; waiting: number; retrying: number; failed: number; lastError: string | null }[];
  counts: Counts;
}

/** Returns the installation's state at a glance. */
export function getStatus(ctx: AppContext): Status {
  const settings = ctx.settings();
  return {
    database: ctx.store.file,
    schemaVersion: ctx.store.schemaVersion(),
    configured: isConfigured(settings),
    practiceName: settings.practiceName,
    timeZone: settings.timeZone,
    locale: settings.locale,
    notifyEmail: settings.notifyEmail,
    address: settings.address,
    phone: settings.phone,
    website: settings.website,
    api: {
      enabled: settings.apiEnabled,
      tokenPresent: settings.tokenHash !== null,
      tokenCreatedAt: settings.tokenCreatedAt,
      rateLimitPerMinute: settings.rateLimit,
    },
    mail: { configured: settings.mailUrl !== null, from: settings.mailFrom, ...outboxCounts(ctx.store, unixSeconds(ctx.now())) },
    portal: settings.portal,
    reminderOffsets: settings.reminderOffsets,
    trustedProxies: settings.trustedProxies === '' ? [] : settings.trustedProxies.split(','),
    webhooks: webhookHealth(ctx.store).map(({ webhookId, ...health }) => ({ id: webhookId, ...health })),
    counts: countRows(ctx.store, unixSeconds(ctx.now())),
  };
}

/** Turns the API on or off; a running server sees it at its next request. */
export function switchApi(ctx: AppContext, enabled: boolean): void {
  requireConfigured(ctx);
  setApiEnabled(ctx.store, enabled);
}

/** Sets the rate limit in requests per minute per token (1 … 1,000,000,000: the benchmark needs high values). */
export function changeRateLimit(ctx: AppContext, perMinute: number): void {
  requireConfigured(ctx);
  if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > 1_000_000_000) {
    throw invalid(`requests-per-minute must be a whole number from 1 to 1000000000 (got ${perMinute})`);
  }
  setRateLimit(ctx.store, perMinute);
}
