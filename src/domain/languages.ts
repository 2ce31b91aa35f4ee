/**
 * The languages a practice offers its customers (`practice set --languages de,fr`): which of them a customer gets
 * (a choice of theirs, else their browser's `Accept-Language`, else the practice's own), and the practice's own texts
 * (a field's label, a reason's name) in that language. Pure.
 */
import { LOCALES, type Locale } from './locales.ts';

/** A practice's texts in other languages than its own: locale to text (absent: none given). */
export type LocalTexts = Partial<Record<Locale, string>>;

/** Whether `value` names one of the six languages (`de`, `fr`, …). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The offered languages: the practice's own first, then the others as given (`settings.languages`), once each. */
export function offeredLanguages(own: Locale, others: readonly Locale[]): Locale[] {
  return [own, ...others.filter((one, at) => one !== own && others.indexOf(one) === at)];
}

/** The longest `Accept-Language` read, and the most entries: a header is outside input (browsers send a few). */
const HEADER_MAX_LENGTH = 1024;
const ENTRIES_MAX = 32;

/**
 * Returns the offered language an `Accept-Language` header (RFC 9110 §12.5.4) prefers: its entries by weight
 * (`q`, 1 when absent; 0 means "not this"), earlier first among equals; a tag matches by its primary subtag
 * (`fr-CH` is `fr`). Undefined when nothing offered is asked for: `*` (what Node's fetch sends by default) asks for
 * none in particular. Reads at most 1 KiB and 32 entries.
 */
export function preferredLanguage(header: string | null | undefined, offered: readonly Locale[]): Locale | undefined {
  if (!header) return undefined;
  const entries = header.slice(0, HEADER_MAX_LENGTH).split(',', ENTRIES_MAX);
  let best: { locale: Locale; q: number } | undefined;
  for (const entry of entries) {
    const [tag = '', ...params] = entry.split(';');
    const qParam = params.map((one) => one.trim()).find((one) => /^q=/i.test(one));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const primary = tag.trim().toLowerCase().split('-')[0];
    const locale = offered.find((one) => one === primary);
    if (locale !== undefined && (best === undefined || q > best.q)) best = { locale, q };
  }
  return best?.locale;
}

/**
 * Returns the language a customer gets among `offered` (the practice's own first): `chosen` (a `?lang=` of theirs,
 * or the language their booking was made in) when offered, else what `acceptLanguage` prefers, else the practice's
 * own.
 */
export function customerLanguage(
  offered: readonly Locale[],
  asked: { chosen?: unknown; acceptLanguage?: string | null },
): Locale {
  if (isLocale(asked.chosen) && offered.includes(asked.chosen)) return asked.chosen;
  return preferredLanguage(asked.acceptLanguage, offered) ?? offered[0]!;
}

/**
 * Returns the language a booking's customer is served in: the one kept with it (`stored`) while the practice still
 * offers it, else the practice's own (the first offered).
 */
export function servedIn(offered: readonly Locale[], stored: Locale | null | undefined): Locale {
  return stored && offered.includes(stored) ? stored : offered[0]!;
}

/** Returns `own` (the practice's text) in `locale`: its text given for that language, else the practice's own. */
export function textIn(own: string, texts: LocalTexts, locale: Locale): string {
  return texts[locale] ?? own;
}

/** A select field's choices as shown in other languages: locale to one text per option, in the options' order. */
export type LocalChoices = Partial<Record<Locale, string[]>>;

/** Reads a stored JSON object of choices per language ('{}' when none), keeping only the six languages' lists. */
export function parseLocalChoices(json: string): LocalChoices {
  const value = JSON.parse(json) as Record<string, unknown>;
  const choices: LocalChoices = {};
  for (const locale of LOCALES) {
    const list = value[locale];
    if (Array.isArray(list) && list.every((one) => typeof one === 'string')) choices[locale] = list;
  }
  return choices;
}

/** Reads a stored JSON object of texts per language ('{}' when none), keeping only the six languages' strings. */
export function parseLocalTexts(json: string): LocalTexts {
  const value = JSON.parse(json) as Record<string, unknown>;
  const texts: LocalTexts = {};
  for (const locale of LOCALES) if (typeof value[locale] === 'string') texts[locale] = value[locale];
  return texts;
}
