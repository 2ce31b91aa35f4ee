/**
 * The practice's texts in other languages than its own (a field's label, a reason's name and description), as
 * `field set --label fr=…` and `reason set --name fr=…` change them, and what `planner doctor` says is missing.
 */
import type { LocalTexts } from '../../domain/languages.ts';
import type { Locale } from '../../domain/locales.ts';

/**
 * Returns `before` with the texts of `given` in their languages ('' removes one), each checked by `check` as the
 * practice's own text is (it returns the text trimmed, or throws naming the option and the language).
 */
export function mergedTexts(
  before: LocalTexts,
  given: LocalTexts,
  check: (text: string, locale: Locale) => string,
): LocalTexts {
  const after: LocalTexts = { ...before };
  for (const [locale, text] of Object.entries(given) as [Locale, string][]) {
    if (text.trim() === '') delete after[locale];
    else after[locale] = check(text, locale);
  }
  return after;
}
