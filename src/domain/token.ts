/** The API token's shape (spec §5). Pure: making, hashing and checking one against the store is in app/practice/token.ts. */

/** spec §5: a fixed 4-character prefix ending in `_`, then 64 characters. */
export const TOKEN_PREFIX = 'pln_';
export const TOKEN_BODY_LENGTH = 64;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_BODY_LENGTH;

/** Returns true when `text` has the token's shape; a cheap check before any hashing. */
export function looksLikeToken(text: string): boolean {
  return (
    text.length === TOKEN_LENGTH &&
    text.startsWith(TOKEN_PREFIX) &&
    /^[A-Za-z0-9]+$/.test(text.slice(TOKEN_PREFIX.length))
  );
}
