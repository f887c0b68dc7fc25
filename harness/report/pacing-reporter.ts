/**
 * The vitest reporter that closes a run with where its time went: the requests the shared pacer gave
 * slots for, per service and business group, the time the pacing alone required, and the run's wall
 * time over it (harness/request/pace-plan.ts); then the test that came closest to its time budget (time held at
 * the pacer not counted: harness/test/test-budget.ts), which says how much busier the machine could be
 * before a test runs out of time. Remembers the counts in the report folder (`pacing.json`) for the
 * plan the next run prints before its first request. Prints nothing in a batch run, whose variants
 * share one pacer.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { describeCloseness, describePlan, rememberPlan } from '../request/pace-plan.ts';
import { getRunInfo } from '../runner/run-info.ts';

interface Closest {
  title: string;
  usedMs: number;
  heldMs: number;
  allowanceMs: number;
}

/** The test that used the largest share of its budget. */
function closestToBudget(modules: ReadonlyArray<TestModule>): Closest | undefined {
  let closest: Closest | undefined;
  for (const module of modules)
    for (const test of module.children.allTests()) {
      const budget = test.meta().budget;
      if (budget && (!closest || budget.usedMs / budget.allowanceMs > closest.usedMs / closest.allowanceMs))
        closest = { title: test.name.length > 120 ? `${test.name.slice(0, 119)}…` : test.name, ...budget };
    }
  return closest;
}

const secondsOf = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class PacingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const info = getRunInfo();
    if (!info?.paceCounts) return;
    const counts = info.paceCounts();
    const wallMs = Date.now() - performance.timeOrigin;
    console.log(`\npacing: ${describePlan(counts)}; ${describeCloseness(counts, wallMs)}`);
    const closest = closestToBudget(modules);
    if (closest)
      console.log(
        `time budgets: the test closest to its budget used ${Math.round((100 * closest.usedMs) / closest.allowanceMs)} % of it (${closest.title}: ${secondsOf(closest.usedMs)} of ${secondsOf(closest.allowanceMs)}, besides ${secondsOf(closest.heldMs)} held at the pacer)`,
      );
    const tests = modules.reduce((n, m) => n + [...m.children.allTests()].length, 0);
    try {
      rememberPlan(info.reportDir, {
        target: info.targetName,
        countedAt: new Date().toISOString(),
        runs: info.runs,
        areas: info.areas,
        paceShare: info.paceShare,
        tests,
        counts,
        wallMs,
      });
    } catch {
      // The summary reporter says when the report folder cannot be written; the plan is only a help for the next run.
    }
  }
}
