/**
 * How every HTML page of the customer doors is answered (the self-service page today): the same security headers on
 * every answer, also the 404, the 429 and the redirect after a form (Post/Redirect/Get).
 */
import { STATUS_CODES } from 'node:http';
import { brandStyle, type Page, STYLE_HASH } from '../portal/kit.ts';

/** The headers of every page answer: no cache, no referrer, no script, no frame; the one style sheet by its hash. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The headers of the booking page's answers: the same, but for the origins the admin let show it in a
 * frame (`--embed-from`): `frame-ancestors` names them and `X-Frame-Options` (which cannot) is left out; and the
 * practice's colour, when it set one, as a second style sheet.
 */
export function pageHeaders(embedFrom: readonly string[], colour?: string | null): Record<string, string> {
  // The practice's colour is a second style sheet: its hash beside the first.
  const styles = colour ? `style-src ${STYLE_HASH} ${brandStyle(colour).hash}` : `style-src ${STYLE_HASH}`;
  const policy = PAGE_HEADERS['content-security-policy']!.replace(`style-src ${STYLE_HASH}`, styles);
  if (embedFrom.length === 0) return { ...PAGE_HEADERS, 'content-security-policy': policy };
  const { 'x-frame-options': _, ...rest } = PAGE_HEADERS;
  return {
    ...rest,
    'content-security-policy': policy.replace("frame-ancestors 'none'", `frame-ancestors ${embedFrom.join(' ')}`),
  };
}

/** Returns the answer of `page` with its status; `x-planner-page` lets `planner doctor` tell planner's own 404 from a proxy's. */
export function pageAnswer(
  page: Page,
  headers: Record<string, string> = {},
  base: Readonly<Record<string, string>> = PAGE_HEADERS,
): Response {
  return new Response(page.html, {
    status: page.status,
    statusText: STATUS_CODES[page.status],
    headers: {
      ...withColour(base, page.colour),
      'x-planner-page': page.status === 404 ? 'not-found' : 'page',
      ...headers,
    },
  });
}

/** `base` whose style sources also allow the style sheet of the practice's colour a page is drawn in. */
function withColour(
  base: Readonly<Record<string, string>>,
  colour: string | undefined,
): Readonly<Record<string, string>> {
  const policy = base['content-security-policy'];
  if (!colour || !policy) return base;
  const { hash } = brandStyle(colour);
  if (policy.includes(hash)) return base; // the booking page's headers name it already (pageHeaders)
  return {
    ...base,
    'content-security-policy': policy.replace(`style-src ${STYLE_HASH}`, `style-src ${STYLE_HASH} ${hash}`),
  };
}

/** Returns a 303 to `location`, the answer to a form that changed something. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, statusText: STATUS_CODES[303], headers: { ...PAGE_HEADERS, location } });
}
