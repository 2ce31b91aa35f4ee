import { defineBuildConfig } from 'unbuild';

// `npm run build` bundles the CLI (and the server it starts) into dist/ for the single executable.
export default defineBuildConfig({
  entries: ['src/cli/main'],
  outDir: 'dist',
  declaration: false,
  clean: true,
  rollup: { emitCJS: false, esbuild: { target: 'node24' } },
});
