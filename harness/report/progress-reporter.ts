/**
 * Progress a person can follow during a long run: every few seconds one line with the tests done of the
 * tests collected so far, the area of the last finished test, and the failures and tool errors so far.
 * Quiet in CI (the CI variable set) unless CONFORMANCE_PROGRESS=1 (`run --progress`); CONFORMANCE_PROGRESS=0
 * silences it anywhere.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { progressWanted } from '../runner/settings.ts';

const AREA_OF_PREFIX: Record<string, string> = { SPE: 'speech', IDN: 'identity', INV: 'invest', INS: 'insurance', BUS: 'business', NDF: 'business (3-NDFL)' };
export const PROGRESS_INTERVAL_MS = 5_000;

export { progressWanted };

export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private failed = 0;
  private toolErrors = 0;
  private area = '';
  private started = Date.now();
  private timer?: NodeJS.Timeout;
  private readonly on = progressWanted();

  onTestRunStart() {
    if (!this.on) return;
    this.started = Date.now();
    this.timer = setInterval(() => this.print(), PROGRESS_INTERVAL_MS);
    this.timer.unref();
  }

  onTestModuleCollected(module: TestModule) {
    this.total += [...module.children.allTests()].length;
  }

  onTestCaseResult(test: TestCase) {
    this.done++;
    const meta = test.meta();
    const id = meta.requirement ?? test.name.split(' ')[0];
    this.area = AREA_OF_PREFIX[id.slice(0, 3)] ?? this.area;
    if (test.result().state === 'failed') {
      if (meta.verdict === 'error') this.toolErrors++;
      else this.failed++;
    }
  }

  onTestRunEnd() {
    if (this.timer) clearInterval(this.timer);
  }

  private print() {
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const share = this.total ? ` (${Math.floor((this.done / this.total) * 100)}%)` : '';
    console.log(`progress: ${this.done}/${this.total} tests${share} · ${this.area || 'starting'} · ${this.failed} failed, ${this.toolErrors} tool errors · ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);
  }
}
