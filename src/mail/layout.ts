/**
 * How a mail looks: one content model written twice, as a plain-text part and as HTML that mail
 * clients show alike: a table layout with inline styles only, no external resource, at most 600 px wide and
 * fluid below, text of 14 px and more, long words wrapped instead of widening the page, and one clear button for
 * the self-service page. Every text is escaped here, and every control character of it turned into U+FFFD, so the
 * manage mark (below) is the only NUL in a message. Pure.
 */
import { escapeHtml } from '../domain/html.ts';
import { typeset, typesetHtml } from '../domain/typography.ts';

/**
 * Where a customer mail's look goes (the practice's colour as a band on top, its logo), and the colour of its
 * buttons: written by the builders, filled in when the mail is SENT (`withBrand`), so that a mail written before the
 * practice changed its logo or colour goes out with the current ones, as the booking page shows them then.
 */
export const BRAND_MARK = '<!--planner-brand-->';
/** Markup, not text: every text of a mail is escaped (`<` as `&#60;`), so no value anyone typed can forge either mark. */
const ACCENT_MARK = '<!--planner-accent-->';

/**
 * Where a customer mail's manage line goes (the sentence about what is still possible, and the button). What it
 * says is decided when the mail is sent (messages.ts withManageLink), so the outbox keeps this mark instead.
 */
export const MANAGE_MARK = '\u0000manage-link\u0000';

export type Row = [label: string, value: string];

/** What a mail says, in the order it is shown. */
export interface MailContent {
  /** The `lang` of the HTML (the installation's locale). */
  lang: string;
  /** The HTML's title: the subject. */
  title: string;
  /** On top: the practice's name. */
  heading: string;
  /** The greeting and what happened, one paragraph each. */
  intro: string[];
  /** The appointment: label and value. */
  rows: Row[];
  /** The reason's description ("what to bring"), under its label. */
  note?: { label: string; text: string };
  /** Whether the manage mark goes after the rows. */
  manage: boolean;
  /** Whether the practice's look goes on it (the brand mark): a customer's mail; the practice's notices stay plain. */
  brand?: boolean;
  /** A link in the manage line's place, as a sentence and a button (a cancellation's "Book a new appointment"). */
  action?: { sentence: string; words: string; url: string };
  /** Paragraphs after the manage line (the calendar file). */
  after: string[];
  /** The sign-off in small print: the practice's name, address and phone. */
  footer: string[];
}

/** Control characters but tab and line breaks (a text box's): none reaches a mail from what anyone typed (C0, DEL, C1). */
const MAIL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Returns `text` with every control character but tab, line feed and carriage return as U+FFFD. */
export function plain(text: string): string {
  return text.replace(MAIL_CONTROL, '\ufffd');
}

/** Escaped, control characters as U+FFFD. */
function html(text: string): string {
  return escapeHtml(plain(text));
}

/** Returns the plain-text part: the same content as the HTML, the rows aligned. */
export function textMail(content: MailContent): string {
  const width = Math.max(0, ...content.rows.map(([label]) => label.length)) + 1;
  // A blank line after each paragraph, as in a letter: the greeting stands apart from the first sentence.
  const lines = [
    content.heading,
    '',
    ...content.intro.flatMap((paragraph) => [paragraph, '']),
    // A value of several lines (a series' dates, a text area's answer) keeps its lines under the first one's start.
    ...content.rows.map(
      ([label, value]) => `${`${label}:`.padEnd(width)} ${value.split('\n').join(`\n${' '.repeat(width + 1)}`)}`,
    ),
    ...(content.rows.length > 0 ? [''] : []),
    ...(content.note ? [`${content.note.label}:`, content.note.text.trim(), ''] : []),
  ].map(plain);
  const tail = [...content.after, ...(content.footer.length > 0 ? ['', '-- ', ...content.footer] : [])].map(plain);
  const action = content.action
    ? [content.action.sentence, `${content.action.words}: ${content.action.url}`, ''].map(plain)
    : [];
  return [...lines, ...(content.manage ? [MANAGE_MARK] : []), ...action, ...tail].join('\n') + '\n';
}

const FONT = `font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;
const TEXT = '#1f2937';
const MUTED = '#4b5563';
const ACCENT = '#1d4ed8';
/** Long words (addresses, references) wrap instead of widening the mail. */
const WRAP = 'overflow-wrap:anywhere;word-break:break-word';

/** Returns one paragraph. */
function paragraph(text: string, style = ''): string {
  return `<p style="margin:0 0 12px;${WRAP};white-space:pre-line${style}">${html(text)}</p>`;
}

/** Returns the HTML of the manage line: the sentence and, when there is a link, the button (escaped here). */
export function manageHtml(
  sentence: string,
  button: { words: string; url: string } | undefined,
  accent: string = ACCENT,
): string {
  const link = button
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:4px 0 8px"><tr><td style="background:${accent};border-radius:6px">` +
      `<a href="${html(button.url)}" style="display:inline-block;padding:12px 22px;${FONT};font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;border-radius:6px">${html(button.words)}</a>` +
      `</td></tr></table>`
    : '';
  return `<div style="margin:8px 0 16px;padding:16px;background:#eff6ff;border-radius:6px">${paragraph(sentence, ';color:#1e3a8a')}${link}</div>`;
}

