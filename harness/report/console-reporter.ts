/**
 * The console during a run, in the project's own terms: one line per test file as it ends, with its
 * tests counted as the closing line counts them (passed, failed, skipped; policy warnings and waived
 * failures apart; a test a name filter left out not at all), marked ✗ when one failed, ✓ when one passed
 * and none failed, ! when only policy warnings, and - when nothing passed, and under it the title of each
 * test that failed, ended in a tool error or warned. Each failure is printed once, whole, by the summary
 * at the end (summary-reporter.ts): vitest's own "Failed Tests" block (its stack frames lead into the
 * harness, where a failure is thrown, and read like a crash) and its own counts (which count a warning as
 * passed and a tool error as a failure of the target) are not printed. Output of the tests themselves
 * (measurements) passes through as vitest prints it, its control characters shown, never obeyed: it may
 * quote what a target sent.
 */
import { relative } from 'node:path';
import { DefaultReporter, type TestCase, type TestModule } from 'vitest/node';
import { printable, printableLine } from '../text/printable.ts';
import { requirements } from '../spec/requirements.ts';
import { getRunInfo } from '../runner/run-info.ts';
import { codeOf, type RecordVerdict, type WaiverRecord } from './records.ts';
import { isFilteredOut, outcomeOf } from './test-outcome.ts';
import { loadRunWaivers } from './waiver-file.ts';
import { isWaived } from './waivers.ts';

const SYMBOL: Partial<Record<string, string>> = { failed: '✗', error: '✗', warning: '!', waived: '~' };
/** Titles listed under a file; a file whose hook failed would otherwise list every one of its tests. */
const TITLES_PER_FILE = 12;

/** "12 tests: 9 passed, 1 failed, 2 skipped, 1 warning": the closing line's counts, for one file. */
export function fileCounts(verdicts: ReadonlyArray<{ verdict: string }>): string {
  const n = (...v: string[]) => verdicts.filter((x) => v.includes(x.verdict)).length;
  const parts = [`${n('passed')} passed`, `${n('failed', 'error')} failed`, `${n('skipped', 'inconclusive')} skipped`];
  const warnings = n('warning');
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  const waived = n('waived');
  if (waived) parts.push(`${waived} waived`);
  return `${verdicts.length} test${verdicts.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** The mark of a file's line: ✗ a failure or tool error, ✓ a pass and no failure, ! warnings only, - nothing passed. */
export function fileMark(verdicts: ReadonlyArray<{ verdict: string }>): string {
  const has = (v: string) => verdicts.some((x) => x.verdict === v);
  if (has('failed') || has('error')) return '✗';
  if (has('passed')) return '✓';
  return has('warning') ? '!' : '-';
}

export default class ConsoleReporter extends DefaultReporter {
  private waivers?: readonly WaiverRecord[];
  private readonly printed = new Set<string>();

  // vitest's live window of running tests would show its own counts beside ours: without it, a terminal shows what a CI log shows.
  constructor(options: ConstructorParameters<typeof DefaultReporter>[0] = {}) {
    super({ ...options, summary: false });
  }

  /** The run's waivers, as the summary applies them (a file the run cannot read waives nothing here; the summary says why). */
  private runWaivers(): readonly WaiverRecord[] {
    if (!this.waivers) {
      try {
        this.waivers = loadRunWaivers(getRunInfo()?.targetFile)?.waivers ?? [];
      } catch {
        this.waivers = [];
      }
    }
    return this.waivers;
  }

  /** A test's verdict as the closing line counts it: a failure a waiver in force accepts is waived. */
  private verdictOf(test: TestCase): { verdict: RecordVerdict; code?: string } {
    const outcome = outcomeOf(test);
    const requirement = test.meta().requirement;
    if (outcome.verdict !== 'failed' || !requirement || !this.runWaivers().length) return outcome;
    const record = { requirement, title: test.name, section: requirements().get(requirement)?.section, verdict: outcome.verdict };
    return isWaived(record, this.runWaivers()) ? { verdict: 'waived' } : outcome;
  }

  protected printTestModule(module: TestModule): void {
    const state = module.state();
    if (state === 'queued' || state === 'pending') return;
    this.printModuleLine(module);
  }

  /** A run cut short (--bail, an interruption) never ends some of its files: their lines come last, so that the file lines add up to the closing line. */
  onTestRunEnd(...args: Parameters<DefaultReporter['onTestRunEnd']>): void {
    for (const module of args[0]) if (!this.printed.has(module.moduleId)) this.printModuleLine(module);
    super.onTestRunEnd(...args);
  }

  private printModuleLine(module: TestModule): void {
    this.printed.add(module.moduleId);
    const file = printableLine(relative(this.ctx.config.root, module.moduleId));
    const loadErrors = module.errors();
    if (loadErrors.length) {
      const first = printableLine(loadErrors[0]?.message?.split('\n')[0] ?? 'an error');
      this.log(` ✗ ${file} could not run: ${codeOf(first) ? first : `SUITE_ERROR: ${first}`}`);
      return;
    }
    const tests = [...module.children.allTests()].filter((test) => !isFilteredOut(test)).map((test) => ({ test, ...this.verdictOf(test) }));
    // A file a name filter left nothing of ran nothing: it is no line of the run.
    if (!tests.length) return;
    const seconds = ((module.diagnostic().duration ?? 0) / 1000).toFixed(1);
    this.log(` ${fileMark(tests)} ${file} (${fileCounts(tests)}) ${seconds} s`);
    const listed = tests.filter((t) => SYMBOL[t.verdict]);
    for (const { test, verdict, code } of listed.slice(0, TITLES_PER_FILE)) {
      const label =
        verdict === 'error'
          ? `${code ?? 'SUITE_ERROR'} `
          : verdict === 'warning'
            ? 'policy warning: '
            : verdict === 'waived'
              ? 'waived: '
              : '';
      this.log(`     ${SYMBOL[verdict]} ${label}${printableLine(test.name)}`);
    }
    if (listed.length > TITLES_PER_FILE)
      this.log(`     … and ${listed.length - TITLES_PER_FILE} more (the summary below lists them by cause)`);
  }

  /** What a test printed may quote a target's answer: shown, never obeyed. */
  onUserConsoleLog(...[log, taskState]: Parameters<DefaultReporter['onUserConsoleLog']>): void {
    super.onUserConsoleLog({ ...log, content: printable(log.content) }, taskState);
  }

  /** The summary reporter prints every failure once and the one set of counts. */
  reportSummary(): void {}
}
