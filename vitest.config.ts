/**
 * The conformance run. Ordinary suites run in parallel; rate-limit suites (*.ratelimit.test.ts) run
 * afterwards, one file at a time, so that their bursts never meet other traffic of the same service.
 * Reports go to CONFORMANCE_REPORT_DIR (default reports/).
 */
import { defineConfig } from 'vitest/config';
import { readBatchManifest } from './harness/runner/batch.ts';
import { availableParallelism } from 'node:os';
import { runSettings, variableOf } from './harness/runner/settings.ts';

// Conformance tests mostly wait on the network and on the shared pacer (which keeps every rate budget
// across workers), not on the CPU: more workers than cores shortens the run. CONFORMANCE_WORKERS overrides.
// Against the embedded sandbox (no target file), which declares high limits, they wait on the CPU: one
// worker per core and one more, so that each worker's preparation is not paid more often than helps; and
// no more than one per selected area and one more (each worker imports the harness and makes its area's
// controls once: a run of one area does in two workers what three would each prepare again).
const settings = runSettings();
const { batch } = settings;
const workers =
  variableOf('CONFORMANCE_WORKERS') === undefined && !settings.targetFile && !batch
    ? Math.min(settings.workers, availableParallelism() + 1, (settings.areas?.length ?? Number.POSITIVE_INFINITY) + 1)
    : settings.workers;
// A batch run (harness/runner/batch.ts) runs the wrapper files of its variants instead of suites/ itself.
const root = batch ? `${readBatchManifest(batch).dir}/` : 'suites/';

export default defineConfig({
  test: {
    // Without a target file the embedded sandbox is started first, and the harness loads its file as any other.
    globalSetup: ['sandbox/global-setup.ts', 'harness/runner/global-setup.ts'],
    // The console reporter prints a line per file (vitest's own failure block and counts are left out: the
    // summary prints each failure once); the summary reporter writes junit.xml, conformance.json,
    // conformance.md and the evidence (into CONFORMANCE_REPORT_DIR).
    // stop-on-signal ends an interrupted run in order (SIGINT, SIGTERM, SIGHUP, or the end of the process that
    // started it); the pacing reporter prints, before the summary, the requests the pacer gave slots for, the
    // time the pacing alone required and how close the run came to it.
    reporters: [
      './harness/runner/stop-on-signal.ts',
      './harness/report/console-reporter.ts',
      './harness/report/pacing-reporter.ts',
      './harness/report/summary-reporter.ts',
      './harness/report/progress-reporter.ts',
    ],
    maxWorkers: workers,
    // The harness is imported, and what it prepares (the business plan, compiled schemas) made, once per
    // worker, not once per file: what a module keeps for a target is kept per target (runner/run-scope.ts).
    isolate: false,
    // Workers are threads of the vitest process, not processes of their own: what a worker reports (each
    // test's exchanges and evidence, the shared pacer's requests and answers) goes to the main thread as
    // a message, not as JSON through a pipe, and a worker starts without a Node process of its own.
    // `npm test` took about a quarter less CPU than with forks (41 against 31 core-s on 2 cores).
    pool: 'threads',
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, gone with a reinstall), so that
    // every later run (a selftest, each batch of the fault run) does not transform the sources again.
    experimental: { fsModuleCache: true },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'conformance', include: [`${root}**/*.test.ts`], exclude: [`${root}**/*.ratelimit.test.ts`] },
      },
      {
        extends: true,
        test: {
          name: 'rate-limits',
          include: [`${root}**/*.ratelimit.test.ts`],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
