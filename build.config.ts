import { defineBuildConfig } from 'unbuild';

/**
 * `npm run build` bundles the CLI (and the server, mail and prompts it loads) into one CommonJS file,
 * dist/planner.cjs, with every JavaScript dependency inside. Only @node-rs/argon2 stays outside: it is a native
 * addon, which the single-executable build (`npm run build:bin`) packs next to the bundle.
 */
export default defineBuildConfig({
  entries: [{ input: 'src/cli/main', name: 'planner' }],
  outDir: 'dist',
  declaration: false,
  clean: true,
  failOnWarn: false,
  hooks: {
    // unbuild keeps package.json `dependencies` external; the executable wants them inside.
    'build:before'(ctx) {
      ctx.options.externals = ['@node-rs/argon2'];
      ctx.options.dependencies = [];
    },
  },
  rollup: {
    emitCJS: true,
    inlineDependencies: true,
    output: { inlineDynamicImports: true },
    esbuild: { target: 'node24' },
  },
});
