/**
 * The traceability matrix, specs/traceability.yaml: every testable statement of sections 2 to 9 of the
 * spec, with the requirements that check it, or why it cannot be checked from outside, or who will add
 * its check. `traceabilityProblems` is what the selftest enforces; `coverageBySection` turns a run's
 * results into the coverage a certification report shows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFast } from '../text/yaml-fast.ts';
import { parsedOnce } from '../text/parsed-once.ts';
import { quotesOf, type Requirement } from './requirements.ts';
import { normaliseSpecText, specContains, type SpecDocument } from './spec-document.ts';

export interface TraceStatement {
  /** S<section>-<nn>, stable. */
  id: string;
  section: string;
  /** The statement's words, verbatim (matched like requirement quotes). */
  words: string;
  /** Requirement ids that check the statement; empty when untestable or pending. */
  requirements: string[];
  /** Why the statement cannot be checked from outside. */
  untestable?: string;
  /** No requirement yet: who adds it and what would check it. */
  pending?: string;
  /** What the listed requirements do not cover yet. */
  note?: string;
}

export type StatementStatus = 'checked' | 'untestable' | 'pending';

export const TRACEABILITY_FILE = fileURLToPath(new URL('../../specs/traceability.yaml', import.meta.url));
export const STATEMENT_ID = /^S([2-9](?:\.[0-9])?)-([0-9]{2})$/;
const FIELDS = new Set(['id', 'section', 'words', 'requirements', 'untestable', 'pending', 'note']);

let cache: TraceStatement[] | undefined;

