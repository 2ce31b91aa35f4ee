/**
 * The languages an installation speaks (`init --locale`, `practice set --locale`): its mails, pages, feed and the
 * default form labels. Each word table (mail/translations.ts, portal/words.ts, portal/book-words.ts,
 * portal/desk-words.ts, mail/calendar-alert.ts, domain/form.ts) has one entry per locale with English's keys. Pure.
 */
export const LOCALES = ['en', 'de', 'fr', 'it', 'es', 'nl'] as const;

export type Locale = (typeof LOCALES)[number];

/** Each language by its own name, as `planner init` offers them. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
  nl: 'Nederlands',
};

/**
 * What a locale's table must give, from English's (`as const`) table: every key, each text any string and each
 * phrase a function of the same arguments. `table satisfies Record<Locale, Translation<typeof table.en>>` makes a
 * missing word (or a missing locale) a type error.
 */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : { readonly [K in keyof T]: Translation<T[K]> };
