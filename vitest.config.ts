import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two test files at a time, also on two cores (vitest's default there is one): most tests wait on a CLI or
    // server subprocess, so the second file fills that time. The whole suite took 19 minutes one at a time, 7 this way.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'node_modules/.cache/vitest-results.json' }]],
  },
});
