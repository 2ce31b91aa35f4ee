/** Text in HTML, one rule for the mails (src/mail/layout.ts) and the pages (src/portal/). Pure. */

/** Returns text with the five HTML-special characters escaped, so nothing a customer typed can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
