/**
 * Returns `code` with every character beyond ASCII written as a `\u` escape (issue 49). V8 keeps a script's source in
 * memory for as long as the process runs, and one character beyond Latin-1 makes it a string of two bytes a
 * character: esbuild's `charset: 'ascii'` leaves regular expressions as they are, and the server's chunk stayed two
 * bytes a character for a U+FFFC in a dependency's one; pkg's bootstrap, for a dash in a comment. An escape means the
 * same in a string, a template, a regular expression (a pair of surrogates is one code point under the `u` flag, two
 * units without it, as the character was), an identifier and a comment; only String.raw would see the escape
 * itself, so a String.raw that holds such a character stops the build.
 */
export function asciiOnly(code: string, file: string): string {
  if (/String\.raw`[^`]*[^\x00-\x7f]/.test(code)) throw new Error(`${file}: String.raw holds a non-ASCII character`);
  return code.replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Returns a CommonJS chunk with its `import("./chunk.cjs")` (and the addon's) as `require` calls, in a promise as
 * before (issue 49). Node loads a file that `import()` names through its ES module loader, which keeps the
 * file's source for itself beside the one the compiled script holds: the server's chunk was in memory twice. Every
 * chunk is CommonJS, and none of these imports reads `default`, which alone would differ.
 */
export function requireChunks(code: string): string {
  return code.replace(
    /\bimport\(("(?:\.\.?\/[\w./-]+\.cjs|@node-rs\/argon2)")\)/g,
    'Promise.resolve().then(()=>require($1))',
  );
}
