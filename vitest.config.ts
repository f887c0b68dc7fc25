/**
 * The conformance run. Ordinary suites run in parallel; rate-limit suites (*.ratelimit.test.ts) run
 * afterwards, one file at a time, so that their bursts never meet other traffic of the same service.
 * Reports go to CONFORMANCE_REPORT_DIR (default reports/).
 */
import { defineConfig } from 'vitest/config';
import { runSettings } from './harness/runner/settings.ts';

// Conformance tests mostly wait on the network and on the shared pacer (which keeps every rate budget
// across workers), not on the CPU: more workers than cores shortens the run. CONFORMANCE_WORKERS overrides.
const { workers } = runSettings();

export default defineConfig({
  test: {
    globalSetup: ['harness/runner/global-setup.ts'],
    // The console reporter prints a line per file (vitest's own failure block and counts are left out: the
    // summary prints each failure once); the summary reporter writes junit.xml, conformance.json,
    // conformance.md and the evidence (into CONFORMANCE_REPORT_DIR).
    reporters: ['./harness/report/console-reporter.ts', './harness/report/summary-reporter.ts', './harness/report/progress-reporter.ts'],
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'conformance', include: ['suites/**/*.test.ts'], exclude: ['suites/**/*.ratelimit.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'rate-limits',
          include: ['suites/**/*.ratelimit.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
