/**
 * Selecting is cheaper: when a run checks only some areas (--areas, CONFORMANCE_AREAS, or a target file
 * that names fewer services) or greps for requirement ids, vitest is handed only the suite folders of
 * those areas, so that the files of the other areas are neither imported nor collected only to be
 * skipped, and the run is told the areas it checks (its header, its coverage, the sandbox it starts).
 * Nothing is narrowed when the command line already names files; vitest's own options (`--bail 1`) keep
 * the selection.
 */
import { AREAS, type Area } from '../areas.ts';

/** The area of each requirement-id prefix (specs/requirements.yaml). */
const AREA_OF_PREFIX: Record<string, Area> = {
  SPE: 'speech',
  IDN: 'identity',
  INV: 'invest',
  INS: 'insurance',
  BUS: 'business',
  NDF: 'business',
};

/**
 * The areas a --grep pattern can match, when every alternative of it starts with a requirement-id
 * prefix (INS-LIM-002, ^INS-RAT, INS-LIM|INV-REQ-001); undefined when it could match any title.
 */
export function areasOfGrep(pattern: string): Area[] | undefined {
  const alternatives = pattern.replace(/^\(\?:|^\(|\)$/g, '').split('|');
  const areas = new Set<Area>();
  for (const alternative of alternatives) {
    const prefix = /^\^?([A-Z]{3})-/.exec(alternative.trim())?.[1];
    const area = prefix ? AREA_OF_PREFIX[prefix] : undefined;
    if (!area) return undefined;
    areas.add(area);
  }
  return [...areas];
}

/** The areas a run that checks `areas` and greps `grep` runs tests of, in the order of AREAS. */
export function areasToRun(areas: readonly Area[], grep: string | undefined): Area[] {
  const grepped = grep === undefined ? undefined : areasOfGrep(grep);
  const checked = AREAS.filter((a) => areas.includes(a));
  const grepMatched = checked.filter((a) => !grepped || grepped.includes(a));
  // A grep of ids of no checked area keeps the checked areas (it will match nothing there, and say so);
  // no area at all is left to the run, whose every test says why it was not checked.
  return grepMatched.length ? grepMatched : checked;
}

/**
 * The vitest file filters of a run that checks `areas` (of all five) and greps `grep`: one folder per
 * area, or none when everything would run anyway.
 */
export function suiteFilters(areas: readonly Area[], grep: string | undefined): string[] {
  const chosen = areasToRun(areas, grep);
  if (chosen.length === AREAS.length || !chosen.length) return [];
  return chosen.map((a) => `suites/${a}/`);
}

const AREA_FOLDER = new RegExp(`(?:^|/)suites/(${AREAS.join('|')})(?:/|$)`);

/** The areas of file filters that each name an area's suite folder (`suites/insurance/…`); undefined when one does not. */
export function areasOfFiles(filters: readonly string[]): Area[] | undefined {
  const areas = filters.map((f) => AREA_FOLDER.exec(f.replace(/\\/g, '/'))?.[1] as Area | undefined);
  return areas.length && areas.every(Boolean) ? AREAS.filter((a) => areas.includes(a)) : undefined;
}
