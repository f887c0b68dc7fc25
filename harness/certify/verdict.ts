/**
 * Whether a run certifies its target, and why, from the run's records alone (a pure function).
 *
 * The scope is the mission: the areas the target file selects (all five for the embedded sandbox).
 * Blocking requirements are `source: spec` and `source: configuration` (what the target file itself
 * declares about the target); `policy` and `vendor` ones block only when the target file asks
 * (`strictPolicy: true`; vendor ones then also need `vendorConventions: true` to run at all).
 *
 * Certifiable when all of these hold:
 *   - no blocking requirement failed (a failure a waiver in force accepted counts as waived, not failed);
 *   - every blocking requirement was checked: at least one of its tests passed or was waived (rows that
 *     could not be checked here are listed with their reasons, and do not count as passed);
 *   - no tool error anywhere in the run, and no unhandled error;
 *   - every area of the mission ran: at least one of its tests reached a verdict;
 *   - the spec the run was checked against could be found and hashed.
 */
import type { Requirement, RequirementSource } from '../spec/requirements.ts';
import type { RecordVerdict, RunSummary, TestRecord } from '../report/records.ts';
import type { Area } from '../areas.ts';

/** A requirement's outcome over its tests in this run, worst first. */
export type RequirementVerdict = 'error' | 'failed' | 'not checked' | 'warning' | 'waived' | 'passed' | 'out of scope';

export interface RequirementOutcome {
  id: string;
  area: Area;
  section: string;
  source: RequirementSource;
  text: string;
  verdict: RequirementVerdict;
  blocking: boolean;
  /** The requirement's tests by their verdict. */
  tests: Partial<Record<RecordVerdict, number>>;
}

export interface AreaOutcome {
  area: Area;
  inScope: boolean;
  tests: number;
  /** Tests that reached a verdict (passed, failed, waived, warning). */
  checked: number;
}

export interface CertificationVerdict {
  certifiable: boolean;
  /** Why not, one line each; empty when certifiable. */
  reasons: string[];
  /** What the verdict rests on, one line each. */
  basis: string[];
  areas: AreaOutcome[];
  requirements: RequirementOutcome[];
}

export interface VerdictInput {
  summary: RunSummary;
  registry: ReadonlyMap<string, Requirement>;
  /** The areas of the mission (the target file's areas). */
  areas: readonly Area[];
  allAreas: readonly Area[];
  /** Why the spec could not be hashed, when it could not. */
  specMissing?: string;
}

const CHECKED: readonly RecordVerdict[] = ['passed', 'failed', 'waived', 'warning'];

export function isBlocking(source: RequirementSource, strictPolicy: boolean, vendorConventions: boolean): boolean {
  if (source === 'spec' || source === 'configuration') return true;
  if (source === 'policy') return strictPolicy;
  return strictPolicy && vendorConventions;
}

function outcomeOf(tests: readonly TestRecord[]): RequirementVerdict {
  const has = (v: RecordVerdict) => tests.some((t) => t.verdict === v);
  if (has('error')) return 'error';
  if (has('failed')) return 'failed';
  if (!tests.some((t) => t.verdict === 'passed' || t.verdict === 'waived' || t.verdict === 'warning')) return 'not checked';
  if (has('warning')) return 'warning';
  if (has('waived')) return 'waived';
  return 'passed';
}

