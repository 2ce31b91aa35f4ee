import { transform } from 'esbuild';
import { defineBuildConfig } from 'unbuild';
import { asciiOnly, requireChunks } from './scripts/ascii.ts';

/**
 * `npm run build` bundles the CLI (and the server, mail and prompts it loads) as CommonJS with every JavaScript
 * dependency inside: dist/planner.cjs, its shared chunk (dist/shared/) and one chunk for each `import()` (dist/chunks/:
 * the server, the mail transport, the calendar reader, the page, the feed, the prompts…), which Node loads at first
 * use, so that `planner serve` evaluates only what it needs (issue 29: anonymous memory). Only @node-rs/argon2 stays
 * outside: it is a native addon, which the single-executable build (`npm run build:bin`) packs next to the bundle.
 */
export default defineBuildConfig({
  entries: [{ input: 'src/cli/main', name: 'planner' }],
  outDir: 'dist',
  declaration: false,
  clean: true,
  failOnWarn: false,
  hooks: {
    // unbuild keeps package.json `dependencies` external; the executable wants them inside. node:sqlite and node:sea
    // are Node built-ins that rollup's list of built-ins does not know yet (it warned "could not be resolved").
    'build:before'(ctx) {
      ctx.options.externals = ['@node-rs/argon2', 'node:sqlite', 'node:sea'];
      ctx.options.dependencies = [];
    },
    // Rollup writes `import.meta.url` in CommonJS as `require('u' + 'rl')…`, a require pkg cannot follow (it warned
    // "Cannot resolve 'u' + 'rl'" five times); a plain `require('node:url')` says the same to everyone.
    'rollup:options'(_ctx, options) {
      const plugins = Array.isArray(options.plugins) ? options.plugins : [];
      options.plugins = [
        ...plugins,
        {
          name: 'import-meta-url',
          resolveImportMeta: (property) =>
            property === 'url' ? "require('node:url').pathToFileURL(__filename).href" : null,
        },
        // Each chunk as ASCII (V8 keeps a source with any other character as two bytes a character: 3.8 MiB of the
        // server's heap for the old single bundle; esbuild leaves regular expressions, asciiOnly escapes the rest)
        // and without whitespace (names kept, so stack traces still read). The CommonJS chunks load one another with
        // `require` (requireChunks: an `import()` kept a second copy of each source).
        {
          name: 'ascii',
          renderChunk: async (code, chunk, output) => {
            const small = (await transform(code, { charset: 'ascii', minifyWhitespace: true, minifySyntax: true }))
              .code;
            const ascii = asciiOnly(small, chunk.fileName);
            return { code: output.format === 'cjs' ? requireChunks(ascii) : ascii, map: null };
          },
        },
      ];
    },
    // The dependencies are inside the bundle on purpose: unbuild's check would call each "potentially unused".
    'rollup:done'(ctx) {
      ctx.options.dependencies = Object.keys(ctx.pkg.dependencies ?? {});
    },
  },
  rollup: {
    emitCJS: true,
    inlineDependencies: true,
    output: { inlineDynamicImports: false },
    esbuild: { target: 'node24' },
  },
});
