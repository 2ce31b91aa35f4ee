/**
 * The practice's texts in other languages than its own (a field's label and a select's choices, a reason's name and
 * description), as `field set --label fr=… --options fr=…` and `reason set --name fr=…` change them; what `planner
 * doctor` says is missing; and the texts' swap when the practice takes another language as its own.
 */
import { choicesIn, givenLabel } from '../../domain/form.ts';
import type { LocalTexts } from '../../domain/languages.ts';
import type { Locale } from '../../domain/locales.ts';
import { invalid } from '../../errors.ts';
import { listFields } from '../../store/fields.ts';
import { listAllReasons } from '../../store/reasons.ts';
import type { AppContext } from '../context.ts';

/**
 * Returns `before` with the texts of `given` in their languages ('' removes one), each checked by `check` as the
 * practice's own text is (it returns the text trimmed, or throws naming the option and the language); a text in
 * the practice's own language `own` is refused (it is the text itself, given without a language).
 */
export function mergedTexts(
  before: LocalTexts,
  given: LocalTexts,
  check: (text: string, locale: Locale) => string,
  own: Locale,
): LocalTexts {
  const after: LocalTexts = { ...before };
  for (const [locale, text] of Object.entries(given) as [Locale, string][]) {
    if (locale === own)
      throw invalid(`${locale} is the practice's own language: give its text without "${locale}=" (${text})`, 'text');
    if (text.trim() === '') delete after[locale];
    else after[locale] = check(text, locale);
  }
  return after;
}

/** A customer-facing text of the practice without a version in an offered language: customers there see its own. */
export interface MissingText {
  locale: Locale;
  /** `field insurance` or `reason 2`. */
  of: string;
  /** What is missing: a field's label or a select's choices, a reason's name or description. */
  what: 'label' | 'choices' | 'name' | 'description';
  /** The practice's own text, shown instead. */
  own: string;
  /** The command that gives it. */
  fix: string;
}

/**
 * Returns every customer-facing text of the practice (each form field's label and a select's choices, each reason's
 * name and description) that has no version in one of the offered languages beyond its own: the booking page, the
 * mails and the self-service page show the practice's own text there. A default field whose label the practice kept
 * has its default label in every language (`givenLabel`). Two queries, whatever the number of fields and reasons.
 */
export function missingTexts(ctx: AppContext): MissingText[] {
  const { locale: own, languages } = ctx.settings();
  const others = languages.filter((one) => one !== own);
  if (others.length === 0) return [];
  const fields = listFields(ctx.store);
  const reasons = listAllReasons(ctx.store);
  return others.flatMap((locale) => [
    ...fields
      .filter((field) => givenLabel(field, locale, own) === undefined)
      .map((field) => ({
        locale,
        of: `field ${field.key}`,
        what: 'label' as const,
        own: field.label,
        fix: `planner field set ${field.key} --label ${locale}="…"`,
      })),
    ...fields
      .filter((field) => field.formType === 'select' && choicesIn(field, locale) === undefined)
      .map((field) => ({
        locale,
        of: `field ${field.key}`,
        what: 'choices' as const,
        own: field.options.join(', '),
        fix: `planner field set ${field.key} --options ${locale}="${field.options.map(() => '…').join(',')}"`,
      })),
    ...reasons.flatMap((reason) => {
      const missing = (what: 'name' | 'description', own: string): MissingText => ({
        locale,
        of: `reason ${reason.id}`,
        what,
        own,
        fix: `planner reason set ${reason.id} --${what} ${locale}="…"`,
      });
      return [
        ...(reason.names[locale] === undefined ? [missing('name', reason.name)] : []),
        ...(reason.description.trim() !== '' && reason.descriptions[locale] === undefined
          ? [missing('description', reason.description)]
          : []),
      ];
    }),
  ]);
}

/**
 * Makes `to` the practice's own language in its texts, from `from`: each label, reason name and description given
 * in `to` becomes the text itself (one without stays as it is), and the text it was is kept as `from`'s, so that
 * customers served in `from` keep theirs. One statement per table (SQLite reads every SET from the row as it was).
 */
export function swapOwnLanguage(ctx: AppContext, from: Locale, to: Locale): void {
  const [old, own] = [`$.${from}`, `$.${to}`];
  ctx.store
    .sql(
      `UPDATE form_fields
       SET label = coalesce(json_extract(labels, ?2), label), labels = json_set(json_remove(labels, ?2), ?1, label)`,
    )
    .run(old, own);
  for (const [text, texts] of [
    ['name', 'names'],
    ['description', 'descriptions'],
  ])
    ctx.store
      .sql(
        `UPDATE reasons SET ${text} = coalesce(json_extract(${texts}, ?2), ${text}),
           ${texts} = json_set(json_remove(${texts}, ?2), ?1, ${text})`,
      )
      .run(old, own);
}
