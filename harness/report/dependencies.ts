/**
 * Dependencies between requirements, settled over a whole run. A test that found a requirement it takes
 * as given broken (specs/requirements.yaml `dependsOn`) ended inconclusive, DEPENDENCY_FAILED, naming it
 * (harness/test/suite.ts). That holds when the requirement it names failed in the run: the defect is then
 * counted as that requirement's (a root cause of its own where its own tests failed on something else,
 * records.ts `rootCausesOf`). When it did not fail (its own tests passed, or did not run: a `--grep`,
 * another shard), nothing else reports the defect this test saw, so the test is counted failed, with
 * what it saw. A merge of shards settles again over all of them, so a test reverted in its shard
 * turns inconclusive again where another shard shows the failure.
 */
import type { RecordVerdict, TestRecord } from './records.ts';

/** Verdicts that show a requirement broken in the run: a policy warning and a waived failure are failures too. */
const BROKEN: readonly RecordVerdict[] = ['failed', 'warning', 'waived'];

const DEPENDENCY_FAILED = 'DEPENDENCY_FAILED';

/** The records with every dependent test settled against the run's failures. */
export function settleDependencies(tests: readonly TestRecord[]): TestRecord[] {
  const broken = new Set(tests.filter((t) => !t.dependsOn && BROKEN.includes(t.verdict)).map((t) => t.requirement));
  return tests.map((t) => {
    if (!t.dependsOn || (t.verdict !== 'inconclusive' && t.verdict !== 'failed')) return t;
    const why = t.dependencyReason ?? t.skipReason ?? '';
    if (broken.has(t.dependsOn)) {
      const { message: _message, ...rest } = t;
      return { ...rest, verdict: 'inconclusive', code: DEPENDENCY_FAILED, skipReason: why, dependencyReason: why };
    }
    const { code: _code, skipReason: _skip, ...rest } = t;
    return {
      ...rest,
      verdict: 'failed',
      dependencyReason: why,
      message: `${t.title}\n  ✗ ${t.dependsOn}, which this test takes as given, failed here and nowhere else in this run, so the failure is counted here:\n    ${why.replace(/^DEPENDENCY_FAILED: /, '')}`,
    };
  });
}
