/**
 * Coverage of the spec by section for a run's reports (conformance.md, report.html): the statements of
 * the areas the run checked, not the whole matrix. A statement belongs to the run when one of its
 * requirements is of a checked area, and is judged by those requirements only; one without requirements
 * (not testable from outside, or pending) when its section has a statement that belongs. A run of every
 * area sees the whole matrix.
 */
import { requirements } from '../spec/requirements.ts';
import { AREAS } from '../areas.ts';
import { coverageBySection, totalCoverage, traceability, type SectionCoverage, type TraceStatement } from '../spec/traceability.ts';
import type { TestRecord } from './records.ts';

export function statementsOfAreas(areas: readonly string[], statements: readonly TraceStatement[] = traceability()): TraceStatement[] {
  if (AREAS.every((a) => areas.includes(a))) return [...statements];
  const registry = requirements();
  const checkedHere = (s: TraceStatement) => s.requirements.some((id) => areas.includes(registry.get(id)?.area ?? ''));
  const sections = new Set(statements.filter(checkedHere).map((s) => s.section));
  const own = (s: TraceStatement) => ({ ...s, requirements: s.requirements.filter((id) => areas.includes(registry.get(id)?.area ?? '')) });
  return statements.filter((s) => (s.requirements.length ? checkedHere(s) : sections.has(s.section))).map(own);
}

/**
 * The areas a run checked: those selected (all when none are named) that have tests in the run, so that
 * a run of one area's files (`npm test -- suites/insurance`) counts as a run of that area.
 */
export function checkedAreas(tests: readonly TestRecord[], selected: readonly string[] | undefined): string[] {
  const candidates = selected?.length ? selected : AREAS;
  const ran = candidates.filter((a) => tests.some((t) => t.area === a && t.code !== 'AREA_NOT_SELECTED'));
  return ran.length ? ran : [...candidates];
}

/** The section rows and their total for the tests of a run, over the statements of the areas it checked. */
export function runCoverage(
  tests: readonly TestRecord[],
  selected: readonly string[] | undefined,
): { areas: string[]; rows: SectionCoverage[]; total: SectionCoverage } {
  const areas = checkedAreas(tests, selected);
  const results = tests.filter((t) => t.requirement).map((t) => ({ requirement: t.requirement!, verdict: t.verdict }));
  const rows = coverageBySection(results, statementsOfAreas(areas));
  return { areas, rows, total: totalCoverage(rows) };
}
