/**
 * The run's plan: how many requests each service and business group is paced for, and the time the
 * pacing alone requires (the floor: no key can serve its requests faster than one interval each).
 * The shared pacer counts every request it gives a slot (a cool-down is no request, a withdrawn slot
 * no longer one), so the plan counted at the end of a run is exact. Before the first request a run
 * cannot know how many its tests will send (that depends on what the target answers), so it prints the
 * counts of the last run in the same report folder at the same depth and areas (`pacing.json`), paced
 * by this run's limits; the end of the run prints what it counted and how close the run came to its
 * floor (its wall time over the floor).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Area } from '../areas.ts';
import { serviceLimit } from './http.ts';
import { floorOf, floorOfKey, partsOf, type KeyCount, type PaceCounts } from './pace-counts.ts';
import { intervalMs } from './pacer.ts';
import { businessRateGroupByKey, groupLimit } from './rate-groups.ts';
import { documentedRateLimits } from './rate-limits.ts';
import type { Target } from '../config/target.ts';

const seconds = (ms: number) => (ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`);
const rate = (count: KeyCount) => `${+(1000 / count.intervalMs).toPrecision(2)}/s`;

/** One line: per service its requests, pace and floor (per token where it is paced per token), then its groups'. */
export function describePlan(counts: PaceCounts): string {
  const services = new Map<string, { keys: KeyCount[]; groups: Array<[string, KeyCount]> }>();
  for (const [key, count] of Object.entries(counts)) {
    if (count.requests <= 0) continue;
    const { service, group } = partsOf(key);
    const entry = services.get(service) ?? { keys: [], groups: [] };
    if (group === undefined) entry.keys.push(count);
    else entry.groups.push([group, count]);
    services.set(service, entry);
  }
  const floorOfService = (keys: KeyCount[]) => Math.max(0, ...keys.map(floorOfKey));
  const byFloor = [...services].sort((a, b) => floorOfService(b[1].keys) - floorOfService(a[1].keys));
  const parts = byFloor.map(([service, { keys, groups }]) => {
    const requests = keys.reduce((sum, k) => sum + k.requests, 0);
    const busiest = keys.reduce((a, b) => (floorOfKey(b) > floorOfKey(a) ? b : a), keys[0] ?? { requests: 0, intervalMs: 0 });
    const pace =
      keys.length > 1 ? `over ${keys.length} tokens, the busiest ${busiest.requests} at ${rate(busiest)}` : `at ${rate(busiest)}`;
    const inGroups = groups
      .sort((a, b) => b[1].requests - a[1].requests)
      .map(([group, count]) => `${group} ${count.requests} at ${rate(count)}: ${seconds(floorOfKey(count))}`);
    return `${service} ${requests} requests ${pace}: ${seconds(floorOfKey(busiest))}${inGroups.length ? ` (${inGroups.join(', ')})` : ''}`;
  });
  const floor = floorOf(counts);
  const by = floor.key ? ` (${partsOf(floor.key).group ?? partsOf(floor.key).service})` : '';
  return `${parts.join('; ') || 'no paced request'}; the pacing alone needs ${seconds(floor.ms)}${by}`;
}

/** How close the run came to its floor. */
export function describeCloseness(counts: PaceCounts, wallMs: number): string {
  const floor = floorOf(counts);
  if (floor.ms < wallMs / 2) return `the run took ${seconds(wallMs)}: bound by its work, not by its pace`;
  return `the run took ${seconds(wallMs)}, ${(wallMs / floor.ms).toFixed(2)} × the pacing floor of ${seconds(floor.ms)}`;
}

/** `pacing.json` in the report folder: what a run counted, for the plan of the next one. */
interface Remembered {
  format: 'partner-conformance/pacing@1';
  target: string;
  countedAt: string;
  runs: number;
  areas: string[];
  paceShare: number;
  /** The tests of the run that counted (a run narrowed by --grep counts fewer requests). */
  tests: number;
  counts: PaceCounts;
  floorMs: number;
  wallMs: number;
}

const FILE = 'pacing.json';
const sameAreas = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export function rememberPlan(reportDir: string, run: Omit<Remembered, 'format' | 'floorMs'>): void {
  const remembered: Remembered = { format: 'partner-conformance/pacing@1', ...run, floorMs: floorOf(run.counts).ms };
  writeFileSync(join(reportDir, FILE), `${JSON.stringify(remembered, null, 2)}\n`);
}

/**
 * The plan of a run about to start: the requests of the last run in the report folder at the same
 * depth, areas and pace share, each service and group paced by this target's limits; undefined without one.
 */
export function rememberedPlan(
  reportDir: string,
  target: Target,
  runs: number,
  paceShare: number,
): { counts: PaceCounts; from: Pick<Remembered, 'target' | 'countedAt' | 'tests'> } | undefined {
  const path = join(reportDir, FILE);
  let remembered: Remembered;
  try {
    if (!existsSync(path)) return undefined;
    remembered = JSON.parse(readFileSync(path, 'utf8')) as Remembered;
  } catch {
    return undefined;
  }
  if (
    remembered?.format !== 'partner-conformance/pacing@1' ||
    remembered.runs !== runs ||
    remembered.paceShare !== paceShare ||
    !sameAreas(remembered.areas, target.areas)
  )
    return undefined;
  const requests = new Map<string, number>();
  for (const [key, count] of Object.entries(remembered.counts)) {
    const { service, group } = partsOf(key);
    const at = group === undefined ? service : `${service}:${group}`;
    requests.set(at, (requests.get(at) ?? 0) + count.requests);
  }
  const counts: PaceCounts = {};
  for (const [key, n] of requests) {
    const paced = pacedAt(target, key);
    if (paced === undefined) continue;
    if (paced.tokens === 1) counts[key] = { requests: n, intervalMs: paced.intervalMs };
    else
      for (let i = 0; i < paced.tokens; i++)
        counts[`${key}#${i}`] = { requests: Math.ceil((n - i) / paced.tokens), intervalMs: paced.intervalMs };
  }
  return { counts, from: { target: remembered.target, countedAt: remembered.countedAt, tests: remembered.tests } };
}

/**
 * The spacing this target paces a service's or group's requests at, and over how many tokens: a service
 * paced per token spreads its ordinary requests over its token and its pool (harness/insurance/tokens.ts).
 */
function pacedAt(target: Target, key: string): { intervalMs: number; tokens: number } | undefined {
  const fraction = target.settings.paceFraction;
  const { service, group } = partsOf(key);
  const area = service as Area;
  if (!target.areas.includes(area)) return undefined;
  if (group !== undefined) {
    const rateGroup = businessRateGroupByKey(key);
    return rateGroup && { intervalMs: intervalMs(groupLimit(target, rateGroup), fraction), tokens: 1 };
  }
  const documented = documentedRateLimits();
  const limit = serviceLimit(target, area, documented.services, documented.undocumentedDefault);
  const pool = (target.services[area] as { tokenPool?: unknown[] } | undefined)?.tokenPool;
  return { intervalMs: intervalMs(limit, fraction), tokens: limit.per === 'token' && Array.isArray(pool) ? 1 + pool.length : 1 };
}
