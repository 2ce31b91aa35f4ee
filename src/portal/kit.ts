/**
 * The kit every page of every door is built of (the pages themselves are apart: the self-service page's in pages.ts,
 * the booking page's in book-pages.ts): the one style sheet and its CSP hash, the layout with the practice's footer,
 * a page's frame and notes, dates in words, definition lists and hidden fields, the pager of days, the time picker,
 * the grid of weeks, and the error pages every door answers. Each takes one options object where it takes more than
 * a few values. Pure: every value comes in as an argument, and every text goes through `escapeHtml`. Phone first:
 * 18 px text, 48 px buttons, no horizontal scroll at 320 px, WCAG AA colours.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../domain/html.ts';
import { LANGUAGE_NAMES, type Locale } from '../domain/locales.ts';
import { typesetHtml } from '../domain/typography.ts';
import type { BookingPageSettings, Settings } from '../store/settings.ts';
import { PAGE_WORDS, type PageWords } from './words.ts';

/** The one style sheet. Colours: text #1a1a1a on white (17:1), links #1a56b0 (7:1), buttons white on #1f5fbf (6:1). */
const CSS = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:36rem;margin:0 auto;padding:16px}
h1{font-size:26px;line-height:1.25;margin:8px 0 4px}h2{font-size:21px;line-height:1.3;margin:0 0 12px}
.practice{margin:0 0 16px;color:#3d3d3d}
.card{background:#fff;border:1px solid #c9ccd1;border-radius:8px;padding:16px;margin:0 0 16px}
dl{margin:0}dt{font-weight:700;color:#3d3d3d;margin-top:10px}dt:first-child{margin-top:0}dd{margin:0;overflow-wrap:anywhere}
.note{background:#e8f0fb;border-left:4px solid #1f5fbf;padding:12px 16px;margin:0 0 16px}
.done{background:#e7f4ea;border-left-color:#1e6b34}.error{background:#fdecea;border-left-color:#a4261d}
.button{display:block;width:100%;min-height:48px;padding:11px 16px;margin:0 0 12px;border:2px solid #1f5fbf;border-radius:8px;background:#1f5fbf;color:#fff;font:inherit;font-weight:700;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer}
.button.secondary{background:#fff;color:#1a56b0}.button.danger{background:#a4261d;border-color:#a4261d}
a{color:#1a56b0}
label{display:block;font-weight:700;margin:0 0 4px}
textarea{display:block;width:100%;min-height:96px;font:inherit;padding:8px;border:1px solid #6b7079;border-radius:6px;background:#fff;color:#1a1a1a}
.hint{font-size:16px;color:#454a52;margin:4px 0 16px}
ul.choices{list-style:none;padding:0;margin:0 0 16px;display:grid;grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));gap:8px}
ul.choices li{display:flex}ul.choices .button{margin:0;padding:10px 4px;display:flex;flex-direction:column;justify-content:center;align-items:center}
ul.choices .current{border-width:4px;border-color:#1a1a1a}.tag{display:block;font-weight:400;font-size:16px}
ul.choices span.current{display:block;width:100%;min-height:48px;padding:8px 4px;border:2px dashed #3d3d3d;border-radius:8px;background:#fff;text-align:center;font-weight:700}
h2.group{font-size:19px;margin:16px 0 8px}
details.card{padding:12px}summary{cursor:pointer;font-size:16px}details[open] summary{margin-bottom:12px}
.pager{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:0 0 12px}.pager .button{margin:0;padding:10px 4px}.pager .later{grid-column:2}
ol.dates{list-style:none;padding:0;margin:0}ol.dates li{padding:12px 0;border-top:1px solid #c9ccd1}ol.dates li:first-child{border-top:0;padding-top:0}ol.dates p{margin:0 0 8px}ol.dates p:last-child{margin:0}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:8px}.pair .button{margin:0;padding:10px 4px}
footer{max-width:36rem;margin:0 auto;padding:0 16px 24px}footer p{margin:0;padding-top:12px;border-top:1px solid #c9ccd1;color:#3d3d3d}
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.field{margin:0 0 16px}.other-day{margin-top:32px}.req{font-weight:400;font-size:16px;color:#454a52}
input.text,select{display:block;width:100%;min-height:48px;font:inherit;padding:8px;border:1px solid #6b7079;border-radius:6px;background:#fff;color:#1a1a1a}
input.text[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border:2px solid #a4261d}.field-error{color:#a4261d;font-weight:700;margin:4px 0 0}
.check{display:flex;gap:10px;align-items:flex-start}.check input{width:24px;height:24px;margin:3px 0 0;flex:none}
fieldset{border:0;padding:0;margin:0 0 16px;min-width:0}legend{font-size:21px;line-height:1.3;font-weight:700;margin:0 0 12px;padding:0}
ul.times{list-style:none;padding:0;margin:0 0 16px;display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:8px}
ul.times label{display:flex;align-items:center;gap:8px;min-height:48px;margin:0;padding:8px 12px;border:2px solid #1f5fbf;border-radius:8px;background:#fff;cursor:pointer}
ul.times input{width:22px;height:22px;margin:0;flex:none}ul.choices.times{grid-template-columns:repeat(auto-fill,minmax(5.5rem,1fr))}
table.weeks{width:100%;table-layout:fixed;border-collapse:separate;border-spacing:4px;margin:0 0 16px}table.weeks caption{text-align:left;font-weight:700;padding:0 0 4px}
table.weeks th{font-weight:400;font-size:16px;color:#3d3d3d;padding:0}table.weeks td{padding:0;text-align:center;vertical-align:top}
table.weeks a,table.weeks .off{display:flex;flex-direction:column;justify-content:center;min-height:52px;border-radius:8px;font-weight:700;line-height:1.2}
table.weeks a{border:2px solid #1f5fbf;background:#fff;text-decoration:none}table.weeks a.first{background:#1f5fbf;color:#fff}
table.weeks .off{color:#54585f;font-weight:400}table.weeks .month{display:block;font-size:16px;font-weight:400}.legend{font-size:16px;color:#3d3d3d;margin:-8px 0 16px}.logo{display:block;max-width:100%;max-height:72px;margin:8px 0 0}.links{margin:0 0 16px;padding-left:20px}ul.offers{list-style:none;padding:0;margin:0 0 16px}.links li{margin:0 0 8px}
ul.languages{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:0 16px;list-style:none;padding:0;margin:0;font-size:16px}
ul.languages a,ul.languages span{display:inline-block;padding:6px 0;min-height:24px}ul.languages span{font-weight:700}`;

/** The Content-Security-Policy source of the style sheet (no other style and no script may run). */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/** A page to answer: its status and HTML. */
export interface Page {
  status: number;
  html: string;
  /** The practice's colour the page is drawn in: its style sheet's hash goes into the page's CSP (page-answer.ts). */
  colour?: string;
}

/** What every page tells of the practice: how to reach it ('' when not given). */
export type Practice = Pick<Settings, 'locale' | 'practiceName' | 'address' | 'phone' | 'website'>;

/** The `tel:` address of a phone number as people write it (`+49 30 123-45` → `tel:+493012345`). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** The practice's name, address and phone (a `tel:` link) below every page; nothing when neither is given. */
function footer(practice: Practice): string {
  if (!practice.address && !practice.phone) return '';
  const words = PAGE_WORDS[practice.locale];
  const lines = [
    ...(practice.practiceName ? [escapeHtml(practice.practiceName)] : []),
    ...(practice.address ? [escapeHtml(practice.address)] : []),
    ...(practice.phone
      ? [
          `${escapeHtml(words.phone)}: <a href="${escapeHtml(telHref(practice.phone))}">${escapeHtml(practice.phone)}</a>`,
        ]
      : []),
  ];
  return `<footer><p>${lines.join('<br>')}</p></footer>`;
}

/** A practice's own look on the booking page (`booking-page enable --colour --logo`): its colour, its logo's URL. */
export interface Brand {
  colour?: string | null;
  logoSrc?: string | null;
}

/**
 * The practice's look on every page a customer sees (the booking page and the self-service page), as
 * `booking-page enable --colour --logo` sets it; planner's own while the booking page is off (which serves the logo).
 */
export function brandOf(page: Pick<BookingPageSettings, 'colour' | 'logo'> | null): Brand {
  return { colour: page?.colour ?? null, logoSrc: page?.logo ? `/book/logo?v=${page.logo}` : null };
}

const brandStyles = new Map<string, { css: string; hash: string }>();

/**
 * The style sheet of a practice's colour, after the one style sheet (buttons, their frames and the days' frames), and
 * its Content-Security-Policy source. The colour is checked before it is kept (`#rrggbb`, app/pages/booking-page.ts).
 */
export function brandStyle(colour: string): { css: string; hash: string } {
  let style = brandStyles.get(colour);
  if (!style) {
    const css =
      `.button{background:${colour};border-color:${colour}}.button.secondary{background:#fff;color:${colour}}` +
      `table.weeks a{border-color:${colour};color:${colour}}table.weeks a.first{background:${colour};color:#fff}`;
    style = { css, hash: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
    if (brandStyles.size > 16) brandStyles.clear(); // a colour changes seldom; old ones are not kept
    brandStyles.set(colour, style);
  }
  return style;
}

/** What the layout wraps: the page's `body` in `main`, the tab's `title`, the practice's contact and look. */
export interface LayoutOptions {
  practice: Practice;
  title: string;
  body: string;
  brand?: Brand;
  /** The languages the page is offered in, with links to it in each (none: one language). */
  languages?: LanguageLinks;
  /** A door's own second style sheet (the desk's: its CSP hash is in that door's headers). */
  sheet?: string;
}

/** The document of a page: the one style sheet (and the practice's colour), the logo, `body`, the practice's footer. */
export function layout({ practice, title, body, brand = {}, sheet, languages }: LayoutOptions): string {
  const words = PAGE_WORDS[practice.locale];
  const own =
    (brand.colour ? `<style>${brandStyle(brand.colour).css}</style>` : '') + (sheet ? `<style>${sheet}</style>` : '');
  // The logo stands for the practice's name, which the page writes next to it: an empty alt, read once.
  const logo = brand.logoSrc ? `<img class="logo" src="${escapeHtml(brand.logoSrc)}" alt="">` : '';
  // Typeset as the page's language writes (French spaces; a time kept with its zone): the one place every page passes.
  return typesetHtml(
    words.lang,
    `<!doctype html><html lang="${words.lang}"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">` +
      `<meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)}</title><style>${CSS}</style>${own}</head>` +
      `<body><main>${languages ? languageNav(words, languages) : ''}${logo}${body}</main>${footer(practice)}</body></html>`,
  );
}

/**
 * A page of a door: its heading with the practice's name under it, then `body`; the tab says `tab` (else the heading).
 */
export interface FramedOptions {
  practice: Practice & { practiceName: string };
  heading: string;
  body: string;
  status?: number;
  tab?: string;
  brand?: Brand;
  /** A door's own second style sheet (LayoutOptions.sheet). */
  sheet?: string;
  languages?: LanguageLinks;
}

/** Returns the page `options` describe, in the layout (every door's page but the error pages: no practice line). */
export function framedPage({
  practice,
  heading,
  body,
  status = 200,
  tab = heading,
  brand,
  sheet,
  languages,
}: FramedOptions): Page {
  const head = `<h1>${escapeHtml(heading)}</h1><p class="practice">${escapeHtml(practice.practiceName)}</p>`;
  const html = layout({ practice, title: tab, body: head + body, brand, sheet, languages });
  return brand?.colour ? { status, html, colour: brand.colour } : { status, html };
}

/** The languages a customer's page is offered in: the one `shown`, and a link to the page in each. */
export interface LanguageLinks {
  shown: Locale;
  links: { locale: Locale; href: string }[];
}

/**
 * The language switcher: plain links (no script), each language by its own name and in its own `lang`, the one shown
 * marked and not a link.
 */
function languageNav(words: PageWords, languages: LanguageLinks): string {
  const item = ({ locale, href }: { locale: Locale; href: string }) =>
    locale === languages.shown
      ? `<li><span lang="${locale}" aria-current="true">${escapeHtml(LANGUAGE_NAMES[locale])}</span></li>`
      : `<li><a href="${escapeHtml(href)}" lang="${locale}" hreflang="${locale}">${escapeHtml(LANGUAGE_NAMES[locale])}</a></li>`;
  return `<nav aria-label="${escapeHtml(words.language)}"><ul class="languages">${languages.links.map(item).join('')}</ul></nav>`;
}

/**
 * Returns a booking page's HTML with the language the customer chose carried by each of its own links and forms (a
 * link's and a POST's `?lang=`, a GET form's hidden field), so that every next step speaks it: one place, rather
 * than in each of the pages' links. Links that name a language already (the switcher's) keep theirs.
 */
export function carryLanguage(html: string, lang: Locale): string {
  return html
    .replace(/ (href|action|formaction)="(\/book\/[^"]*)"/g, (whole, attribute: string, url: string) =>
      url.includes('lang=') ? whole : ` ${attribute}="${url}${url.includes('?') ? '&#38;' : '?'}lang=${lang}"`,
    )
    .replace(/<form method="get"[^>]*>/g, (form) => `${form}<input type="hidden" name="lang" value="${lang}">`);
}

/** A note above a page's content: a change done (read out politely), or an error (read out at once). */
export function notice(text: string, kind: 'done' | 'error' = 'error'): string {
  return `<p class="note ${kind}" role="${kind === 'done' ? 'status' : 'alert'}">${escapeHtml(text)}</p>`;
}

const dayFormats = new Map<string, Record<'short' | 'medium' | 'long', Intl.DateTimeFormat>>();

/**
 * Returns a local day `YYYY-MM-DD` as words: short `Tue 24 Nov`, medium `Tuesday 24 November`, long `Tuesday, 24
 * November 2026` (each as the locale writes it).
 */
export function dayWords(day: string, dateLocale: string, length: 'short' | 'medium' | 'long' = 'short'): string {
  let formats = dayFormats.get(dateLocale);
  if (!formats) {
    formats = {
      short: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }),
      medium: new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }),
      long: new Intl.DateTimeFormat(dateLocale, {
        timeZone: 'UTC',
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }),
    };
    dayFormats.set(dateLocale, formats);
  }
  return formats[length].format(new Date(`${day}T12:00:00Z`));
}

/** A definition list of `[label, value]` rows, escaped. */
export function definitions(rows: [string, string][]): string {
  return `<dl>${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/** Hidden inputs of `fields` (name → value), escaped. */
export function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** Days offered per page, on the self-service page's move and the booking page alike. */
export const DAYS_PER_PAGE = 14;

/**
 * The page of `days` (in order) that holds the first day on or after `from` (the last page when none is; the first
 * page without `from`): its days, and the first day of the page before and after. Pages are counted from the first day.
 */
export function pageOfDays(days: readonly string[], from?: string): { days: string[]; pages: DayPages } {
  const at = from === undefined ? 0 : days.findIndex((one) => one >= from);
  const start = at < 0 ? Math.max(0, days.length - 1) : at;
  const first = start - (start % DAYS_PER_PAGE);
  return {
    days: days.slice(first, first + DAYS_PER_PAGE),
    pages: {
      ...(first > 0 ? { earlier: days[first - DAYS_PER_PAGE]! } : {}),
      ...(first + DAYS_PER_PAGE < days.length ? { later: days[first + DAYS_PER_PAGE]! } : {}),
    },
  };
}

/** Where a page of days leads: the first day of the page before and of the page after, if any. */
export interface DayPages {
  earlier?: string;
  later?: string;
}

/** A link of the pager: where it leads and what it says. */
export interface PagerLink {
  href: string;
  text: string;
}

/** The links to the page of days before and after (each when there is one), as a `nav` named `label`; '' for none. */
export function dayPager({ label, earlier, later }: { label: string; earlier?: PagerLink; later?: PagerLink }): string {
  if (!earlier && !later) return '';
  return (
    `<nav class="pager" aria-label="${escapeHtml(label)}">` +
    (earlier ? `<a class="button secondary" href="${escapeHtml(earlier.href)}">${escapeHtml(earlier.text)}</a>` : '') +
    (later ? `<a class="button secondary later" href="${escapeHtml(later.href)}">${escapeHtml(later.text)}</a>` : '') +
    `</nav>`
  );
}

/** The part of the day a local time `HH:MM` belongs to: morning before 12:00, evening from 17:00. */
export function partOfDay(time: string): 'morning' | 'afternoon' | 'evening' {
  const hour = Number(time.slice(0, 2));
  return hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';
}

/**
 * What the time picker shows: `times` of a day, each as `item` writes it, under headings of `level` named by `parts`.
 */
export interface TimePickerOptions<T extends { time: string }> {
  parts: Readonly<Record<'morning' | 'afternoon' | 'evening', string>>;
  times: readonly T[];
  item: (one: T) => string;
  level?: 'h2' | 'h3';
}

/**
 * The one time picker of the booking page and the self-service page: the times of a day grouped by part of the day
 * (morning, afternoon, evening), each group under a heading, each time as `item` writes it (a link, or a button that
 * sends its form: one tap either way).
 */
export function timePicker<T extends { time: string }>({
  parts,
  times,
  item,
  level = 'h2',
}: TimePickerOptions<T>): string {
  return (['morning', 'afternoon', 'evening'] as const)
    .map((part) => ({ part, items: times.filter((one) => partOfDay(one.time) === part) }))
    .filter((group) => group.items.length)
    .map(
      (group) =>
        `<${level} class="group">${escapeHtml(parts[group.part])}</${level}><ul class="choices times">${group.items.map(item).join('')}</ul>`,
    )
    .join('');
}

/** The Monday of a day's week (`YYYY-MM-DD`). */
function mondayOf(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** The day `count` days after `day`. */
function addDays(day: string, count: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/**
 * Pages of free days in whole weeks (the booking page's grid): each page takes DAYS_PER_PAGE free days and
 * the rest of the last one's week, so a week is never split over two pages. Returns the page that holds the first
 * day on or after `from` (the last when none is; the first without `from`), with the first day of the pages before
 * and after. One pass over `days` (at most the look-ahead's days).
 */
export function pageOfWeeks(days: readonly string[], from?: string): { days: string[]; pages: DayPages } {
  const starts: number[] = [];
  for (let index = 0; index < days.length; ) {
    starts.push(index);
    let end = Math.min(index + DAYS_PER_PAGE, days.length);
    const week = mondayOf(days[end - 1]!);
    while (end < days.length && mondayOf(days[end]!) === week) end++;
    index = end;
  }
  if (starts.length === 0) return { days: [], pages: {} };
  const at = from === undefined ? 0 : days.findIndex((one) => one >= from);
  const target = at < 0 ? days.length - 1 : at;
  let page = 0;
  while (page + 1 < starts.length && starts[page + 1]! <= target) page++;
  const start = starts[page]!;
  const end = starts[page + 1] ?? days.length;
  return {
    days: days.slice(start, end),
    pages: {
      ...(page > 0 ? { earlier: days[starts[page - 1]!]! } : {}),
      ...(page + 1 < starts.length ? { later: days[end]! } : {}),
    },
  };
}

const weekdayFormats = new Map<
  string,
  [short: Intl.DateTimeFormat, long: Intl.DateTimeFormat, month: Intl.DateTimeFormat]
>();

/** The formats of a week's grid in `dateLocale`: weekday short and long, month short (made once per locale). */
function weekFormats(dateLocale: string): [Intl.DateTimeFormat, Intl.DateTimeFormat, Intl.DateTimeFormat] {
  let formats = weekdayFormats.get(dateLocale);
  if (!formats) {
    formats = [
      new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'short' }),
      new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', weekday: 'long' }),
      new Intl.DateTimeFormat(dateLocale, { timeZone: 'UTC', month: 'short' }),
    ];
    weekdayFormats.set(dateLocale, formats);
  }
  return formats;
}

/** What the grid of weeks shows and where its days lead (see `weekGrid`). */
export interface WeekGridOptions {
  dateLocale: string;
  caption: string;
  href: (day: string) => string;
  first?: string;
  firstWords: string;
}

/** One day of the grid (`column` 0 is Monday): a link when it is free (`free`), else its number dimmed. */
function dayCell(day: string, column: number, free: ReadonlySet<string>, options: WeekGridOptions): string {
  const [, , month] = weekFormats(options.dateLocale);
  const date = new Date(`${day}T12:00:00Z`);
  const monthName =
    column === 0 || day.endsWith('-01') ? `<span class="month">${escapeHtml(month.format(date))}</span>` : '';
  const number = String(date.getUTCDate());
  if (!free.has(day)) return `<td><span class="off" aria-hidden="true">${number}${monthName}</span></td>`;
  const first = day === options.first;
  const name = `${dayWords(day, options.dateLocale, 'long')}${first ? `, ${options.firstWords}` : ''}`;
  return (
    `<td><a${first ? ' class="first"' : ''} href="${escapeHtml(options.href(day))}">` +
    `<span aria-hidden="true">${number}${monthName}</span><span class="sr">${escapeHtml(name)}</span></a></td>`
  );
}

/**
 * Free days as a grid of weeks, Monday first (the booking page's days): each free day a link (`href`) whose name is
 * the day written out, the other days of those weeks shown dimmed, the month named at a week's first day and at
 * each 1st; `first` (the first free day of all) is filled in, and said so in words too. Weeks without a free day
 * are left out. `caption` names the table.
 */
export function weekGrid(days: readonly string[], options: WeekGridOptions): string {
  const [short, long] = weekFormats(options.dateLocale);
  const free = new Set(days);
  const weeks = [...new Set(days.map(mondayOf))];
  const head = Array.from({ length: 7 }, (_, index) => {
    const date = new Date(`${addDays('2024-01-01', index)}T12:00:00Z`); // a Monday
    return `<th scope="col"><abbr title="${escapeHtml(long.format(date))}">${escapeHtml(short.format(date))}</abbr></th>`;
  }).join('');
  const rows = weeks
    .map(
      (monday) =>
        `<tr>${Array.from({ length: 7 }, (_, column) => dayCell(addDays(monday, column), column, free, options)).join('')}</tr>`,
    )
    .join('');
  return `<table class="weeks"><caption>${escapeHtml(options.caption)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A page of one heading and one sentence, with its status. */
export function messagePage(practice: Practice, status: number, title: string, text: string): Page {
  return { status, html: layout({ practice, title, body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` }) };
}

/** The one page for every link that opens nothing (malformed, unknown, expired, page off, unknown path). */
export function notFoundPage(practice: Practice): Page {
  const words = PAGE_WORDS[practice.locale];
  return messagePage(practice, 404, words.notFoundTitle, words.notFound);
}

/** The page of an address throttled for opening too many unknown links. */
export function tooManyPage(practice: Practice, seconds: number): Page {
  const words = PAGE_WORDS[practice.locale];
  return messagePage(practice, 429, words.tooManyTitle, words.tooMany(seconds));
}

/** The page of a failure on the server's side (the database could not be written): nothing was changed. */
export function failedPage(practice: Practice): Page {
  const words = PAGE_WORDS[practice.locale];
  return messagePage(practice, 500, words.failedTitle, words.failed);
}
