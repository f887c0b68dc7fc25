/** The requirement registry: specs/requirements.yaml, loaded once, every entry checked for shape. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Area } from './target.ts';

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
  /** The exact words of the spec the requirement rests on (required for `source: spec`). */
  quote?: string | string[];
  /** How we read the spec where it is ambiguous, written beside the requirement. */
  reading?: string;
  /** true when the requirement expects a valid request to be accepted (the degenerate-target gate uses it). */
  acceptance?: boolean;
}

export const REQUIREMENT_ID = /^(SPE|IDN|INV|INS|BUS|NDF)-[A-Z0-9]{2,10}-[0-9]{3}$/;
export const REQUIREMENTS_FILE = fileURLToPath(new URL('../specs/requirements.yaml', import.meta.url));

let cache: Map<string, Requirement> | undefined;

export function requirements(): Map<string, Requirement> {
  if (cache) return cache;
  const entries = parse(readFileSync(REQUIREMENTS_FILE, 'utf8')) as Requirement[];
  const map = new Map<string, Requirement>();
  for (const entry of entries) {
    if (!REQUIREMENT_ID.test(entry.id)) throw new Error(`specs/requirements.yaml: id "${entry.id}" does not match ${REQUIREMENT_ID}`);
    if (map.has(entry.id)) throw new Error(`specs/requirements.yaml: id ${entry.id} is listed twice`);
    if (!REQUIREMENT_SOURCES.includes(entry.source)) throw new Error(`specs/requirements.yaml: ${entry.id} has source "${entry.source}"`);
    if (!entry.section || !entry.text || !entry.area) throw new Error(`specs/requirements.yaml: ${entry.id} lacks section, text or area`);
    map.set(entry.id, { ...entry, section: String(entry.section) });
  }
  cache = map;
  return map;
}

export function requirement(id: string): Requirement {
  const found = requirements().get(id);
  if (!found) throw new Error(`unknown requirement id ${id}: add it to specs/requirements.yaml`);
  return found;
}

/** The test title: "<id> §<section> <row or text>". */
export function titleOf(id: string, row?: string): string {
  const req = requirement(id);
  return `${id} §${req.section} ${row ?? req.text}`;
}
