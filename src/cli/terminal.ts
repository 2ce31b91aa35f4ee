/**
 * What the CLI writes to a terminal: stored text comes from customers (names, notes, cancel
 * reasons, form values) and from other servers (SMTP and webhook errors), and a control character in it could clear
 * the admin's screen, colour it, or move the cursor to overwrite a line. Every line the CLI prints passes here, so
 * no command can forget it.
 *
 * Shown visibly instead: every C0 control (ESC, BEL, NUL, backspace, and CR, LF and tab inside a value, so each
 * value stays on its own line), DEL, every C1 control (U+009B is a CSI some terminals obey), the line and paragraph
 * separators and the text-direction controls (which reorder what is shown). A backslash stays as it is: the view is
 * for a person reading; `--json` gives every value exactly.
 */

import { visible } from '../domain/visible.ts';

export { visible };

/** Those JSON.stringify leaves raw inside strings (it escapes C0 itself; C0 outside strings is the JSON's own layout). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Returns `value` as JSON (indented) whose text holds no character a terminal would obey: JSON.stringify escapes
 * U+0000–U+001F already; DEL, C1, U+2028/U+2029 and the direction controls are written `\uXXXX` too. The JSON parses
 * to exactly the same values.
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    UNSAFE_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
