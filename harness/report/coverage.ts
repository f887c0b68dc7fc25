/**
 * Coverage by spec section for the reports (report.html, conformance.md): how many testable statements
 * of each section the suite checks, and how many of those passed in this run. The matrix and the
 * arithmetic belong to harness/traceability.ts (specs/traceability.yaml), written in parallel with this
 * file. Until it is on this branch, the reports show why coverage is missing: the module is loaded by
 * name at run time, so the reports pick it up the moment it lands, with no change here.
 */
import type { TestRecord } from './records.ts';

/** One row, as harness/traceability.ts computes it. */
export interface SectionCoverage {
  section: string;
  statements: number;
  checked: number;
  untestable: number;
  pending: number;
  passed: number;
}

interface TraceabilityModule {
  coverageBySection(results: ReadonlyArray<{ requirement: string; verdict: string }>): SectionCoverage[];
}

const TRACEABILITY_MODULE = new URL('../traceability.ts', import.meta.url).href;

/** Coverage rows, or why there are none (a sentence for the report). */
export async function sectionCoverage(tests: readonly TestRecord[]): Promise<SectionCoverage[] | string> {
  let module: TraceabilityModule;
  try {
    module = (await import(/* @vite-ignore */ TRACEABILITY_MODULE)) as TraceabilityModule;
  } catch {
    return 'coverage by section is not available: this suite has no traceability matrix (specs/traceability.yaml, harness/traceability.ts) yet';
  }
  try {
    const results = tests.filter((t) => t.requirement).map((t) => ({ requirement: t.requirement!, verdict: t.verdict }));
    return module.coverageBySection(results);
  } catch (error) {
    return `coverage by section could not be computed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** Coverage as markdown lines (a table), or the reason it is missing. */
export function coverageMarkdown(coverage: SectionCoverage[] | string): string[] {
  if (typeof coverage === 'string') return [`_${coverage}._`, ''];
  const lines = ['| section | statements | checked | passed | untestable | pending |', '|---|---|---|---|---|---|'];
  for (const r of coverage) lines.push(`| ${r.section} | ${r.statements} | ${r.checked} | ${r.passed} | ${r.untestable} | ${r.pending} |`);
  return [...lines, ''];
}
