/**
 * Stored text as a person may see it, on a terminal (the CLI) or a page (the desk): text from customers (names,
 * notes, cancel reasons, form values) and from other servers, in which a control character could clear a screen,
 * move the cursor or reorder what is shown. The CLI's lines and the desk's values pass here (src/cli/terminal.ts says
 * which characters, and why).
 */

/** The characters a terminal must never get raw from stored text. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Returns the escape a person reads for the unsafe character `char`: `\n`, `\x1b`, `\u202e`. */
function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Returns `text` with every character a terminal would obey written visibly (`\x1b[2J`, `\n`, `\u202e`). */
export function visible(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}
