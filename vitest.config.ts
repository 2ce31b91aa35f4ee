import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'node_modules/.cache/vitest-results.json' }]],
  },
});
