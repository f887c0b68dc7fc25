/**
 * `run --only-failed --from DIR` against a target file (harness/cli/only-failed.ts), without running the
 * suite: it takes DIR's target file, seed and runs; it refuses a target file whose services are not DIR's,
 * naming both; and it says so when DIR's file is not where DIR's summary says. The embedded sandbox's
 * side (its faults) runs for real in selftest/cli/cli.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOnlyFailed, rerunTargetCheck } from '../../harness/cli/only-failed.ts';
import { targetRecord } from '../../harness/report/target-identity.ts';
import { loadTarget } from '../../harness/config/target.ts';
import { failedRecord, summary } from '../certify/_records.ts';
import { ROOT, tempDir } from '../helpers.ts';

const targetFile = (dir: string, url: string) => {
  const file = join(dir, 'staging.yaml');
  writeFileSync(
    file,
    `name: partner-staging\nkind: staging\nservices:\n  insurance: { url: "${url}", token: "\${PC_ONLY_FAILED_TOKEN}" }\n`,
  );
  return file;
};

/** A report folder whose run checked `file` and failed one test. */
function failedRun(file: string): string {
  const target = loadTarget(file, { PC_ONLY_FAILED_TOKEN: 'token-of-the-night' });
  const dir = tempDir('pc-only-failed-');
  const run = { ...summary([failedRecord('INS-LIM-002', 'x')]), target: targetRecord(target, { file, root: ROOT }), seed: 77, runs: 100 };
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(run));
  return dir;
}

const NOTHING_GIVEN = { sandboxFaults: [], seed: false, depth: false };

describe('run --only-failed against a target file', () => {
  it("takes DIR's target file (found again from the suite's folder), seed and runs, and reruns just its failures", () => {
    const file = targetFile(tempDir('pc-staging-'), 'https://partners.staging.example');
    const plan = planOnlyFailed(failedRun(file), NOTHING_GIVEN);
    expect(plan.env).toEqual({ CONFORMANCE_TARGET: file, CONFORMANCE_SEED: '77', CONFORMANCE_RUNS: '100' });
    expect(plan.vitestArgs).toEqual(['suites/insurance/x.test.ts', '--testNamePattern', expect.stringContaining('INS-LIM-002')]);
    // The seed and depth the command line gives win.
    expect(planOnlyFailed(failedRun(file), { ...NOTHING_GIVEN, seed: true, depth: true }).env).toEqual({ CONFORMANCE_TARGET: file });
  });

  it('accepts the same target file given again, and refuses one whose services are elsewhere, naming both', () => {
    const dir = tempDir('pc-staging-');
    const file = targetFile(dir, 'https://partners.staging.example');
    const from = failedRun(file);
    const plan = planOnlyFailed(from, { ...NOTHING_GIVEN, targetFile: file });
    expect(plan.env.CONFORMANCE_TARGET).toBeUndefined();
    const env = { PC_ONLY_FAILED_TOKEN: 'another' };
    expect(rerunTargetCheck(plan, loadTarget(file, env))).toBeUndefined();
    const otherDir = join(dir, 'other');
    mkdirSync(otherDir);
    const other = loadTarget(targetFile(otherDir, 'https://partners.preprod.example'), env);
    const check = rerunTargetCheck(plan, other);
    expect(check).toHaveProperty('refuse');
    const message = (check as { refuse: string }).refuse;
    expect(message).toMatch(
      new RegExp(
        `^--only-failed: ${from} checked "partner-staging" \\(kind staging, services [0-9a-f]{16}, file [^)]+\\); this run's target is "partner-staging" \\(kind staging, services [0-9a-f]{16}, file [^)]+\\) \\(their services' URLs differ\\): a rerun of its failures goes to the target that failed them`,
      ),
    );
    expect(message).not.toContain('token');
  });

  it("says where DIR's target file should be when it is not there", () => {
    const dir = tempDir('pc-staging-');
    const from = failedRun(targetFile(dir, 'https://partners.staging.example'));
    const moved = tempDir('pc-only-failed-');
    const target = {
      name: 'partner-staging',
      kind: 'staging',
      vendorConventions: false,
      file: 'gone/staging.yaml',
      services: '0123456789abcdef',
    };
    writeFileSync(join(moved, 'conformance.json'), JSON.stringify({ ...summary([failedRecord('INS-LIM-002', 'x')]), target }));
    expect(() => planOnlyFailed(moved, NOTHING_GIVEN)).toThrow(
      `its file is not at ${join(ROOT, 'gone', 'staging.yaml')}: a rerun of its failures goes to the target that failed them; give it with --target (or CONFORMANCE_TARGET)`,
    );
    expect(planOnlyFailed(from, NOTHING_GIVEN).env.CONFORMANCE_TARGET).toBe(join(dir, 'staging.yaml'));
  });
});
