/**
 * The typography of text as a page or a mail finally writes it, applied in one place each (the pages' layout in
 * portal/kit.ts, the mails as they are sent in mail/worker.ts), never by editing the word tables:
 * - French puts a no-break space before `:` `;` `!` `?`. Which one follows the Imprimerie nationale's "Lexique des
 *   règles typographiques": a narrow one (U+202F) before `;` `!` `?`, which sit close to their word, and a word-wide
 *   one (U+00A0) before `:`, which stands as far from the words before it as from those after it. Both are
 *   no-break spaces, so a mark never starts a line.
 * - A time keeps its zone (`10:00 CET`, `10:00 UTC+1`, `04:30 GMT-5`) on its line in HTML: a no-break space
 *   between them, in every language.
 * URLs, times such as 10:00, HTML tags and entities, and the contents of `<style>`, `<script>` and `<textarea>` (what a
 * customer typed, sent back as typed) are left as they are. Pure.
 */
import type { Locale } from './locales.ts';

const NARROW = '\u202f';
const WORD = '\u00a0';

/** Links, which keep every character (`https://x.example/?a=1`, `mailto:`, `tel:`). */
const URL = /\b(?:https?:\/\/|mailto:|tel:)[^\s<>"]*/gi;

/**
 * A mark `:` `;` `!` `?` after a word (or after one plain space), at the end of a sentence or clause: followed by a
 * space, the end, a closing sign or another mark (`?!`). Not a time (10:00), nor a mark after a mark, nor one after a
 * no-break space already there.
 */
const FRENCH_MARK = /([^\s:;!?\u00a0\u202f(]| )([:;!?])(?=$|[\s)\]»"'’”.,!?])/g;

/** Returns `text` (plain text, no markup) with French no-break spaces before `:` `;` `!` `?`; links untouched. */
export function frenchSpaces(text: string): string {
  if (!/[:;!?]/.test(text)) return text; // most runs of a page: a name, a number
  let out = '';
  let from = 0;
  for (const link of text.matchAll(URL)) {
    out += spaced(text.slice(from, link.index)) + link[0];
    from = link.index + link[0].length;
  }
  return out + spaced(text.slice(from));
}

function spaced(part: string): string {
  return part.replace(FRENCH_MARK, (_, before: string, mark: string) => {
    const space = mark === ':' ? WORD : NARROW;
    return before === ' ' ? space + mark : before + space + mark;
  });
}

/** A time followed by its zone's abbreviation or offset, as Intl writes them (`CET`, `MESZ`, `UTC+1`, `GMT+5:30`). */
const TIME_ZONE = /(\b\d{1,2}:\d{2}) (?=(?:[A-Z]{2,5})(?:[+\u2212-]\d{1,2}(?::\d{2})?)?(?![\p{L}\d]))/gu;

/** Returns `text` (plain text) with a no-break space between each time and its zone. */
export function keepZones(text: string): string {
  return text.includes(':') ? text.replace(TIME_ZONE, `$1${WORD}`) : text;
}

/** Returns plain text (a subject, a mail's text part) as `lang` writes it: French spaces for `fr`, else as it is. */
export function typeset(lang: Locale | string, text: string): string {
  return lang === 'fr' ? frenchSpaces(text) : text;
}

/** What is never text in HTML: the elements whose content stays as written, tags, and character references. */
const NOT_TEXT = /<(style|script|textarea)\b[^>]*>[\s\S]*?<\/\1\s*>|<[^>]*>|&#?[0-9a-zA-Z]+;/gi;

/** Returns an HTML document or fragment with each text run typeset (`typeset`) and each time kept with its zone. */
export function typesetHtml(lang: Locale | string, html: string): string {
  let out = '';
  let from = 0;
  const text = (run: string) => typeset(lang, keepZones(run));
  for (const token of html.matchAll(NOT_TEXT)) {
    out += text(html.slice(from, token.index)) + token[0];
    from = token.index + token[0].length;
  }
  return out + text(html.slice(from));
}