/** The matrix as written; its problems are traceabilityProblems'. */
export function traceability(file = TRACEABILITY_FILE): TraceStatement[] {
  if (file === TRACEABILITY_FILE && cache) return cache;
  const raw = parsedOnce(readFileSync(file, 'utf8'), parseYamlFast, 'yaml') as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a top-level sequence of statements`);
  const statements = raw.map((entry: Record<string, unknown>) => ({
    ...entry,
    section: String(entry?.section ?? ''),
    requirements: entry?.requirements ?? [],
  })) as TraceStatement[];
  if (file === TRACEABILITY_FILE) cache = statements;
  return statements;
}

export function statusOf(statement: TraceStatement): StatementStatus {
  if (statement.untestable) return 'untestable';
  return statement.requirements.length ? 'checked' : 'pending';
}

/**
 * Everything the selftest refuses: a malformed or repeated id, words not in the spec, an unknown
 * requirement id, and a statement without exactly one of requirements, untestable or pending.
 */
export function traceabilityProblems(statements: TraceStatement[], registry: Map<string, Requirement>, spec: SpecDocument): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const s of statements) {
    const at = s.id ?? '(no id)';
    const id = STATEMENT_ID.exec(String(s.id));
    if (!id) problems.push(`${at}: the id does not match ${STATEMENT_ID}`);
    else if (id[1] !== s.section) problems.push(`${at}: the id names section ${id[1]} but section is "${s.section}"`);
    if (seen.has(at)) problems.push(`${at} is listed twice`);
    seen.add(at);
    const unknownFields = Object.keys(s).filter((key) => !FIELDS.has(key));
    if (unknownFields.length) problems.push(`${at}: unknown field(s) ${unknownFields.join(', ')}`);
    if (typeof s.words !== 'string' || !s.words.trim()) problems.push(`${at}: words must be a non-empty string`);
    else if (!specContains(spec, s.words)) problems.push(`${at}: words not found in the spec: "${s.words}"`);
    if (!Array.isArray(s.requirements) || s.requirements.some((r) => typeof r !== 'string')) {
      problems.push(`${at}: requirements must be a list of requirement ids`);
      continue;
    }
    for (const r of s.requirements) if (!registry.has(r)) problems.push(`${at}: unknown requirement ${r}`);
    if (new Set(s.requirements).size !== s.requirements.length) problems.push(`${at}: a requirement is listed twice`);
    for (const key of ['untestable', 'pending', 'note'] as const) {
      if (s[key] !== undefined && (typeof s[key] !== 'string' || !s[key].trim())) problems.push(`${at}: ${key} must be a non-empty string`);
    }
    const kinds = [s.requirements.length > 0, Boolean(s.untestable), Boolean(s.pending)].filter(Boolean).length;
    if (kinds === 0) problems.push(`${at}: no requirements, no untestable reason and not pending`);
    if (kinds > 1) problems.push(`${at}: give exactly one of requirements, untestable or pending`);
  }
  return problems;
}

/**
 * Whether a requirement's quote reads a statement: the quote holds the statement's words, or the
 * statement holds the quote (a requirement may rest on part of a table row). Compared as the spec is.
 */
export function quoteReads(quote: string, words: string): boolean {
  const [q, w] = [normaliseSpecText(quote), normaliseSpecText(words)];
  return q !== '' && w !== '' && (q.includes(w) || w.includes(q));
}

/** Where the matrix begins in the spec: section 1 only says what each service does, and has no statements of its own. */
const MATRIX_START = '## 2. ';

/**
 * The matrix shows every reading of a statement: a requirement that quotes the spec is in the row of
 * each statement one of its quotes reads, and each of its quotes reads some statement (a quote of
 * section 1, before the matrix begins, reads none). A statement is thus never shown checked by fewer
 * requirements than read it, and a requirement's words are never missing from the matrix.
 */
export function readingProblems(statements: readonly TraceStatement[], registry: Map<string, Requirement>, spec: SpecDocument): string[] {
  const text = normaliseSpecText(spec.text);
  const start = text.indexOf(normaliseSpecText(MATRIX_START));
  const problems: string[] = [];
  for (const req of registry.values()) {
    for (const quote of quotesOf(req)) {
      const read = statements.filter((s) => typeof s.words === 'string' && quoteReads(quote, s.words));
      for (const s of read)
        if (!s.requirements.includes(req.id)) problems.push(`${s.id}: ${req.id} quotes its words ("${quote}") but is not in its row`);
      const at = text.indexOf(normaliseSpecText(quote));
      if (!read.length && at >= start) problems.push(`${req.id}: its quote "${quote}" reads no statement of the matrix`);
    }
  }
  return problems;
}

/** One test's outcome as the reports carry it (conformance.json `tests[]`). */
export interface RequirementResult {
  requirement: string;
  verdict: string;
}

export interface SectionCoverage {
  section: string;
  statements: number;
  /** Statements with requirements. */
  checked: number;
  untestable: number;
  /** Statements whose requirement is still to be written. */
  pending: number;
  /** Checked statements every requirement of which ran and passed (each of its tests ended `passed`). */
  passed: number;
}

/** Coverage by section, in the matrix's order, from a run's results. */
export function coverageBySection(
  results: readonly RequirementResult[],
  statements: readonly TraceStatement[] = traceability(),
): SectionCoverage[] {
  const verdicts = new Map<string, string[]>();
  for (const r of results) verdicts.set(r.requirement, [...(verdicts.get(r.requirement) ?? []), r.verdict]);
  const passedRequirement = (id: string) => {
    const seen = verdicts.get(id);
    return seen !== undefined && seen.length > 0 && seen.every((v) => v === 'passed');
  };
  const rows = new Map<string, SectionCoverage>();
  for (const s of statements) {
    const row = rows.get(s.section) ?? { section: s.section, statements: 0, checked: 0, untestable: 0, pending: 0, passed: 0 };
    rows.set(s.section, row);
    row.statements++;
    const status = statusOf(s);
    row[status]++;
    if (status === 'checked' && s.requirements.every(passedRequirement)) row.passed++;
  }
  return [...rows.values()];
}

/** The sum of the section rows, labelled "all". */
export function totalCoverage(rows: readonly SectionCoverage[]): SectionCoverage {
  const total: SectionCoverage = { section: 'all', statements: 0, checked: 0, untestable: 0, pending: 0, passed: 0 };
  for (const row of rows) {
    total.statements += row.statements;
    total.checked += row.checked;
    total.untestable += row.untestable;
    total.pending += row.pending;
    total.passed += row.passed;
  }
  return total;
}
