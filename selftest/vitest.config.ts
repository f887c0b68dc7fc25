/** The suite's own tests (not the conformance run): unit tests, end-to-end runs of the suite. Never writes reports/. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    reporters: ['default'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