/** Returns the HTML part: a centred card (600 px at most) with the practice's name, the text, the rows and the button. */
export function htmlMail(content: MailContent): string {
  const rows = content.rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:0 0 10px"><div style="font-size:14px;line-height:20px;color:${MUTED}">${html(label)}</div>` +
        `<div style="font-size:16px;line-height:22px;color:${TEXT};font-weight:bold;${WRAP};white-space:pre-line">${html(value)}</div></td></tr>`,
    )
    .join('');
  const note = content.note
    ? `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #9ca3af;background:#f9fafb">` +
      `<div style="font-size:14px;line-height:20px;color:${MUTED};font-weight:bold">${html(content.note.label)}</div>` +
      `<div style="font-size:16px;line-height:22px;${WRAP};white-space:pre-line">${html(content.note.text.trim())}</div></div>`
    : '';
  const footer = content.footer.length
    ? `<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:14px;line-height:20px;color:${MUTED};${WRAP}">${content.footer.map(html).join('<br>')}</td></tr>`
    : '';
  return (
    `<!doctype html><html lang="${html(content.lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(content.title)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f3f4f6">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6"><tr><td align="center" style="padding:16px 8px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;${FONT};font-size:16px;line-height:24px;color:${TEXT};text-align:left">` +
    (content.brand ? BRAND_MARK : '') +
    `<tr><td style="padding:20px 24px;border-bottom:1px solid #e5e7eb;font-size:20px;line-height:28px;font-weight:bold;${WRAP}">${html(content.heading)}</td></tr>` +
    `<tr><td style="padding:20px 24px 8px">` +
    content.intro.map((line) => paragraph(line)).join('') +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 8px;table-layout:fixed">${rows}</table>` +
    note +
    (content.manage ? MANAGE_MARK : '') +
    (content.action
      ? manageHtml(
          plain(content.action.sentence),
          { words: plain(content.action.words), url: plain(content.action.url) },
          content.brand ? ACCENT_MARK : ACCENT,
        )
      : '') +
    content.after.map((line) => paragraph(line, `;font-size:14px;line-height:20px;color:${MUTED}`)).join('') +
    `</td></tr>` +
    footer +
    `</table></td></tr></table></body></html>`
  );
}

/** The practice's look in a mail, when it is sent: its colour (checked for white text on it), its logo as an inline part. */
export interface MailBrand {
  colour?: string;
  /** The logo's Content-ID (the mail's HTML shows `cid:<cid>`) and the size in pixels it declares, if readable. */
  logo?: { cid: string; width?: number; height?: number };
}

/** The logo's size in a mail: at most 72 px high, as on the pages, and as wide as the card's text (552 px). */
function logoBox(width: number | undefined, height: number | undefined): string {
  if (!width || !height) return 'height="72" style="display:block;border:0;height:72px;width:auto;max-width:100%"';
  const scale = Math.min(1, 72 / height, 552 / width);
  const [w, h] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  return `width="${w}" height="${h}" style="display:block;border:0;width:${w}px;height:${h}px;max-width:100%"`;
}

/**
 * Returns a mail's HTML with the practice's look where the builders marked it: a band of its colour on top and its
 * logo above the practice's name (an inline part, `cid:`; never an address to fetch), and its buttons in its colour;
 * planner's own look for what `brand` lacks. A mail with no mark (a notice, a mail kept from before) is unchanged.
 */
export function withBrand(htmlPart: string, brand: MailBrand = {}): string {
  const band = brand.colour
    ? `<tr><td style="padding:0;height:6px;font-size:6px;line-height:6px;background:${brand.colour};border-radius:8px 8px 0 0">&#160;</td></tr>`
    : '';
  const logo = brand.logo
    ? `<tr><td style="padding:20px 24px 0"><img src="cid:${html(brand.logo.cid)}" alt="" ${logoBox(brand.logo.width, brand.logo.height)}></td></tr>`
    : '';
  return htmlPart.replaceAll(BRAND_MARK, band + logo).replaceAll(ACCENT_MARK, brand.colour ?? ACCENT);
}

/**
 * Returns a message as its language writes it, taken from its HTML's `lang` (the builders write every mail's
 * language there): French no-break spaces in the subject, the text part and the HTML; in the HTML, each time kept
 * with its zone on one line. Applied when the mail is sent, after its manage line, so every word of it is typeset.
 */
export function typesetMail<T extends { subject: string; text: string; html: string }>(message: T): T {
  const lang = /^<!doctype html><html lang="([a-z]{2})"/.exec(message.html)?.[1];
  if (!lang) return message;
  return {
    ...message,
    subject: typeset(lang, message.subject),
    text: typeset(lang, message.text),
    html: typesetHtml(lang, message.html),
  };
}
