/** The suite's own tests (not the conformance run): unit tests, end-to-end runs of the suite. Never writes reports/. */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { TEST_HANG_MS } from './helpers.ts';

/**
 * The files that take longest start first, those that mostly wait (on deadlines of targets that never
 * answer or drip) before all, so that their waits overlap with the CPU-bound files. vitest orders by the
 * durations it remembers, but a fresh clone remembers none and orders by file size: there the robustness
 * files started last and their minute of waiting ended the run alone.
 */
const FIRST = [
  'ci/nightly.test.ts',
  'robustness/e2e.test.ts',
  'robustness/run-wide.test.ts',
  'robustness/out-of-time.test.ts',
  'e2e/secrets.test.ts',
  'certify/certify.test.ts',
  'cli/cli.test.ts',
  'e2e/runs.test.ts',
  'cli/refusals.test.ts',
  'business/sandbox-document.test.ts',
  'certify/browser.test.ts',
  'speech/suite-runs.test.ts',
  'speech/third-party.test.ts',
  'robustness/pacing.test.ts',
  'business/openapi-parse-fast.test.ts',
  'invest/non-uuid-ids.test.ts',
  'identity/suite-runs.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = FIRST.findIndex((name) => file.moduleId.replaceAll('\\', '/').endsWith(`/selftest/${name}`));
      return at === -1 ? FIRST.length : at;
    };
    // Array sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    reporters: ['default'],
    // No test is held to a time of its own: a bound that only catches a hang (selftest/helpers.ts), since
    // on a busy machine every test takes several times as long.
    testTimeout: TEST_HANG_MS,
    hookTimeout: TEST_HANG_MS,
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
    sequence: { sequencer: LongestFirst },
  },
});
