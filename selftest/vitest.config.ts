/** The suite's own tests (not the conformance run): unit tests, end-to-end runs of the suite. Never writes reports/. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    reporters: ['default'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most of the time goes to the end-to-end files, which wait on the suite runs they start (child
    // processes, timers of misbehaving targets), not on their own worker: three workers keep two cores busy
    // where vitest's default (cores - 1) would run every file one after the other.
    maxWorkers: 3,
    // The harness, the sandbox and the spec are imported once per worker instead of once per test file (half
    // the CPU of the unit tests): what those modules keep is content read once or state kept per target or
    // per instance (harness/runner/run-scope.ts), so test files do not see each other's state.
    isolate: false,
    // Threads, as the conformance run's workers (vitest.config.ts): less CPU per worker and per message.
    pool: 'threads',
  },
});
