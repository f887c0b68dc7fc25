/**
 * The console during a run, in the project's own terms: one line per test file as it ends, with its
 * tests counted as the closing line counts them (passed, failed, skipped; policy warnings apart), and
 * under it the title of each test that failed, ended in a tool error or warned. Each failure is printed
 * once, whole, by the summary at the end (summary-reporter.ts): vitest's own "Failed Tests" block (its
 * stack frames lead into the harness, where a failure is thrown, and read like a crash) and its own
 * counts (which count a warning as passed and a tool error as a failure of the target) are not printed.
 * Output of the tests themselves (measurements) passes through as vitest prints it.
 */
import { relative } from 'node:path';
import { DefaultReporter, type TestModule } from 'vitest/node';
import { codeOf } from './records.ts';
import { outcomeOf } from './test-outcome.ts';

const SYMBOL: Partial<Record<string, string>> = { failed: '✗', error: '✗', warning: '!' };
/** Titles listed under a file; a file whose hook failed would otherwise list every one of its tests. */
const TITLES_PER_FILE = 12;

/** "12 tests: 9 passed, 1 failed, 2 skipped, 1 warning": the closing line's counts, for one file. */
export function fileCounts(verdicts: ReadonlyArray<{ verdict: string }>): string {
  const n = (...v: string[]) => verdicts.filter((x) => v.includes(x.verdict)).length;
  const parts = [`${n('passed')} passed`, `${n('failed', 'error')} failed`, `${n('skipped', 'inconclusive')} skipped`];
  const warnings = n('warning');
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return `${verdicts.length} test${verdicts.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

export default class ConsoleReporter extends DefaultReporter {
  // vitest's live window of running tests would show its own counts beside ours: without it, a terminal shows what a CI log shows.
  constructor(options: ConstructorParameters<typeof DefaultReporter>[0] = {}) {
    super({ ...options, summary: false });
  }

  protected printTestModule(module: TestModule): void {
    const state = module.state();
    if (state === 'queued' || state === 'pending') return;
    const file = relative(this.ctx.config.root, module.moduleId);
    const loadErrors = module.errors();
    if (loadErrors.length) {
      const first = loadErrors[0]?.message?.split('\n')[0] ?? 'an error';
      this.log(` ✗ ${file} could not run: ${codeOf(first) ? first : `SUITE_ERROR: ${first}`}`);
      return;
    }
    const tests = [...module.children.allTests()].map((test) => ({ test, ...outcomeOf(test) }));
    const seconds = ((module.diagnostic().duration ?? 0) / 1000).toFixed(1);
    const broken = tests.some((t) => t.verdict === 'failed' || t.verdict === 'error');
    this.log(` ${broken ? '✗' : '✓'} ${file} (${fileCounts(tests)}) ${seconds} s`);
    const listed = tests.filter((t) => SYMBOL[t.verdict]);
    for (const { test, verdict, code } of listed.slice(0, TITLES_PER_FILE)) {
      this.log(
        `     ${SYMBOL[verdict]} ${verdict === 'error' ? `${code ?? 'SUITE_ERROR'} ` : verdict === 'warning' ? 'policy warning: ' : ''}${test.name}`,
      );
    }
    if (listed.length > TITLES_PER_FILE)
      this.log(`     … and ${listed.length - TITLES_PER_FILE} more (the summary below lists them by cause)`);
  }

  /** The summary reporter prints every failure once and the one set of counts. */
  reportSummary(): void {}
}
