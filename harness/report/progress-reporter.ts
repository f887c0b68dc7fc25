/**
 * Progress a person can follow during a long run: every few seconds one line with the tests done, the
 * area of the last finished test, and the failures and tool errors so far. vitest collects a file's
 * tests only when a worker starts it, so the total is given once every file is collected; until then
 * the line says how many files are collected and how many tests they hold.
 * Quiet in CI (the CI variable set) unless CONFORMANCE_PROGRESS=1 (`run --progress`); CONFORMANCE_PROGRESS=0
 * silences it anywhere.
 */
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { progressWanted } from '../runner/settings.ts';
import { isFilteredOut, outcomeOf } from './test-outcome.ts';

const AREA_OF_PREFIX: Record<string, string> = {
  SPE: 'speech',
  IDN: 'identity',
  INV: 'invest',
  INS: 'insurance',
  BUS: 'business',
  NDF: 'business (3-NDFL)',
};
export const PROGRESS_INTERVAL_MS = 5_000;

export { progressWanted };

export default class ProgressReporter implements Reporter {
  private files = 0;
  private collectedFiles = 0;
  private total = 0;
  private done = 0;
  private failed = 0;
  private toolErrors = 0;
  private area = '';
  private started = Date.now();
  private timer?: NodeJS.Timeout;
  private readonly on = progressWanted();

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    this.files = specifications.length;
    if (!this.on) return;
    this.started = Date.now();
    this.timer = setInterval(() => this.print(), PROGRESS_INTERVAL_MS);
    this.timer.unref();
  }

  onTestModuleCollected(module: TestModule) {
    this.collectedFiles++;
    // A test a name filter left out is marked so when it is collected: it will not run, and is not counted.
    this.total += [...module.children.allTests()].filter((test) => test.options?.mode !== 'skip').length;
  }

  onTestCaseResult(test: TestCase) {
    if (isFilteredOut(test)) return;
    this.done++;
    const id = test.meta().requirement ?? test.name.split(' ')[0];
    this.area = AREA_OF_PREFIX[id.slice(0, 3)] ?? this.area;
    const { verdict } = outcomeOf(test);
    if (verdict === 'error') this.toolErrors++;
    if (verdict === 'failed') this.failed++;
  }

  /** "40/1759 tests (2%)" once every file is collected; before, the tests done and what is collected so far. */
  line(): string {
    if (this.collectedFiles < this.files)
      return `${this.done} tests done; collecting: ${this.collectedFiles} of ${this.files} files, ${this.total} tests so far`;
    return `${this.done}/${this.total} tests${this.total ? ` (${Math.floor((this.done / this.total) * 100)}%)` : ''}`;
  }

  onTestRunEnd() {
    if (this.timer) clearInterval(this.timer);
  }

  private print() {
    const seconds = Math.round((Date.now() - this.started) / 1000);
    console.log(
      `progress: ${this.line()} · ${this.area || 'starting'} · ${this.failed} failed, ${this.toolErrors} tool errors · ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
    );
  }
}
