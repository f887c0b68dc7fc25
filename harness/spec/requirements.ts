/** The requirement registry: specs/requirements.yaml, loaded once, every entry checked for shape. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFast } from '../text/yaml-fast.ts';
import { parsedOnce } from '../text/parsed-once.ts';
import { printableLine } from '../text/printable.ts';
import { specContains, type SpecDocument } from './spec-document.ts';
import type { Area } from '../areas.ts';

/**
 * Where a requirement rests:
 *   spec          - stated by spec/partner-interfaces.md; `quote` holds the spec's own words
 *   vendor        - a published vendor convention (public facts); runs only with vendorConventions: true
 *   configuration - a choice the spec leaves open, read from the target file
 *   policy        - a reading of ours the spec does not state; runs by default, and a failure is a
 *                   warning that fails neither the run nor a certification unless `strictPolicy: true`
 */
export type RequirementSource = 'spec' | 'vendor' | 'configuration' | 'policy';
export const REQUIREMENT_SOURCES: readonly RequirementSource[] = ['spec', 'vendor', 'configuration', 'policy'];

export interface Requirement {
  id: string;
  area: Area;
  section: string;
  source: RequirementSource;
  text: string;
  /**
   * The exact words of the spec the requirement rests on: one passage, or a list when it rests on
   * several. Required for `source: spec`; any other source may quote the passage it reads.
   *
   * A quote is matched against spec/partner-interfaces.md after one normalisation of both sides,
   * and nothing else (`normaliseSpecText` in spec-document.ts): runs of whitespace are one space, and
   * markdown table pipes `|` and backticks are dropped, so a table row may be quoted as
   * "alg | string | `HS256`" or "alg string HS256". Case and every other character must match, so a
   * quote cannot drift from the contract without a selftest noticing (selftest/spec/).
   */
  quote?: string | string[];
  /** How we read the spec where it is ambiguous, written beside the requirement. */
  reading?: string;
  /** true when the requirement expects a valid request to be accepted (the degenerate-target gate uses it). */
  acceptance?: boolean;
  /**
   * The requirements whose subject this one's tests take as given: a create answered 201, a body that
   * validates, a refusal at all. A test that finds one of them broken does not fail for it: it ends
   * inconclusive (DEPENDENCY_FAILED) naming it, and the defect is counted once, as that requirement's.
   * Transitive: a dependency's own dependencies count too.
   */
  dependsOn?: string[];
}

export const REQUIREMENT_ID = /^(SPE|IDN|INV|INS|BUS|NDF)-[A-Z0-9]{2,10}-[0-9]{3}$/;
export const REQUIREMENTS_FILE = fileURLToPath(new URL('../../specs/requirements.yaml', import.meta.url));
const KNOWN_FIELDS = new Set(['id', 'area', 'section', 'source', 'text', 'quote', 'reading', 'acceptance', 'dependsOn']);

let cache: Map<string, Requirement> | undefined;

export function requirements(): Map<string, Requirement> {
  if (cache) return cache;
  const entries = parsedOnce(readFileSync(REQUIREMENTS_FILE, 'utf8'), parseYamlFast, 'yaml') as Requirement[];
  const map = new Map<string, Requirement>();
  for (const entry of entries) {
    const problem = requirementShapeProblem(entry);
    if (problem) throw new Error(`specs/requirements.yaml: ${problem}`);
    if (map.has(entry.id)) throw new Error(`specs/requirements.yaml: id ${entry.id} is listed twice`);
    map.set(entry.id, { ...entry, section: String(entry.section) });
  }
  const problem = dependencyProblems(map)[0];
  if (problem) throw new Error(`specs/requirements.yaml: ${problem}`);
  cache = map;
  return map;
}

/** Dependencies that name no requirement, the requirement itself, or close a circle. */
export function dependencyProblems(registry: ReadonlyMap<string, Requirement>): string[] {
  const problems: string[] = [];
  for (const req of registry.values()) {
    for (const dep of req.dependsOn ?? []) {
      if (dep === req.id) problems.push(`${req.id} depends on itself`);
      else if (!registry.has(dep)) problems.push(`${req.id} depends on unknown requirement ${dep}`);
    }
  }
  if (problems.length) return problems;
  for (const req of registry.values())
    if (dependenciesOf(req.id, registry).has(req.id))
      problems.push(`${req.id} depends on itself through ${[...(req.dependsOn ?? [])].join(', ')}`);
  return problems;
}

/** Every requirement `id` depends on, directly or through another. */
export function dependenciesOf(id: string, registry: ReadonlyMap<string, Requirement> = requirements()): Set<string> {
  const found = new Set<string>();
  const queue = [...(registry.get(id)?.dependsOn ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    if (found.has(next)) continue;
    found.add(next);
    queue.push(...(registry.get(next)?.dependsOn ?? []));
  }
  return found;
}

/** What is wrong with one entry's shape, or undefined. Whether quotes are in the spec is quoteProblems'. */
export function requirementShapeProblem(entry: Requirement): string | undefined {
  if (!REQUIREMENT_ID.test(entry.id)) return `id "${entry.id}" does not match ${REQUIREMENT_ID}`;
  if (!REQUIREMENT_SOURCES.includes(entry.source)) return `${entry.id} has source "${entry.source}"`;
  if (!entry.section || !entry.text || !entry.area) return `${entry.id} lacks section, text or area`;
  const unknown = Object.keys(entry).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length) return `${entry.id} has unknown field(s) ${unknown.join(', ')}`;
  if (entry.quote !== undefined && quotesOf(entry).some((q) => typeof q !== 'string' || !q.trim())) {
    return `${entry.id}: quote must be a non-empty string or a non-empty list of them`;
  }
  if (entry.quote !== undefined && quotesOf(entry).length === 0) return `${entry.id}: quote is an empty list`;
  if (entry.reading !== undefined && (typeof entry.reading !== 'string' || !entry.reading.trim()))
    return `${entry.id}: reading must be a non-empty string`;
  if (entry.acceptance !== undefined && typeof entry.acceptance !== 'boolean') return `${entry.id}: acceptance must be true or false`;
  if (entry.dependsOn !== undefined && (!Array.isArray(entry.dependsOn) || entry.dependsOn.some((d) => typeof d !== 'string')))
    return `${entry.id}: dependsOn must be a list of requirement ids`;
  return undefined;
}

export function quotesOf(req: Pick<Requirement, 'quote'>): string[] {
  if (req.quote === undefined) return [];
  return Array.isArray(req.quote) ? req.quote : [req.quote];
}

/** Every `source: spec` requirement without a quote, and every quote (any source) the spec does not contain. */
export function quoteProblems(registry: Map<string, Requirement>, spec: SpecDocument): string[] {
  const problems: string[] = [];
  for (const req of registry.values()) {
    const quotes = quotesOf(req);
    if (req.source === 'spec' && quotes.length === 0) problems.push(`${req.id} is source: spec but has no quote`);
    for (const q of quotes) if (!specContains(spec, q)) problems.push(`${req.id}: quote not found in the spec: "${q}"`);
  }
  return problems;
}

export function requirement(id: string): Requirement {
  const found = requirements().get(id);
  if (!found) throw new Error(`unknown requirement id ${id}: add it to specs/requirements.yaml`);
  return found;
}

/** The test title: "<id> §<section> <row or text>", on one line (a row may name what a target served). */
export function titleOf(id: string, row?: string): string {
  const req = requirement(id);
  return `${id} §${req.section} ${printableLine(row ?? req.text)}`;
}