const byCode = (tests: readonly TestRecord[]) => {
  const counts = new Map<string, number>();
  for (const t of tests) counts.set(t.code ?? t.verdict, (counts.get(t.code ?? t.verdict) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
};

export function certificationVerdict(input: VerdictInput): CertificationVerdict {
  const { summary, registry } = input;
  const strict = summary.target?.strictPolicy === true;
  const vendor = summary.target?.vendorConventions === true;
  const scope = new Set<Area>(input.areas);
  const testsOf = new Map<string, TestRecord[]>();
  for (const t of summary.tests) if (t.requirement) testsOf.set(t.requirement, [...(testsOf.get(t.requirement) ?? []), t]);

  const requirements: RequirementOutcome[] = [...registry.values()].map((req) => {
    const tests = testsOf.get(req.id) ?? [];
    const counts: RequirementOutcome['tests'] = {};
    for (const t of tests) counts[t.verdict] = (counts[t.verdict] ?? 0) + 1;
    const inScope = scope.has(req.area);
    return {
      id: req.id,
      area: req.area,
      section: req.section,
      source: req.source,
      text: req.text,
      verdict: inScope ? outcomeOf(tests) : 'out of scope',
      blocking: inScope && isBlocking(req.source, strict, vendor),
      tests: counts,
    };
  });

  const areas: AreaOutcome[] = input.allAreas.map((area) => {
    const tests = summary.tests.filter((t) => t.area === area);
    return { area, inScope: scope.has(area), tests: tests.length, checked: tests.filter((t) => CHECKED.includes(t.verdict)).length };
  });

  const reasons: string[] = [];
  if (summary.status !== 'ran') reasons.push(`the run did not start: ${summary.error?.message ?? 'unknown error'}`);
  const blocking = requirements.filter((r) => r.blocking);
  const failed = blocking.filter((r) => r.verdict === 'failed');
  // Defects first: each root cause once, with the tests it touched, then the requirements they failed.
  const blockingIds = new Set(blocking.map((r) => r.id));
  const defects = summary.rootCauses.filter((g) => !g.requirement || blockingIds.has(g.requirement));
  if (defects.length)
    reasons.push(`${defects.length} defect(s): ${defects.map((g) => `${g.about} (${g.tests.length} test(s))`).join('; ')}`);
  if (failed.length) {
    const expired = new Set(summary.tests.filter((t) => t.verdict === 'failed' && t.waiverExpired).map((t) => t.requirement));
    const list = failed.map((r) => `${r.id} [${r.source}]${expired.has(r.id) ? ' (its waiver expired)' : ''}`);
    reasons.push(`${failed.length} blocking requirement(s) failed: ${list.join(', ')}`);
  }
  const c = summary.counts;
  if (c.toolErrors > 0) {
    reasons.push(
      `${c.toolErrors} tool error(s) (${Object.entries(summary.toolErrorsByCode)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ')}): the suite could not reach a verdict there`,
    );
  }
  if (summary.unhandledErrors.length) reasons.push(`${summary.unhandledErrors.length} unhandled error(s) during the run`);
  for (const a of areas.filter((x) => x.inScope && x.checked === 0)) {
    const tests = summary.tests.filter((t) => t.area === a.area);
    reasons.push(
      a.tests === 0
        ? `area ${a.area} was not run: the run has no test of it`
        : `area ${a.area} was not run: none of its ${a.tests} tests reached a verdict (${byCode(tests)})`,
    );
  }
  const unchecked = blocking.filter((r) => r.verdict === 'not checked');
  if (unchecked.length) {
    const list = unchecked.map((r) => `${r.id} (${byCode(testsOf.get(r.id) ?? []) || 'no test in this run'})`);
    reasons.push(`${unchecked.length} blocking requirement(s) were not checked: ${list.join(', ')}`);
  }
  if (input.specMissing)
    reasons.push(`the spec could not be hashed, so the pack cannot name what it certifies against: ${input.specMissing}`);

  const basis: string[] = [];
  const bySource = (list: readonly RequirementOutcome[]) =>
    ['spec', 'configuration', 'policy', 'vendor']
      .map((s) => [s, list.filter((r) => r.source === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
  basis.push(
    `mission: ${[...scope].join(', ')}; blocking requirements: ${blocking.length} (${bySource(blocking)})${strict ? '; strictPolicy: policy and vendor requirements block too' : '; policy and vendor requirements are reported, not blocking'}`,
  );
  const passed = blocking.filter((r) => r.verdict === 'passed').length;
  const waived = blocking.filter((r) => r.verdict === 'waived').length;
  basis.push(
    `${passed} blocking requirement(s) passed, ${waived} passed only with a waiver, ${failed.length} failed, ${unchecked.length} not checked`,
  );
  const partial = summary.tests.filter(
    (t) => (t.verdict === 'skipped' || t.verdict === 'inconclusive') && t.requirement && scope.has(t.area as Area),
  );
  if (partial.length)
    basis.push(
      `${partial.length} test(s) of the mission could not be checked here (${byCode(partial)}); they are listed with their reasons and count as nothing`,
    );
  if (c.waived)
    basis.push(`${c.waived} failure(s) waived by ${summary.waivers?.file ?? 'the waiver file'}; a waived failure is not a pass`);
  if (c.warnings) basis.push(`${c.warnings} policy warning(s), not blocking`);

  return { certifiable: reasons.length === 0, reasons, basis, areas, requirements };
}
