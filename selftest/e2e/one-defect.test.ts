/**
 * One defect reads as one defect. Three defects that once fanned out, each switched on in the embedded
 * sandbox and run over its area's whole suite as a user runs it: the surrender answered 200 instead of 201
 * (26 failed tests over 13 blocking requirements once), a business 2xx whose body breaks the served schema
 * (it failed every acceptance row of payments and limits), a served document that is not YAML (139 failed
 * blocking requirements). Each is now one root cause named in words, at most two failed blocking
 * requirements, all of them among those the fault names, and every other test it touched inconclusive,
 * DEPENDENCY_FAILED, naming the requirement that failed.
 */
import { describe, expect, it } from 'vitest';
import { isBlocking } from '../../harness/certify/verdict.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { loadServices } from '../../sandbox/services/index.ts';
import { QUICK_RUN, runSuite } from '../helpers.ts';

const CASES = [
  { fault: 'ins-status-200', area: 'insurance' },
  { fault: 'bus-run-transfer-off-schema', area: 'business' },
  { fault: 'bus-doc-yaml-syntax-error', area: 'business' },
] as const;

describe('one defect, one root cause, over the whole area', async () => {
  const catalog = (await loadServices()).flatMap((service) => service.faults);
  const registry = requirements();

  it.each(CASES)('$fault: one root cause and at most two failed blocking requirements, those the fault names', async ({ fault, area }) => {
    const named = catalog.find((f) => f.id === fault)?.catches;
    expect(named, `${fault} is in the sandbox's catalog`).toBeDefined();
    const run = await runSuite({ env: { ...QUICK_RUN, CONFORMANCE_SANDBOX_FAULTS: fault }, files: [`suites/${area}`] });
    const summary = run.summary!;
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    const failed = new Set(summary.tests.filter((t) => t.verdict === 'failed').map((t) => t.requirement ?? t.title));
    const blockingFailed = [...failed].filter((id) => {
      const source = registry.get(id)?.source;
      return source !== undefined && isBlocking(source, false, true);
    });
    expect(summary.rootCauses.map((g) => g.about)).toHaveLength(1);
    expect(summary.counts.defects).toBe(1);
    expect(blockingFailed.length, blockingFailed.join(', ')).toBeLessThanOrEqual(2);
    for (const id of blockingFailed) expect(named, `${id} failed: the fault must name it`).toContain(id);
    for (const id of named!) expect(failed, `${id}, which ${fault} names, failed`).toContain(id);
    // Every test the defect touched besides its own is inconclusive, naming the requirement that failed.
    for (const t of summary.tests.filter((x) => x.code === 'DEPENDENCY_FAILED'))
      expect(failed.has(t.dependsOn ?? ''), `${t.title} names a requirement that failed (${t.dependsOn})`).toBe(true);
    console.log(
      `[one defect] ${fault}: ${summary.rootCauses.length} root cause ("${summary.rootCauses[0]?.about}"), failed: ${[...failed].join(', ')}; ${summary.tests.filter((x) => x.code === 'DEPENDENCY_FAILED').length} test(s) DEPENDENCY_FAILED`,
    );
  });
});
