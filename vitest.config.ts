import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Three test files at a time, also on two cores (vitest's default there is one): most tests wait on a CLI or
    // server subprocess, so the others fill that time. On the two-core CI machine (1,591 tests) two at a time took
    // 747 s and three 646 s, with both cores then 92 % busy; the time bounds hold under that load (CPU time or ratios).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'node_modules/.cache/vitest-results.json' }]],
  },
});
